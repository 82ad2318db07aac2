import { useEffect, useRef } from 'react';
import type { Editor } from './context.tsx';
import { cueAt, deleteCues, MIN_CUE_MS, NUDGE_MS, nudgeCue, splitCue } from './document.ts';

const isTyping = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) ||
    el.isContentEditable ||
    el.closest('[role="combobox"]') !== null);

/**
 * The editor's keyboard: Ctrl+S and Ctrl+F everywhere; the rest only when the user is not typing
 * (a text box keeps its own undo, space and arrows) and no dialog is open.
 */
export function useShortcuts(editor: Editor, handlers: { save(): void; find(): void }) {
  const ref = useRef({ editor, handlers });
  ref.current = { editor, handlers };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { editor: ed, handlers: h } = ref.current;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && key === 's') {
        e.preventDefault();
        // Text boxes write into the document as the user types: the box keeps its focus.
        h.save();
        return;
      }
      if (mod && key === 'f') {
        e.preventDefault();
        h.find();
        return;
      }
      if (isTyping(e.target) || (e.target instanceof Element && e.target.closest('.ant-modal'))) return;
      const state = ed.current();
      const doc = state.doc;
      if (!doc) return;
      if (mod && key === 'z') {
        e.preventDefault();
        ed.dispatch({ type: e.shiftKey ? 'redo' : 'undo' });
      } else if (mod && key === 'y') {
        e.preventDefault();
        ed.dispatch({ type: 'redo' });
      } else if (e.key === ' ' && !mod && !e.altKey) {
        e.preventDefault();
        ed.player.current.toggle();
      } else if (key === 's' && !mod && !e.altKey) {
        const at = ed.clock.getState().ms;
        const cue = cueAt(ed.cues, at);
        if (!cue) return;
        e.preventDefault();
        if (at < cue.start_ms + MIN_CUE_MS || at > cue.end_ms - MIN_CUE_MS) return;
        ed.run(splitCue(doc, cue.id, at), (id) => (id ? [id] : []));
      } else if (e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight') && state.selected.length) {
        e.preventDefault();
        const delta = e.key === 'ArrowLeft' ? -NUDGE_MS : NUDGE_MS;
        // Several selected cues move in the order that leaves room for each other.
        const order = ed.cues.filter((c) => state.selected.includes(c.id));
        if (delta > 0) order.reverse();
        let next = doc;
        for (const c of order) next = nudgeCue(next, c.id, 'both', delta, ed.durationMs);
        ed.edit(next);
      } else if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && !mod && !e.altKey) {
        const i = ed.cues.findIndex((c) => c.id === state.selected[0]);
        const j = i < 0 ? 0 : i + (e.key === 'ArrowUp' ? -1 : 1);
        const cue = ed.cues[Math.max(0, Math.min(ed.cues.length - 1, j))];
        if (!cue) return;
        e.preventDefault();
        ed.dispatch({ type: 'select', ids: [cue.id] });
        ed.seek(cue.start_ms);
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && state.selected.length) {
        e.preventDefault();
        ed.edit(deleteCues(doc, state.selected));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
