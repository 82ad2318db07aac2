import type { TaskEvent, TaskView } from '@vw/contract';
import { FINISHED_TASK_STATUSES } from '@vw/contract/constants/tasks.ts';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { api } from '../api.ts';
import type { ApiError } from '../http/errors.ts';
import { useCall } from '../query/hooks.ts';
import { type StreamMode, taskStream } from './stream.ts';

export const isFinished = (task: Pick<TaskView, 'status'> | undefined): boolean =>
  !!task && FINISHED_TASK_STATUSES.includes(task.status);

/** Holds the tab's task stream open while mounted and reports its mode. */
export function useTaskStream(): StreamMode {
  useEffect(() => taskStream.retain(), []);
  return useSyncExternalStore(taskStream.subscribeMode, taskStream.getMode, taskStream.getMode);
}

export interface UseTaskResult {
  task: TaskView | undefined;
  loading: boolean;
  error: ApiError | null;
  /** 'live' while events arrive; 'polling' when the stream failed and the task is polled. */
  mode: StreamMode;
}

/**
 * The live state of one task: loaded once, then kept current by the shared event stream (which
 * writes into the same cache entry); when the stream keeps failing, polled every 2 s until the
 * task finishes. `null` loads nothing.
 */
export function useTask(taskId: string | null | undefined): UseTaskResult {
  const mode = useTaskStream();
  const q = useCall(
    api.getTask,
    { query: { task_id: taskId ?? '' } },
    {
      enabled: !!taskId,
      staleTime: Number.POSITIVE_INFINITY,
      refetchInterval: (query) =>
        mode === 'polling' && !isFinished(query.state.data?.task) ? taskStream.pollMs : false,
    },
  );
  // Back from polling to live: one fresh load covers the events sent before the stream resumed
  // from an id the server no longer had.
  const prevMode = useRef(mode);
  useEffect(() => {
    if (prevMode.current === 'polling' && mode === 'live' && taskId) void q.refetch();
    prevMode.current = mode;
  }, [mode, taskId, q]);
  return { task: q.data?.task, loading: q.isPending && !!taskId, error: q.error ?? null, mode };
}

/** Every task event of the stream while mounted (the listener may change between renders). */
export function useTaskEvents(onEvent: (event: TaskEvent) => void): void {
  const ref = useRef(onEvent);
  ref.current = onEvent;
  useEffect(() => {
    const release = taskStream.retain();
    const off = taskStream.onEvent((e) => ref.current(e));
    return () => {
      off();
      release();
    };
  }, []);
}
