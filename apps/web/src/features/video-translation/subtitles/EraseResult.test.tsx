import { render, screen } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '@/test/fakeApi.ts';
import { EraseResult } from './EraseResult.tsx';

const report = {
  residual: [],
  residual_chars: 0,
  dark_residue: [],
  original_chars: 12,
  second_pass: false,
  method: 'fill',
  engine_label: 'PP-OCRv4 (离线)',
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
  stubApi({ '/v1/erase/result': () => result });
});

const methodShown = async (taskId: string, extra: Record<string, unknown>) => {
  result = {
    task_id: taskId,
    source_url: '',
    output_url: '',
    output_asset_id: null,
    report: { ...report, ...extra },
  };
  const view = render(
    <App>
      <EraseResult taskId={taskId} title="片段" />
    </App>,
  );
  const text = (await screen.findByTestId('erase-method-used')).textContent;
  view.unmount();
  return text;
};

describe('erase result: which method made the picture', () => {
  it('names the inpainter of what no frame showed: LaMa or Telea, and none when every pixel came from other frames', async () => {
    expect(await methodShown('t1', { temporal_share: 0.625, inpaint: 'lama' })).toBe(
      '逐帧补全：62% 取自前后画面，其余由 LaMa 神经修复',
    );
    expect(await methodShown('t2', { temporal_share: 0.999, inpaint: 'telea' })).toBe(
      '逐帧补全：99% 取自前后画面，其余由传统修补（Telea）',
    );
    expect(await methodShown('t3', { temporal_share: 1 })).toBe('逐帧补全：100% 取自前后画面');
    expect(await methodShown('t4', { method: 'fast' })).toBe('快速方法（delogo）');
  });
});
