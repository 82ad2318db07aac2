import type { SubtitleCue } from '@vw/contract/calls/projects.ts';
import { Alert } from 'antd';
import { d } from '../dubbing/strings.ts';
import { chosenTake, lineFlag, spokenText } from './dub.ts';

/*
 * What a dubbed line really says, under its subtitle (issue 30): the shortened spoken text whenever it
 * differs from the subtitle (marked, flagged when too much was dropped), and a failed automatic check.
 * The actions (保留原文 / 接受) are in the dubbing panel for the selected line.
 */

/** The fit chip's words for a flagged line (instead of 时长合适). */
export const flagText: Record<string, string> = {
  mismatch: '校验未通过',
  cut: '删减过多',
  shortened: '已精简',
};

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
            {take.accepted ? '朗读（已接受）' : '实际朗读'}
            {take.fit.kept !== undefined ? ` · 保留 ${percent(take.fit.kept)}` : ''}
          </span>
          {spoken}
        </div>
      )}
      {flag === 'mismatch' && take.check && (
        <div className="vw-ed-spoken-text is-mismatch" data-testid="cue-check-failed">
          <span className="vw-ed-spoken-label">自动校验未通过（失败码 5，本句积分已退还）</span>
          识别为「{take.check.heard || '（没有听到文字）'}」，相似度 {percent(take.check.similarity)}，已重试{' '}
          {take.check.retries} 次。请修改文字或换一个声音后重新生成。
        </div>
      )}
    </div>
  );
}
