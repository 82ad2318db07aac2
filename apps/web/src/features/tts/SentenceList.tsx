import { RedoOutlined } from '@ant-design/icons';
import type { TtsSentence } from '@vw/contract';
import { Button, Popover, Tooltip } from 'antd';
import TextArea from 'antd/es/input/TextArea';
import { useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { editText, fromMarkup, toMarkup } from './draft.ts';
import { plainText } from './markup.ts';

const t = zhCN.tts;
const sc = zhCN.selfCheck;

function SentenceRow({
  s,
  active,
  onSeek,
  onRegenerate,
}: {
  s: TtsSentence;
  active: boolean;
  onSeek: () => void;
  onRegenerate: (text: string | undefined) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  // The sentence's own text with its pauses and readings kept as marks (never shown as tags).
  const [draft, setDraft] = useState(() => fromMarkup(s.text));
  const [busy, setBusy] = useState(false);
  const flagged = s.check?.status === 'flagged' ? s.check : null;
  return (
    <li
      className={`vw-sentence ${active ? 'is-active' : ''} ${flagged ? 'is-flagged' : ''}`}
      data-testid="sentence"
      data-check={s.check?.status ?? ''}
    >
      <button type="button" className="vw-sentence-text" onClick={onSeek}>
        <span className="vw-sentence-time">{(s.start_ms / 1000).toFixed(1)}s</span>
        {plainText(s.text)}
        {flagged && (
          // What the recognizer heard, beside the sentence, so the user sees what went wrong.
          <span className="vw-sentence-check" data-testid="sentence-flag" title={sc.refunded}>
            <span className="vw-sentence-flag">
              {flagged.problem ? sc.problem[flagged.problem] : sc.flagged}
            </span>
            <span className="vw-sentence-heard">{sc.heard(flagged.heard)}</span>
          </span>
        )}
      </button>
      <Popover
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (o) setDraft(fromMarkup(s.text));
        }}
        trigger="click"
        title={t.sentenceRegenerate}
        content={
          <div className="vw-sentence-edit">
            <TextArea
              value={draft.text}
              onChange={(e) => setDraft(editText(draft, e.target.value, e.target.selectionEnd))}
              autoSize={{ minRows: 2, maxRows: 5 }}
            />
            <Button
              type="primary"
              size="small"
              loading={busy}
              data-testid="sentence-regenerate-confirm"
              onClick={async () => {
                setBusy(true);
                try {
                  const edited = draft.text.trim() && draft.text !== plainText(s.text);
                  await onRegenerate(edited ? toMarkup(draft) : undefined);
                  setOpen(false);
                } finally {
                  setBusy(false);
                }
              }}
            >
              {t.regenerate}
            </Button>
          </div>
        }
      >
        <Tooltip title={t.sentenceRegenerate}>
          <Button
            type="text"
            size="small"
            icon={<RedoOutlined />}
            aria-label={t.sentenceRegenerate}
            data-testid="sentence-regenerate"
          />
        </Tooltip>
      </Popover>
    </li>
  );
}

/** A result's sentences: a click plays from there; each can be regenerated, its text edited first. */
export default function SentenceList({
  sentences,
  activeIndex,
  onSeek,
  onRegenerate,
}: {
  sentences: TtsSentence[];
  /** The `index` of the sentence being played. */
  activeIndex: number | undefined;
  onSeek: (s: TtsSentence) => void;
  onRegenerate: (index: number, text: string | undefined) => Promise<void>;
}) {
  return (
    <>
      <div className="vw-sentences-title">{t.sentences}</div>
      <ol className="vw-sentences" data-testid="sentences">
        {sentences.map((x) => (
          <SentenceRow
            key={x.index}
            s={x}
            active={x.index === activeIndex}
            onSeek={() => onSeek(x)}
            onRegenerate={(text) => onRegenerate(x.index, text)}
          />
        ))}
      </ol>
    </>
  );
}
