import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { MediaAsset, ProjectView, ToolAvailability } from '@vw/contract';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { invalidateCall } from '@/lib/query/hooks.ts';
import { TASK_EVENTS_PATH, taskStream } from '@/lib/tasks/stream.ts';
import { envelope, stubApi } from '@/test/fakeApi.ts';
import { fakeEventStream, task } from '@/test/fakeTasks.ts';
import { Component as VideoTranslationPage } from './VideoTranslationPage.tsx';

const tus = vi.hoisted(() => ({
  uploads: [] as Array<{
    file: File;
    options: { onSuccess: () => void; onProgress: (a: number, b: number) => void };
    url: string | null;
    starts: number;
  }>,
}));
vi.mock('tus-js-client', () => ({
  Upload: class {
    options: never;
    url: string | null = null;
    starts = 0;
    file: File;
    constructor(file: File, options: never) {
      this.file = file;
      this.options = options;
      tus.uploads.push(this as never);
    }
    start() {
      this.starts++;
    }
    abort() {
      return Promise.resolve();
    }
    findPreviousUploads() {
      return Promise.resolve([]);
    }
    resumeFromPreviousUpload() {}
  },
}));
const downloads = vi.hoisted(() => ({
  requests: [] as Array<{ urlResolver?: (k: string) => Promise<string>; fileName: string; ext: string }>,
}));
vi.mock('@/features/downloads/center.ts', () => ({
  startDownloads: (r: never[]) => {
    downloads.requests.push(...r);
    return [];
  },
}));

const project = (over: Partial<ProjectView> = {}): ProjectView => ({
  project_id: 'prj_1',
  tool: 'stt',
  name: '周会录音',
  status: 'succeeded',
  progress: 100,
  task_id: 'tsk_1',
  source_asset_id: 'ast_1',
  duration_ms: 95_000,
  cover_url: '',
  engine_label: 'fake',
  created_time: 1_700_000_000,
  updated_time: 1_700_000_000,
  ...over,
});
const asset: MediaAsset = {
  asset_id: 'ast_9',
  name: 'interview.mp3',
  kind: 'audio',
  mime: 'audio/mpeg',
  size: 2048,
  duration_ms: 90_000,
  width: null,
  height: null,
  has_audio: true,
  has_video: false,
  sha256: 'x',
  status: 'ready',
  url: '/files/a',
  thumbnail_url: '',
  created_time: 1,
};

let projects: ProjectView[];
let tools: ToolAvailability[];
let features: Record<string, boolean>;
let stream: ReturnType<typeof fakeEventStream>;
let server: ReturnType<typeof stubApi>;
let createAnswer: unknown;

beforeEach(() => {
  tus.uploads.length = 0;
  downloads.requests.length = 0;
  taskStream.reset();
  taskStream.configure({ backoffMs: [10], lingerMs: 10 });
  projects = [];
  tools = [{ tool: 'stt', available: true, reason: '', error_type: '', engines: [] }];
  features = { subtitle_generate: true };
  createAnswer = { task_id: 'tsk_new', project_id: 'prj_new', credits: 12 };
  stream = fakeEventStream();
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  server = stubApi({
    [TASK_EVENTS_PATH]: stream.route,
    '/v1/projects/list': () => ({ total: projects.length, list: projects }),
    '/v1/projects/delete': ({ body }) => {
      projects = projects.filter((p) => p.project_id !== (body as { project_id: string }).project_id);
      return { deleted: 1 };
    },
    '/v1/projects/export': () => ({ url: '/files/export/x.srt', file_name: 'x.srt', size: 10 }),
    '/v1/tools/capabilities': () => ({
      features,
      limits: { max_upload_bytes: 1024 ** 3, max_duration_seconds: 7200, max_width: 3840, max_height: 2160 },
      tools,
    }),
    '/v1/tasks/get': ({ url }) =>
      url.searchParams.get('task_id') === 'tsk_new'
        ? { task: task({ task_id: 'tsk_new', project_id: 'prj_new', progress: 10, stage: 'prepare' }) }
        : { task: task({ progress: 40 }) },
    '/v1/misc/generate_obs_temporary_credentials': () => ({
      provider: 'tus',
      endpoint: '/v1/uploads/tus',
      max_size: 1024 ** 3,
      chunk_size: 1024 * 1024,
    }),
    '/v1/media/complete_upload': () => ({ asset }),
    '/v1/balance/credit/estimate': () => ({ credits: 12, balance: 100, sufficient: true }),
    '/v1/stt/create': () => createAnswer,
    '/v1/tasks/retry': ({ body }) => {
      const id = (body as { task_id: string }).task_id;
      projects = projects.map((p) => (p.task_id === id ? { ...p, status: 'queued' } : p));
      return { task: task({ task_id: id, status: 'queued' }) };
    },
  });
});
afterEach(() => {
  taskStream.reset();
  vi.unstubAllGlobals();
  http.hooks.onError = undefined;
});

function Where() {
  const l = useLocation();
  return <p data-testid="where">{`${l.pathname}${l.search}`}</p>;
}
const mount = (path = '/video-translation') => {
  const router = createMemoryRouter(
    [
      { path: '/video-translation/editor', element: <Where /> },
      {
        path: '/video-translation/:tab?',
        element: (
          <>
            <VideoTranslationPage />
            <Where />
          </>
        ),
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <App>
      <RouterProvider router={router} />
    </App>,
  );
  return router;
};

// antd's table renders slowly in jsdom on a busy machine: the page tests get more time.
describe('/video-translation', { timeout: 20_000 }, () => {
  it('opens the first built tab and shows only built tools; an empty list says so', async () => {
    const router = mount('/video-translation');
    await waitFor(() => expect(router.state.location.pathname).toBe('/video-translation/translate'));
    // (role queries are slow over antd's table in jsdom: plain selectors)
    await waitFor(() => expect(document.querySelectorAll('.ant-tabs-tab').length).toBeGreaterThan(0));
    expect([...document.querySelectorAll('.ant-tabs-tab')].map((t) => t.textContent)).toEqual([
      '视频翻译',
      'AI配音',
      'SRT配音',
      '视频合成',
      '字幕擦除',
      '字幕提取',
      '语音转文字',
    ]);
    expect(await screen.findByText('还没有项目，点击“新建”开始')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/v1/projects/list')?.query).toMatchObject({
      tool: 'translate',
      page: '1',
    });
    // A tab that does not exist goes to the first built one too.
    act(() => void router.navigate('/video-translation/lip-sync'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/video-translation/translate'));
  });

  it('lists projects with duration and actions; a running one shows its live task progress', async () => {
    projects = [
      project({ project_id: 'prj_run', name: '访谈', status: 'running', progress: 40, task_id: 'tsk_1' }),
      project(),
    ];
    mount('/video-translation/stt');
    await screen.findByText('访谈');
    const rows = [...document.querySelectorAll<HTMLElement>('.ant-table-row')];
    const running = rows.find((r) => r.textContent?.includes('访谈'))!;
    await waitFor(() =>
      expect(within(running).getByTestId('task-status').textContent).toBe('处理中 · 识别语音'),
    );
    expect(within(running).getByTestId('task-percent').textContent).toContain('40%');
    expect(within(running).getByTestId('project-open').hasAttribute('disabled')).toBe(true);
    await waitFor(() => expect(stream.open).toHaveLength(1));
    act(() => stream.last.event(3, task({ progress: 85 })));
    await waitFor(() => expect(within(running).getByTestId('task-percent').textContent).toContain('85%'));

    const done = rows.find((r) => r.textContent?.includes('周会录音'))!;
    expect(within(done).getByTestId('project-status').textContent).toBe('已完成');
    expect(done.textContent).toContain('1:35');
  });

  it('offers 重试 on a cancelled or failed project, none on a finished one', async () => {
    projects = [
      project({ project_id: 'prj_x', name: '取消的', status: 'cancelled', task_id: 'tsk_x' }),
      project(),
    ];
    mount('/video-translation/stt');
    await screen.findByText('取消的');
    const rows = [...document.querySelectorAll<HTMLElement>('.ant-table-row')];
    const cancelled = rows.find((r) => r.textContent?.includes('取消的'))!;
    const done = rows.find((r) => r.textContent?.includes('周会录音'))!;
    expect(within(done).queryByTestId('project-retry')).toBeNull();
    fireEvent.click(within(cancelled).getByTestId('project-retry'));
    await waitFor(() =>
      expect(server.calls.find((c) => c.path === '/v1/tasks/retry')?.body).toEqual({ task_id: 'tsk_x' }),
    );
    // The list is read again: the project runs.
    await waitFor(() => expect(screen.queryByTestId('project-retry')).toBeNull());
  });

  it('opens a project in the editor, queues its SRT in the download center, deletes after confirming', async () => {
    projects = [project()];
    mount('/video-translation/stt');
    fireEvent.click(await screen.findByTestId('project-download'));
    expect(downloads.requests).toHaveLength(1);
    expect(downloads.requests[0]).toMatchObject({ fileName: '周会录音', ext: 'srt' });
    await expect(downloads.requests[0].urlResolver!('k')).resolves.toBe('/files/export/x.srt');
    expect(server.calls.find((c) => c.path === '/v1/projects/export')?.body).toMatchObject({
      project_id: 'prj_1',
      format: 'srt',
    });

    fireEvent.click(screen.getByTestId('project-delete'));
    fireEvent.click(await screen.findByTestId('project-delete-confirm'));
    await waitFor(() => expect(screen.queryByText('周会录音')).toBeNull());
    expect(server.calls.find((c) => c.path === '/v1/projects/delete')?.body).toEqual({ project_id: 'prj_1' });

    projects = [project()];
    await act(() => invalidateCall(api.listProjects));
    fireEvent.click(await screen.findByTestId('project-open'));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/video-translation/editor?id=prj_1'),
    );
  });

  it('shows why the tool is unavailable instead of a start button', async () => {
    tools = [
      {
        tool: 'stt',
        available: false,
        reason: '语音识别暂未开放，请联系管理员',
        error_type: 'err_interface_unavailable',
        engines: [],
      },
    ];
    mount('/video-translation/stt');
    fireEvent.click(await screen.findByTestId('project-new'));
    expect((await screen.findByTestId('stt-unavailable')).textContent).toContain(
      '语音识别暂未开放，请联系管理员',
    );
    expect(screen.queryByTestId('stt-start')).toBeNull();
  });

  it.each([
    [false, '当前的识别引擎不能区分说话人：识别结果不会标注说话人。'],
    [true, null],
  ])('a recognizer that separates speakers: %s → the speakers note reads %s', async (diarization, note) => {
    const engine = { id: 'sherpa-onnx:sense-voice', label: 'SenseVoice', diarization };
    tools = [{ tool: 'stt', available: true, reason: '', error_type: '', engines: [engine] }];
    mount('/video-translation/stt');
    fireEvent.click(await screen.findByTestId('project-new'));
    await screen.findByTestId('stt-speakers');
    await waitFor(() => expect(screen.queryByTestId('stt-speakers-note')?.textContent ?? null).toBe(note));
  });

  it('names the feature switch when it is off', async () => {
    features = { subtitle_generate: false };
    mount('/video-translation/stt');
    fireEvent.click(await screen.findByTestId('project-new'));
    expect((await screen.findByTestId('stt-unavailable')).textContent).toBe('当前账号未开通字幕生成');
    expect(screen.queryByTestId('stt-start')).toBeNull();
  });

  it('new: upload, estimate against the balance, start, follow the task and open the editor', async () => {
    mount('/video-translation/stt');
    fireEvent.click(await screen.findByTestId('project-new'));
    expect((screen.getByTestId('stt-start') as HTMLButtonElement).disabled).toBe(true);
    const file = new File([new Uint8Array(2048)], 'interview.mp3', { type: 'audio/mpeg' });
    fireEvent.change(screen.getByTestId('upload-input'), { target: { files: [file] } });
    await waitFor(() => expect(tus.uploads[0]?.starts).toBe(1));
    act(() => {
      tus.uploads[0].url = 'http://localhost/v1/uploads/tus/u1';
      tus.uploads[0].options.onSuccess();
    });
    expect((await screen.findByTestId('stt-file')).textContent).toContain('interview.mp3');
    expect((await screen.findByTestId('stt-estimate-credits')).textContent).toBe('12 积分');
    expect(screen.getByTestId('stt-balance').textContent).toBe('当前余额 100 积分');
    expect(server.calls.find((c) => c.path === '/v1/balance/credit/estimate')?.body).toEqual({
      task_type: 'speech_to_text',
      params: { seconds: 90 },
    });

    fireEvent.click(screen.getByTestId('stt-start'));
    await screen.findByTestId('stt-started');
    expect(server.calls.find((c) => c.path === '/v1/stt/create')?.body).toEqual({
      asset_id: 'ast_9',
      language: 'auto',
      speakers: 0,
      punctuation: true,
      split_cues: true,
    });
    expect((await screen.findByTestId('task-status')).textContent).toBe('处理中');
    expect(screen.queryByTestId('stt-open-editor')).toBeNull();
    await waitFor(() => expect(stream.open.length).toBeGreaterThan(0));
    act(() =>
      stream.last.event(
        5,
        task({
          task_id: 'tsk_new',
          project_id: 'prj_new',
          status: 'succeeded',
          progress: 100,
          finished_time: 1,
        }),
        'task.succeeded',
      ),
    );
    fireEvent.click(await screen.findByTestId('stt-open-editor'));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/video-translation/editor?id=prj_new'),
    );
  });

  it('a credit shortage on start shows the app credit prompt and starts nothing', async () => {
    createAnswer = envelope(1010, 'Balance not enough');
    const onError = vi.fn();
    http.hooks.onError = onError;
    mount('/video-translation/stt');
    fireEvent.click(await screen.findByTestId('project-new'));
    fireEvent.change(screen.getByTestId('upload-input'), {
      target: { files: [new File([new Uint8Array(10)], 'a.mp3', { type: 'audio/mpeg' })] },
    });
    await waitFor(() => expect(tus.uploads[0]?.starts).toBe(1));
    act(() => {
      tus.uploads[0].url = 'http://localhost/v1/uploads/tus/u2';
      tus.uploads[0].options.onSuccess();
    });
    await screen.findByTestId('stt-file');
    fireEvent.click(screen.getByTestId('stt-start'));
    await waitFor(() => expect(onError).toHaveBeenCalled());
    expect(onError.mock.calls[0][0].kind).toBe('credit');
    expect(screen.queryByTestId('stt-started')).toBeNull();
  });

  it('records in the browser and uploads the recording like a picked file', async () => {
    const stopped = vi.fn();
    class FakeRecorder {
      static isTypeSupported = (m: string) => m === 'audio/webm';
      mimeType = 'audio/webm';
      state = 'inactive';
      ondataavailable: ((e: { data: Blob }) => void) | null = null;
      onstop: (() => void) | null = null;
      constructor(public stream: MediaStream) {}
      start() {
        this.state = 'recording';
      }
      stop() {
        this.state = 'inactive';
        this.ondataavailable?.({ data: new Blob([new Uint8Array(64)], { type: 'audio/webm' }) });
        this.onstop?.();
      }
    }
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: async () => ({ getTracks: () => [{ stop: stopped }] }) },
    });
    mount('/video-translation/stt');
    fireEvent.click(await screen.findByTestId('project-new'));
    fireEvent.click(screen.getByText('在线录音'));
    fireEvent.click(await screen.findByTestId('record-start'));
    expect((await screen.findByTestId('recording-time')).textContent).toContain('录音中');
    fireEvent.click(screen.getByTestId('record-stop'));
    await waitFor(() => expect(tus.uploads[0]?.starts).toBe(1));
    expect(tus.uploads[0].file.name).toMatch(/^录音 .+\.webm$/);
    expect(tus.uploads[0].file.type).toBe('audio/webm');
    expect(tus.uploads[0].file.size).toBe(64);
    expect(stopped).toHaveBeenCalled();
    expect(await screen.findByTestId('upload-progress')).toBeTruthy();
    Reflect.deleteProperty(navigator, 'mediaDevices');
  });
});
