import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpClient } from '@/lib/http/client.ts';
import { EXPORT_POLL_STEADY_MS, exportPollDelay, runExport } from './exportPoller.ts';

const START = '/v1/balance/credit/download-consume-details';
const STATUS = '/v1/balance/credit/export-task-status';
const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));

/** A fake server: the start call answers `start`; status calls answer from `statuses` in order. */
function fake(
  statuses: Array<unknown | 'network' | 'http500'>,
  start: Response | 'network' = ok({ task_id: 't1' }),
) {
  const times: number[] = [];
  const bodies: unknown[] = [];
  const t0 = Date.now();
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    if (path === START) {
      bodies.push(JSON.parse(String(init?.body)));
      if (start === 'network') throw new TypeError('Failed to fetch');
      return start;
    }
    if (path === STATUS) {
      times.push(Date.now() - t0);
      const s = statuses.length > 1 ? statuses.shift() : statuses[0];
      if (s === 'network') throw new TypeError('Failed to fetch');
      if (s === 'http500') return new Response('oops', { status: 500 });
      if (s instanceof Response) return s;
      return ok(s);
    }
    throw new Error(`unexpected ${path}`);
  });
  const onError = vi.fn();
  const client = new HttpClient({ fetch: fetchImpl as typeof fetch, hooks: { onError } });
  return { client, times, bodies, onError };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2025-06-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

const range = { start_time: 1_700_000_000, end_time: 1_700_086_400 };

describe('export polling schedule (spec §9)', () => {
  it('waits 1 s, 2 s, 4 s, 8 s, then every 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(exportPollDelay)).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000,
    ]);
    expect(EXPORT_POLL_STEADY_MS).toBe(10_000);
  });

  it('polls at 1, 3, 7, 15, 25, 35 s while the status is 0, then downloads on 2', async () => {
    const waiting = { status: 0 };
    const done = { status: 2, download_url: '/files/x.xlsx?sig=1', file_name: '积分消耗明细.xlsx' };
    const f = fake([waiting, waiting, waiting, waiting, waiting, waiting, done]);
    const save = vi.fn(async () => 'downloaded' as const);
    const p = runExport(range, undefined, { client: f.client, save });
    await vi.advanceTimersByTimeAsync(999);
    expect(f.times).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(f.times).toEqual([1000]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.times).toEqual([1000, 3000, 7000, 15_000, 25_000, 35_000, 45_000]);
    await expect(p).resolves.toEqual({ kind: 'downloaded', fileName: '积分消耗明细.xlsx' });
    expect(save).toHaveBeenCalledWith('/files/x.xlsx?sig=1', '积分消耗明细.xlsx');
    expect(f.bodies).toEqual([range]);
    expect(f.onError).not.toHaveBeenCalled();
  });

  it('keeps polling on other values and failed status requests, without showing errors', async () => {
    const done = { status: 2, download_url: '/files/y.xlsx', file_name: 'y.xlsx' };
    const f = fake(['network', { status: 1 }, 'http500', { status: 0 }, { status: 7 }, done]);
    const save = vi.fn(async () => 'downloaded' as const);
    const p = runExport(range, undefined, { client: f.client, save });
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(p).resolves.toMatchObject({ kind: 'downloaded' });
    expect(f.times).toEqual([1000, 3000, 7000, 15_000, 25_000, 35_000]);
    expect(f.onError).not.toHaveBeenCalled();
  });

  it('status 3 → failed with 操作失败，请稍后再试 and no more polls', async () => {
    const f = fake([{ status: 0 }, { status: 3 }]);
    const p = runExport(range, undefined, { client: f.client, save: vi.fn() });
    await vi.advanceTimersByTimeAsync(100_000);
    await expect(p).resolves.toEqual({ kind: 'failed', text: '操作失败，请稍后再试' });
    expect(f.times).toEqual([1000, 3000]);
  });

  it("status 3 with the server's message shows that message (spec §8 Export)", async () => {
    const failed = new Response(
      JSON.stringify({ code: 0, msg: '导出失败，请重新导出', data: { status: 3 } }),
    );
    const f = fake([{ status: 0 }, failed]);
    const p = runExport(range, undefined, { client: f.client, save: vi.fn() });
    await vi.advanceTimersByTimeAsync(100_000);
    await expect(p).resolves.toEqual({ kind: 'failed', text: '导出失败，请重新导出' });
  });

  it('falls back to opening the link when the file cannot be fetched', async () => {
    const f = fake([{ status: 2, download_url: 'https://s3.example/x.xlsx', file_name: 'x.xlsx' }]);
    const p = runExport(range, undefined, { client: f.client, save: async () => 'opened' });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(p).resolves.toEqual({ kind: 'opened', url: 'https://s3.example/x.xlsx' });
  });

  it('a failed start shows the server message, or 操作失败，请稍后再试, kept from the general handler', async () => {
    const withMsg = fake(
      [],
      new Response(JSON.stringify({ code: 4090, msg: '已有导出任务进行中', data: null })),
    );
    await expect(runExport(range, undefined, { client: withMsg.client })).resolves.toEqual({
      kind: 'failed',
      text: '已有导出任务进行中',
    });
    expect(withMsg.onError).not.toHaveBeenCalled();
    expect(withMsg.times).toEqual([]);
    const net = fake([], 'network');
    await expect(runExport(range, undefined, { client: net.client })).resolves.toEqual({
      kind: 'failed',
      text: '操作失败，请稍后再试',
    });
    expect(net.onError).not.toHaveBeenCalled();
  });

  it('stops when cancelled', async () => {
    const f = fake([{ status: 0 }]);
    const ctrl = new AbortController();
    const p = runExport(range, ctrl.signal, { client: f.client });
    await vi.advanceTimersByTimeAsync(3000);
    ctrl.abort();
    await expect(p).resolves.toEqual({ kind: 'cancelled' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.times).toEqual([1000, 3000]);
  });
});

describe('saving the file', () => {
  it('fetches the link as a blob and saves it under its file name; falls back to a new tab', async () => {
    vi.useRealTimers();
    const { saveExportFile } = await import('./exportPoller.ts');
    const clicks: string[] = [];
    const origClick = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    };
    const createURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: createURL, revokeObjectURL: vi.fn() }));
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(new Blob(['PK']), { status: 200 })),
    );
    await expect(saveExportFile('/files/a.xlsx', 'a.xlsx')).resolves.toBe('downloaded');
    expect(clicks).toEqual(['a.xlsx']);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('no', { status: 403 })),
    );
    await expect(saveExportFile('https://s3/a.xlsx', 'a.xlsx')).resolves.toBe('opened');
    expect(open).toHaveBeenCalledWith('https://s3/a.xlsx', '_blank', 'noopener');
    HTMLAnchorElement.prototype.click = origClick;
    vi.unstubAllGlobals();
    open.mockRestore();
  });
});
