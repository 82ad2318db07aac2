import { fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { type DownloadTask, downloadTaskTypeOf, useDownloadStore } from '@/stores/download.ts';
import { DownloadPanel, typeTag } from './DownloadPanel.tsx';

const task = (key: string, patch: Partial<DownloadTask>): DownloadTask => ({
  key,
  fileName: key,
  ext: 'mp3',
  downloadTaskType: 'audio',
  taskState: 'normal',
  customData: { percent: 40 },
  ...patch,
});

afterEach(() => useDownloadStore.setState({ tasks: [], panelOpen: false, batches: {} }));

describe('download panel', () => {
  it('tags by type: MP4 video, MP3 audio, SRT subtitle, FILE otherwise', () => {
    expect(typeTag({ downloadTaskType: 'video' })).toBe('MP4');
    expect(typeTag({ downloadTaskType: 'audio' })).toBe('MP3');
    expect(typeTag({ downloadTaskType: 'srt' })).toBe('SRT');
    expect(typeTag({ downloadTaskType: 'file' })).toBe('FILE');
    expect(typeTag({ downloadTaskType: 'other' as never })).toBe('FILE');
  });

  it('types a file by its extension: subtitles srt, documents file', () => {
    expect(downloadTaskTypeOf('mp4')).toBe('video');
    expect(downloadTaskTypeOf('MP3')).toBe('audio');
    expect(downloadTaskTypeOf('wav')).toBe('audio');
    expect(downloadTaskTypeOf('srt')).toBe('srt');
    expect(downloadTaskTypeOf('.vtt')).toBe('srt');
    for (const ext of ['txt', 'json', 'docx', 'pdf', '']) expect(downloadTaskTypeOf(ext)).toBe('file');
  });

  it('shows a document with the FILE tag and a file icon', () => {
    useDownloadStore.setState({
      panelOpen: true,
      tasks: [task('1-doc', { ext: 'docx', downloadTaskType: 'file' })],
    });
    render(
      <App>
        <DownloadPanel />
      </App>,
    );
    const row = document.querySelector('[data-key="1-doc"]')!;
    expect(row.querySelector('[data-testid="download-tag"]')?.textContent).toBe('FILE');
    expect(row.querySelector('.vw-dl-cover.is-file .anticon-file')).not.toBeNull();
  });

  it('shows completed/total and the control of each state', () => {
    useDownloadStore.setState({
      panelOpen: true,
      tasks: [
        task('1-run', {}),
        task('1-sus', { taskState: 'suspend' }),
        task('1-ok', { taskState: 'success', customData: { percent: 100 } }),
        task('1-can', { taskState: 'cancel' }),
        task('1-err', { taskState: 'error', errorMessage: 'HTTP 错误 500' }),
        task('2-vid', {
          downloadTaskType: 'video',
          taskState: 'success',
          extData: { first_image: '/cover.jpg' },
        }),
      ],
    });
    render(
      <App>
        <DownloadPanel />
      </App>,
    );
    expect(screen.getByTestId('download-count').textContent).toBe('下载列表 2/6');
    const row = (key: string) => document.querySelector(`[data-key="${key}"]`)!;
    expect(row('1-run').querySelector('[data-testid="download-cancel"]')).not.toBeNull();
    expect(row('1-run').querySelector('[data-testid="download-progress"]')).not.toBeNull();
    expect(row('1-sus').querySelector('[data-testid="download-suspended"]')).not.toBeNull();
    expect(row('1-sus').querySelector('[data-testid="download-progress"]')).not.toBeNull();
    expect(row('1-ok').querySelector('[data-testid="download-done"]')).not.toBeNull();
    expect(row('1-can').textContent).toContain('已取消');
    expect(row('1-can').querySelector('[data-testid="download-progress"]')).toBeNull();
    expect(row('1-err').querySelector('[data-testid="download-retry"]')?.textContent).toBe('重新下载');
    expect(row('1-err').querySelector('[data-testid="download-progress"]')).toBeNull();
    expect(row('2-vid').querySelector('img')?.getAttribute('src')).toBe('/cover.jpg');
    expect(row('2-vid').querySelector('[data-testid="download-tag"]')?.textContent).toBe('MP4');
    // retry sets the task back to normal (the manager takes it from there)
    fireEvent.click(row('1-err').querySelector('[data-testid="download-retry"]')!);
    expect(useDownloadStore.getState().tasks.find((t) => t.key === '1-err')?.taskState).toBe('normal');
  });
});
