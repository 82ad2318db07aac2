import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { TaskView } from '@vw/contract';
import { TASK_EVENTS_PATH as CONTRACT_EVENTS_PATH } from '@vw/contract';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/test/fakeApi.ts';
import { fakeEventStream, task } from '@/test/fakeTasks.ts';
import { api } from '../api.ts';
import { StorageKey } from '../auth/storage.ts';
import { queryClient } from '../query/client.ts';
import { getCallData } from '../query/hooks.ts';
import { elapsedSeconds, formatDuration, remainingSeconds } from './format.ts';
import { SseParser } from './sse.ts';
import { TASK_EVENTS_PATH, taskStream } from './stream.ts';
import { TaskProgress } from './TaskProgress.tsx';
import { useTask } from './useTask.ts';

function Live({ id }: { id: string }) {
  const { task: t, mode } = useTask(id);
  return (
    <p data-testid={`live-${id}`} data-mode={mode}>
      {t ? `${t.status} ${t.progress}` : 'loading'}
    </p>
  );
}

describe('SSE parser', () => {
  it('parses frames split anywhere, with CRLF, comments, multi-line data and a kept id', () => {
    const p = new SseParser();
    expect(p.push(': ping\n\nid: 4\nevent: task.prog')).toEqual([]);
    expect(p.push('ress\r\ndata: {"a":\r\ndata: 1}\r\n\r')).toEqual([]);
    expect(p.push('\nevent: x\ndata: y\n\n')).toEqual([
      { id: '4', event: 'task.progress', data: '{"a":\n1}' },
      { id: '4', event: 'x', data: 'y' },
    ]);
    expect(p.lastEventId).toBe('4');
    // No data: nothing dispatched; retry is read.
    expect(p.push('id: 9\n\nretry: 500\ndata:z\n\n')).toEqual([
      { id: '9', event: 'message', data: 'z', retry: 500 },
    ]);
  });
  it('mirrors the contract path', () => {
    expect(TASK_EVENTS_PATH).toBe(CONTRACT_EVENTS_PATH);
  });
});

describe('time shown for a task', () => {
  it('formats elapsed time, and the time left from the server estimate only', () => {
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
    const now = 1_000_000 * 1000;
    const t = task({ started_time: 1_000_000 - 60, created_time: 1_000_000 - 90, progress: 97 });
    expect(elapsedSeconds(t, now)).toBe(60);
    // 97 % after a minute is no promise of 2 s more (quick stages before a long render): unknown.
    expect(remainingSeconds({ ...t, eta_seconds: null })).toBeNull();
    expect(remainingSeconds({ ...t, eta_seconds: 42 })).toBe(42);
    expect(remainingSeconds({ ...t, status: 'queued', eta_seconds: 42 })).toBeNull();
    expect(elapsedSeconds({ ...t, finished_time: 1_000_000 - 10 }, now)).toBe(50);
  });
});

describe('useTask over the shared event stream', () => {
  let stream: ReturnType<typeof fakeEventStream>;
  let tasks: Record<string, TaskView>;
  let server: ReturnType<typeof stubApi>;
  beforeEach(() => {
    taskStream.reset();
    taskStream.configure({ backoffMs: [10], failuresBeforePolling: 2, lingerMs: 10, pollMs: 30 });
    localStorage.setItem(StorageKey.accessToken, 'tok_abc');
    stream = fakeEventStream();
    tasks = { tsk_1: task(), tsk_2: task({ task_id: 'tsk_2', progress: 5 }) };
    server = stubApi({
      [TASK_EVENTS_PATH]: stream.route,
      '/v1/tasks/get': ({ url }) => ({ task: tasks[url.searchParams.get('task_id')!] }),
    });
  });
  afterEach(() => {
    taskStream.reset();
    vi.unstubAllGlobals();
  });

  it('loads each task once and follows it live over one connection with the access token', async () => {
    render(
      <>
        <Live id="tsk_1" />
        <Live id="tsk_2" />
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('live-tsk_1').textContent).toBe('running 28'));
    expect(screen.getByTestId('live-tsk_2').textContent).toBe('running 5');
    await waitFor(() => expect(screen.getByTestId('live-tsk_1').dataset.mode).toBe('live'));
    expect(stream.connections).toHaveLength(1);
    expect(stream.last.headers.Authorization).toBe('Bearer tok_abc');
    expect(stream.last.headers.Accept).toBe('text/event-stream');
    expect(stream.last.headers['Last-Event-ID']).toBeUndefined();

    act(() => stream.last.event(1, task({ progress: 64 })));
    await waitFor(() => expect(screen.getByTestId('live-tsk_1').textContent).toBe('running 64'));
    act(() =>
      stream.last.event(2, task({ task_id: 'tsk_2', status: 'succeeded', progress: 100 }), 'task.succeeded'),
    );
    await waitFor(() => expect(screen.getByTestId('live-tsk_2').textContent).toBe('succeeded 100'));
    expect(server.count('/v1/tasks/get')).toBe(2);
    expect(getCallData(api.getTask, { query: { task_id: 'tsk_1' } })?.task.progress).toBe(64);
  });

  it('an event that arrives while the task is loading wins over the older loaded state', async () => {
    let answer: (t: TaskView) => void = () => {};
    server = stubApi({
      [TASK_EVENTS_PATH]: stream.route,
      '/v1/tasks/get': () => new Promise((resolve) => (answer = (t) => resolve({ task: t }))),
    });
    render(<Live id="tsk_1" />);
    await waitFor(() => expect(server.count('/v1/tasks/get')).toBe(1));
    await waitFor(() => expect(stream.connections).toHaveLength(1));
    act(() => stream.last.event(3, task({ status: 'succeeded', progress: 100 }), 'task.succeeded'));
    await act(async () => answer(task({ status: 'queued', progress: 0 })));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.getByTestId('live-tsk_1').textContent).toBe('succeeded 100');
  });

  it('reconnects after a drop and resumes from the last event id', async () => {
    render(<Live id="tsk_1" />);
    await waitFor(() => expect(stream.connections).toHaveLength(1));
    act(() => stream.last.event(7, task({ progress: 40 })));
    await waitFor(() => expect(screen.getByTestId('live-tsk_1').textContent).toBe('running 40'));
    act(() => stream.last.close());
    await waitFor(() => expect(stream.connections).toHaveLength(2));
    expect(stream.last.headers['Last-Event-ID']).toBe('7');
    act(() => stream.last.event(8, task({ progress: 90 })));
    await waitFor(() => expect(screen.getByTestId('live-tsk_1').textContent).toBe('running 90'));
  });

  it('falls back to polling getTask after repeated failures, and stops polling when the stream is back', async () => {
    stream.refuse(1000);
    render(<Live id="tsk_1" />);
    await waitFor(() => expect(screen.getByTestId('live-tsk_1').dataset.mode).toBe('polling'));
    tasks.tsk_1 = task({ progress: 77 });
    await waitFor(() => expect(screen.getByTestId('live-tsk_1').textContent).toBe('running 77'));
    const polled = server.count('/v1/tasks/get');
    expect(polled).toBeGreaterThanOrEqual(2);
    stream.refuse(0);
    await waitFor(() => expect(screen.getByTestId('live-tsk_1').dataset.mode).toBe('live'));
    const after = server.count('/v1/tasks/get');
    await new Promise((r) => setTimeout(r, 120));
    // one fresh load when the stream came back, then no more polling
    expect(server.count('/v1/tasks/get')).toBeLessThanOrEqual(after + 1);
  });

  it('closes the connection when the last user leaves', async () => {
    const view = render(<Live id="tsk_1" />);
    await waitFor(() => expect(stream.open).toHaveLength(1));
    view.unmount();
    await waitFor(() => expect(stream.open).toHaveLength(0));
    expect(taskStream.mode).toBe('idle');
  });
});

describe('TaskProgress', { timeout: 15_000 }, () => {
  let server: ReturnType<typeof stubApi>;
  beforeEach(() => {
    server = stubApi({
      '/v1/tasks/cancel': ({ body }) => ({
        task: task({
          task_id: (body as { task_id: string }).task_id,
          status: 'cancelled',
          finished_time: Math.floor(Date.now() / 1000),
        }),
      }),
      '/v1/tasks/retry': () => ({ task: task({ status: 'queued', progress: 10 }) }),
      '/v1/tasks/resume': () => ({ task: task({ status: 'running' }) }),
    });
  });
  afterEach(() => vi.unstubAllGlobals());
  const show = (t: TaskView, onCancel = vi.fn()) =>
    render(
      <App>
        <TaskProgress task={t} onCancel={onCancel} />
      </App>,
    );

  it('shows status, stage, percent, elapsed and the estimate left', () => {
    show(task({ eta_seconds: 125 }));
    expect(screen.getByTestId('task-status').textContent).toBe('处理中');
    expect(screen.getByTestId('task-stage').textContent).toContain('识别语音');
    expect(screen.getByTestId('task-percent').textContent).toContain('28%');
    expect(screen.getByTestId('task-elapsed').textContent).toMatch(/已用时 1:(0[5-9]|1\d)/);
    expect(screen.getByTestId('task-remaining').textContent).toBe('预计剩余 2:05');
  });

  it('never counts the estimate up when the clock read just before the estimate arrived', () => {
    // Every read of the clock a few ms later than the one before (as on a busy machine).
    let clock = 1_700_000_000_000;
    const spy = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 7));
    try {
      show(task({ eta_seconds: 125 }));
      expect(screen.getByTestId('task-remaining').textContent).toBe('预计剩余 2:05');
    } finally {
      spy.mockRestore();
    }
  });

  it('counts the estimate down between updates', async () => {
    const shownAt = Date.now();
    show(task({ eta_seconds: 125 }));
    const left = () => {
      const text = screen.getByTestId('task-remaining').textContent ?? '';
      const m = /^预计剩余 (\d+):(\d\d)$/.exec(text);
      if (!m) throw new Error(`not a time left: ${text}`);
      return Number(m[1]) * 60 + Number(m[2]);
    };
    await waitFor(() => expect(left()).toBeLessThan(125), { timeout: 3000 });
    // One second off per second passed: a loaded machine may skip a tick or two, never count faster.
    const passed = Math.floor((Date.now() - shownAt) / 1000);
    expect(left()).toBeGreaterThanOrEqual(125 - passed);
  });

  it('cancels only after the confirmation, and reports the cancelled task', async () => {
    const onCancel = vi.fn();
    show(task(), onCancel);
    fireEvent.click(screen.getByTestId('task-cancel'));
    expect(server.count('/v1/tasks/cancel')).toBe(0);
    fireEvent.click(await screen.findByTestId('task-cancel-confirm'));
    await waitFor(() => expect(onCancel).toHaveBeenCalled());
    expect(server.calls.find((c) => c.path === '/v1/tasks/cancel')?.body).toEqual({ task_id: 'tsk_1' });
    expect(onCancel.mock.calls[0][0].status).toBe('cancelled');
    expect(getCallData(api.getTask, { query: { task_id: 'tsk_1' } })?.task.status).toBe('cancelled');
  });

  it('offers retry for a failed or cancelled task, resume for a paused one, nothing for a finished one', async () => {
    const failed = show(
      task({ status: 'failed', error_code: 4, finished_time: Math.floor(Date.now() / 1000) }),
    );
    expect(screen.getByTestId('task-error').textContent).toBe('暂不支持该语言，积分已退还');
    expect(screen.queryByTestId('task-cancel')).toBeNull();
    fireEvent.click(screen.getByTestId('task-retry'));
    await waitFor(() => expect(server.count('/v1/tasks/retry')).toBe(1));
    failed.unmount();

    const cancelled = show(task({ status: 'cancelled', finished_time: Math.floor(Date.now() / 1000) }));
    fireEvent.click(screen.getByTestId('task-retry'));
    await waitFor(() => expect(server.count('/v1/tasks/retry')).toBe(2));
    cancelled.unmount();

    // The pause says which stage finished, in Chinese: never the pause point's identifier.
    const paused = show(task({ status: 'paused', pause_point: 'recognition' }));
    expect(screen.getByTestId('task-paused-hint').textContent).toBe(
      '「识别语音」已完成，任务已暂停，请确认后继续',
    );
    expect(screen.queryByText(/recognition/)).toBeNull();
    fireEvent.click(screen.getByTestId('task-resume'));
    await waitFor(() => expect(server.count('/v1/tasks/resume')).toBe(1));
    paused.unmount();

    show(task({ status: 'succeeded', progress: 100, finished_time: Math.floor(Date.now() / 1000) }));
    expect(screen.getByTestId('task-status').textContent).toBe('已完成');
    expect(screen.queryByTestId('task-cancel')).toBeNull();
    expect(screen.queryByTestId('task-retry')).toBeNull();
    expect(screen.queryByTestId('task-remaining')).toBeNull();
  });
});
