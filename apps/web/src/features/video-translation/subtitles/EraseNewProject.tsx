import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { EraseOptions, MediaAsset } from '@vw/contract';
import { Button, InputNumber, Radio, Segmented, Select } from 'antd';
import { useCallback, useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { FormCheck, SelectField } from '../project/fields.tsx';
import { MediaStep } from '../project/MediaStep.tsx';
import { NewProjectShell, StartedTask } from '../project/NewProjectShell.tsx';
import { type EditorBox, RegionEditor } from '../project/RegionEditor.tsx';
import { type SetField, useToolProject } from '../project/useToolProject.ts';
import { boxesOnly, useVideoRegions } from '../project/useVideoRegions.ts';
import { EraseResult } from './EraseResult.tsx';
import { Estimate } from './Estimate.tsx';
import './subtitles.css';
import { zhCN } from '@/locales/zh-CN.ts';

const subtitleTools = zhCN.subtitleTools;

const t = subtitleTools.erase;

type Mode = 'erase' | 'watermark';
/** The erase options as `eraseCreate` takes them; `ocr_project_id` '' = recognise the times again. */
type EraseForm = Pick<EraseOptions, 'range_mode' | 'method' | 'second_pass'> & { ocr_project_id: string };
/**
 * The methods each mode offers, the recommended default first: fill takes what is under the text
 * (or the watermark, found per segment inside the boxes) from nearby frames; delogo and blur are the
 * fast methods.
 */
const METHODS = {
  erase: ['fill', 'fast', 'blur'],
  watermark: ['fill', 'fast', 'blur'],
} as const satisfies Record<Mode, readonly EraseForm['method'][]>;
/** A custom range as typed, in seconds. */
type Range = { start: number; end: number };

/** A started erase/watermark task: live progress, then the result (compare slider, report, download). */
export function EraseStarted({
  taskId,
  title,
  onAnother,
}: {
  taskId: string;
  title: string;
  onAnother?: () => void;
}) {
  return (
    <StartedTask
      prefix="erase"
      taskId={taskId}
      labels={{ another: t.back }}
      onAnother={onAnother}
      extra={(task) => task.status === 'succeeded' && <EraseResult taskId={taskId} title={title} />}
    />
  );
}

/**
 * 字幕擦除 (and 去水印): a video → boxes on a frame (the detected band to start with) → when: where
 * subtitles are shown / the whole video / custom ranges → method → before/after of one frame →
 * estimate → `eraseCreate` / `watermarkRemoveCreate`, then progress and the result.
 */
export function EraseNewProject({ onBack, asset: handed }: { onBack: () => void; asset?: MediaAsset }) {
  const [mode, setMode] = useState<Mode>('erase');
  const project = useToolProject<EraseForm, { task_id: string; title: string }>(
    mode,
    { range_mode: 'subtitles', method: METHODS.erase[0], second_pass: true, ocr_project_id: '' },
    t.started,
  );
  const { form, set } = project;
  const regions = useVideoRegions({ initial: handed ?? null, startDetected: mode === 'erase' });
  const { asset, boxes, frames } = regions;
  const [ranges, setRanges] = useState<Range[]>([]);
  const preview = useCallMutation(api.erasePreview);
  const onStarted = (d: { task_id: string }) =>
    project.onStarted({ task_id: d.task_id, title: asset?.name.replace(/\.[^.]{1,8}$/, '') ?? '' });
  const erase = useCallMutation(api.eraseCreate, { onSuccess: onStarted });
  const watermark = useCallMutation(api.watermarkRemoveCreate, { onSuccess: onStarted });
  const { pick: pickVideo } = regions;
  const pick = useCallback(
    (a: MediaAsset | null) => {
      pickVideo(a);
      setRanges([]);
      set('ocr_project_id', '');
    },
    [pickVideo, set],
  );

  if (project.started)
    return (
      <EraseStarted
        taskId={project.started.task_id}
        title={project.started.title}
        onAnother={() => {
          pick(null);
          project.clearStarted();
          onBack();
        }}
      />
    );

  const durationMs = asset?.duration_ms ?? 0;
  const seconds = asset?.duration_ms != null ? asset.duration_ms / 1000 : null;
  const rangesOk =
    form.range_mode !== 'custom' ||
    (ranges.length > 0 && ranges.every((r) => r.end > r.start && r.end * 1000 <= durationMs));
  const start = () => {
    if (!asset) return;
    const body = {
      asset_id: asset.asset_id,
      boxes: boxesOnly(boxes),
      method: form.method,
      second_pass: form.second_pass,
    };
    if (mode === 'watermark') watermark.mutate({ body });
    else
      erase.mutate({
        body: {
          ...body,
          range_mode: form.range_mode,
          ocr_project_id:
            form.range_mode === 'subtitles' && form.ocr_project_id ? form.ocr_project_id : undefined,
          ranges: ranges.map((r) => ({
            start_ms: Math.round(r.start * 1000),
            end_ms: Math.round(r.end * 1000),
          })),
        },
      });
  };
  const edited =
    <A extends unknown[]>(change: (...a: A) => void) =>
    (...a: A) => {
      change(...a);
      preview.reset();
    };

  return (
    <NewProjectShell
      prefix="erase"
      availability={project.availability}
      reasonInFooter
      header={
        <Segmented
          value={mode}
          onChange={(v) => {
            setMode(v as Mode);
            set('method', METHODS[v as Mode][0]);
            // Back to subtitles before their bands were detected: the detected ones once they are.
            regions.setBoxes(v === 'erase' ? (frames.detect.data ? frames.initialBoxes : null) : []);
            preview.reset();
          }}
          options={(['erase', 'watermark'] as const).map((k) => ({ value: k, label: t.modes[k] }))}
          data-testid="erase-mode"
        />
      }
      estimate={<Estimate tool="subtitle_erase" seconds={seconds} testId="erase-estimate" />}
      onBack={onBack}
      start={{
        label: t.start[mode],
        disabled: !asset || boxes.length === 0 || !rangesOk,
        loading: erase.isPending || watermark.isPending,
        onClick: start,
      }}
    >
      <MediaStep
        title={subtitleTools.pickVideo}
        asset={asset}
        onAsset={pick}
        disabled={project.off}
        testId="erase"
      />
      {asset?.has_video && (
        <RegionStep
          mode={mode}
          asset={asset}
          regions={regions}
          onBoxes={edited(regions.setBoxes)}
          onSeek={edited(regions.setAtMs)}
        />
      )}
      <EraseOptionsStep
        mode={mode}
        form={form}
        set={set}
        onMethod={edited((m: EraseForm['method']) => set('method', m))}
        assetId={asset?.asset_id ?? null}
      />
      {mode === 'erase' && form.range_mode === 'custom' && (
        <RangesStep ranges={ranges} onChange={setRanges} durationMs={durationMs} ok={rangesOk} />
      )}
      {asset && boxes.length > 0 && !project.off && (
        <PreviewStep
          run={() =>
            preview.mutate({
              body: {
                asset_id: asset.asset_id,
                at_ms: frames.frameAt,
                boxes: boxesOnly(boxes),
                method: form.method,
                tool: mode,
              },
            })
          }
          preview={preview}
        />
      )}
    </NewProjectShell>
  );
}

/** Where to erase: boxes on a frame of the video (the detected subtitle bands to start with). */
function RegionStep({
  mode,
  asset,
  regions,
  onBoxes,
  onSeek,
}: {
  mode: Mode;
  asset: MediaAsset;
  regions: ReturnType<typeof useVideoRegions>;
  onBoxes: (boxes: EditorBox[]) => void;
  onSeek: (ms: number) => void;
}) {
  const { detect } = regions.frames;
  return (
    <section className="vw-vt-step">
      <h3>{t.regions[mode]}</h3>
      <p className="vw-vt-muted" data-testid="erase-detected">
        {mode === 'watermark'
          ? t.watermarkHint
          : detect.data
            ? t.detected(detect.data.regions.length)
            : detect.isFetching
              ? subtitleTools.detecting
              : ''}
      </p>
      <RegionEditor
        frameUrl={regions.frames.frameUrl}
        aspect={(asset.width ?? 16) / (asset.height ?? 9)}
        boxes={regions.boxes}
        onChange={onBoxes}
        durationMs={asset.duration_ms ?? 0}
        atMs={regions.frames.frameAt}
        onSeek={onSeek}
        loading={regions.frames.loading}
        maxBoxes={8}
        testId="erase-regions"
      />
    </section>
  );
}

/** When to erase (subtitles only: times from a 字幕提取 project of this video, or recognised again), how, and the check. */
function EraseOptionsStep({
  mode,
  form,
  set,
  onMethod,
  assetId,
}: {
  mode: Mode;
  form: EraseForm;
  set: SetField<EraseForm>;
  onMethod: (method: EraseForm['method']) => void;
  assetId: string | null;
}) {
  const ocrProjects = useCall(
    api.listProjects,
    { query: { tool: 'ocr', page: 1, page_size: 100 } },
    { enabled: !!assetId && mode === 'erase' && form.range_mode === 'subtitles', staleTime: 0 },
  );
  const usable = (ocrProjects.data?.list ?? []).filter(
    (p) => p.source_asset_id === assetId && p.status === 'succeeded',
  );
  return (
    <section className="vw-vt-step vw-vt-options">
      {mode === 'erase' && (
        <div className="vw-vt-field">
          <span>{t.rangeMode}</span>
          <Radio.Group
            value={form.range_mode}
            onChange={(e) => set('range_mode', e.target.value)}
            options={(['subtitles', 'whole', 'custom'] as const).map((k) => ({
              value: k,
              label: t.rangeModes[k],
            }))}
            data-testid="erase-range-mode"
          />
          {form.range_mode === 'subtitles' && usable.length > 0 && (
            <Select
              value={form.ocr_project_id}
              onChange={(id) => set('ocr_project_id', id)}
              options={[
                { value: '', label: t.recognizeAgain },
                ...usable.map((p) => ({ value: p.project_id, label: t.fromOcrProject(p.name) })),
              ]}
              style={{ width: 280 }}
              data-testid="erase-ocr-project"
            />
          )}
        </div>
      )}
      <SelectField
        label={t.method}
        labelId="erase-method-label"
        value={form.method}
        onChange={onMethod}
        options={METHODS[mode].map((k) => ({
          value: k,
          label: mode === 'watermark' && k === 'fill' ? t.watermarkFill : t.methods[k],
        }))}
        style={{ width: 360 }}
        data-testid="erase-method"
      />
      <FormCheck form={form} set={set} name="second_pass" testId="erase-second-pass">
        {t.secondPass}
      </FormCheck>
    </section>
  );
}

/** The custom ranges, in seconds within the video. */
function RangesStep({
  ranges,
  onChange,
  durationMs,
  ok,
}: {
  ranges: Range[];
  onChange: (ranges: Range[]) => void;
  durationMs: number;
  ok: boolean;
}) {
  const edit = (i: number, change: Partial<Range>) =>
    onChange(ranges.map((x, j) => (j === i ? { ...x, ...change } : x)));
  const bound = { min: 0, max: durationMs / 1000, step: 0.1, addonAfter: t.seconds };
  return (
    <section className="vw-vt-step" data-testid="erase-ranges">
      {ranges.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: ranges are edited in place
        <div key={i} className="vw-vt-field">
          <InputNumber
            {...bound}
            value={r.start}
            onChange={(v) => edit(i, { start: v ?? 0 })}
            data-testid="erase-range-start"
          />
          <span>{t.to}</span>
          <InputNumber
            {...bound}
            value={r.end}
            onChange={(v) => edit(i, { end: v ?? 0 })}
            data-testid="erase-range-end"
          />
          <Button
            type="text"
            icon={<DeleteOutlined />}
            aria-label={t.removeRange}
            onClick={() => onChange(ranges.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button
        icon={<PlusOutlined />}
        onClick={() => onChange([...ranges, { start: 0, end: Math.min(5, durationMs / 1000) }])}
        data-testid="erase-range-add"
      >
        {t.addRange}
      </Button>
      {!ok && <span className="vw-vt-error">{t.rangesInvalid}</span>}
    </section>
  );
}

/** Before/after of the current frame, erased with the boxes and method as they are now. */
function PreviewStep({
  run,
  preview,
}: {
  run: () => void;
  preview: { isPending: boolean; data?: { before: { url: string }; after: { url: string } } };
}) {
  return (
    <section className="vw-vt-step" data-testid="erase-preview">
      <Button loading={preview.isPending} onClick={run} data-testid="erase-preview-run">
        {t.preview}
      </Button>
      {preview.data && (
        <div className="vw-st-pair">
          <figure>
            <img src={preview.data.before.url} alt={t.before} data-testid="erase-preview-before" />
            <figcaption className="vw-vt-muted">{t.before}</figcaption>
          </figure>
          <figure>
            <img src={preview.data.after.url} alt={t.after} data-testid="erase-preview-after" />
            <figcaption className="vw-vt-muted">{t.after}</figcaption>
          </figure>
        </div>
      )}
    </section>
  );
}
