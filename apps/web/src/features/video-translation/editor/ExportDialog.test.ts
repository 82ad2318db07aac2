import { describe, expect, it } from 'vitest';
import { exportDownload } from './ExportDialog.tsx';

describe('export to the download center', () => {
  const file = (file_name: string) => ({ url: 'https://files.example/x', file_name });

  it('hands subtitles over as SRT subtitles', () => {
    expect(exportDownload('p1', '会议', 'srt', file('会议.srt'))).toEqual({
      id: 'project-p1-srt',
      url: 'https://files.example/x',
      fileName: '会议',
      ext: 'srt',
      downloadTaskType: 'srt',
    });
    expect(exportDownload('p1', '会议', 'vtt', file('会议.vtt'))).toMatchObject({
      ext: 'vtt',
      downloadTaskType: 'srt',
    });
  });

  it('hands TXT, DOCX and JSON over as files (tag FILE), not as SRT', () => {
    for (const ext of ['txt', 'docx', 'json'] as const) {
      expect(exportDownload('p1', '会议', ext, file(`会议.${ext}`))).toMatchObject({
        id: `project-p1-${ext}`,
        fileName: '会议',
        ext,
        downloadTaskType: 'file',
      });
    }
  });

  it('names the file after the project when the server gives no name', () => {
    expect(exportDownload('p1', '会议', 'txt', file('')).fileName).toBe('会议');
  });
});
