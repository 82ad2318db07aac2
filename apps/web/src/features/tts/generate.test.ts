import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type TaskProgress, taskEnded, useSynthesisTask } from './generate.ts';

const envelope = (code: number, data: unknown, msg = 'ok') =>
  new Response(JSON.stringify({ code, msg, data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

const status = (s: string, done: number, extra: Record<string, unknown> = {}) => ({
  task_id: 'task1',
  status: s,
  progress: done * 30,
  sentences_done: done,
  sentences_total: 3,
  failure_code: null,
  error: null,
  item: { history_id: 'h1', status: s },
  ...extra,
});

/** Answers the queued replies in order (the last one again), counting task-status calls. */
function stubStatus(replies: Array<() => Response>) {
  const fetch = vi.fn(async (url: string) => {
    if (!String(url).includes('/v1/tts/task?task_id=task1')) throw new Error(`unexpected ${url}`);
    const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
    return reply();
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('following a long-text synthesis', () => {
  it('polls the task status until it succeeds, reporting sentences done, then stops', async () => {
    const fetch = stubStatus([
      () => envelope(0, status('queued', 0)),
      () => envelope(0, status('running', 1)),
      () => envelope(0, status('running', 2)),
      () => envelope(0, status('succeeded', 3, { progress: 100 })),
    ]);
    const seen: TaskProgress[] = [];
    renderHook(() => useSynthesisTask('task1', (p) => seen.push(p), 20));
    await waitFor(() => expect(seen.at(-1)?.status).toBe('succeeded'));
    expect(seen.map((p) => [p.status, p.done, p.total])).toEqual([
      ['queued', 0, 3],
      ['running', 1, 3],
      ['running', 2, 3],
      ['succeeded', 3, 3],
    ]);
    expect(seen.at(-1)).toMatchObject({ taskId: 'task1', progress: 100, item: { history_id: 'h1' } });
    const calls = fetch.mock.calls.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(fetch.mock.calls.length).toBe(calls);
  });

  it('reports a failure with its code and message', async () => {
    stubStatus([
      () => envelope(0, status('running', 1)),
      () => envelope(0, status('failed', 1, { failure_code: 4, error: '不支持该语言' })),
    ]);
    const seen: TaskProgress[] = [];
    renderHook(() => useSynthesisTask('task1', (p) => seen.push(p), 20));
    await waitFor(() => expect(seen.at(-1)?.status).toBe('failed'));
    expect(seen.at(-1)).toMatchObject({ failureCode: 4, error: '不支持该语言' });
  });

  it('tries a failed poll again on the next tick', async () => {
    stubStatus([
      () => envelope(0, status('running', 1)),
      () => envelope(500, null, 'busy'),
      () => envelope(0, status('succeeded', 3)),
    ]);
    const seen: TaskProgress[] = [];
    renderHook(() => useSynthesisTask('task1', (p) => seen.push(p), 20));
    await waitFor(() => expect(seen.at(-1)?.status).toBe('succeeded'), { timeout: 3000 });
    expect(seen.map((p) => p.status)).toEqual(['running', 'succeeded']);
  });

  it('follows nothing without a task id', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const onUpdate = vi.fn();
    renderHook(() => useSynthesisTask(null, onUpdate, 20));
    await new Promise((r) => setTimeout(r, 60));
    expect(fetch).not.toHaveBeenCalled();
    expect(onUpdate).not.toHaveBeenCalled();
  });

  it('an item that succeeded or failed has ended', () => {
    expect(['queued', 'running', 'succeeded', 'failed'].map((s) => taskEnded(s as never))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
