import { availableParallelism } from 'node:os';
import { PassThrough, type Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../errors.ts';
import { startMp3Process } from './ffmpeg.ts';

/**
 * MP3 encoding of short streams in worker threads of this process: LAME compiled to WebAssembly
 * (mp3-worker.ts). Starting Debian's ffmpeg costs about 60 ms of CPU (its dynamic linker resolving
 * 200 libraries) while LAME encodes 3 s of speech in about 15 ms, so a short synthesis spent most of
 * its CPU starting ffmpeg. The threads stay up between streams and encode on a core the event loop
 * does not use. Long streams go to ffmpeg (native LAME at quality 7, about twice as fast).
 */

/** Samples sent to the thread per message. */
const CHUNK_SAMPLES = 16_384;
/** Chunks a stream may have in the thread at once: bounds the bytes that arrive after the output is full. */
const IN_FLIGHT = 4;
/** Seconds of audio write() accepts ahead of the encoder before it waits. */
const QUEUE_SECONDS = 10;
/** Encoded bytes the output may hold unread before encoding pauses (the consumer is slow: a store). */
const OUTPUT_HIGH_WATER = 1024 * 1024;
/** Never more threads than the 2 cores of the smallest supported server. */
const MAX_THREADS = Math.max(1, Math.min(2, availableParallelism()));

export interface AudioEncoder {
  /** Encoded bytes: consume them while writing (pipe them to the response or the store). */
  readonly output: Readable;
  /** Queues samples for encoding; waits while much is queued or much encoded output is unread. */
  write(samples: Int16Array): Promise<void>;
  /** Flushes the last frames and ends the output. */
  end(): Promise<void>;
}

interface Reply {
  id: number;
  bytes?: Uint8Array;
  encoded?: true;
  ended?: true;
  error?: string;
}

interface Thread {
  worker: Worker;
  alive: boolean;
  streams: Map<number, { receive(msg: Reply): void; fail(err: Error): void }>;
}

const threads: Thread[] = [];
let nextId = 1;

const aborted = () => new EngineError('aborted', '音频处理已取消', 'audio processing aborted');
const failed = (reason: string) =>
  new EngineError('media_failed', '生成 MP3 失败，请重试', `MP3 encoder thread: ${reason}`);

function startThread(): Thread {
  const worker = new Worker(new URL('./mp3-worker.ts', import.meta.url));
  worker.unref();
  const thread: Thread = { worker, alive: true, streams: new Map() };
  threads.push(thread);
  worker.on('message', (msg: Reply) => thread.streams.get(msg.id)?.receive(msg));
  const crashed = (reason: string) => {
    if (!thread.alive) return;
    thread.alive = false;
    threads.splice(threads.indexOf(thread), 1);
    const streams = [...thread.streams.values()];
    thread.streams.clear();
    for (const stream of streams) stream.fail(failed(reason));
  };
  worker.on('error', (err) => crashed(err.message));
  worker.on('exit', (code) => crashed(`exited with code ${code}`));
  return thread;
}

/** An idle thread, else a new one while under the limit, else the least busy. */
function threadForStream(): Thread {
  const idle = threads.find((t) => t.streams.size === 0);
  if (idle) return idle;
  if (threads.length < MAX_THREADS) return startThread();
  return threads.reduce((a, b) => (b.streams.size < a.streams.size ? b : a));
}

/** Ends the encoder threads; streams still open fail. For shutdown (and tests of that failure). */
export async function stopMp3Threads(): Promise<void> {
  await Promise.all(threads.map((t) => t.worker.terminate()));
}

/** PCM a long stream's ffmpeg may have queued on its stdin before write() waits. */
const PROCESS_QUEUE_BYTES = 4 * 1024 * 1024;

/**
 * A 64 kbps CBR MP3 stream fed sentence by sentence, so a server sends bytes while later sentences
 * are still being synthesised. Mono 16-bit PCM at `sampleRate` in. A `long` stream (minutes of
 * speech) is encoded by ffmpeg's native LAME, which the WebAssembly build on one thread cannot keep
 * up with; a short one in a thread here, where starting ffmpeg would cost more than encoding.
 */
export function createMp3Encoder(options: {
  sampleRate: number;
  signal?: AbortSignal;
  long?: boolean;
}): AudioEncoder {
  return options.long ? processEncoder(options) : threadEncoder(options);
}

function processEncoder({ sampleRate, signal }: { sampleRate: number; signal?: AbortSignal }): AudioEncoder {
  const { child, done } = startMp3Process(sampleRate, signal);
  const stdin = child.stdin!;
  let failure: Error | null = null;
  done.catch((err: Error) => {
    failure = err;
    child.stdout.destroy(err);
  });
  child.stdout.on('error', () => {}); // reported by write() and end()
  return {
    output: child.stdout,
    async write(samples) {
      if (failure) throw failure;
      // A copy: the caller keeps its samples while they wait in the pipe.
      const bytes = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
      if (stdin.write(Buffer.from(bytes)) || stdin.writableLength < PROCESS_QUEUE_BYTES) return;
      await Promise.race([new Promise((resolve) => stdin.once('drain', resolve)), done]);
      if (failure) throw failure;
    },
    async end() {
      if (failure) throw failure;
      stdin.end();
      await done;
    },
  };
}

function threadEncoder({ sampleRate, signal }: { sampleRate: number; signal?: AbortSignal }): AudioEncoder {
  const output = new PassThrough({ highWaterMark: OUTPUT_HIGH_WATER });
  // A failure is reported by write() and end(); a reader without an error listener must not crash.
  output.on('error', () => {});
  const id = nextId++;
  const thread = threadForStream();
  const queue: Int16Array[] = [];
  let queued = 0;
  let inFlight = 0;
  let ending = false;
  let endSent = false;
  let finished = false;
  let failure: Error | null = null;
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const wake of waiters) wake();
    waiters.clear();
  };
  const until = async (done: () => boolean) => {
    while (!failure && !done()) await new Promise<void>((resolve) => waiters.add(resolve));
    if (failure) throw failure;
  };

  const detach = () => {
    thread.streams.delete(id);
    if (thread.alive && !finished) thread.worker.postMessage({ type: 'drop', id });
    if (thread.streams.size === 0) thread.worker.unref();
    signal?.removeEventListener('abort', onAbort);
    output.off('drain', pump);
  };
  const fail = (err: Error) => {
    if (failure || finished) return;
    failure = err;
    detach();
    output.destroy(err);
    changed();
  };
  const onAbort = () => fail(aborted());

  // Sends queued chunks while the output has room; the end once everything is encoded.
  function pump() {
    while (!failure && queue.length && inFlight < IN_FLIGHT && !output.writableNeedDrain) {
      const chunk = queue.shift() as Int16Array;
      queued -= chunk.length;
      inFlight++;
      thread.worker.postMessage({ type: 'encode', id, samples: chunk }, [chunk.buffer as ArrayBuffer]);
    }
    if (!failure && ending && !endSent && !queue.length && inFlight === 0) {
      endSent = true;
      thread.worker.postMessage({ type: 'end', id });
    }
    changed();
  }

  thread.streams.set(id, {
    fail,
    receive(msg) {
      if (failure) return;
      if (msg.error !== undefined) return fail(failed(msg.error));
      if (msg.bytes?.length)
        output.write(Buffer.from(msg.bytes.buffer, msg.bytes.byteOffset, msg.bytes.length));
      if (msg.encoded) inFlight--;
      if (msg.ended) {
        finished = true;
        detach();
        output.end();
      }
      pump();
    },
  });
  thread.worker.ref(); // an open stream keeps the process waiting for its bytes
  thread.worker.postMessage({ type: 'open', id, sampleRate });
  output.on('drain', pump);
  // The consumer gave up on the output: stop encoding.
  output.once('close', () => fail(aborted()));
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });

  return {
    output,
    async write(samples) {
      if (failure) throw failure;
      // Copies: the caller keeps its samples, the thread takes each copy without another.
      for (let at = 0; at < samples.length; at += CHUNK_SAMPLES) {
        const chunk = samples.slice(at, at + CHUNK_SAMPLES);
        queue.push(chunk);
        queued += chunk.length;
      }
      pump();
      await until(() => queued <= sampleRate * QUEUE_SECONDS);
    },
    async end() {
      if (failure) throw failure;
      ending = true;
      pump();
      await until(() => finished);
    },
  };
}
