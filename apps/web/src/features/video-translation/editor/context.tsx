import { type CueIssue, checkCues } from '@vw/contract/helpers/subtitles.ts';
import useApp from 'antd/es/app/useApp';
import {
  createContext,
  type Dispatch,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useMemo,
  useReducer,
  useRef,
} from 'react';
import { createStore, type StoreApi, useStore } from 'zustand';
import { cueAt, editCues, type OpResult, type ProjectDocument, type SubtitleCue } from './document.ts';
import { type EditorAction, type EditorState, editorReducer, initialEditorState } from './history.ts';

/*
 * The editor's shared state: the document reducer (one store for every edit, with undo), the
 * play clock (a small store of its own: it changes 60 times a second while playing, and only the
 * parts that draw the playhead subscribe to it) and the player's controls.
 */

export interface Clock {
  ms: number;
  playing: boolean;
}

export interface PlayerHandle {
  seek(ms: number): void;
  toggle(): void;
}

export interface Editor {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  /** The edited track's cues (sorted) and their rule issues, index-aligned. */
  cues: SubtitleCue[];
  issues: CueIssue[][];
  durationMs: number | null;
  clock: StoreApi<Clock>;
  player: RefObject<PlayerHandle>;
  /** The latest state, for callbacks that must not go stale. */
  current(): EditorState;
  /**
   * Records a new document (one undo step); `select` replaces the selection. Edits in a row with the
   * same `coalesce` key (one typing in a text box) share one undo step.
   */
  edit(doc: ProjectDocument, select?: string[], coalesce?: string): void;
  /** Records an operation's result, or shows its refusal. Returns whether it applied. */
  run(result: OpResult, select?: (newId?: string) => string[]): boolean;
  notify(text: string, level?: 'info' | 'success' | 'warning' | 'error'): void;
  seek(ms: number): void;
}

const EditorContext = createContext<Editor | null>(null);

export function useEditorController(options: {
  initial?: ProjectDocument | null;
  durationMs: number | null;
}): Editor {
  const { message } = useApp();
  const [state, dispatch] = useReducer(editorReducer, options.initial ?? null, (doc) =>
    doc ? editorReducer(initialEditorState, { type: 'load', doc }) : initialEditorState,
  );
  const stateRef = useRef(state);
  stateRef.current = state;
  const clockRef = useRef<StoreApi<Clock>>(null);
  clockRef.current ??= createStore<Clock>(() => ({ ms: 0, playing: false }));
  const clock = clockRef.current;
  const player = useRef<PlayerHandle>({
    seek: (ms) => clock.setState({ ms: Math.max(0, ms) }),
    toggle: () => {},
  });

  const notify = useCallback<Editor['notify']>(
    (text, level = 'info') => {
      void message[level](text);
    },
    [message],
  );
  const edit = useCallback<Editor['edit']>(
    (doc, select, coalesce) => dispatch({ type: 'edit', doc, select, coalesce }),
    [],
  );
  const run = useCallback<Editor['run']>(
    (result, select) => {
      if (!result.ok) {
        notify(result.error, 'warning');
        return false;
      }
      dispatch({ type: 'edit', doc: result.doc, select: select?.(result.cueId) });
      return true;
    },
    [notify],
  );
  const seek = useCallback((ms: number) => player.current.seek(ms), []);
  const current = useCallback(() => stateRef.current, []);

  const rules = state.doc?.rules;
  const cues = useMemo(() => (state.doc ? editCues(state.doc) : []), [state.doc]);
  const issues = useMemo(() => (rules ? checkCues(cues, rules) : []), [cues, rules]);

  return useMemo(
    () => ({
      state,
      dispatch,
      cues,
      issues,
      durationMs: options.durationMs,
      clock,
      player,
      current,
      edit,
      run,
      notify,
      seek,
    }),
    [state, cues, issues, options.durationMs, clock, current, edit, run, notify, seek],
  );
}

export function EditorProvider({ editor, children }: { editor: Editor; children: ReactNode }) {
  return <EditorContext.Provider value={editor}>{children}</EditorContext.Provider>;
}

export function useEditor(): Editor {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('useEditor outside <EditorProvider>');
  return editor;
}

/** Subscribes to a slice of the play clock. */
export function useClock<T>(select: (clock: Clock) => T): T {
  return useStore(useEditor().clock, select);
}

/** The cue under the playhead (its id), re-rendering only when it changes. */
export function useActiveCueId(): string | undefined {
  const { cues } = useEditor();
  return useClock((c) => cueAt(cues, c.ms)?.id);
}
