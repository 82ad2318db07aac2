import { render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TASK_EVENTS_PATH, taskStream } from '@/lib/tasks/stream.ts';
import { stubApi } from '@/test/fakeApi.ts';
import { fakeEventStream } from '@/test/fakeTasks.ts';
import { Component as VoiceChangerPage } from './VoiceChangerPage.tsx';
import { barsOf } from './WaveformPlayer.tsx';

let tools: unknown[];

beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  const stream = fakeEventStream();
  stubApi({
    [TASK_EVENTS_PATH]: stream.route,
    '/v1/tools/capabilities': () => ({
      features: {},
      limits: { max_upload_bytes: 1024 ** 3, max_duration_seconds: 7200, max_width: 3840, max_height: 2160 },
      tools,
    }),
    '/v1/voice-changer/targets': () => ({
      targets: [
        {
          voice_id: 'vcl_1',
          name: '我的克隆',
          category: 'mine',
          language: 'zh-CN',
          gender: 'female',
          engine_label: '标准引擎近似',
          median_hz: 210,
          required_level: 0,
        },
      ],
    }),
    '/v1/tasks/list': () => ({ total: 0, list: [] }),
  });
});
afterEach(() => {
  taskStream.reset();
  vi.unstubAllGlobals();
});

const mount = () => {
  const router = createMemoryRouter([{ path: '/voice-changer', element: <VoiceChangerPage /> }], {
    initialEntries: ['/voice-changer'],
  });
  render(
    <App>
      <RouterProvider router={router} />
    </App>,
  );
};

describe('/voice-changer', () => {
  it('shows why the tool is unavailable instead of a start button', async () => {
    tools = [
      {
        tool: 'voice_changer',
        available: false,
        reason: '变声功能暂未开放，请联系管理员',
        error_type: 'err_interface_unavailable',
        engines: [],
      },
    ];
    mount();
    expect((await screen.findByTestId('vc-unavailable')).textContent).toContain(
      '变声功能暂未开放，请联系管理员',
    );
    expect(screen.queryByTestId('vc-start')).toBeNull();
  });

  it('offers the start button (disabled until a file and a target) when an engine is there', async () => {
    tools = [
      {
        tool: 'voice_changer',
        available: true,
        reason: '',
        error_type: '',
        engines: [{ id: 'rubberband-r3', label: 'Rubber Band R3' }],
      },
    ];
    mount();
    await waitFor(() => expect((screen.getByTestId('vc-start') as HTMLButtonElement).disabled).toBe(true));
    expect(screen.queryByTestId('vc-unavailable')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('vc-history').textContent).toContain('还没有变声记录'));
  });
});

describe('barsOf', () => {
  it('folds min/max pairs into normalised bars', () => {
    const peaks = {
      buckets_per_second: 4,
      duration_ms: 1000,
      peaks: [-0.1, 0.2, -0.5, 0.4, 0, 0.05, -0.25, 0.1],
    };
    expect(barsOf(peaks, 2)).toEqual([1, 0.5]);
    expect(barsOf({ ...peaks, peaks: [] })).toEqual([]);
  });
});
