import type { TaskEvent } from '@vw/contract';
import { api } from '../api.ts';
import { getDeviceId, readAccessToken } from '../auth/storage.ts';
import { BUNDLE_ID, http } from '../http/client.ts';
import { queryClient } from '../query/client.ts';
import { invalidateCall, setCallData } from '../query/hooks.ts';
import { callKey } from '../query/keys.ts';
import { SseParser } from './sse.ts';

/** `GET /v1/tasks/events` (contract TASK_EVENTS_PATH, mirrored to keep zod out of the bundle). */
export const TASK_EVENTS_PATH = '/v1/tasks/events';

/**
 * - connecting: opening the stream (tasks are loaded once meanwhile, not polled)
 * - live: events arrive; nothing polls
 * - polling: the stream failed again and again; `useTask` polls getTask every 2 s while it retries
 */
export type StreamMode = 'idle' | 'connecting' | 'live' | 'polling';

export interface TaskStreamOptions {
  /** Waits before each reconnection attempt, by consecutive failure (the last repeats). */
  backoffMs?: number[];
  /** Consecutive failures after which the task hooks fall back to polling. */
  failuresBeforePolling?: number;
  /** How long the connection stays open after its last user leaves (a remount keeps it). */
  lingerMs?: number;
  /** How often `useTask` polls a task while the stream is failing. */
  pollMs?: number;
}

const DEFAULTS: Required<TaskStreamOptions> = {
  backoffMs: [1000, 2000, 4000, 8000, 15000, 30000],
  failuresBeforePolling: 3,
  lingerMs: 2000,
  pollMs: 2000,
};

type Listener = (event: TaskEvent) => void;

/**
 * One event stream per tab for every task on screen: Server-Sent Events read over fetch (so the
 * request carries the Authorization header, which EventSource cannot send), resumed with
 * Last-Event-ID after a drop, with backoff. Every event is written into the query cache (getTask
 * of that task) and makes the task and project lists stale, so components read tasks through the
 * cache and never open their own connection.
 */
export class TaskStream {
  private options = { ...DEFAULTS };
  private users = 0;
  private listeners = new Set<Listener>();
  private modeListeners = new Set<() => void>();
  private controller: AbortController | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private lingerTimer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  /** The id of the last event received; sent back as Last-Event-ID when reconnecting. */
  lastEventId: string | undefined;
  mode: StreamMode = 'idle';

  configure(options: TaskStreamOptions): void {
    this.options = { ...this.options, ...options };
  }

  /** Keeps the connection open while held; returns the release. */
  retain(): () => void {
    this.users++;
    if (this.lingerTimer) {
      clearTimeout(this.lingerTimer);
      this.lingerTimer = null;
    }
    if (this.mode === 'idle') this.open();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users--;
      if (this.users > 0) return;
      this.lingerTimer = setTimeout(() => {
        this.lingerTimer = null;
        if (this.users === 0) this.stop();
      }, this.options.lingerMs);
    };
  }

  /** Every event of the stream (while someone retains it). */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeMode = (cb: () => void): (() => void) => {
    this.modeListeners.add(cb);
    return () => this.modeListeners.delete(cb);
  };
  getMode = (): StreamMode => this.mode;
  get pollMs(): number {
    return this.options.pollMs;
  }

  /** Closes the connection and forgets the position (tests, sign-out). */
  reset(): void {
    this.stop();
    this.users = 0;
    this.lastEventId = undefined;
    this.listeners.clear();
    this.options = { ...DEFAULTS };
  }

  private setMode(mode: StreamMode): void {
    if (this.mode === mode) return;
    this.mode = mode;
    for (const cb of this.modeListeners) cb();
  }

  private stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.retryTimer = null;
    this.lingerTimer = null;
    this.controller?.abort();
    this.controller = null;
    this.failures = 0;
    this.setMode('idle');
  }

  private open(): void {
    if (this.mode === 'idle') this.setMode('connecting');
    const controller = new AbortController();
    this.controller = controller;
    void this.run(controller);
  }

  private async run(controller: AbortController): Promise<void> {
    const { signal } = controller;
    const token = readAccessToken();
    const headers: Record<string, string> = {
      Accept: 'text/event-stream',
      'X-Device-Id': getDeviceId(),
      'X-Bundle-Id': BUNDLE_ID,
    };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (this.lastEventId !== undefined) headers['Last-Event-ID'] = this.lastEventId;
    let res: Response;
    try {
      res = await globalThis.fetch(TASK_EVENTS_PATH, { headers, signal, cache: 'no-store' });
    } catch {
      if (!signal.aborted) this.failed(controller);
      return;
    }
    if (signal.aborted) return;
    if (res.status === 401) {
      // The access token expired: one refresh for the whole app, then reconnect with the new one.
      const ok = await http.refreshSession();
      if (signal.aborted) return;
      if (!ok) return this.stop();
      return this.failed(controller, 0);
    }
    if (!res.ok || !res.body) return this.failed(controller);

    this.failures = 0;
    this.setMode('live');
    const parser = new SseParser();
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const frame of parser.push(decoder.decode(value, { stream: true }))) {
          if (frame.id !== undefined) this.lastEventId = frame.id;
          this.handle(frame.event, frame.data);
        }
      }
    } catch {
      if (!signal.aborted) this.failed(controller);
      return;
    }
    if (signal.aborted) return;
    // The server closed the stream (restart, proxy timeout): resume where it stopped.
    this.reconnect(controller, this.options.backoffMs[0]);
  }

  private failed(controller: AbortController, delay?: number): void {
    if (this.controller !== controller) return;
    this.failures++;
    if (this.failures >= this.options.failuresBeforePolling) this.setMode('polling');
    const waits = this.options.backoffMs;
    this.reconnect(controller, delay ?? waits[Math.min(this.failures - 1, waits.length - 1)]);
  }

  private reconnect(controller: AbortController, delay: number): void {
    if (this.controller !== controller || this.users === 0) return;
    this.controller = null;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.users > 0 || this.lingerTimer) this.open();
    }, delay);
  }

  private handle(type: string, data: string): void {
    let event: TaskEvent;
    try {
      const parsed = JSON.parse(data) as Partial<TaskEvent>;
      if (!parsed?.task?.task_id) return;
      event = {
        id: Number(parsed.id ?? this.lastEventId ?? 0),
        type: (parsed.type ?? type) as TaskEvent['type'],
        task: parsed.task,
      };
    } catch {
      return;
    }
    applyTaskEvent(event);
    for (const listener of this.listeners) listener(event);
  }
}

/** Writes an event's task state into the cache and marks the lists stale when a status changed. */
export function applyTaskEvent(event: TaskEvent): void {
  const input = { query: { task_id: event.task.task_id } };
  if (event.type === 'task.deleted') {
    queryClient.removeQueries({ queryKey: callKey(api.getTask, input) });
  } else {
    // Events come in order on the one stream, so the latest is the truth; a load still in flight
    // read the task before this event and would overwrite it when it lands.
    void queryClient.cancelQueries({ queryKey: callKey(api.getTask, input) });
    setCallData(api.getTask, input, { task: event.task });
  }
  // Progress ticks change no list row's status; everything else does (and rows show their progress
  // through useTask).
  if (event.type !== 'task.progress') {
    void invalidateCall(api.listTasks);
    void invalidateCall(api.listProjects);
  }
}

/** The tab's one task stream. */
export const taskStream = new TaskStream();
