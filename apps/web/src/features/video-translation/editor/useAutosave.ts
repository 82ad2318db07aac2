import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/http/errors.ts';
import type { Editor } from './context.tsx';
import type { ProjectDocument } from './document.ts';
import { isDirty } from './history.ts';

/** Saved this long after the last edit. */
export const AUTOSAVE_DELAY_MS = 1500;
/** After a failed save (network, server), the next try comes this much later. */
export const RETRY_DELAY_MS = 5000;

export type SavePhase = 'idle' | 'saving' | 'error' | 'conflict';
export type SaveFn = (version: number, doc: ProjectDocument) => Promise<{ version: number }>;

export const CONFLICT_ERROR = 'err_project_version_conflict';

/**
 * Debounced autosave with the document version: each save sends the version it is based on; the
 * server refuses a stale one (another tab saved meanwhile) and the editor stops saving and says
 * so — it never overwrites silently. `flush` saves now (Ctrl+S, before an export).
 */
export function useAutosave(editor: Editor, initialVersion: number, save: SaveFn) {
  const [phase, setPhase] = useState<SavePhase>('idle');
  const version = useRef(initialVersion);
  const inflight = useRef<Promise<boolean> | null>(null);
  const phaseRef = useRef(phase);
  phaseRef.current = phase;
  const editorRef = useRef(editor);
  editorRef.current = editor;
  const saveRef = useRef(save);
  saveRef.current = save;
  const [retryTick, setRetryTick] = useState(0);

  /** Resets after a (re)load. */
  const reset = useCallback((v: number) => {
    version.current = v;
    setPhase('idle');
  }, []);

  const flush = useCallback(async (): Promise<boolean> => {
    if (phaseRef.current === 'conflict') return false;
    while (inflight.current) await inflight.current;
    const state = editorRef.current.current();
    if (!state.doc || !isDirty(state)) return true;
    const revision = state.revision;
    setPhase('saving');
    const attempt = (async () => {
      try {
        const res = await saveRef.current(version.current, state.doc!);
        version.current = res.version;
        editorRef.current.dispatch({ type: 'saved', revision });
        setPhase('idle');
        return true;
      } catch (e) {
        if (e instanceof ApiError && e.type === CONFLICT_ERROR) {
          phaseRef.current = 'conflict';
          setPhase('conflict');
        } else {
          setPhase('error');
          setTimeout(() => setRetryTick((n) => n + 1), RETRY_DELAY_MS);
        }
        return false;
      } finally {
        inflight.current = null;
      }
    })();
    inflight.current = attempt;
    return attempt;
  }, []);

  const { revision, savedRevision } = editor.state;
  // biome-ignore lint/correctness/useExhaustiveDependencies: retryTick re-arms the timer after a failure
  useEffect(() => {
    if (revision === savedRevision || phaseRef.current === 'conflict') return;
    const timer = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [revision, savedRevision, flush, retryTick]);

  const dirty = isDirty(editor.state);
  // Leaving with unsaved edits asks first.
  useEffect(() => {
    if (!dirty && phase !== 'saving') return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty, phase]);

  const status: 'saved' | 'saving' | 'unsaved' | 'error' | 'conflict' =
    phase === 'conflict'
      ? 'conflict'
      : phase === 'saving'
        ? 'saving'
        : phase === 'error'
          ? 'error'
          : dirty
            ? 'unsaved'
            : 'saved';
  return { status, flush, reset, version };
}
