import { editCues, type ProjectDocument } from './document.ts';

/*
 * The editor's one state: the document with its undo history (whole-document snapshots: the
 * operations share every untouched cue object, so a snapshot costs one array per edit), the
 * selection, and a revision counter the autosave watches.
 */

export const HISTORY_LIMIT = 200;

export interface EditorState {
  doc: ProjectDocument | null;
  past: ProjectDocument[];
  future: ProjectDocument[];
  /** Bumped by every change of `doc` (edit, undo, redo); not by load. */
  revision: number;
  /** The revision the server has (autosave). */
  savedRevision: number;
  /** Selected cue ids; the first is the one actions apply to. */
  selected: string[];
  /** The `coalesce` key of the last edit: a further edit with the same key joins its undo step. */
  coalesce?: string | null;
}

export type EditorAction =
  | { type: 'load'; doc: ProjectDocument }
  /** `coalesce`: edits in a row with the same key are one undo step (the keystrokes of one typing). */
  | { type: 'edit'; doc: ProjectDocument; select?: string[]; coalesce?: string }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'select'; ids: string[] }
  | { type: 'saved'; revision: number };

export const initialEditorState: EditorState = {
  doc: null,
  past: [],
  future: [],
  revision: 0,
  savedRevision: 0,
  selected: [],
};

/** The selection without cues that no longer exist. */
function keepExisting(doc: ProjectDocument, ids: string[]) {
  const have = new Set(editCues(doc).map((c) => c.id));
  return ids.filter((id) => have.has(id));
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'load':
      return { ...initialEditorState, doc: action.doc, selected: keepExisting(action.doc, state.selected) };
    case 'edit': {
      if (!state.doc) return state;
      const select = action.select ?? state.selected;
      if (action.doc === state.doc) {
        return select === state.selected ? state : { ...state, selected: keepExisting(state.doc, select) };
      }
      const joins = action.coalesce != null && action.coalesce === state.coalesce;
      return {
        ...state,
        doc: action.doc,
        past: joins ? state.past : [...state.past, state.doc].slice(-HISTORY_LIMIT),
        future: [],
        revision: state.revision + 1,
        selected: keepExisting(action.doc, select),
        coalesce: action.coalesce ?? null,
      };
    }
    case 'undo': {
      const prev = state.past.at(-1);
      if (!prev || !state.doc) return state;
      return {
        ...state,
        doc: prev,
        past: state.past.slice(0, -1),
        future: [state.doc, ...state.future],
        revision: state.revision + 1,
        coalesce: null,
        selected: keepExisting(prev, state.selected),
      };
    }
    case 'redo': {
      const next = state.future[0];
      if (!next || !state.doc) return state;
      return {
        ...state,
        doc: next,
        past: [...state.past, state.doc].slice(-HISTORY_LIMIT),
        future: state.future.slice(1),
        revision: state.revision + 1,
        coalesce: null,
        selected: keepExisting(next, state.selected),
      };
    }
    case 'select':
      return { ...state, selected: action.ids };
    case 'saved':
      return { ...state, savedRevision: Math.max(state.savedRevision, action.revision) };
  }
}

/** Unsaved edits exist. */
export const isDirty = (s: EditorState) => s.revision !== s.savedRevision;

/**
 * The selection after a click: plain click selects one; ctrl/meta toggles; shift selects the range
 * from the first selected cue (in list order).
 */
export function clickSelection(
  order: string[],
  selected: string[],
  id: string,
  mods: { shift?: boolean; toggle?: boolean },
): string[] {
  if (mods.toggle) {
    return selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id];
  }
  if (mods.shift && selected.length > 0) {
    const anchor = order.indexOf(selected[0]!);
    const at = order.indexOf(id);
    if (anchor >= 0 && at >= 0) {
      const [a, b] = anchor <= at ? [anchor, at] : [at, anchor];
      const range = order.slice(a, b + 1);
      // Keep the anchor first so a further shift-click extends from it.
      return [selected[0]!, ...range.filter((r) => r !== selected[0])];
    }
  }
  return [id];
}
