import type { SubtitleCue } from '@vw/contract/calls/projects.ts';
import { Alert, Tooltip } from 'antd';
import { zhCN } from '@/locales/zh-CN.ts';
import { chosenTake, fitText, lineFlag, spokenText } from './dub.ts';

/*
 * What a dubbed line really says, under its subtitle (issue 30): the shortened spoken text whenever it
 * differs from the subtitle (marked, flagged when too much was dropped), and a failed automatic check.
 * The actions (保留原文 / 接受) are in the dubbing panel for the selected line.
 */

const d = zhCN.dubbing;

/** A dubbed row's chip: its mark, 未配音, its flag or its fit; then whether it is stale or locked. */
export function DubChip({ cue, status, stale }: { cue: SubtitleCue; status: string; stale: boolean }) {
  return (
    <Tooltip title={cue.fit?.summary ?? ''}>
      <span
        className={`vw-ed-fit is-${status}`}
        data-testid="cue-fit"
        data-status={status}
        data-stale={stale}
      >
        {d.chip[status] ?? d.flags[status] ?? fitText(cue.fit)}
        {stale && status !== 'none' ? d.chipStale : ''}
        {cue.locked ? ' · 🔒' : ''}
      </span>
    </Tooltip>
  );
}

export const percent = (share: number) => `${Math.round(share * 100)}%`;

/** The flagged lines named (第 n 句) and why: the automatic check failed (refunded), or shortened too far. */
export function FlaggedLines({ cues }: { cues: SubtitleCue[] }) {
  const flagged = (kind: 'mismatch' | 'cut') => cues.flatMap((c, i) => (lineFlag(c) === kind ? [i + 1] : []));
  const mismatched = flagged('mismatch');
  const cut = flagged('cut');
  return (
    <>
      {mismatched.length > 0 && (
        <Alert
          type="warning"
          showIcon
          message={d.checkFailed(d.lineList(mismatched))}
          data-testid="dub-check-failed"
        />
      )}
      {cut.length > 0 && (
        <Alert type="warning" showIcon message={d.cutLines(d.lineList(cut))} data-testid="dub-cut-lines" />
      )}
    </>
  );
}

export function SpokenNote({ cue }: { cue: SubtitleCue }) {
  const take = chosenTake(cue);
  const spoken = spokenText(cue);
  const flag = lineFlag(cue);
  if (!take || (!spoken && flag !== 'mismatch')) return null;
  return (
    <div className="vw-ed-spoken">
      {spoken !== null && (
        <div
          className={`vw-ed-spoken-text is-${flag ?? 'accepted'}`}
          data-testid="cue-spoken"
          data-flag={flag ?? ''}
        >
          <span className="vw-ed-spoken-label">
            {take.accepted ? d.spokenAccepted : d.spokenLabel}
            {take.fit.kept !== undefined ? ` · ${d.spokenShare(percent(take.fit.kept))}` : ''}
          </span>
          {spoken}
        </div>
      )}
      {flag === 'mismatch' && take.check && (
        <div className="vw-ed-spoken-text is-mismatch" data-testid="cue-check-failed">
          <span className="vw-ed-spoken-label">{d.lineCheckFailed}</span>
          {d.lineHeard(take.check.heard, percent(take.check.similarity), take.check.retries)}
        </div>
      )}
    </div>
  );
}
