import { formatTime, parseTime } from '@vw/contract/helpers/time.ts';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';

const s = zhCN.editor;

/**
 * A typed time (hh:mm:ss.mmm; a comma before the milliseconds is accepted, spec §5). Applied on
 * Enter or blur; malformed input turns red and is not applied; Escape restores the value.
 */
export function TimeInput({
  value,
  label,
  onCommit,
}: {
  value: number;
  label: string;
  onCommit: (ms: number) => void;
}) {
  const [text, setText] = useState(() => formatTime(value));
  const [invalid, setInvalid] = useState(false);
  const focused = useRef(false);
  // Bumped by each commit, so a time clamped back to the old value still replaces the typed text.
  const [commits, setCommits] = useState(0);

  // Follow outside changes (drag, nudge, undo) unless the user is typing here; a rejected entry
  // stays red until it is fixed or the time changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `commits` re-runs it after each commit
  useEffect(() => {
    if (!focused.current) {
      setText(formatTime(value));
      setInvalid(false);
    }
  }, [value, commits]);

  const commit = () => {
    const ms = parseTime(text);
    if (ms === null) {
      setInvalid(true);
      return false;
    }
    setInvalid(false);
    if (ms !== value) onCommit(ms);
    setCommits((n) => n + 1);
    return true;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      // The blur commits (once).
      if (parseTime(text) === null) setInvalid(true);
      else e.currentTarget.blur();
    } else if (e.key === 'Escape') {
      setText(formatTime(value));
      setInvalid(false);
      e.currentTarget.blur();
    }
  };

  return (
    <input
      className="vw-ed-time"
      aria-label={label}
      aria-invalid={invalid}
      title={invalid ? s.invalidTime : label}
      value={text}
      spellCheck={false}
      onFocus={() => {
        focused.current = true;
      }}
      onChange={(e) => {
        setText(e.target.value);
        if (invalid && parseTime(e.target.value) !== null) setInvalid(false);
      }}
      onBlur={() => {
        commit();
        focused.current = false;
      }}
      onKeyDown={onKeyDown}
    />
  );
}
