import type { HistoryItem, TtsGenerateBody } from '@vw/contract';
import { useEffect, useRef } from 'react';
import { api } from '@/lib/api.ts';
import { type DataOf, http } from '@/lib/http/client.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { TTS_HEADERS } from '@/lib/tts.ts';

/** Task status is polled this often while a long text is synthesised. */
export const TASK_POLL_MS = 1000;

export interface StreamStart {
  kind: 'stream';
  historyId: string;
  cacheHit: boolean;
  credits: number;
  contentType: string;
  body: ReadableStream<Uint8Array> | null;
  response: Response;
}
export interface TaskStart {
  kind: 'task';
  taskId: string;
  historyId: string;
  cacheHit: boolean;
  credits: number;
}

/** Starts a synthesis: short text answers with an audio stream, long text with a task id. */
export async function startSynthesis(
  body: TtsGenerateBody,
  signal?: AbortSignal,
): Promise<StreamStart | TaskStart> {
  const res = await http.requestResponse(api.ttsGenerate, { body }, { signal });
  if (res instanceof Response) {
    return {
      kind: 'stream',
      historyId: res.headers.get(TTS_HEADERS.historyId) ?? '',
      cacheHit: res.headers.get(TTS_HEADERS.cacheHit) === '1',
      credits: Number(res.headers.get(TTS_HEADERS.credits) ?? 0) || 0,
      contentType: res.headers.get('content-type') ?? 'audio/mpeg',
      body: res.body,
      response: res,
    };
  }
  return {
    kind: 'task',
    taskId: res.task_id,
    historyId: res.history_id,
    cacheHit: res.cache_hit,
    credits: res.credits,
  };
}

/** Whether the browser can play MP3 while it still downloads (Media Source Extensions). */
export function canStreamPlay(contentType: string): boolean {
  const MS = globalThis.MediaSource;
  const type = contentType.split(';')[0].trim();
  return !!MS && type === 'audio/mpeg' && MS.isTypeSupported(type);
}

/**
 * Reads an audio stream to the end. With MSE the bytes also feed a MediaSource whose URL is handed
 * out at once (`onUrl`), so playback starts with the first sentence; otherwise the URL is a Blob URL
 * handed out at the end. Resolves with the complete bytes.
 */
export async function readAudioStream(
  start: StreamStart,
  onUrl: (url: string) => void,
  onBytes?: (received: number) => void,
): Promise<{ bytes: ArrayBuffer; url: string }> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = start.body?.getReader();
  let ms: MediaSource | null = null;
  let sb: SourceBuffer | null = null;
  let url = '';
  if (reader && canStreamPlay(start.contentType)) {
    ms = new MediaSource();
    url = URL.createObjectURL(ms);
    const opened = new Promise<void>((resolve) =>
      ms!.addEventListener('sourceopen', () => resolve(), { once: true }),
    );
    onUrl(url);
    await Promise.race([opened, new Promise((r) => setTimeout(r, 3000))]);
    if (ms.readyState === 'open') {
      try {
        sb = ms.addSourceBuffer('audio/mpeg');
        sb.mode = 'sequence';
      } catch {
        sb = null;
      }
    }
  }
  const append = async (chunk: Uint8Array) => {
    if (!sb || ms?.readyState !== 'open') return;
    try {
      if (sb.updating) await new Promise((r) => sb!.addEventListener('updateend', r, { once: true }));
      sb.appendBuffer(chunk as BufferSource);
      await new Promise((r) => sb!.addEventListener('updateend', r, { once: true }));
    } catch {
      sb = null; // playback falls back to the complete file below
    }
  };
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!value) continue;
      chunks.push(value);
      received += value.byteLength;
      onBytes?.(received);
      await append(value);
    }
  } else {
    const all = new Uint8Array(await start.response.arrayBuffer());
    chunks.push(all);
    received = all.byteLength;
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  if (sb && ms?.readyState === 'open') {
    if (sb.updating) await new Promise((r) => sb!.addEventListener('updateend', r, { once: true }));
    try {
      ms.endOfStream();
    } catch {
      // already ended
    }
    return { bytes: bytes.buffer, url };
  }
  if (url) URL.revokeObjectURL(url);
  const blobUrl = URL.createObjectURL(new Blob([bytes], { type: start.contentType.split(';')[0] }));
  onUrl(blobUrl);
  return { bytes: bytes.buffer, url: blobUrl };
}

export interface TaskProgress {
  taskId: string;
  status: HistoryItem['status'];
  progress: number;
  done: number;
  total: number;
  item: HistoryItem;
  failureCode: number | null;
  error: string | null;
}

type TaskStatusData = DataOf<typeof api.ttsTaskStatus>;

const toProgress = (d: TaskStatusData): TaskProgress => ({
  taskId: d.task_id,
  status: d.status,
  progress: d.progress,
  done: d.sentences_done,
  total: d.sentences_total,
  item: d.item,
  failureCode: d.failure_code,
  error: d.error,
});

/** Whether a long-text synthesis has ended (its item succeeded or failed; a cancelled task reads failed). */
export const taskEnded = (status: HistoryItem['status']): boolean =>
  status === 'succeeded' || status === 'failed';

/**
 * Follows a long-text synthesis (the `task_id` ttsGenerate answers, a task of /v1/tasks): its
 * `ttsTaskStatus` (sentences done, failure code, the item) is polled through the app's query cache
 * every `interval` until it succeeds or fails; a failed poll is tried again on the next tick.
 * `onUpdate` hears each new state. `null` follows nothing.
 */
export function useSynthesisTask(
  taskId: string | null,
  onUpdate: (p: TaskProgress) => void,
  interval = TASK_POLL_MS,
): void {
  const q = useCall(
    api.ttsTaskStatus,
    { query: { task_id: taskId ?? '' } },
    {
      enabled: !!taskId,
      suppressError: true,
      gcTime: 0,
      refetchInterval: (query) => (query.state.data && taskEnded(query.state.data.status) ? false : interval),
      refetchIntervalInBackground: true,
      select: toProgress,
    },
  );
  const ref = useRef(onUpdate);
  ref.current = onUpdate;
  const data = taskId ? q.data : undefined;
  useEffect(() => {
    if (data) ref.current(data);
  }, [data]);
}

/** One history item with its sentence timings. */
export async function fetchItem(historyId: string): Promise<HistoryItem | null> {
  const d = await http.request(
    api.getHistory,
    { query: { tool: 'tts', history_id: historyId, page: 1, page_size: 1 } },
    { suppressError: true },
  );
  return d.list[0] ?? null;
}

/**
 * The item of a streamed synthesis: the server files it right after the last byte, so it may still
 * read as running for a moment; asks again a few times.
 */
export async function fetchFinishedItem(
  historyId: string,
  tries = 30,
  interval = 300,
): Promise<HistoryItem | null> {
  let item: HistoryItem | null = null;
  for (let i = 0; i < tries; i++) {
    item = await fetchItem(historyId).catch(() => null);
    if (item && item.status !== 'queued' && item.status !== 'running') return item;
    await new Promise((r) => setTimeout(r, interval));
  }
  return item;
}

/** Encoded audio of a signed URL, for the waveform. */
export async function fetchBytes(url: string): Promise<ArrayBuffer | null> {
  try {
    const res = await fetch(url);
    return res.ok ? await res.arrayBuffer() : null;
  } catch {
    return null;
  }
}
