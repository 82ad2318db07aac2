import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { EngineError, type EngineErrorCode } from '../errors.ts';
import { type EspeakOutput, type EspeakParams, espeakMissing } from './library.ts';

type Reply =
  | { type: 'ready'; sampleRate: number; version: string }
  | { type: 'unavailable'; error: string }
  | { type: 'done'; id: number; out: EspeakOutput }
  | { type: 'failed'; id: number; error: { code: EngineErrorCode; zh: string; en: string } };

interface Pending {
  resolve: (out: EspeakOutput) => void;
  reject: (err: Error) => void;
}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  /** The job it is running, if any. */
  busy: number | null;
  started: boolean;
}

interface Queued {
  id: number;
  ssml: string;
  params: EspeakParams;
}

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

/** Processes by default: one per core, at most four (espeak is CPU-bound and light on memory). */
export function defaultEspeakProcesses(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * espeak-ng synthesis in child processes: calls run in parallel, one per process, queued in order
 * when all are busy. A process that dies fails its call and is replaced.
 */
export class EspeakProcessPool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly queue: Queued[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    size: number,
    private readonly libraryPath?: string,
  ) {
    for (let i = 0; i < size; i++) this.workers.push(this.spawn());
  }

  /** Resolves once every process has loaded the library; rejects when espeak-ng is missing. */
  async ready(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.ready));
  }

  synth(ssml: string, params: EspeakParams): Promise<EspeakOutput> {
    if (this.closed) return Promise.reject(new EngineError('aborted', '合成已取消', 'the engine is closed'));
    const id = this.nextId++;
    const result = new Promise<EspeakOutput>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.queue.push({ id, ssml, params });
    this.dispatch();
    return result;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const { child } of this.workers) child.kill();
    for (const [id, p] of this.pending) {
      p.reject(new EngineError('aborted', '合成已取消', 'the engine is closed'));
      this.pending.delete(id);
    }
  }

  private spawn(): Worker {
    const child = fork(WORKER, this.libraryPath ? [this.libraryPath] : [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker: Worker = { child, busy: null, started: false, ready: Promise.resolve() };
    worker.ready = new Promise<void>((resolve, reject) => {
      child.on('message', (reply: Reply) => {
        if (reply.type === 'ready') {
          worker.started = true;
          resolve();
          this.dispatch();
        } else if (reply.type === 'unavailable') {
          reject(espeakMissing(new Error(reply.error)));
        } else {
          this.finish(worker, reply);
        }
      });
      child.once('exit', (code) => {
        reject(espeakMissing(new Error(`espeak worker exited with ${code}`)));
        this.replace(worker, code);
      });
    });
    worker.ready.catch(() => {}); // observed through ready() and the calls
    this.idle(child);
    return worker;
  }

  private dispatch(): void {
    for (const worker of this.workers) {
      if (this.queue.length === 0) break;
      if (worker.busy !== null || !worker.child.connected) continue;
      const job = this.queue.shift()!;
      worker.busy = job.id;
      // Keep the process alive while a call is out; an idle pool never holds the process open.
      worker.child.channel?.ref();
      worker.child.send(job);
    }
  }

  private finish(worker: Worker, reply: Extract<Reply, { id: number }>): void {
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    worker.busy = null;
    this.idle(worker.child);
    if (reply.type === 'done') waiting?.resolve(reply.out);
    else waiting?.reject(new EngineError(reply.error.code, reply.error.zh, reply.error.en));
    this.dispatch();
  }

  private replace(worker: Worker, code: number | null): void {
    if (!worker.started) {
      // It never loaded the library: espeak-ng is missing, and another process would fail the same way.
      this.closed = true;
      for (const [id, p] of this.pending) {
        p.reject(espeakMissing(new Error(`espeak worker exited with ${code}`)));
        this.pending.delete(id);
      }
      this.queue.length = 0;
      return;
    }
    if (worker.busy !== null) {
      this.pending
        .get(worker.busy)
        ?.reject(
          new EngineError(
            'media_failed',
            '标准引擎进程意外退出，请重试',
            `espeak worker exited with ${code}`,
          ),
        );
      this.pending.delete(worker.busy);
    }
    if (this.closed) return;
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers[index] = this.spawn();
  }

  private idle(child: ChildProcess): void {
    child.unref();
    child.channel?.unref();
  }
}
