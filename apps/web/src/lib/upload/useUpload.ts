import type { MediaAsset } from '@vw/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useUploadGuardStore } from '@/stores/upload.ts';
import {
  startUpload,
  UploadCancelled,
  type UploadCompletion,
  type UploadPhase,
  type UploadSession,
} from './uploader.ts';

export interface UploadState<T = MediaAsset> {
  phase: UploadPhase;
  file: File | null;
  loaded: number;
  total: number;
  /** Bytes per second over the last few seconds (0 until measured). */
  speed: number;
  /** Seconds left at that speed; null while unknown. */
  etaSeconds: number | null;
  error: unknown;
  asset: T | null;
}

const IDLE: UploadState = {
  phase: 'idle',
  file: null,
  loaded: 0,
  total: 0,
  speed: 0,
  etaSeconds: null,
  error: null,
  asset: null,
};

/** Phases during which leaving the page would break the upload (spec §4 leave guard). */
export const ACTIVE_PHASES: readonly UploadPhase[] = ['preparing', 'uploading', 'paused', 'completing'];

/** Speed over this window of progress samples. */
const SPEED_WINDOW_MS = 3000;

/** Moving speed from progress samples: bytes per second over the last few seconds. */
export class SpeedMeter {
  private samples: Array<{ t: number; loaded: number }> = [];
  add(loaded: number, t = Date.now()): number {
    this.samples.push({ t, loaded });
    while (this.samples.length > 2 && t - this.samples[0].t > SPEED_WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    const dt = (t - first.t) / 1000;
    return dt > 0.2 ? Math.max(0, (loaded - first.loaded) / dt) : 0;
  }
  reset(): void {
    this.samples = [];
  }
}

export interface UseUpload<T = MediaAsset> {
  state: UploadState<T>;
  /** Uploads a file (resuming an earlier upload of the same file); resolves its media asset. */
  start(file: File): Promise<T>;
  pause(): void;
  resume(): void;
  cancel(): void;
  /** Back to idle (after done, error or cancel). */
  reset(): void;
  /** An upload is under way (the leave guard asks before leaving). */
  active: boolean;
}

/** A resumable upload with progress, speed, time left, pause/resume/cancel. */
export function useUpload<T = MediaAsset>(complete?: (body: UploadCompletion) => Promise<T>): UseUpload<T> {
  const [state, setState] = useState<UploadState<T>>(IDLE as UploadState<T>);
  const session = useRef<UploadSession<T> | null>(null);
  const completeRef = useRef(complete);
  completeRef.current = complete;
  const meter = useRef(new SpeedMeter());
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // Leaving the component stops the transfer; the same file resumes later.
      session.current?.pause();
    };
  }, []);

  const start = useCallback((file: File) => {
    session.current?.cancel();
    meter.current.reset();
    // A new upload is guarded again (spec §4: only a credit shortage makes one leavable).
    useUploadGuardStore.getState().setLeaveAllowed(false);
    setState({ ...(IDLE as UploadState<T>), file, total: file.size, phase: 'preparing' });
    let s: UploadSession<T> | null = null;
    const update = (patch: Partial<UploadState<T>> | ((s: UploadState<T>) => Partial<UploadState<T>>)) => {
      // Only the current upload's news (a replaced one may still report); none before it exists.
      if (!mounted.current || !s || session.current !== s) return;
      setState((prev) => ({ ...prev, ...(typeof patch === 'function' ? patch(prev) : patch) }));
    };
    s = startUpload<T>(
      file,
      {
        onProgress: (loaded, total) => {
          const speed = meter.current.add(loaded);
          update({ loaded, total, speed, etaSeconds: speed > 0 ? (total - loaded) / speed : null });
        },
        onPhase: (phase) => {
          if (phase === 'paused' || phase === 'uploading') meter.current.reset();
          update((prev) => ({
            phase,
            ...(phase === 'paused' ? { speed: 0, etaSeconds: null } : {}),
            ...(phase === 'done' ? { loaded: prev.total } : {}),
          }));
        },
      },
      completeRef.current,
    );
    const current = s;
    session.current = current;
    current.done.then(
      (asset) => update({ asset, phase: 'done' }),
      (error) => {
        if (!(error instanceof UploadCancelled)) update({ error, phase: 'error' });
      },
    );
    return current.done;
  }, []);

  const reset = useCallback(() => {
    session.current?.cancel();
    session.current = null;
    setState(IDLE as UploadState<T>);
  }, []);

  return {
    state,
    start,
    pause: useCallback(() => session.current?.pause(), []),
    resume: useCallback(() => session.current?.resume(), []),
    cancel: useCallback(() => session.current?.cancel(), []),
    reset,
    active: ACTIVE_PHASES.includes(state.phase),
  };
}
