import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TASK_EVENTS_PATH, taskStream } from '@/lib/tasks/stream.ts';
import { stubApi } from '@/test/fakeApi.ts';
import { fakeEventStream, task } from '@/test/fakeTasks.ts';
import { translationDoc } from '@/test/translationDoc.ts';
import { EditorWorkspace } from '../editor/EditorPage.tsx';
import type { ProjectData } from '../editor/editorApi.ts';
import type { SaveFn } from '../editor/useAutosave.ts';

const downloads = vi.hoisted(() => ({ requests: [] as Array<Record<string, unknown>> }));
vi.mock('@/features/downloads/center.ts', () => ({
  startDownloads: (r: Array<Record<string, unknown>>) => {
    downloads.requests.push(...r);
  },
}));

beforeAll(() => {
  globalThis.PointerEvent ??= MouseEvent as unknown as typeof PointerEvent;
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
});

const data = (status: 'succeeded' | 'paused' = 'succeeded'): ProjectData => ({
  project: {
    project_id: 'p1',
    tool: 'translate',
    name: '公园',
    status,
    progress: 100,
    task_id: 'tsk_0',
    source_asset_id: null,
    duration_ms: 5000,
    cover_url: '',
    engine_label: 'PP-OCRv4 (离线)',
    created_time: 0,
    updated_time: 0,
  },
  document: translationDoc(),
  version: 4,
  media: null,
});

let server: ReturnType<typeof stubApi>;
let llm: boolean;
beforeEach(() => {
  downloads.requests.length = 0;
  llm = true;
  taskStream.reset();
  taskStream.configure({ backoffMs: [10], lingerMs: 10 });
  const stream = fakeEventStream();
  server = stubApi({
    [TASK_EVENTS_PATH]: stream.route,
    '/v1/video-translation/languages': () => ({
      source: [
        { code: 'auto', name: '自动识别' },
        { code: 'zh', name: '中文' },
      ],
      target: [{ code: 'en', name: '英语' }],
      llm: {
        configured: llm,
        model: llm ? 'fake-chat' : '',
        reason: llm ? '' : '请设置 LLM_BASE_URL 与 LLM_MODEL',
      },
      embedding: { configured: false, model: '' },
      lip_sync: { available: false, reason: '' },
      asr: { available: true, reason: '' },
      ocr_label: 'PP-OCRv4',
      clone: { available: false, reason: '' },
    }),
    '/v1/video-translation/retranslate': () => ({ task_id: 'tsk_rt', credits: 0, lines: 1 }),
    '/v1/video-translation/back-translate': () => ({ task_id: 'tsk_bt', credits: 0, lines: 1 }),
    '/v1/video-translation/export': ({ body }) => ({
      url: `/files/x.${(body as { format: string }).format}`,
      file_name: '公园.srt',
      size: 10,
    }),
    '/v1/video-translation/continue': () => ({ task_id: 'tsk_0' }),
    '/v1/tasks/get': ({ url }) => ({
      task: task({
        task_id: url.searchParams.get('task_id')!,
        tool: 'translate',
        project_id: 'p1',
        ...(url.searchParams.get('task_id') === 'tsk_0'
          ? { status: 'paused', pause_point: 'recognition' }
          : {}),
      }),
    }),
  });
});
afterEach(() => {
  taskStream.reset();
  vi.unstubAllGlobals();
});

function setup(save: SaveFn, status: 'succeeded' | 'paused' = 'succeeded') {
  render(
    <MemoryRouter>
      <App>
        <EditorWorkspace data={data(status)} onReload={() => {}} save={save} peaks={null} />
      </App>
    </MemoryRouter>,
  );
}

describe('the editor on a translation project', { timeout: 40_000 }, () => {
  it('shows source | translation | back-translation with drift flags, and the bilingual overlay', async () => {
    setup(vi.fn<SaveFn>(async (v) => ({ version: v + 1 })));
    const sources = screen.getAllByLabelText('原文') as HTMLTextAreaElement[];
    expect(sources.map((s) => s.value)).toEqual(['今天\n天气很好', '我们去公园']);
    // A line made of two source lines is edited on those lines, not here.
    expect(sources[0]!.readOnly).toBe(true);
    expect(sources[1]!.readOnly).toBe(false);
    const targets = screen.getAllByLabelText('译文') as HTMLTextAreaElement[];
    expect(targets.map((t) => t.value)).toEqual(['The weather is nice today', 'We sell the park']);
    const backs = screen.getAllByTestId('cue-back');
    expect(backs[0]!.textContent).toContain('今天天气很好');
    expect(backs[1]!.dataset.flagged).toBe('true');
    expect(screen.getAllByTestId('cue-drift').map((d) => d.textContent)).toEqual(['92%', '偏移 31%']);
    expect(screen.getByTestId('translation-flagged').textContent).toBe('1 句语义偏移');
    expect(screen.getByTestId('translation-model').textContent).toBe('fake-chat');
    const overlay = screen.getByTestId('subtitle-overlay');
    expect(overlay.textContent).toBe('The weather is nice today今天\n天气很好');
    await waitFor(() => expect(screen.getByTestId('translation-panel').textContent).toContain('中文 → 英语'));
  });

  it('a fixed translation is saved without its old back-translation; 重新翻译 saves first, then one line', async () => {
    const save = vi.fn<SaveFn>(async (v) => ({ version: v + 1 }));
    setup(save);
    const target = screen.getAllByLabelText('译文')[1]!;
    fireEvent.focus(target);
    fireEvent.change(target, { target: { value: 'We walk in the park' } });
    fireEvent.blur(target);
    expect(screen.getAllByTestId('cue-back')[1]!.textContent).toBe('尚未回译回译校对');
    fireEvent.click(screen.getAllByTestId('cue-retranslate')[1]!);
    await waitFor(() =>
      expect(server.calls.find((c) => c.path === '/v1/video-translation/retranslate')?.body).toEqual({
        project_id: 'p1',
        cue_ids: ['t2'],
      }),
    );
    expect(save).toHaveBeenCalledTimes(1);
    const saved = save.mock.calls[0]![1].tracks[1]!.cues[1]!;
    expect(saved).toMatchObject({ text: 'We walk in the park', back_text: null });
    expect(saved.drift).toBeUndefined();
  });

  it('a fixed line is back-translated again on its own (saved first)', async () => {
    const save = vi.fn<SaveFn>(async (v) => ({ version: v + 1 }));
    setup(save);
    const target = screen.getAllByLabelText('译文')[1]!;
    fireEvent.focus(target);
    fireEvent.change(target, { target: { value: 'We walk in the park' } });
    fireEvent.blur(target);
    // Only the line without a back-translation offers it.
    expect(screen.getAllByTestId('cue-back-run')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('cue-back-run'));
    await waitFor(() =>
      expect(server.calls.find((c) => c.path === '/v1/video-translation/back-translate')?.body).toEqual({
        project_id: 'p1',
        cue_ids: ['t2'],
      }),
    );
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('exports a bilingual SRT through the download center', async () => {
    setup(vi.fn<SaveFn>(async (v) => ({ version: v + 1 })));
    fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    const dialog = await screen.findByTestId('translation-export');
    fireEvent.click(within(dialog).getByText('字幕文件'));
    fireEvent.click(within(dialog).getByText('双语'));
    fireEvent.click(screen.getAllByRole('button', { name: /导\s*出/ }).at(-1)!);
    await waitFor(() => expect(downloads.requests).toHaveLength(1));
    expect(server.calls.find((c) => c.path === '/v1/video-translation/export')?.body).toEqual({
      project_id: 'p1',
      format: 'srt',
      lines: 'bilingual',
    });
    expect(downloads.requests[0]).toMatchObject({ ext: 'srt', id: 'project-p1-srt-bilingual' });
  });

  it('without a language model the panel says translation is manual', async () => {
    llm = false;
    setup(vi.fn<SaveFn>(async (v) => ({ version: v + 1 })));
    expect((await screen.findByTestId('translation-manual')).textContent).toContain('手动翻译');
    expect(screen.getByTestId('translation-retranslate-all').hasAttribute('disabled')).toBe(true);
  });

  it('paused without a language model: the banner asks for the translation, 确认并继续 saves first and resumes', async () => {
    llm = false;
    const save = vi.fn<SaveFn>(async (v) => ({ version: v + 1 }));
    setup(save, 'paused');
    const banner = await screen.findByTestId('translation-paused');
    await waitFor(() => expect(banner.textContent).toContain('请在“译文”列逐句填写译文'));
    const target = screen.getAllByLabelText('译文')[0]!;
    fireEvent.focus(target);
    fireEvent.change(target, { target: { value: 'Nice weather today' } });
    fireEvent.blur(target);
    fireEvent.click(within(banner).getByTestId('translation-continue'));
    await waitFor(() =>
      expect(server.calls.find((c) => c.path === '/v1/video-translation/continue')?.body).toEqual({
        project_id: 'p1',
      }),
    );
    expect(save.mock.calls[0]![1].tracks[1]!.cues[0]!.text).toBe('Nice weather today');
  });
});
