import {
  type ChangeEvent,
  type CompositionEvent,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';

let typingCount = 0;

/**
 * A cue's text box that writes into the document as the user types (the autosave then saves it, and
 * the save status tells the truth): each change is committed with a key naming this typing, so one
 * focus of the box is one undo step. An IME composition is committed when it ends (not its pinyin);
 * Enter leaves the box, Escape puts back the text it had on focus (undoing this typing's step when it
 * is still the last one: `undoTyping` says whether it could).
 */
export function useLiveText(
  value: string,
  commit: (text: string, typing: string) => void,
  undoTyping?: (typing: string) => boolean,
) {
  const [draft, setDraft] = useState(value);
  /** While focused: this typing's key and the text on focus. */
  const typing = useRef<{ key: string; original: string } | null>(null);
  /** Set before a blur that must not commit the draft (a split at the caret already used it). */
  const skipCommit = useRef(false);
  const commitRef = useRef(commit);
  commitRef.current = commit;

  useEffect(() => {
    if (!typing.current) setDraft(value);
  }, [value]);

  const send = useCallback((text: string) => {
    commitRef.current(text, typing.current?.key ?? `text:${++typingCount}`);
  }, []);

  const props = {
    value: draft,
    onFocus: () => {
      typing.current = { key: `text:${++typingCount}`, original: value };
    },
    onChange: (e: ChangeEvent<HTMLTextAreaElement>) => {
      setDraft(e.target.value);
      if (!(e.nativeEvent as InputEvent).isComposing) send(e.target.value);
    },
    onCompositionEnd: (e: CompositionEvent<HTMLTextAreaElement>) => send(e.currentTarget.value),
    onBlur: () => {
      const skip = skipCommit.current;
      skipCommit.current = false;
      if (!skip && draft !== value) send(draft);
      typing.current = null;
    },
    onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => {
      if (e.nativeEvent.isComposing) return;
      if (e.key === 'Enter' && !e.shiftKey) {
        e.preventDefault();
        e.currentTarget.blur();
      } else if (e.key === 'Escape') {
        const original = typing.current?.original ?? value;
        skipCommit.current = true;
        setDraft(original);
        if (original !== value && !(typing.current && undoTyping?.(typing.current.key))) send(original);
        e.currentTarget.blur();
      }
    },
  };
  return { draft, props, skipNextCommit: () => (skipCommit.current = true) };
}
