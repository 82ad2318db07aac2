import { CloseOutlined, DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Checkbox, Input, type InputRef } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { useEditor } from './context.tsx';
import { findMatches, replaceAll, replaceMatch } from './document.ts';

const s = zhCN.editor;

/** Find and replace over the cue texts: case-insensitive unless asked; replace one or all. */
export function FindBar({ onClose, focusKey }: { onClose: () => void; focusKey: number }) {
  const editor = useEditor();
  const { state, current, edit } = editor;
  const [query, setQuery] = useState('');
  const [replacement, setReplacement] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [at, setAt] = useState(0);
  const inputRef = useRef<InputRef>(null);
  const options = useMemo(() => ({ caseSensitive }), [caseSensitive]);
  const matches = useMemo(
    () => (state.doc ? findMatches(state.doc, query, options) : []),
    [state.doc, query, options],
  );
  const index = matches.length ? Math.min(at, matches.length - 1) : 0;
  const match = matches[index];

  useEffect(() => {
    if (focusKey >= 0) inputRef.current?.focus({ cursor: 'all' });
  }, [focusKey]);

  const go = (i: number) => {
    if (!matches.length) return;
    const k = (i + matches.length) % matches.length;
    setAt(k);
    const m = matches[k]!;
    const cue = editor.cues.find((c) => c.id === m.cueId);
    editor.dispatch({ type: 'select', ids: [m.cueId] });
    if (cue) editor.seek(cue.start_ms);
  };

  return (
    <div className="vw-ed-find" data-testid="find-bar">
      <Input
        ref={inputRef}
        size="small"
        aria-label={s.findPlaceholder}
        placeholder={s.findPlaceholder}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setAt(0);
        }}
        onPressEnter={(e) => go(e.shiftKey ? index - 1 : index + 1)}
        allowClear
      />
      <Input
        size="small"
        aria-label={s.replacePlaceholder}
        placeholder={s.replacePlaceholder}
        value={replacement}
        onChange={(e) => setReplacement(e.target.value)}
      />
      <Checkbox checked={caseSensitive} onChange={(e) => setCaseSensitive(e.target.checked)}>
        {s.caseSensitive}
      </Checkbox>
      <span className="vw-ed-muted" data-testid="find-count">
        {query ? s.matchCount(matches.length ? index + 1 : 0, matches.length) : ''}
      </span>
      <Button
        size="small"
        type="text"
        icon={<UpOutlined />}
        aria-label={s.prev}
        onClick={() => go(index - 1)}
      />
      <Button
        size="small"
        type="text"
        icon={<DownOutlined />}
        aria-label={s.next}
        onClick={() => go(index + 1)}
      />
      <Button
        size="small"
        disabled={!match}
        onClick={() => {
          if (match) edit(replaceMatch(current().doc!, match, query, replacement, options), [match.cueId]);
        }}
      >
        {s.replaceOne}
      </Button>
      <Button
        size="small"
        disabled={!matches.length}
        onClick={() => {
          const r = replaceAll(current().doc!, query, replacement, options);
          edit(r.doc);
          editor.notify(s.replacedAll(r.count), 'success');
        }}
      >
        {s.replaceAll}
      </Button>
      <Button size="small" type="text" icon={<CloseOutlined />} aria-label={s.close} onClick={onClose} />
    </div>
  );
}
