import type { OcrOptions } from '@vw/contract';
import { Alert } from 'antd';
import { api } from '@/lib/api.ts';
import { useCallMutation } from '@/lib/query/hooks.ts';
import { SelectField } from '../project/fields.tsx';
import { MediaStep } from '../project/MediaStep.tsx';
import { NewProjectShell, StartedTask } from '../project/NewProjectShell.tsx';
import { RegionEditor } from '../project/RegionEditor.tsx';
import { useToolProject } from '../project/useToolProject.ts';
import { boxesOnly, useVideoRegions } from '../project/useVideoRegions.ts';
import { Estimate } from './Estimate.tsx';
import './subtitles.css';
import { zhCN } from '@/locales/zh-CN.ts';

const subtitleTools = zhCN.subtitleTools;

const t = subtitleTools.ocr;
const FPS = [1, 2, 3, 4, 5, 6, 8, 10];
const CONVERTS = ['none', 't2s', 's2t'] as const;

/**
 * 字幕提取: a video → the detected subtitle band(s) drawn on a frame, adjustable → sampling options →
 * estimate → `ocrCreate`, then progress and the editor with the recognised tracks.
 */
export function OcrNewProject({ onBack }: { onBack: () => void }) {
  const project = useToolProject<Pick<OcrOptions, 'fps' | 'convert'>>(
    'ocr',
    { fps: 4, convert: 'none' },
    t.started,
  );
  const { form, set } = project;
  const regions = useVideoRegions();
  const { asset, boxes, frames } = regions;
  const create = useCallMutation(api.ocrCreate, { onSuccess: project.onStarted });

  if (project.started)
    return (
      <StartedTask
        prefix="ocr"
        taskId={project.started.task_id}
        projectId={project.started.project_id}
        labels={{ open: t.openEditor, another: t.another }}
        onAnother={() => {
          regions.pick(null);
          project.clearStarted();
        }}
      />
    );

  const seconds = asset?.duration_ms != null ? asset.duration_ms / 1000 : null;
  return (
    <NewProjectShell
      prefix="ocr"
      availability={project.availability}
      reasonInFooter
      estimate={<Estimate tool="subtitle_ocr" seconds={seconds} testId="ocr-estimate" />}
      onBack={onBack}
      start={{
        label: t.start,
        disabled: !asset || boxes.length === 0,
        loading: create.isPending,
        onClick: () =>
          asset && create.mutate({ body: { asset_id: asset.asset_id, regions: boxesOnly(boxes), ...form } }),
      }}
    >
      <MediaStep
        title={subtitleTools.pickVideo}
        asset={asset}
        onAsset={regions.pick}
        disabled={project.off}
        testId="ocr"
      />
      {asset?.has_video && (
        <section className="vw-vt-step">
          <h3>{t.regions}</h3>
          {frames.detect.isFetching && <p className="vw-vt-muted">{subtitleTools.detecting}</p>}
          {frames.detect.data && (
            <p className="vw-vt-muted" data-testid="ocr-detected">
              {t.detected(frames.detect.data.regions.length, frames.detect.data.engine_label)}
            </p>
          )}
          {frames.detect.error && <Alert type="error" showIcon message={frames.detect.error.message} />}
          <RegionEditor
            frameUrl={frames.frameUrl}
            aspect={(asset.width ?? 16) / (asset.height ?? 9)}
            boxes={boxes}
            onChange={regions.setBoxes}
            durationMs={asset.duration_ms ?? 0}
            atMs={frames.frameAt}
            onSeek={regions.setAtMs}
            loading={frames.loading}
            testId="ocr-regions"
          />
        </section>
      )}
      <section className="vw-vt-step vw-vt-options">
        <SelectField
          label={t.fps}
          labelId="ocr-fps-label"
          value={form.fps}
          onChange={(fps) => set('fps', fps)}
          options={FPS.map((n) => ({ value: n, label: t.fpsN(n) }))}
          style={{ width: 140 }}
          data-testid="ocr-fps"
        />
        <SelectField
          label={t.convert}
          labelId="ocr-convert-label"
          value={form.convert}
          onChange={(convert) => set('convert', convert)}
          options={CONVERTS.map((k) => ({ value: k, label: t.converts[k] }))}
          style={{ width: 140 }}
          data-testid="ocr-convert"
        />
      </section>
    </NewProjectShell>
  );
}
