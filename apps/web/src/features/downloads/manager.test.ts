import { describe, expect, it, vi } from 'vitest';
import type { BatchStatus, DownloadTask } from '@/stores/download.ts';
import {
  DownloadManager,
  type DownloadRequest,
  type FolderHandle,
  freeName,
  type ManagerDeps,
  SUSPEND_RETRY,
  stateFor,
} from './manager.ts';

/** A folder in memory with the File System Access API's shape. */
class MemoryFolder implements FolderHandle {
  files = new Map<string, Uint8Array>();
  failWrites = false;
  async getFileHandle(name: string, options?: { create?: boolean }) {
    if (!this.files.has(name) && !options?.create) throw new DOMException('nope', 'NotFoundError');
    if (!this.files.has(name)) this.files.set(name, new Uint8Array());
    const folder = this;
    return {
      async createWritable() {
        const parts: Uint8Array[] = [];
        return {
          async write(data: Uint8Array) {
            if (folder.failWrites) throw new Error('disk full');
            parts.push(data);
          },
          async close() {
            folder.files.set(name, new Uint8Array(Buffer.concat(parts)));
          },
          async abort() {},
        };
      },
    };
  }
  async removeEntry(name: string) {
    this.files.delete(name);
  }
}

/** A response streaming `chunks`; `gate` holds the stream after the first chunk until released. */
function streamed(chunks: string[], gate?: Promise<void>, signal?: AbortSignal): Response {
  const bytes = chunks.map((c) => new TextEncoder().encode(c));
  const total = bytes.reduce((n, b) => n + b.byteLength, 0);
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i === 1 && gate) {
        await Promise.race([
          gate,
          new Promise((_, reject) =>
            signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
        ]);
      }
      if (i < bytes.length) controller.enqueue(bytes[i++]);
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-length': String(total) } });
}

function setup(overrides: Partial<ManagerDeps> = {}) {
  let tasks: DownloadTask[] = [];
  const batches: Record<number, BatchStatus[]> = {};
  const percents: Record<string, number[]> = {};
  const saved: { name: string; text?: string; url?: string }[] = [];
  const failures: string[] = [];
  const sleeps: number[] = [];
  const folder = new MemoryFolder();
  const deps: ManagerDeps = {
    store: {
      getTasks: () => tasks,
      addTasks: (t) => {
        tasks = [...tasks, ...t];
      },
      updateTask: (key, patch) => {
        tasks = tasks.map((t) => (t.key === key ? { ...t, ...patch } : t));
        if (patch.customData) {
          percents[key] ??= [];
          percents[key].push(patch.customData.percent);
        }
      },
      setBatchStatus: (b, s) => {
        batches[b] ??= [];
        batches[b].push(s);
      },
    },
    fetch: vi.fn(async (url: string | URL | Request) =>
      streamed([`<${String(url)}>`, 'body']),
    ) as typeof fetch,
    pickFolder: async () => folder,
    saveBlob: (blob, name) => {
      // jsdom's Blob has no text(): read it the old way.
      const reader = new FileReader();
      reader.onload = () => saved.push({ name, text: String(reader.result) });
      reader.readAsText(blob);
    },
    saveUrl: (url, name) => saved.push({ name, url }),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    sameOrigin: (url) => url.startsWith('/'),
    onFailure: (task, message) => failures.push(`${task.fileName}: ${message}`),
    ...overrides,
  };
  const manager = new DownloadManager(deps);
  const get = (key: string) => tasks.find((t) => t.key === key)!;
  return { manager, deps, get, tasks: () => tasks, batches, percents, saved, failures, sleeps, folder };
}

const req = (id: string, extra: Partial<DownloadRequest> = {}): DownloadRequest => ({
  id,
  url: `/files/${id}`,
  fileName: id,
  ext: 'mp3',
  downloadTaskType: 'audio',
  ...extra,
});

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('download states and names', () => {
  it('maps outcomes to states (spec §4)', () => {
    expect(stateFor('none')).toBe('normal');
    expect(stateFor('none', true)).toBe('success');
    expect(stateFor('url-error-suspend')).toBe('suspend');
    expect(stateFor('aborted')).toBe('cancel');
    for (const k of ['http-error', 'reader-error', 'filesystem-error', 'unknown'] as const)
      expect(stateFor(k)).toBe('error');
  });

  it('numbers a name that is taken: name (1).ext, name (2).ext', async () => {
    const taken = new Set(['a.mp3', 'a (1).mp3']);
    expect(await freeName('a', 'mp3', async (n) => taken.has(n))).toBe('a (2).mp3');
    expect(await freeName('b', 'srt', async (n) => taken.has(n))).toBe('b.srt');
  });
});

describe('batch runner', () => {
  it('streams a batch into the chosen folder, one task after another, with progress', async () => {
    const s = setup();
    const tasks = s.manager.add([req('a'), req('b'), req('c')]);
    expect(tasks.map((t) => t.key)).toEqual(['1-a', '1-b', '1-c']);
    await s.manager.idle();
    expect(s.tasks().map((t) => t.taskState)).toEqual(['success', 'success', 'success']);
    expect(text(s.folder.files.get('b.mp3'))).toBe('</files/b>body');
    expect(s.batches[1]).toEqual(['selecting-folder', 'downloading', 'completed']);
    // progress grows and ends at 100
    expect(s.percents['1-a'].at(-1)).toBe(100);
    expect(s.percents['1-a'].some((p) => p > 0 && p < 100)).toBe(true);
    // sequential: fetched in order
    expect(vi.mocked(s.deps.fetch).mock.calls.map((c) => c[0])).toEqual(['/files/a', '/files/b', '/files/c']);
  });

  it('gives a file whose name is taken in the folder a numbered suffix', async () => {
    const s = setup();
    s.folder.files.set('a.mp3', new Uint8Array([1]));
    s.manager.add([req('a'), req('x', { fileName: 'a' })]);
    await s.manager.idle();
    expect([...s.folder.files.keys()].sort()).toEqual(['a (1).mp3', 'a (2).mp3', 'a.mp3']);
    expect(s.get('1-a').savedAs).toBe('a (1).mp3');
    expect(s.get('1-x').savedAs).toBe('a (2).mp3');
  });

  it('runs batches one after another', async () => {
    const order: string[] = [];
    const s = setup({
      fetch: (async (url: string) => {
        order.push(String(url));
        return streamed(['x']);
      }) as typeof fetch,
    });
    s.manager.add([req('a'), req('b')]);
    s.manager.add([req('c'), req('d')]);
    await s.manager.idle();
    expect(order).toEqual(['/files/a', '/files/b', '/files/c', '/files/d']);
    expect(s.tasks().map((t) => t.key)).toEqual(['1-a', '1-b', '2-c', '2-d']);
  });

  it('without the File System Access API (or for one file) the browser saves a fetched blob', async () => {
    const s = setup({ pickFolder: null });
    s.manager.add([req('a'), req('b')]);
    s.manager.add([req('remote', { url: 'https://bucket.example/x.mp3' })]);
    await s.manager.idle();
    await vi.waitFor(() => expect(s.saved).toContainEqual({ name: 'a.mp3', text: '</files/a>body' }));
    expect(s.saved).toContainEqual({ name: 'remote.mp3', url: 'https://bucket.example/x.mp3' });
    expect(s.batches[1]).toEqual(['downloading', 'completed']);
  });

  it('a cancelled folder choice cancels the batch', async () => {
    const s = setup({
      pickFolder: async () => {
        throw new DOMException('user closed', 'AbortError');
      },
    });
    s.manager.add([req('a'), req('b')]);
    await s.manager.idle();
    expect(s.batches[1]).toEqual(['selecting-folder', 'folder-cancelled']);
    expect(s.tasks().map((t) => t.taskState)).toEqual(['cancel', 'cancel']);
    expect(s.deps.fetch).not.toHaveBeenCalled();
    expect(s.failures).toEqual([]);
  });

  it('cancel aborts a running task and skips a waiting one; retry downloads again', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const fetched: string[] = [];
    const s = setup({
      fetch: (async (url: string, init?: RequestInit) =>
        fetched.push(String(url)) &&
        streamed(
          [`<${url}>`, 'body'],
          String(url).endsWith('/a') ? gate : undefined,
          init?.signal ?? undefined,
        )) as typeof fetch,
    });
    s.manager.add([req('a'), req('b'), req('c')]);
    await vi.waitFor(() => expect(s.percents['1-a']?.length).toBeGreaterThan(0));
    s.manager.cancel('1-b'); // waiting
    s.manager.cancel('1-a'); // running
    await s.manager.idle();
    expect(s.get('1-a')).toMatchObject({ taskState: 'cancel', errorKind: 'aborted' });
    expect(s.get('1-b').taskState).toBe('cancel');
    expect(s.get('1-c').taskState).toBe('success');
    expect(fetched).toEqual(['/files/a', '/files/c']);
    // the partial file is gone
    expect(s.folder.files.has('a.mp3')).toBe(false);
    expect(s.failures).toEqual([]);

    release();
    s.manager.retry('1-a');
    expect(s.get('1-a').taskState).toBe('normal');
    await s.manager.idle();
    expect(s.get('1-a').taskState).toBe('success');
    expect(text(s.folder.files.get('a.mp3'))).toBe('</files/a>body');
    expect(s.batches[1].slice(-3)).toEqual(['user-retry', 'downloading', 'completed']);
  });

  it('HTTP, stream and file-system failures are errors with their kind and a toast; retry recovers', async () => {
    let status = 500;
    const s = setup({
      fetch: (async (url: string) => {
        if (String(url).endsWith('/h')) return new Response('no', { status });
        if (String(url).endsWith('/n')) return new Response(null);
        return streamed(['x']);
      }) as typeof fetch,
    });
    s.manager.add([req('h'), req('n')]);
    await s.manager.idle();
    expect(s.get('1-h')).toMatchObject({
      taskState: 'error',
      errorKind: 'http-error',
      errorMessage: 'HTTP 错误 500',
    });
    expect(s.get('1-n')).toMatchObject({
      taskState: 'error',
      errorKind: 'reader-error',
      errorMessage: '无法获取文件流',
    });
    expect(s.failures).toEqual(['h: HTTP 错误 500', 'n: 无法获取文件流']);

    status = 200;
    s.manager.retry('1-h');
    await s.manager.idle();
    expect(s.get('1-h').taskState).toBe('success');
    expect(text(s.folder.files.get('h.mp3'))).toBe('no');

    s.folder.failWrites = true;
    s.manager.add([req('w1'), req('w2')]);
    await s.manager.idle();
    expect(s.get('2-w1')).toMatchObject({ taskState: 'error', errorKind: 'filesystem-error' });
    expect(s.get('2-w1').errorMessage).toMatch(/^文件写入失败/);
    expect(s.folder.files.has('w1.mp3')).toBe(false);
  });

  it('a link that cannot be obtained suspends the task; the batch retries it every 10 s, 20 times', async () => {
    let calls = 0;
    const s = setup({
      pickFolder: null,
      sleep: async (ms) => {
        s.sleeps.push(ms);
      },
    });
    s.manager.add([
      req('gone', {
        url: undefined,
        urlResolver: async () => {
          calls++;
          throw new Error('signing failed');
        },
      }),
    ]);
    await s.manager.idle();
    expect(calls).toBe(1 + SUSPEND_RETRY.times);
    expect(s.sleeps).toEqual(Array(SUSPEND_RETRY.times).fill(10_000));
    expect(s.get('1-gone')).toMatchObject({ taskState: 'error', errorMessage: '无法获取下载链接' });
    expect(s.failures).toEqual(['gone: 无法获取下载链接']);
  });

  it('a suspended task recovers when the link comes back, and a cancel stops the retries', async () => {
    let calls = 0;
    const s = setup({ pickFolder: null });
    s.manager.add([
      req('late', { url: undefined, urlResolver: async () => (++calls >= 3 ? '/files/late' : '') }),
    ]);
    await s.manager.idle();
    expect(s.get('1-late').errorMessage).toBeUndefined();
    expect(s.get('1-late').taskState).toBe('success');
    expect(calls).toBe(3);

    let n = 0;
    const t = setup({
      pickFolder: null,
      sleep: async () => {
        if (++n === 2) t.manager.cancel('1-never');
      },
    });
    t.manager.add([req('never', { url: undefined, urlResolver: async () => '' })]);
    expect(t.tasks()[0].taskState).toBe('normal');
    await t.manager.idle();
    expect(t.get('1-never').taskState).toBe('cancel');
    expect(n).toBe(2);
    expect(t.batches[1].at(-1)).toBe('user-cancelled');
  });

  it('a file already downloading is not added twice (download already in progress)', async () => {
    const inProgress: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const s = setup({
      pickFolder: null,
      fetch: (async () => streamed(['x', 'y'], gate)) as typeof fetch,
      onInProgress: (names) => inProgress.push(names),
    });
    s.manager.add([req('a')]);
    expect(s.manager.add([req('a'), req('b')]).map((t) => t.key)).toEqual(['2-b']);
    expect(inProgress).toEqual([['a.mp3']]);
    release();
    await s.manager.idle();
    expect(s.manager.add([req('a')]).map((t) => t.key)).toEqual(['3-a']);
    await s.manager.idle();
  });
});
