import type { CharacterReading } from '@vw/contract';
import { Button, Checkbox, Popover, Radio, Spin } from 'antd';
import { Fragment, type ReactNode, useEffect, useMemo, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { pauseSeconds, plainText, tokenize } from './markup.ts';
import { findSpots, type Spot, toneMarks, type WordOption, wordOptions } from './polyphone.ts';

export { toneMarks };

const t = zhCN.tts;

function SpotEditor({
  spot,
  words,
  onApply,
}: {
  spot: Spot;
  words: (reading: string) => WordOption[];
  onApply: (reading: string, save: WordOption | null) => Promise<void>;
}) {
  const [reading, setReading] = useState(spot.pinyin);
  const [save, setSave] = useState(false);
  const options = words(reading);
  const [wordIdx, setWordIdx] = useState(0);
  const [busy, setBusy] = useState(false);
  const word = options[Math.min(wordIdx, options.length - 1)];
  return (
    <div className="vw-spot-editor" data-testid="polyphone-editor">
      <Radio.Group value={reading} onChange={(e) => setReading(e.target.value)} className="vw-spot-readings">
        {spot.candidates.map((c) => (
          <Radio.Button key={c} value={c} data-testid="polyphone-reading" data-pinyin={c}>
            {toneMarks(c)}
          </Radio.Button>
        ))}
      </Radio.Group>
      <Checkbox checked={save} onChange={(e) => setSave(e.target.checked)} data-testid="polyphone-save">
        {t.polyphoneSave}
      </Checkbox>
      {save && (
        <div className="vw-spot-words">
          <span className="vw-spot-words-label">{t.polyphoneWord}</span>
          <Radio.Group value={wordIdx} onChange={(e) => setWordIdx(e.target.value)} size="small">
            {options.map((o, i) => (
              <Radio.Button key={o.word} value={i} data-testid="polyphone-word">
                {o.word}
              </Radio.Button>
            ))}
          </Radio.Group>
          <div className="vw-spot-hint">{t.polyphoneSaveHint}</div>
        </div>
      )}
      <div className="vw-spot-actions">
        <Button
          type="primary"
          size="small"
          loading={busy}
          data-testid="polyphone-apply"
          onClick={async () => {
            setBusy(true);
            try {
              await onApply(reading, save ? word : null);
            } finally {
              setBusy(false);
            }
          }}
        >
          {t.confirm}
        </Button>
      </div>
    </div>
  );
}

/**
 * The text as characters: polyphones underlined with the reading that will be spoken above them;
 * click one to choose another reading (and optionally keep it in the dictionary).
 */
export function PolyphoneView({
  text,
  readings,
  loading,
  onChoose,
}: {
  text: string;
  readings: CharacterReading[] | null;
  loading: boolean;
  onChoose: (spot: Spot, reading: string, save: WordOption | null) => Promise<void>;
}) {
  const spots = useMemo(() => findSpots(text, readings ?? []), [text, readings]);
  const byRaw = useMemo(() => new Map(spots.map((s) => [s.raw, s])), [spots]);
  const plain = useMemo(() => plainText(text), [text]);
  const [openAt, setOpenAt] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a changed text closes the open editor
  useEffect(() => setOpenAt(null), [text]);

  const renderChar = (ch: string, raw: number): ReactNode => {
    const spot = byRaw.get(raw);
    if (!spot) return ch === '\n' ? <br key={raw} /> : <Fragment key={raw}>{ch}</Fragment>;
    return (
      <Popover
        key={raw}
        trigger="click"
        open={openAt === raw}
        onOpenChange={(o) => setOpenAt(o ? raw : null)}
        title={t.polyphoneTitle(spot.text)}
        destroyOnHidden
        content={
          <SpotEditor
            spot={spot}
            words={(reading) => wordOptions(plain, readings ?? [], spot, reading)}
            onApply={async (reading, save) => {
              await onChoose(spot, reading, save);
              setOpenAt(null);
            }}
          />
        }
      >
        <ruby
          className={`vw-spot ${spot.marked ? 'is-marked' : ''} ${spot.fromDictionary ? 'is-dict' : ''}`}
          data-testid="polyphone-spot"
          data-char={spot.text}
          data-pinyin={spot.pinyin}
          data-offset={spot.plain}
        >
          {ch}
          <rt>{toneMarks(spot.pinyin)}</rt>
        </ruby>
      </Popover>
    );
  };

  const nodes: ReactNode[] = [];
  for (const tok of tokenize(text)) {
    if (tok.kind === 'pause') {
      nodes.push(
        <span key={tok.start} className="vw-pause-chip">
          {t.pauseLabel(pauseSeconds(tok.ms))}
        </span>,
      );
    } else if (tok.kind === 'reading') {
      const inner = tok.end - '</phoneme>'.length - tok.text.length;
      for (let i = 0; i < tok.text.length; i++) nodes.push(renderChar(tok.text[i], inner + i));
    } else {
      for (let i = 0; i < tok.text.length; i++) nodes.push(renderChar(tok.text[i], tok.start + i));
    }
  }

  return (
    <div className="vw-polyphone" data-testid="polyphone-view">
      <div className="vw-polyphone-hint">
        {loading ? (
          <>
            <Spin size="small" /> {t.polyphoneLoading}
          </>
        ) : spots.length === 0 ? (
          t.polyphoneNone
        ) : (
          t.polyphoneHint
        )}
      </div>
      <div className="vw-polyphone-text">{nodes}</div>
    </div>
  );
}

export default PolyphoneView;
