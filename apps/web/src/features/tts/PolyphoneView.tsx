import type { CharacterReading, SpokenReading } from '@vw/contract';
import { Button, Checkbox, Input, Popover, Radio, Spin } from 'antd';
import { Fragment, type ReactNode, useEffect, useMemo, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import type { Draft } from './draft.ts';
import { pauseSeconds } from './markup.ts';
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

/** A Latin word's reading, kept in the dictionary: letters apart are spelled, joined they are a word. */
function WordReadingEditor({
  reading,
  onSave,
}: {
  reading: SpokenReading;
  onSave: (word: string, said: string) => Promise<void>;
}) {
  const [said, setSaid] = useState(reading.spoken);
  const [busy, setBusy] = useState(false);
  return (
    <div className="vw-spot-editor" data-testid="word-reading-editor">
      <Input
        value={said}
        onChange={(e) => setSaid(e.target.value)}
        maxLength={60}
        data-testid="word-reading-input"
      />
      <div className="vw-spot-hint">{t.wordReadingHint}</div>
      <div className="vw-spot-actions">
        <Button
          type="primary"
          size="small"
          loading={busy}
          disabled={!said.trim()}
          data-testid="word-reading-save"
          onClick={async () => {
            setBusy(true);
            try {
              await onSave(reading.text, said.trim());
            } finally {
              setBusy(false);
            }
          }}
        >
          {t.wordReadingSave}
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
  draft,
  readings,
  spoken = [],
  loading,
  onChoose,
  onSaveWord,
}: {
  draft: Draft;
  /** The helper's readings for the draft's text; null while they load. */
  readings: CharacterReading[] | null;
  /** How its numbers, dates and Latin words will be read (the text stays as written). */
  spoken?: SpokenReading[];
  loading: boolean;
  onChoose: (spot: Spot, reading: string, save: WordOption | null) => Promise<void>;
  /** Keeps a Latin word's reading in the user's dictionary. */
  onSaveWord?: (word: string, said: string) => Promise<void>;
}) {
  const { text } = draft;
  const spots = useMemo(() => findSpots(draft, readings ?? []), [draft, readings]);
  const byAt = useMemo(() => new Map(spots.map((s) => [s.at, s])), [spots]);
  const [openAt, setOpenAt] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a changed text closes the open editor
  useEffect(() => setOpenAt(null), [text]);

  const renderChar = (ch: string, at: number): ReactNode => {
    const spot = byAt.get(at);
    if (!spot) return ch === '\n' ? <br key={at} /> : <Fragment key={at}>{ch}</Fragment>;
    return (
      <Popover
        key={at}
        trigger="click"
        open={openAt === at}
        onOpenChange={(o) => setOpenAt(o ? at : null)}
        title={t.polyphoneTitle(spot.text)}
        destroyOnHidden
        content={
          <SpotEditor
            spot={spot}
            words={(reading) => wordOptions(draft, readings ?? [], spot, reading)}
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
          data-offset={spot.at}
        >
          {ch}
          <rt>{toneMarks(spot.pinyin)}</rt>
        </ruby>
      </Popover>
    );
  };

  const nodes: ReactNode[] = [];
  const pauses = draft.marks.filter((m) => m.kind === 'pause');
  let p = 0;
  const pausesUpTo = (at: number) => {
    for (; p < pauses.length && pauses[p].at <= at; p++)
      nodes.push(
        <span key={`p${p}`} className="vw-pause-chip" data-testid="pause-chip">
          {t.pauseLabel(pauseSeconds(pauses[p].ms))}
        </span>,
      );
  };
  const spokenAt = new Map(spoken.map((s) => [s.start, s]));
  for (let at = 0; at < text.length; ) {
    pausesUpTo(at);
    const said = spokenAt.get(at);
    if (said && said.end <= text.length && text.slice(at, said.end) === said.text) {
      const ruby = (
        <ruby
          key={`s${at}`}
          className={`vw-spoken ${said.kind === 'word' && onSaveWord ? 'is-editable' : ''}`}
          data-testid="spoken-reading"
          data-spoken={said.spoken}
        >
          {said.text}
          <rt>{said.spoken}</rt>
        </ruby>
      );
      // Word popovers are told apart from polyphone spots by a negative key (the loop moves `at` on).
      const slot = -at - 1;
      nodes.push(
        said.kind === 'word' && onSaveWord ? (
          <Popover
            key={`w${slot}`}
            trigger="click"
            open={openAt === slot}
            onOpenChange={(o) => setOpenAt(o ? slot : null)}
            title={t.wordReadingTitle(said.text)}
            destroyOnHidden
            content={
              <WordReadingEditor
                reading={said}
                onSave={async (word, value) => {
                  await onSaveWord(word, value);
                  setOpenAt(null);
                }}
              />
            }
          >
            {ruby}
          </Popover>
        ) : (
          ruby
        ),
      );
      at = said.end;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(at) ?? 0);
    nodes.push(renderChar(ch, at));
    at += ch.length;
  }
  pausesUpTo(text.length);

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
      {spoken.length > 0 && <div className="vw-polyphone-hint">{t.spokenHint}</div>}
      <div className="vw-polyphone-text">{nodes}</div>
    </div>
  );
}

export default PolyphoneView;
