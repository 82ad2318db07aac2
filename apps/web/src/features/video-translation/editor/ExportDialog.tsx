import { Checkbox, Modal, Radio } from 'antd';
import { useState } from 'react';
import { startDownloads } from '@/features/downloads/center.ts';
import type { DownloadRequest } from '@/features/downloads/manager.ts';
import { safeFileName } from '@/features/tts/downloads.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { downloadTaskTypeOf } from '@/stores/download.ts';
import { TranslationExportForm, useTranslationExport } from '../translate/TranslationExport.tsx';
import { type ExportOptions, useExportProject } from './editorApi.ts';

const s = zhCN.editor;

const FORMATS: Array<{ value: ExportOptions['format']; label: string }> = [
  { value: 'srt', label: 'SRT' },
  { value: 'vtt', label: 'VTT' },
  { value: 'txt', label: 'TXT' },
  { value: 'docx', label: 'DOCX' },
  { value: 'json', label: 'JSON' },
];

/** The file name without its extension (the download center adds it). */
export function baseName(fileName: string, ext: string): string {
  const lower = fileName.toLowerCase();
  return lower.endsWith(`.${ext}`) ? fileName.slice(0, -(ext.length + 1)) : fileName;
}

/**
 * The download-center request of an exported file: SRT/VTT are subtitles (tag SRT); TXT, DOCX and
 * JSON are documents (tag FILE).
 */
export function exportDownload(
  projectId: string,
  projectName: string,
  ext: ExportOptions['format'] | 'ass' | 'csv',
  file: { url: string; file_name: string },
  /** Several files of one format (a translation's source / target / bilingual SRT) stay apart. */
  variant = '',
): DownloadRequest {
  return {
    id: `project-${projectId}-${ext}${variant ? `-${variant}` : ''}`,
    url: file.url,
    fileName: safeFileName(baseName(file.file_name || projectName, ext)),
    ext,
    downloadTaskType: downloadTaskTypeOf(ext),
  };
}

/**
 * Exports the saved document (the caller saves first) and hands the file to the download
 * center, which downloads it with progress.
 */
export function ExportDialog({
  open,
  projectId,
  projectName,
  onClose,
  beforeExport,
  notify,
  translation,
}: {
  /** A video translation project: its own exports (video, subtitles of both languages, CSV, audio). */
  translation?: { dub: boolean; hasMix: boolean };
  open: boolean;
  projectId: string;
  projectName: string;
  onClose: () => void;
  /** Saves pending edits; false when the export must not go ahead (a version conflict). */
  beforeExport: () => Promise<boolean>;
  notify: (text: string, level?: 'success' | 'warning' | 'error') => void;
}) {
  const [options, setOptions] = useState<ExportOptions>({
    format: 'srt',
    speakers: false,
    timestamps: false,
  });
  const [busy, setBusy] = useState(false);
  const exportProject = useExportProject(projectId);
  const tr = useTranslationExport(projectId, projectName);

  const run = async () => {
    setBusy(true);
    try {
      if (!(await beforeExport())) {
        notify(s.exportBlocked, 'warning');
        return;
      }
      if (translation) {
        const said = await tr.run();
        if (said) notify(said, 'success');
      } else {
        const file = await exportProject(options);
        startDownloads([exportDownload(projectId, projectName, options.format, file)]);
        notify(s.exportStarted, 'success');
      }
      onClose();
    } catch {
      // The http client has shown the error.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={translation ? s.export : s.exportTitle}
      onCancel={onClose}
      onOk={() => void run()}
      okText={s.export}
      cancelText={s.cancel}
      confirmLoading={busy}
    >
      {translation ? (
        <TranslationExportForm
          form={tr.form}
          onChange={tr.setForm}
          dub={translation.dub}
          hasMix={translation.hasMix}
        />
      ) : (
        <div className="vw-ed-export">
          <div className="vw-ed-export-row">
            <span>{s.format}</span>
            <Radio.Group
              aria-label={s.format}
              optionType="button"
              buttonStyle="solid"
              value={options.format}
              onChange={(e) => setOptions((o) => ({ ...o, format: e.target.value }))}
              options={FORMATS}
            />
          </div>
          <div className="vw-ed-export-row">
            <Checkbox
              checked={options.speakers}
              onChange={(e) => setOptions((o) => ({ ...o, speakers: e.target.checked }))}
            >
              {s.withSpeakers}
            </Checkbox>
            <Checkbox
              checked={options.timestamps}
              onChange={(e) => setOptions((o) => ({ ...o, timestamps: e.target.checked }))}
            >
              {s.withTimestamps}
            </Checkbox>
          </div>
          <p className="vw-ed-hint">{s.exportOptionsHint}</p>
        </div>
      )}
    </Modal>
  );
}
