import { clientMessages } from '@vw/contract/errors.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import type {
  BatchStatus,
  DownloadErrorKind,
  DownloadTask,
  DownloadTaskState,
  DownloadTaskType,
} from '@/stores/download.ts';

const text = zhCN.downloads;

/** Suspended tasks (link not obtainable) are retried automatically: 20 times, 10 s apart (spec §9). */
export const SUSPEND_RETRY = { times: 20, intervalMs: 10_000 };
/** A hidden download element stays this long before it is removed (spec §9). */
export const HIDDEN_DOWNLOAD_TTL_MS = 6 * 3600_000;

/** What a tool hands to the download center. */
export interface DownloadRequest {
  /** Identifies the file within the tool; the task key is this prefixed by the batch number. */
  id: string;
  url?: string;
  /** Obtains the URL when the task runs (signed links expire). Gets the task key. */
  urlResolver?: (key: string) => Promise<string>;
  /** Without extension. */
  fileName: string;
  ext: string;
  downloadTaskType: DownloadTaskType;
  backupDownloadType?: string;
  firstImage?: string;
}

/** A failure with its kind (spec §4 error kinds). */
export class DownloadError extends Error {
  constructor(
    readonly kind: Exclude<DownloadErrorKind, 'none'>,
    message: string,
  ) {
    super(message);
  }
}

/** The task state an outcome leads to (spec §4). */
export function stateFor(kind: DownloadErrorKind, success = false): DownloadTaskState {
  if (success) return 'success';
  if (kind === 'none') return 'normal';
  if (kind === 'url-error-suspend') return 'suspend';
  if (kind === 'aborted') return 'cancel';
  return 'error';
}

export const fullName = (fileName: string, ext: string) => (ext ? `${fileName}.${ext}` : fileName);

/** `name.ext`, or `name (1).ext`, `name (2).ext`… when taken (spec §5). */
export async function freeName(
  fileName: string,
  ext: string,
  taken: (name: string) => Promise<boolean>,
): Promise<string> {
  let candidate = fullName(fileName, ext);
  for (let n = 1; await taken(candidate); n++) candidate = fullName(`${fileName} (${n})`, ext);
  return candidate;
}

/** The parts of the File System Access API the manager uses. */
export interface FolderHandle {
  getFileHandle(
    name: string,
    options?: { create?: boolean },
  ): Promise<{
    createWritable(): Promise<{
      write(data: Uint8Array): Promise<void>;
      close(): Promise<void>;
      abort(reason?: unknown): Promise<void>;
    }>;
  }>;
  removeEntry(name: string): Promise<void>;
}

export interface DownloadStoreApi {
  getTasks(): DownloadTask[];
  addTasks(tasks: DownloadTask[]): void;
  updateTask(key: string, patch: Partial<DownloadTask>): void;
  setBatchStatus(batch: number, status: BatchStatus): void;
}

export interface ManagerDeps {
  store: DownloadStoreApi;
  fetch: typeof fetch;
  /** Asks for a folder (File System Access API); null when the browser has none; throws AbortError when the user cancels. */
  pickFolder: (() => Promise<FolderHandle>) | null;
  /** Saves a downloaded file through the browser (hidden anchor); the element goes after 6 hours. */
  saveBlob: (blob: Blob, name: string) => void;
  /** Hands a URL the page cannot read (another origin) to the browser through a hidden iframe. */
  saveUrl: (url: string, name: string) => void;
  sleep: (ms: number) => Promise<void>;
  /** Whether a URL is readable by this page (same origin). */
  sameOrigin: (url: string) => boolean;
  onFailure?: (task: DownloadTask, message: string) => void;
  onFinished?: (task: DownloadTask) => void;
  onInProgress?: (names: string[]) => void;
}

interface Job {
  batch: number;
  keys: string[];
  retry: boolean;
}

const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

/**
 * The download center's engine (spec §4 download tasks). Batches run one after another; the tasks
 * of a batch sequentially; cancelled tasks are skipped. With the File System Access API a batch of
 * several files asks once for a folder and streams each file into it with progress (free names get a
 * numbered suffix); otherwise each file is fetched with progress and saved by the browser.
 */
export class DownloadManager {
  private seq = 0;
  private readonly queue: Job[] = [];
  private pumping: Promise<void> | null = null;
  private readonly folders = new Map<number, FolderHandle | null>();
  private readonly running = new Map<string, AbortController>();
  private readonly suspendAttempts = new Map<string, number>();

  constructor(private readonly deps: ManagerDeps) {}

  /** Adds one batch; files already downloading are left out (download already in progress). */
  add(requests: DownloadRequest[]): DownloadTask[] {
    const busy = new Set(
      this.deps.store
        .getTasks()
        .filter((t) => t.taskState === 'normal' || t.taskState === 'suspend')
        .map((t) => t.key.slice(t.key.indexOf('-') + 1)),
    );
    const fresh = requests.filter((r) => !busy.has(r.id));
    const skipped = requests.filter((r) => busy.has(r.id));
    if (skipped.length > 0) this.deps.onInProgress?.(skipped.map((r) => fullName(r.fileName, r.ext)));
    if (fresh.length === 0) return [];
    const batch = ++this.seq;
    const tasks: DownloadTask[] = fresh.map((r) => {
      const key = `${batch}-${r.id}`;
      return {
        key,
        url: r.url,
        urlResolver: r.urlResolver,
        fileName: r.fileName,
        ext: r.ext,
        backupDownloadType: r.backupDownloadType,
        downloadTaskType: r.downloadTaskType,
        taskState: 'normal',
        customData: { percent: 0 },
        extData: r.firstImage ? { first_image: r.firstImage } : undefined,
        batch,
        errorKind: 'none',
      };
    });
    this.deps.store.addTasks(tasks);
    this.enqueue({ batch, keys: tasks.map((t) => t.key), retry: false });
    return tasks;
  }

  /** Cancels a task: a running one is aborted, a waiting one will be skipped. */
  cancel(key: string): void {
    const task = this.task(key);
    if (!task || (task.taskState !== 'normal' && task.taskState !== 'suspend')) return;
    const controller = this.running.get(key);
    if (controller) controller.abort();
    else this.deps.store.updateTask(key, { taskState: 'cancel', errorKind: 'aborted' });
  }

  /** Downloads a failed (or cancelled) task again, in its batch's folder. */
  retry(key: string): void {
    const task = this.task(key);
    if (!task || task.taskState === 'normal' || task.taskState === 'success') return;
    this.suspendAttempts.delete(key);
    this.deps.store.updateTask(key, {
      taskState: 'normal',
      errorKind: 'none',
      errorMessage: undefined,
      customData: { percent: 0 },
    });
    this.enqueue({ batch: task.batch ?? 0, keys: [key], retry: true });
  }

  /** Resolves when every queued batch has finished (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private task(key: string): DownloadTask | undefined {
    return this.deps.store.getTasks().find((t) => t.key === key);
  }

  private enqueue(job: Job): void {
    this.queue.push(job);
    if (!this.pumping) {
      this.pumping = this.pump().finally(() => {
        this.pumping = null;
      });
    }
  }

  private async pump(): Promise<void> {
    for (let job = this.queue.shift(); job; job = this.queue.shift()) await this.runJob(job);
  }

  private async runJob(job: Job): Promise<void> {
    const { store } = this.deps;
    if (job.retry) store.setBatchStatus(job.batch, 'user-retry');
    let folder = this.folders.get(job.batch);
    if (folder === undefined) {
      folder = null;
      // A folder is worth asking for when several files come at once.
      if (this.deps.pickFolder && job.keys.length > 1) {
        store.setBatchStatus(job.batch, 'selecting-folder');
        try {
          folder = await this.deps.pickFolder();
        } catch (e) {
          store.setBatchStatus(job.batch, 'folder-cancelled');
          for (const key of job.keys) store.updateTask(key, { taskState: 'cancel', errorKind: 'aborted' });
          if (!isAbort(e)) this.deps.onFailure?.(this.task(job.keys[0])!, (e as Error).message);
          return;
        }
      }
      this.folders.set(job.batch, folder);
    }
    store.setBatchStatus(job.batch, 'downloading');
    for (const key of job.keys) await this.runTask(key, folder);
    // Suspended tasks: the batch retries them every 10 s, up to 20 times each.
    for (;;) {
      const suspended = job.keys.filter((k) => this.task(k)?.taskState === 'suspend');
      if (suspended.length === 0) break;
      await this.deps.sleep(SUSPEND_RETRY.intervalMs);
      for (const key of suspended)
        if (this.task(key)?.taskState === 'suspend') await this.runTask(key, folder);
    }
    const states = job.keys.map((k) => this.task(k)?.taskState);
    store.setBatchStatus(job.batch, states.every((s) => s === 'cancel') ? 'user-cancelled' : 'completed');
  }

  private async runTask(key: string, folder: FolderHandle | null): Promise<void> {
    const task = this.task(key);
    if (!task || (task.taskState !== 'normal' && task.taskState !== 'suspend')) return; // cancelled: skipped
    const controller = new AbortController();
    this.running.set(key, controller);
    try {
      const url = await this.resolveUrl(task);
      if (controller.signal.aborted) throw new DownloadError('aborted', text.cancelled);
      this.deps.store.updateTask(key, { url, taskState: 'normal', errorKind: 'none' });
      const savedAs = folder
        ? await this.toFolder(task, url, folder, controller.signal)
        : await this.toBrowser(task, url, controller.signal);
      this.suspendAttempts.delete(key);
      this.deps.store.updateTask(key, {
        taskState: 'success',
        errorKind: 'none',
        errorMessage: undefined,
        customData: { percent: 100 },
        savedAs,
      });
      this.deps.onFinished?.(this.task(key)!);
    } catch (e) {
      const error =
        e instanceof DownloadError
          ? e
          : isAbort(e) || controller.signal.aborted
            ? new DownloadError('aborted', text.cancelled)
            : new DownloadError('unknown', (e as Error)?.message || clientMessages.downloadFailed);
      let kind = error.kind;
      if (kind === 'url-error-suspend') {
        const attempts = (this.suspendAttempts.get(key) ?? 0) + 1;
        this.suspendAttempts.set(key, attempts);
        // After the first try and 20 retries the link is given up on: the user may retry.
        if (attempts > SUSPEND_RETRY.times) kind = 'unknown';
      }
      const state = stateFor(kind);
      this.deps.store.updateTask(key, { taskState: state, errorKind: kind, errorMessage: error.message });
      if (state === 'error') this.deps.onFailure?.(this.task(key)!, error.message);
      if (state !== 'suspend') this.deps.onFinished?.(this.task(key)!);
    } finally {
      this.running.delete(key);
    }
  }

  private async resolveUrl(task: DownloadTask): Promise<string> {
    let url = task.url;
    if (!url && task.urlResolver) {
      try {
        url = await task.urlResolver(task.key);
      } catch {
        url = '';
      }
    }
    if (!url) throw new DownloadError('url-error-suspend', clientMessages.downloadNoUrl);
    return url;
  }

  private async open(url: string, signal: AbortSignal): Promise<ReadableStreamDefaultReader<Uint8Array>> {
    let res: Response;
    try {
      res = await this.deps.fetch(url, { signal });
    } catch (e) {
      if (isAbort(e)) throw e;
      throw new DownloadError('reader-error', clientMessages.downloadNoStream);
    }
    if (!res.ok) throw new DownloadError('http-error', text.httpError(res.status));
    if (!res.body) throw new DownloadError('reader-error', clientMessages.downloadNoStream);
    const total = Number(res.headers.get('content-length') ?? 0);
    const reader = res.body.getReader();
    (reader as { total?: number }).total = total;
    return reader;
  }

  /** Reads the stream, reporting progress; `write` receives every chunk. */
  private async pull(
    task: DownloadTask,
    reader: ReadableStreamDefaultReader<Uint8Array>,
    write: (chunk: Uint8Array) => Promise<void>,
  ): Promise<void> {
    const total = (reader as { total?: number }).total ?? 0;
    let received = 0;
    let shown = -1;
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (e) {
        if (isAbort(e)) throw e;
        throw new DownloadError('reader-error', (e as Error)?.message || clientMessages.downloadNoStream);
      }
      if (next.done) break;
      await write(next.value);
      received += next.value.byteLength;
      // Without a length the bar creeps towards 95 % until the end.
      const percent =
        total > 0 ? Math.min(99, Math.floor((received / total) * 100)) : Math.min(95, shown + 1);
      if (percent !== shown) {
        shown = percent;
        this.deps.store.updateTask(task.key, { customData: { percent } });
      }
    }
  }

  private async toFolder(
    task: DownloadTask,
    url: string,
    folder: FolderHandle,
    signal: AbortSignal,
  ): Promise<string> {
    const reader = await this.open(url, signal);
    const name = await freeName(task.fileName, task.ext, async (candidate) => {
      try {
        await folder.getFileHandle(candidate);
        return true;
      } catch {
        return false;
      }
    });
    let writable: Awaited<ReturnType<Awaited<ReturnType<FolderHandle['getFileHandle']>>['createWritable']>>;
    try {
      writable = await (await folder.getFileHandle(name, { create: true })).createWritable();
    } catch (e) {
      await reader.cancel().catch(() => {});
      throw new DownloadError('filesystem-error', text.writeFailed((e as Error).message));
    }
    try {
      await this.pull(task, reader, async (chunk) => {
        try {
          await writable.write(chunk);
        } catch (e) {
          throw new DownloadError('filesystem-error', text.writeFailed((e as Error).message));
        }
      });
      await writable.close();
      return name;
    } catch (e) {
      await writable.abort().catch(() => {});
      await folder.removeEntry(name).catch(() => {});
      await reader.cancel().catch(() => {});
      throw e;
    }
  }

  private async toBrowser(task: DownloadTask, url: string, signal: AbortSignal): Promise<string> {
    const name = fullName(task.fileName, task.ext);
    if (!this.deps.sameOrigin(url)) {
      // Another origin's file (object storage) cannot be read here: the browser downloads it itself.
      this.deps.saveUrl(url, name);
      return name;
    }
    const reader = await this.open(url, signal);
    const parts: Uint8Array[] = [];
    await this.pull(task, reader, async (chunk) => {
      parts.push(chunk);
    });
    this.deps.saveBlob(new Blob(parts as BlobPart[]), name);
    return name;
  }
}
