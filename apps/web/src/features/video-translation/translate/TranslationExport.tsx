import type { TranslationExportFormat } from '@vw/contract/calls/video-translation.ts';
import { Radio } from 'antd';
import { useState } from 'react';
import { startDownloads } from '@/features/downloads/center.ts';
import { safeFileName } from '@/features/tts/downloads.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { useCallMutation } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { exportDownload } from '../editor/ExportDialog.tsx';
import { useProjectTask } from '../editor/projectTask.ts';

const vt = zhCN.videoTranslate;

export interface TranslationExportState {
  kind: 'video' | 'subtitles' | 'audio';
  format: TranslationExportFormat;
  lines: 'source' | 'target' | 'bilingual';
  videoLines: 'target' | 'bilingual' | 'none';
  videoMode: 'burn' | 'soft';
  audio: 'mp3' | 'mix' | 'stems';
}

export const DEFAULT_EXPORT: TranslationExportState = {
  kind: 'video',
  format: 'srt',
  lines: 'bilingual',
  videoLines: 'bilingual',
  videoMode: 'burn',
  audio: 'mp3',
};

/**
 * What an export of a translation project does: `file` — a text export (SRT/VTT/ASS of the source,
 * the target or both; CSV) downloaded at once; `render` — a render task with these outputs and
 * subtitles, whose files the editor downloads when it ends (formats as the task names them); `mix` —
 * the last mix, downloaded as it is.
 */
export function exportPlan(f: TranslationExportState) {
  if (f.kind === 'subtitles')
    return { kind: 'file' as const, format: f.format, lines: f.format === 'csv' ? 'bilingual' : f.lines };
  if (f.kind === 'video')
    return {
      kind: 'render' as const,
      outputs: ['mp4' as const],
      subtitles: { lines: f.videoLines, mode: f.videoMode },
      formats: ['mp4'],
    };
  if (f.audio === 'mix') return { kind: 'mix' as const };
  return {
    kind: 'render' as const,
    outputs: [f.audio],
    subtitles: undefined,
    formats: f.audio === 'stems' ? ['stems', 'zip'] : ['mp3'],
  };
}

/** The export dialog's state and its run (returns the message to show, '' for none). */
export function useTranslationExport(projectId: string, projectName: string) {
  const [form, setForm] = useState<TranslationExportState>(DEFAULT_EXPORT);
  const { remember } = useProjectTask(projectId);
  const textExport = useCallMutation(api.videoTranslationExport);
  const render = useCallMutation(api.videoTranslationRedub);
  const run = async (): Promise<string> => {
    const plan = exportPlan(form);
    if (plan.kind === 'file') {
      const file = await textExport.mutateAsync({
        body: { project_id: projectId, format: plan.format, lines: plan.lines },
      });
      startDownloads([exportDownload(projectId, projectName, plan.format, file, plan.lines)]);
      return vt.queued;
    }
    if (plan.kind === 'mix') {
      const media = await http.request(api.dubbingMedia, { query: { project_id: projectId } });
      if (!media.mix_url) return vt.noMix;
      startDownloads([
        {
          id: `project-${projectId}-mix`,
          url: media.mix_url,
          fileName: safeFileName(vt.mixFileName(projectName)),
          ext: 'mp3',
          downloadTaskType: 'audio',
        },
      ]);
      return vt.queued;
    }
    const r = await render.mutateAsync({
      body: {
        project_id: projectId,
        scope: 'render',
        outputs: plan.outputs,
        ...(plan.subtitles ? { subtitles: plan.subtitles } : {}),
      },
    });
    remember(r.task_id, plan.formats);
    return vt.rendering;
  };
  return { form, setForm, run };
}

/** The dialog's body for a translation project: 视频 / 字幕文件 / 音频 and their options. */
export function TranslationExportForm({
  form,
  onChange,
  dub,
  hasMix,
}: {
  form: TranslationExportState;
  onChange: (f: TranslationExportState) => void;
  dub: boolean;
  /** A mix has been rendered (the editor's players have it). */
  hasMix: boolean;
}) {
  const set = <K extends keyof TranslationExportState>(k: K, v: TranslationExportState[K]) =>
    onChange({ ...form, [k]: v });
  return (
    <div className="vw-ed-export" data-testid="translation-export">
      <Radio.Group
        optionType="button"
        buttonStyle="solid"
        value={form.kind}
        onChange={(e) => set('kind', e.target.value)}
        options={[
          { value: 'video', label: vt.exportVideo },
          { value: 'subtitles', label: vt.exportSubtitles },
          ...(dub ? [{ value: 'audio', label: vt.exportAudio }] : []),
        ]}
        data-testid="export-kind"
      />
      {form.kind === 'video' && (
        <>
          <div className="vw-ed-export-row">
            <span>{vt.videoSubtitles}</span>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              value={form.videoLines}
              onChange={(e) => set('videoLines', e.target.value)}
              options={(['target', 'bilingual', 'none'] as const).map((k) => ({
                value: k,
                label: vt.subtitleLines[k],
              }))}
              data-testid="export-video-lines"
            />
          </div>
          {form.videoLines !== 'none' && (
            <div className="vw-ed-export-row">
              <span>{vt.videoMode}</span>
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                value={form.videoMode}
                onChange={(e) => set('videoMode', e.target.value)}
                options={(['burn', 'soft'] as const).map((k) => ({ value: k, label: vt.subtitleModes[k] }))}
                data-testid="export-video-mode"
              />
            </div>
          )}
          <p className="vw-ed-hint">{vt.renderHint}</p>
        </>
      )}
      {form.kind === 'subtitles' && (
        <>
          <div className="vw-ed-export-row">
            <span>{vt.exportFormat}</span>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              value={form.format}
              onChange={(e) => set('format', e.target.value)}
              options={(['srt', 'vtt', 'ass', 'csv'] as const).map((k) => ({
                value: k,
                label: k.toUpperCase(),
              }))}
              data-testid="export-format"
            />
          </div>
          {form.format === 'csv' ? (
            <p className="vw-ed-hint">{vt.csvHint}</p>
          ) : (
            <div className="vw-ed-export-row">
              <span>{vt.exportContent}</span>
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                value={form.lines}
                onChange={(e) => set('lines', e.target.value)}
                options={(['target', 'source', 'bilingual'] as const).map((k) => ({
                  value: k,
                  label: vt.exportLines[k],
                }))}
                data-testid="export-lines"
              />
            </div>
          )}
        </>
      )}
      {form.kind === 'audio' && (
        <div className="vw-ed-export-row">
          <Radio.Group
            value={form.audio}
            onChange={(e) => set('audio', e.target.value)}
            options={(['mp3', 'mix', 'stems'] as const).map((k) => ({
              value: k,
              label: k === 'mix' && !hasMix ? `${vt.audioKinds[k]}（${vt.noMix}）` : vt.audioKinds[k],
              disabled: k === 'mix' && !hasMix,
            }))}
            data-testid="export-audio"
          />
        </div>
      )}
    </div>
  );
}
