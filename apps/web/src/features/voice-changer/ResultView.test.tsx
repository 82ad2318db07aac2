import { render, screen } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/test/fakeApi.ts';
import { ResultView } from './ResultView.tsx';

const audio = (name: string) => ({
  url: `https://files.example/${name}`,
  name,
  format: 'mp3',
  size: 1000,
  peaks: { buckets_per_second: 50, duration_ms: 1000, peaks: [-0.1, 0.2] },
});
const base = {
  task_id: 't1',
  engine: 'rubberband-r3',
  engine_label: 'Rubber Band R3',
  target_name: '晓萌',
  semitones: 14.2,
  formant_semitones: 4,
  source_f0_hz: 83,
  target_f0_hz: 189,
  output_f0_hz: 190,
  denoised: false,
  duration_ms: 1000,
  original: audio('a-原声.mp3'),
  converted: audio('a-变声.mp3'),
};
let result: Record<string, unknown>;

beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  stubApi({ '/v1/voice-changer/result': () => result });
});

const mount = () =>
  render(
    <App>
      <ResultView taskId="t1" />
    </App>,
  );

describe('voice changer result card', () => {
  it('shows the measured F0 and envelope change and says it is signal processing, not a neural model', async () => {
    result = { ...base, engine_kind: 'signal', measured: { f0_ratio: 2.289, envelope_ratio: 1.249 } };
    mount();
    expect((await screen.findByTestId('vc-measured-f0')).textContent).toBe('音高 ×2.29');
    expect(screen.getByTestId('vc-measured-envelope').textContent).toBe('共振峰（音色） ×1.25');
    expect(screen.getByTestId('vc-kind').textContent).toContain('非神经网络');
  });

  it('says when nothing could be measured, and shows no figures for older results', async () => {
    result = { ...base, engine_kind: 'neural', measured: { f0_ratio: 0, envelope_ratio: 0 } };
    const first = mount();
    expect((await screen.findByTestId('vc-measured')).textContent).toContain('无法测量');
    expect(screen.getByTestId('vc-kind').textContent).toBe('神经网络变声');
    first.unmount();
    result = { ...base, task_id: 't2' };
    render(
      <App>
        <ResultView taskId="t2" />
      </App>,
    );
    await screen.findByTestId('vc-result');
    expect(screen.queryByTestId('vc-measured')).toBeNull();
    expect(screen.queryByTestId('vc-kind')).toBeNull();
  });
});
