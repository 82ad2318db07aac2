import { render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/test/fakeApi.ts';
import { TranslateNewProject } from './TranslateNewProject.tsx';

let llm: { configured: boolean; model: string; reason: string };
let features: Record<string, boolean>;
let tools: Array<{ tool: string; available: boolean; reason: string; error_type: string; engines: [] }>;

beforeEach(() => {
  llm = { configured: false, model: '', reason: '' };
  features = { video_translate: true, subtitle_erase: false, subtitle_generate: true };
  tools = [];
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  stubApi({
    '/v1/video-translation/languages': () => ({
      source: [
        { code: 'auto', name: '自动识别' },
        { code: 'zh', name: '中文（简体）' },
      ],
      target: [
        { code: 'ja', name: '日语' },
        { code: 'en', name: '英语' },
      ],
      llm,
      embedding: { configured: false, model: '' },
      lip_sync: { available: false, reason: '' },
      asr: { available: false, reason: '未配置语音识别' },
      ocr_label: 'PP-OCRv4',
      clone: { available: false, reason: '' },
    }),
    '/v1/tools/capabilities': () => ({
      features,
      limits: { max_upload_bytes: 1024 ** 3, max_duration_seconds: 7200, max_width: 3840, max_height: 2160 },
      tools,
    }),
    '/v1/video-translation/preferences': () => ({
      preferences: { style: '正式', audience: '', tone: '', instructions: '' },
    }),
    '/v1/video-translation/glossary': () => ({
      entries: [{ term: '公园', translation: 'Park' }],
      updated_time: 1,
    }),
    '/p1/voices/internal_get_all_voices': () => ({ voices: [] }),
  });
});
afterEach(() => vi.unstubAllGlobals());

// The upload's leave guard needs a data router.
const mount = () =>
  render(
    <App>
      <RouterProvider
        router={createMemoryRouter([{ path: '/', element: <TranslateNewProject onBack={() => {}} /> }])}
      />
    </App>,
  );

describe('视频翻译 new project', { timeout: 30_000 }, () => {
  it('without a language model says once that translation will be manual, naming no setting', async () => {
    llm = {
      configured: false,
      model: '',
      reason: '自动翻译暂未开放：识别后请在编辑器中手动翻译，其余步骤照常进行',
    };
    mount();
    const notice = await screen.findByTestId('vt-no-llm');
    expect(notice.textContent).toBe(
      '自动翻译暂未开放：字幕识别、擦除与配音照常进行，译文请在编辑器中手动填写。',
    );
    // The first listed target is chosen; without speech recognition the on-screen subtitles are the source.
    await waitFor(() => expect(screen.getByTestId('vt-targets').textContent).toContain('日语'));
    const source = screen.getByTestId('vt-subtitle-source');
    await waitFor(() =>
      expect(source.querySelector('.ant-segmented-item-selected')?.textContent).toContain('画面字幕识别'),
    );
    // Erasing is offered only with its switch on.
    expect((screen.getByTestId('vt-erase') as HTMLInputElement).disabled).toBe(true);
    // The saved preferences and glossary are summarised.
    await waitFor(() =>
      expect(screen.getByTestId('vt-prefs-summary').textContent).toBe('风格：正式 · 术语 1 条'),
    );
    // Nothing to start from yet.
    expect(screen.getByTestId('vt-start').hasAttribute('disabled')).toBe(true);
  });

  it('with a language model names it; with the switch off the reason replaces the start button', async () => {
    llm = { configured: true, model: 'deepseek-chat', reason: '' };
    features = { ...features, video_translate: false };
    mount();
    expect((await screen.findByTestId('vt-llm')).textContent).toBe('翻译模型：deepseek-chat');
    expect(screen.queryByTestId('vt-no-llm')).toBeNull();
    expect((await screen.findByTestId('vt-reason')).textContent).toContain('视频翻译');
    expect(screen.queryByTestId('vt-start')).toBeNull();
  });
});
