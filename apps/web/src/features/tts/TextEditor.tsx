import { BookOutlined, ClearOutlined, FieldTimeOutlined, FontColorsOutlined } from '@ant-design/icons';
import type { CharacterReading } from '@vw/contract';
import useApp from 'antd/es/app/useApp';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { HoverTip } from '@/components/HoverTip.tsx';
import { Button } from '@/components/ui/Button.tsx';
import { MenuButton } from '@/components/ui/MenuButton.tsx';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { BREAK_PRESETS_MS, countChars, groupDigits, insertPause, plainText } from './markup.ts';
import { choose, type Spot, toneMarks, type WordOption } from './polyphone.ts';

// Off the first paint of /tts: each loads the first time it is shown.
const CustomPause = lazy(() => import('./CustomPause.tsx'));
const DictionaryDialog = lazy(() => import('./DictionaryDialog.tsx'));
const PolyphoneView = lazy(() => import('./PolyphoneView.tsx'));

const t = zhCN.tts;
/** The readings helper takes at most this many characters at once (contract). */
const READINGS_MAX = 5000;

/**
 * The text box with its toolbar: pauses at the caret, polyphone correction, the pronunciation
 * dictionary, and the character count against the limit.
 */
export function TextEditor({
  text,
  onChange,
  maxChars,
  disabled,
  canPause = true,
  canCorrect = true,
}: {
  text: string;
  onChange: (text: string) => void;
  maxChars: number;
  disabled?: boolean;
  canPause?: boolean;
  canCorrect?: boolean;
}) {
  const { message } = useApp();
  const ref = useRef<HTMLTextAreaElement>(null);
  const sel = useRef({ start: text.length, end: text.length });
  const [polyMode, setPolyMode] = useState(false);
  const [readings, setReadings] = useState<CharacterReading[] | null>(null);
  const [loadingReadings, setLoadingReadings] = useState(false);
  const [dictOpen, setDictOpen] = useState(false);
  // The dictionary dialog stays mounted after its first opening (its closing animation).
  const [dictMounted, setDictMounted] = useState(false);
  const count = countChars(text);
  const over = count > maxChars;

  const el = () => ref.current;
  const remember = () => {
    const a = el();
    if (a) sel.current = { start: a.selectionStart, end: a.selectionEnd };
  };

  const addPause = (ms: number) => {
    const r = insertPause(text, sel.current.start, sel.current.end, ms);
    onChange(r.text);
    sel.current = { start: r.caret, end: r.caret };
    if (!polyMode)
      requestAnimationFrame(() => {
        const a = el();
        if (!a) return;
        a.focus();
        a.setSelectionRange(r.caret, r.caret);
      });
  };

  const loadReadings = useCallback(async (source: string) => {
    const plain = plainText(source).slice(0, READINGS_MAX);
    if (!plain.trim()) {
      setReadings([]);
      return;
    }
    setLoadingReadings(true);
    try {
      const d = await request(api.getReadings, { body: { text: plain } });
      setReadings(d.readings);
    } catch {
      setReadings([]);
    } finally {
      setLoadingReadings(false);
    }
  }, []);

  const togglePoly = () => {
    if (polyMode) {
      setPolyMode(false);
      return;
    }
    setPolyMode(true);
    setReadings(null);
    void loadReadings(text);
  };

  const onChoose = async (spot: Spot, reading: string, save: WordOption | null) => {
    const c = choose(text, spot, reading, save);
    if (c.dictionary) {
      await request(api.upsertDictionary, { body: { word: c.dictionary.word, pinyin: c.dictionary.pinyin } });
      message.success(t.polyphoneSaved(c.dictionary.word, toneMarks(c.dictionary.pinyin)));
    }
    onChange(c.edit.text);
    await loadReadings(c.edit.text);
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
            onSelect={(key) => addPause(Number(key))}
            footer={
              <Suspense fallback={null}>
                <CustomPause onInsert={addPause} />
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
              onClick={togglePoly}
              disabled={disabled || !canCorrect || (!polyMode && !text.trim())}
              data-testid="polyphone-toggle"
            >
              {polyMode ? t.polyphoneDone : t.polyphone}
            </Button>
          </HoverTip>
          <Button
            size="small"
            icon={<BookOutlined />}
            onClick={() => {
              setDictMounted(true);
              setDictOpen(true);
            }}
            data-testid="dictionary-open"
          >
            {t.dictionary}
          </Button>
        </div>
        <Button
          size="small"
          type="text"
          icon={<ClearOutlined />}
          disabled={disabled || !text}
          onClick={() => {
            onChange('');
            setPolyMode(false);
          }}
        >
          {t.clear}
        </Button>
      </div>
      {polyMode ? (
        <Suspense fallback={<div className="vw-polyphone" />}>
          <PolyphoneView text={text} readings={readings} loading={loadingReadings} onChoose={onChoose} />
        </Suspense>
      ) : (
        <textarea
          ref={ref}
          value={text}
          disabled={disabled}
          onChange={(e) => {
            onChange(e.target.value);
            sel.current = { start: e.target.selectionStart, end: e.target.selectionEnd };
          }}
          onSelect={remember}
          onKeyUp={remember}
          onClick={remember}
          onBlur={remember}
          placeholder={t.placeholder}
          className="vw-editor-text"
          data-testid="tts-text"
        />
      )}
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
      {dictMounted && (
        <Suspense fallback={null}>
          <DictionaryDialog open={dictOpen} onClose={() => setDictOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
