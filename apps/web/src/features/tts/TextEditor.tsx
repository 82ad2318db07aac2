import { BookOutlined, ClearOutlined, FieldTimeOutlined, FontColorsOutlined } from '@ant-design/icons';
import type { CharacterReading, SpokenReading } from '@vw/contract';
import useApp from 'antd/es/app/useApp';
import {
  type KeyboardEvent,
  lazy,
  type ReactNode,
  type Ref,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { HoverTip } from '@/components/HoverTip.tsx';
import { Button } from '@/components/ui/Button.tsx';
import { MenuButton } from '@/components/ui/MenuButton.tsx';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { addPause, type Draft, draftChars, editText, emptyDraft, pausesAt, removePause } from './draft.ts';
import { BREAK_PRESETS_MS, groupDigits, pauseSeconds } from './markup.ts';
import { choose, type Spot, toneMarks, type WordOption } from './polyphone.ts';

// Off the first paint of /tts: each loads the first time it is shown.
const CustomPause = lazy(() => import('./CustomPause.tsx'));
const DictionaryDialog = lazy(() => import('./DictionaryDialog.tsx'));
const PolyphoneView = lazy(() => import('./PolyphoneView.tsx'));

const t = zhCN.tts;
/** The readings helper takes at most this many characters at once (contract). */
const READINGS_MAX = 5000;

/** Readings the helper gave for one text (they are shown only while the text is the same). */
interface Readings {
  text: string;
  list: CharacterReading[];
  /** How numbers, dates and Latin words will be read. */
  spoken: SpokenReading[];
}

/**
 * The draft's marks drawn behind the text box, character for character in the same font: readings
 * as highlighted characters, pauses as thin bars between characters. Only the marks are visible.
 */
function MarkLayer({ draft, layerRef }: { draft: Draft; layerRef: Ref<HTMLDivElement> }) {
  const { text } = draft;
  const nodes: ReactNode[] = [];
  let at = 0;
  for (const m of draft.marks) {
    if (m.at < at || m.at > text.length) continue;
    if (m.at > at) nodes.push(text.slice(at, m.at));
    at = m.at;
    if (m.kind === 'pause') {
      nodes.push(
        <span
          key={`p${nodes.length}`}
          className="vw-mark-pause"
          data-testid="pause-mark"
          data-at={m.at}
          data-ms={m.ms}
          data-label={t.pauseLabel(pauseSeconds(m.ms))}
        />,
      );
    } else if (text.startsWith(m.text, m.at)) {
      nodes.push(
        <mark
          key={`r${m.at}`}
          className="vw-mark-reading"
          data-testid="reading-mark"
          data-at={m.at}
          data-char={m.text}
          data-pinyin={m.pinyin}
        >
          {m.text}
        </mark>,
      );
      at = m.at + m.text.length;
    }
  }
  // A final line break needs a character after it to take its height, as in the text box.
  nodes.push(`${text.slice(at)}\u200b`);
  return (
    <div className="vw-editor-marks" ref={layerRef} aria-hidden>
      {nodes}
    </div>
  );
}

/**
 * 多音字 mode: the readings of the text (loaded on entering, and again when the text or the dictionary
 * changes), a reading chosen for a spot, a word's reading saved to the dictionary.
 */
function usePolyphones(draft: Draft, onChange: (draft: Draft) => void) {
  const { message } = useApp();
  const { text } = draft;
  const [on, setOn] = useState(false);
  const [readings, setReadings] = useState<Readings | null>(null);
  const [loading, setLoading] = useState(false);

  const loadReadings = useCallback(async (source: string) => {
    const plain = source.slice(0, READINGS_MAX);
    if (!plain.trim()) {
      setReadings({ text: source, list: [], spoken: [] });
      return;
    }
    setLoading(true);
    try {
      const d = await request(api.getReadings, { body: { text: plain } });
      setReadings({ text: source, list: d.readings, spoken: d.spoken });
    } catch {
      setReadings({ text: source, list: [], spoken: [] });
    } finally {
      setLoading(false);
    }
  }, []);

  // In 多音字 mode a text replaced from elsewhere (a history item) gets its own readings.
  useEffect(() => {
    if (on && readings && readings.text !== text) void loadReadings(text);
  }, [on, readings, text, loadReadings]);

  const toggle = () => {
    if (on) {
      setOn(false);
      return;
    }
    setOn(true);
    setReadings(null);
    void loadReadings(text);
  };

  const chooseReading = async (spot: Spot, reading: string, save: WordOption | null) => {
    const c = choose(draft, spot, reading, save);
    if (c.dictionary) {
      await request(api.upsertDictionary, { body: { word: c.dictionary.word, pinyin: c.dictionary.pinyin } });
      message.success(t.polyphoneSaved(c.dictionary.word, toneMarks(c.dictionary.pinyin)));
    }
    onChange(c.draft);
    // The text is unchanged; the dictionary may have changed other places' readings.
    if (c.dictionary) await loadReadings(text);
  };

  const saveWord = async (word: string, said: string) => {
    try {
      await request(api.upsertDictionary, { body: { word, pinyin: said } });
    } catch (err) {
      message.error((err as Error).message);
      return;
    }
    message.success(t.wordReadingSaved(word, said));
    await loadReadings(text);
  };

  return { on, readings, loading, toggle, close: () => setOn(false), choose: chooseReading, saveWord };
}

/** The character count against the limit, with what the limit depends on. */
function EditorFoot({ count, maxChars }: { count: number; maxChars: number }) {
  const over = count > maxChars;
  return (
    <div className="vw-editor-foot">
      <span className="vw-editor-hint">{over ? t.overLimit(groupDigits(maxChars)) : t.limitHint}</span>
      <span
        className={`vw-editor-count ${over ? 'is-over' : ''}`}
        data-testid="char-count"
        data-count={count}
      >
        {t.chars(groupDigits(count), groupDigits(maxChars))}
      </span>
    </div>
  );
}

/** Opens the pronunciation dictionary; the dialog stays mounted after its first opening (closing animation). */
function DictionaryButton() {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  return (
    <>
      <Button
        size="small"
        icon={<BookOutlined />}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
        data-testid="dictionary-open"
      >
        {t.dictionary}
      </Button>
      {mounted && (
        <Suspense fallback={null}>
          <DictionaryDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/**
 * The text box with its toolbar: pauses at the caret, polyphone correction, the pronunciation
 * dictionary, and the character count against the limit. The box holds the user's text only;
 * pauses and readings are marks beside it (draft.ts), drawn over the text and never typed into it.
 */
export function TextEditor({
  draft,
  onChange,
  maxChars,
  disabled,
  canPause = true,
  canCorrect = true,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  maxChars: number;
  disabled?: boolean;
  canPause?: boolean;
  canCorrect?: boolean;
}) {
  const { text } = draft;
  const ref = useRef<HTMLTextAreaElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  const sel = useRef({ start: text.length, end: text.length });
  const poly = usePolyphones(draft, onChange);
  const polyMode = poly.on;
  const count = draftChars(draft);
  const over = count > maxChars;

  const el = () => ref.current;
  const remember = () => {
    const a = el();
    if (a) sel.current = { start: a.selectionStart, end: a.selectionEnd };
  };
  const syncScroll = () => {
    if (layer.current && ref.current) layer.current.scrollTop = ref.current.scrollTop;
  };

  const insertPause = (ms: number) => {
    const at = Math.max(sel.current.start, sel.current.end);
    onChange(addPause(draft, at, ms));
    sel.current = { start: at, end: at };
    if (!polyMode)
      requestAnimationFrame(() => {
        const a = el();
        if (!a) return;
        a.focus();
        a.setSelectionRange(at, at);
      });
  };

  // A pause sits between two characters: Backspace just after it or Delete just before it removes it.
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Backspace' && e.key !== 'Delete') return;
    const a = e.currentTarget;
    if (a.selectionStart !== a.selectionEnd || !pausesAt(draft, a.selectionStart).length) return;
    e.preventDefault();
    onChange(removePause(draft, a.selectionStart));
  };

  const presetItems = BREAK_PRESETS_MS.map((ms) => ({
    key: String(ms),
    label: t.pauseSeconds(ms / 1000),
    testId: `pause-preset-${ms}`,
  }));

  return (
    <div className={`vw-editor ${over ? 'is-over' : ''}`} data-testid="tts-editor">
      <div className="vw-editor-toolbar">
        <div className="vw-editor-tools">
          <MenuButton
            disabled={disabled || !canPause}
            items={presetItems}
            onSelect={(key) => insertPause(Number(key))}
            footer={
              <Suspense fallback={null}>
                <CustomPause onInsert={insertPause} />
              </Suspense>
            }
            size="small"
            icon={<FieldTimeOutlined />}
            data-testid="insert-pause"
            onMouseDown={remember}
          >
            {t.insertPause}
          </MenuButton>
          <HoverTip title={t.polyphoneHint} disabled={!canCorrect}>
            <Button
              size="small"
              type={polyMode ? 'primary' : 'default'}
              icon={<FontColorsOutlined />}
              onClick={poly.toggle}
              disabled={disabled || !canCorrect || (!polyMode && !text.trim())}
              data-testid="polyphone-toggle"
            >
              {polyMode ? t.polyphoneDone : t.polyphone}
            </Button>
          </HoverTip>
          <DictionaryButton />
        </div>
        <Button
          size="small"
          type="text"
          icon={<ClearOutlined />}
          disabled={disabled || !text}
          onClick={() => {
            onChange(emptyDraft);
            poly.close();
          }}
        >
          {t.clear}
        </Button>
      </div>
      {polyMode ? (
        <Suspense fallback={<div className="vw-polyphone" />}>
          <PolyphoneView
            draft={draft}
            readings={poly.readings?.text === text ? poly.readings.list : null}
            spoken={poly.readings?.text === text ? poly.readings.spoken : []}
            loading={poly.loading}
            onChoose={poly.choose}
            onSaveWord={poly.saveWord}
          />
        </Suspense>
      ) : (
        <div className="vw-editor-box">
          <MarkLayer draft={draft} layerRef={layer} />
          <textarea
            ref={ref}
            value={text}
            disabled={disabled}
            onChange={(e) => {
              onChange(editText(draft, e.target.value, e.target.selectionEnd));
              sel.current = { start: e.target.selectionStart, end: e.target.selectionEnd };
            }}
            onKeyDown={onKeyDown}
            onSelect={remember}
            onKeyUp={remember}
            onClick={remember}
            onBlur={remember}
            onScroll={syncScroll}
            placeholder={t.placeholder}
            className="vw-editor-text"
            data-testid="tts-text"
          />
        </div>
      )}
      <EditorFoot count={count} maxChars={maxChars} />
    </div>
  );
}
