import type { AudiobookParagraph, CharacterReading } from '@vw/contract';
import { Alert, type ButtonProps, Input, Modal, Radio, Spin } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useEffect, useMemo, useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { toneMarks, toneNumbers } from '../tts/polyphone.ts';
import { checkEntry, setSyllable, wordChars } from './pronunciation.ts';

const t = zhCN.audioBook.pronunciation;

/** The spoken text of a paragraph, as the readings helper and the synthesis see it. */
export const paragraphPlain = (p: Pick<AudiobookParagraph, 'segments'>) =>
  p.segments.map((s) => s.text).join('');

/** The paragraph with each character's reading above it; a polyphone is a button that picks it as the word. */
function ReadingsText({
  text,
  readings,
  onPick,
}: {
  text: string;
  readings: CharacterReading[];
  onPick: (char: string) => void;
}) {
  const polyphones = readings.filter((r) => r.candidates.length > 1 && r.end - r.start === 1);
  return Array.from(text).map((ch, i) => {
    const r = readings.find((x) => x.start <= i && i < x.end && x.end - x.start === 1);
    const poly = polyphones.some((x) => x.start === i);
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: characters of a fixed text
      <ruby key={i}>
        {poly ? (
          <button
            type="button"
            className="vw-book-pron-poly"
            onClick={() => onPick(ch)}
            data-testid="book-pron-polyphone"
          >
            {ch}
          </button>
        ) : (
          ch
        )}
        <rt>{r && /\p{Script=Han}/u.test(ch) ? toneMarks(r.pinyin) : ''}</rt>
      </ruby>
    );
  });
}

/**
 * Pronunciation fix for a word of a paragraph: the readings that will be spoken (the user's dictionary
 * applied, polyphones with their candidates), a reading picked per polyphone or pinyin typed for the
 * word, saved to the user's pronunciation dictionary (shared with /tts and dubbing); the paragraphs of
 * the work containing the word are then marked stale.
 */
export function PronunciationFix({
  workId,
  paragraph,
  initialWord,
  onClose,
}: {
  workId: string;
  paragraph: AudiobookParagraph;
  initialWord: string;
  onClose: () => void;
}) {
  const { message } = useApp();
  const text = paragraphPlain(paragraph);
  const readings = useCall(api.getReadings, { body: { text } }, { staleTime: 0 });
  const [word, setWord] = useState(initialWord);
  const [pinyin, setPinyin] = useState('');
  const [touched, setTouched] = useState(false);
  const upsert = useCallMutation(api.upsertDictionary, {
    invalidates: [api.listDictionary, api.getReadings],
  });
  const changed = useCallMutation(api.audiobookPronunciationChanged, {
    invalidates: [api.audiobookParagraphs, api.audiobookGet],
  });
  const saving = upsert.isPending || changed.isPending;
  const chars = useMemo(
    () =>
      readings.data
        ? (wordChars(text, readings.data.readings, word.trim())?.map((c, i) => ({
            ...c,
            key: `${i}:${c.char}`,
          })) ?? null)
        : null,
    [readings.data, text, word],
  );
  // A new word starts from what is read now, written with tone marks (yín háng).
  useEffect(() => {
    setPinyin(chars ? toneMarks(chars.map((c) => c.pinyin).join(' ')) : '');
    setTouched(false);
  }, [chars]);
  const problem = checkEntry(word.trim(), pinyin);

  const save = async () => {
    if (problem) return;
    try {
      const w = word.trim();
      await upsert.mutateAsync({ body: { word: w, pinyin: toneNumbers(pinyin) } });
      const marked = await changed.mutateAsync({ body: { work_id: workId, word: w } });
      message.success(marked.stale_paragraphs > 0 ? t.savedStale(w, marked.stale_paragraphs) : t.saved(w));
      onClose();
    } catch {
      // The request helper already showed the server's message.
    }
  };

  return (
    <Modal
      open
      title={t.title}
      onCancel={onClose}
      okText={t.save}
      cancelText={zhCN.audioBook.cancel}
      onOk={save}
      okButtonProps={
        { disabled: !!problem || !chars, loading: saving, 'data-testid': 'book-pron-save' } as ButtonProps
      }
      destroyOnHidden
    >
      <div data-testid="book-pron-dialog">
        <div className="vw-book-pron-text" data-testid="book-pron-readings">
          {readings.isPending ? (
            <Spin size="small" />
          ) : (
            <ReadingsText text={text} readings={readings.data?.readings ?? []} onPick={setWord} />
          )}
        </div>
        <div style={{ margin: '12px 0 6px' }}>{t.wordLabel}</div>
        <Input
          value={word}
          maxLength={20}
          onChange={(e) => setWord(e.target.value)}
          placeholder={t.wordPlaceholder}
          data-testid="book-pron-word"
        />
        {word.trim() && readings.data && !chars && (
          <Alert type="warning" showIcon style={{ marginTop: 8 }} message={t.wordMissing} />
        )}
        {chars?.map((c, i) =>
          c.candidates.length > 1 ? (
            <div key={c.key} style={{ marginTop: 8 }}>
              <span style={{ marginRight: 8 }}>{t.readAs(c.char)}</span>
              <Radio.Group
                size="small"
                value={toneNumbers(pinyin).split(' ')[i]}
                onChange={(e) => {
                  setPinyin(setSyllable(pinyin, chars.length, i, toneMarks(e.target.value)));
                  setTouched(true);
                }}
              >
                {c.candidates.map((p) => (
                  <Radio.Button key={p} value={p} data-testid="book-pron-reading" data-pinyin={p}>
                    {toneMarks(p)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </div>
          ) : null,
        )}
        {chars && (
          <>
            <div style={{ margin: '12px 0 6px' }}>{t.pinyinLabel}</div>
            <Input
              value={pinyin}
              onChange={(e) => {
                setPinyin(e.target.value);
                setTouched(true);
              }}
              placeholder="yín háng"
              data-testid="book-pron-pinyin"
            />
            {touched && problem && (
              <div className="vw-book-pron-error" data-testid="book-pron-error">
                {problem}
              </div>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
