import {
  BookOutlined,
  ClearOutlined,
  DeleteOutlined,
  FieldTimeOutlined,
  FontColorsOutlined,
} from '@ant-design/icons';
import type { CharacterReading, DictionaryEntry } from '@vw/contract';
import { App, Button, Dropdown, Empty, Input, InputNumber, Modal, Popover, Space, Tooltip } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@/lib/api.ts';
import { request } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import {
  BREAK_PRESETS_MS,
  countChars,
  insertPause,
  MAX_BREAK_MS,
  MIN_BREAK_MS,
  pauseMs,
  plainText,
} from './markup.ts';
import { PolyphoneView, toneMarks } from './PolyphoneView.tsx';
import { choose, type Spot, type WordOption } from './polyphone.ts';

const t = zhCN.tts;
/** The readings helper takes at most this many characters at once (contract). */
const READINGS_MAX = 5000;

function CustomPause({ onInsert }: { onInsert: (ms: number) => void }) {
  const [open, setOpen] = useState(false);
  const [sec, setSec] = useState<number | null>(1.5);
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title={t.pauseCustomLabel}
      content={
        <Space.Compact>
          <InputNumber
            min={MIN_BREAK_MS / 1000}
            max={MAX_BREAK_MS / 1000}
            step={0.1}
            value={sec}
            onChange={setSec}
            addonAfter="s"
            data-testid="pause-custom-input"
            style={{ width: 130 }}
          />
          <Button
            type="primary"
            data-testid="pause-custom-insert"
            onClick={() => {
              onInsert(pauseMs(sec ?? 1));
              setOpen(false);
            }}
          >
            {t.pauseInsert}
          </Button>
        </Space.Compact>
      }
    >
      <Button size="small" type="text" data-testid="pause-custom">
        {t.pauseCustom}
      </Button>
    </Popover>
  );
}

function DictionaryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [items, setItems] = useState<DictionaryEntry[] | null>(null);
  const load = useCallback(() => {
    request(api.listDictionary)
      .then((d) => setItems(d.items))
      .catch(() => setItems([]));
  }, []);
  useEffect(() => {
    if (open) load();
  }, [open, load]);
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t.dictionary} width={480} destroyOnHidden>
      {items && items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t.dictionaryEmpty} />
      ) : (
        <ul className="vw-dict-list" data-testid="dictionary-list">
          {(items ?? []).map((e) => (
            <li key={e.word}>
              <strong>{e.word}</strong>
              <span className="vw-dict-pinyin">{toneMarks(e.pinyin)}</span>
              <Button
                type="text"
                size="small"
                icon={<DeleteOutlined />}
                aria-label={t.dictionaryRemove}
                onClick={async () => {
                  await request(api.deleteDictionary, { body: { word: e.word } });
                  load();
                }}
              />
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

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
  const { message } = App.useApp();
  const ref = useRef<TextAreaRef>(null);
  const sel = useRef({ start: text.length, end: text.length });
  const [polyMode, setPolyMode] = useState(false);
  const [readings, setReadings] = useState<CharacterReading[] | null>(null);
  const [loadingReadings, setLoadingReadings] = useState(false);
  const [dictOpen, setDictOpen] = useState(false);
  const count = countChars(text);
  const over = count > maxChars;

  const el = () => ref.current?.resizableTextArea?.textArea ?? null;
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
    label: <span data-testid={`pause-preset-${ms}`}>{t.pauseSeconds(ms / 1000)}</span>,
  }));

  return (
    <div className={`vw-editor ${over ? 'is-over' : ''}`} data-testid="tts-editor">
      <div className="vw-editor-toolbar">
        <Space size={4} wrap>
          <Dropdown
            disabled={disabled || !canPause}
            trigger={['click']}
            menu={{ items: presetItems, onClick: ({ key }) => addPause(Number(key)) }}
            popupRender={(menu) => (
              <div className="vw-pause-menu">
                {menu}
                <div className="vw-pause-menu-foot">
                  <CustomPause onInsert={addPause} />
                </div>
              </div>
            )}
          >
            <Button
              size="small"
              icon={<FieldTimeOutlined />}
              data-testid="insert-pause"
              onMouseDown={remember}
            >
              {t.insertPause}
            </Button>
          </Dropdown>
          <Tooltip title={canCorrect ? t.polyphoneHint : undefined}>
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
          </Tooltip>
          <Button
            size="small"
            icon={<BookOutlined />}
            onClick={() => setDictOpen(true)}
            data-testid="dictionary-open"
          >
            {t.dictionary}
          </Button>
        </Space>
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
        <PolyphoneView text={text} readings={readings} loading={loadingReadings} onChoose={onChoose} />
      ) : (
        <Input.TextArea
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
          variant="borderless"
          className="vw-editor-text"
          data-testid="tts-text"
          autoSize={false}
        />
      )}
      <div className="vw-editor-foot">
        <span className="vw-editor-hint">
          {over ? t.overLimit(maxChars.toLocaleString('zh-CN')) : t.limitHint}
        </span>
        <span
          className={`vw-editor-count ${over ? 'is-over' : ''}`}
          data-testid="char-count"
          data-count={count}
        >
          {t.chars(count.toLocaleString('zh-CN'), maxChars.toLocaleString('zh-CN'))}
        </span>
      </div>
      <DictionaryDialog open={dictOpen} onClose={() => setDictOpen(false)} />
    </div>
  );
}
