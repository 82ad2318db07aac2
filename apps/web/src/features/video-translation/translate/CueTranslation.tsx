import { SoundOutlined, TranslationOutlined } from '@ant-design/icons';
import type { SubtitleCue } from '@vw/contract/calls/projects.ts';
import { Tooltip } from 'antd';
import { zhCN } from '@/locales/zh-CN.ts';
import { useLiveText } from '../editor/useLiveText.ts';

const vt = zhCN.videoTranslate;

/** The per-line translation actions a translation project's rows offer (stable between renders). */
export interface LineTools {
  retranslate(cueId: string): void;
  redub(cueId: string): void;
  /** Back-translates one line again (after its translation was fixed). */
  backTranslate(cueId: string): void;
  /** A task of the project is running (the buttons wait). */
  busy: boolean;
  /** The project dubs its translation (重新配音 is offered). */
  dub: boolean;
}

/** 原文 of a target line: edited in place when the line translates exactly one source line. */
export function SourceCell({
  text,
  editable,
  onCommit,
  undoTyping,
}: {
  text: string;
  editable: boolean;
  /** Called as the user types (`typing` names this focus of the box: one undo step). */
  onCommit: (text: string, typing: string) => void;
  undoTyping?: (typing: string) => boolean;
}) {
  const live = useLiveText(
    text,
    (value, typing) => {
      if (editable) onCommit(value, typing);
    },
    undoTyping,
  );
  return (
    <textarea
      className="vw-ed-text vw-ed-source"
      aria-label={vt.colSource}
      title={editable ? undefined : vt.sourceLocked}
      readOnly={!editable}
      rows={Math.min(4, Math.max(1, live.draft.split('\n').length))}
      spellCheck={false}
      {...live.props}
    />
  );
}

/** 回译 of a target line with its drift flag (score and how it was measured). */
export function BackCell({ cue, tools }: { cue: SubtitleCue; tools?: LineTools }) {
  const drift = cue.drift;
  return (
    <div className="vw-ed-back" data-testid="cue-back" data-flagged={drift?.flagged ?? false}>
      {cue.back_text ? (
        <span className="vw-ed-back-text">{cue.back_text}</span>
      ) : (
        <span className="vw-ed-muted">{vt.noBack}</span>
      )}
      {!cue.back_text && tools && cue.text.trim() !== '' && (
        <button
          type="button"
          className="vw-ed-back-run"
          disabled={tools.busy}
          onClick={() => tools.backTranslate(cue.id)}
          data-testid="cue-back-run"
        >
          {vt.backTranslateLine}
        </button>
      )}
      {drift && cue.back_text && (
        <Tooltip title={`${vt.drift(drift.score)}（${vt.driftMethods[drift.method] ?? drift.method}）`}>
          <span
            className={`vw-ed-drift${drift.flagged ? ' is-flagged' : ''}`}
            data-testid="cue-drift"
            data-flagged={drift.flagged}
          >
            {drift.flagged ? `${vt.driftFlag} ` : ''}
            {Math.round(drift.score * 100)}%
          </span>
        </Tooltip>
      )}
    </div>
  );
}

/** 重新翻译 / 重新配音 buttons of one row. */
export function LineButtons({ cueId, tools }: { cueId: string; tools: LineTools }) {
  return (
    <>
      <Tooltip title={vt.retranslate}>
        <button
          type="button"
          className="vw-ed-icon"
          aria-label={vt.retranslate}
          disabled={tools.busy}
          onClick={() => tools.retranslate(cueId)}
          data-testid="cue-retranslate"
        >
          <TranslationOutlined />
        </button>
      </Tooltip>
      {tools.dub && (
        <Tooltip title={vt.redub}>
          <button
            type="button"
            className="vw-ed-icon"
            aria-label={vt.redub}
            disabled={tools.busy}
            onClick={() => tools.redub(cueId)}
            data-testid="cue-redub"
          >
            <SoundOutlined />
          </button>
        </Tooltip>
      )}
    </>
  );
}
