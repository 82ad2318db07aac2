import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { MediaAsset } from '@vw/contract';
import { Alert, Button, Checkbox, InputNumber, Radio, Segmented, Select } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/api.ts';
import { invalidateCall, useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { useToolAvailability } from '../useToolAvailability.ts';
import { EraseResult } from './EraseResult.tsx';
import { type EditorBox, RegionEditor } from './RegionEditor.tsx';
import { boxesOnly, Estimate, useFrames, VideoStep } from './shared.tsx';
import './subtitles.css';

type Mode = 'erase' | 'watermark';
type RangeMode = 'subtitles' | 'whole' | 'custom';
type Method = 'fast' | 'blur';

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
  const { task } = useTask(taskId);
  return (
    <div className="vw-vt-started" data-testid="erase-started">
      {task && <TaskProgress task={task} />}
      {task?.status === 'succeeded' && <EraseResult taskId={taskId} title={title} />}
      {onAnother && (
        <div className="vw-vt-actions">
          <Button onClick={onAnother} data-testid="erase-another">
            返回
          </Button>
        </div>
      )}
    </div>
  );
}

/**
 * 字幕擦除 (and 去水印): a video → boxes on a frame (the detected band to start with) → when: where
 * subtitles are shown / the whole video / custom ranges → method → before/after of one frame →
 * estimate → `eraseCreate` / `watermarkRemoveCreate`, then progress and the result.
 */
export function EraseNewProject({ onBack, asset: handed }: { onBack: () => void; asset?: MediaAsset }) {
  const { message } = useApp();
  const [mode, setMode] = useState<Mode>('erase');
  const availability = useToolAvailability(mode);
  const [asset, setAsset] = useState<MediaAsset | null>(handed ?? null);
  const [atMs, setAtMs] = useState<number | null>(null);
  const [boxes, setBoxes] = useState<EditorBox[] | null>(null);
  const [rangeMode, setRangeMode] = useState<RangeMode>('subtitles');
  const [ranges, setRanges] = useState<Array<{ start: number; end: number }>>([]);
  const [method, setMethod] = useState<Method>('fast');
  const [secondPass, setSecondPass] = useState(true);
  /** Mode 仅出现字幕时: the times from a finished 字幕提取 project of this video, or '' = recognise again. */
  const [ocrProject, setOcrProject] = useState('');
  const [started, setStarted] = useState<{ task_id: string; title: string } | null>(null);
  const frames = useFrames(asset, atMs);
  const { detect, initialBoxes } = frames;
  const ocrProjects = useCall(
    api.listProjects,
    { query: { tool: 'ocr', page: 1, page_size: 100 } },
    { enabled: !!asset && mode === 'erase' && rangeMode === 'subtitles', staleTime: 0 },
  );
  const usable = (ocrProjects.data?.list ?? []).filter(
    (p) => p.source_asset_id === asset?.asset_id && p.status === 'succeeded',
  );

  useEffect(() => {
    // Subtitles: the detected bands to start with; a watermark is drawn by hand.
    if (detect.data && boxes === null) setBoxes(mode === 'erase' ? initialBoxes : []);
  }, [detect.data, boxes, initialBoxes, mode]);

  const pick = useCallback((a: MediaAsset | null) => {
    setAsset(a);
    setBoxes(null);
    setAtMs(null);
    setRanges([]);
    setOcrProject('');
  }, []);

  const preview = useCallMutation(api.erasePreview);
  const onStarted = (d: { task_id: string }) => {
    setStarted({ task_id: d.task_id, title: asset?.name.replace(/\.[^.]{1,8}$/, '') ?? '' });
    message.success('已开始处理');
    void invalidateCall(api.listProjects);
  };
  const erase = useCallMutation(api.eraseCreate, { onSuccess: onStarted });
  const watermark = useCallMutation(api.watermarkRemoveCreate, { onSuccess: onStarted });

  if (started)
    return (
      <EraseStarted
        taskId={started.task_id}
        title={started.title}
        onAnother={() => {
          pick(null);
          setStarted(null);
          onBack();
        }}
      />
    );

  const current = boxes ?? [];
  const durationMs = asset?.duration_ms ?? 0;
  const seconds = asset?.duration_ms != null ? asset.duration_ms / 1000 : null;
  const rangesOk =
    rangeMode !== 'custom' ||
    (ranges.length > 0 && ranges.every((r) => r.end > r.start && r.end * 1000 <= durationMs));
  const start = () => {
    if (!asset) return;
    const body = { asset_id: asset.asset_id, boxes: boxesOnly(current), method, second_pass: secondPass };
    if (mode === 'watermark') watermark.mutate({ body });
    else
      erase.mutate({
        body: {
          ...body,
          range_mode: rangeMode,
          ocr_project_id: rangeMode === 'subtitles' && ocrProject ? ocrProject : undefined,
          ranges: ranges.map((r) => ({
            start_ms: Math.round(r.start * 1000),
            end_ms: Math.round(r.end * 1000),
          })),
        },
      });
  };

  return (
    <div className="vw-vt-new" data-testid="erase-new">
      <Segmented
        value={mode}
        onChange={(v) => {
          setMode(v as Mode);
          setBoxes(v === 'erase' ? initialBoxes : []);
          preview.reset();
        }}
        options={[
          { value: 'erase', label: '字幕擦除' },
          { value: 'watermark', label: '去水印' },
        ]}
        data-testid="erase-mode"
      />
      {!availability.available && (
        <Alert type="warning" showIcon message={availability.reason} data-testid="erase-unavailable" />
      )}
      <section className="vw-vt-step">
        <h3>选择视频</h3>
        <VideoStep asset={asset} onAsset={pick} disabled={!availability.available} testId="erase" />
      </section>
      {asset?.has_video && (
        <section className="vw-vt-step">
          <h3>{mode === 'erase' ? '擦除区域' : '水印位置'}</h3>
          <p className="vw-vt-muted" data-testid="erase-detected">
            {mode === 'watermark'
              ? '在画面上框选水印（角标、台标）所在位置，整段视频都会处理'
              : detect.data
                ? detect.data.regions.length > 0
                  ? `已框出检测到的 ${detect.data.regions.length} 个字幕区域，可调整`
                  : '没有检测到字幕，请在画面上框选要擦除的区域'
                : detect.isFetching
                  ? '正在检测字幕位置…'
                  : ''}
          </p>
          <RegionEditor
            frameUrl={frames.frameUrl}
            aspect={(asset.width ?? 16) / (asset.height ?? 9)}
            boxes={current}
            onChange={(b) => {
              setBoxes(b);
              preview.reset();
            }}
            durationMs={durationMs}
            atMs={frames.frameAt}
            onSeek={(ms) => {
              setAtMs(ms);
              preview.reset();
            }}
            loading={frames.loading}
            maxBoxes={8}
            testId="erase-regions"
          />
        </section>
      )}
      <section className="vw-vt-step vw-vt-options">
        {mode === 'erase' && (
          <div className="vw-vt-field">
            <span>擦除时段</span>
            <Radio.Group
              value={rangeMode}
              onChange={(e) => setRangeMode(e.target.value)}
              options={[
                { value: 'subtitles', label: '仅出现字幕时' },
                { value: 'whole', label: '整段视频' },
                { value: 'custom', label: '自定义时段' },
              ]}
              data-testid="erase-range-mode"
            />
            {rangeMode === 'subtitles' && usable.length > 0 && (
              <Select
                value={ocrProject}
                onChange={setOcrProject}
                options={[
                  { value: '', label: '擦除时重新识别字幕时间' },
                  ...usable.map((p) => ({
                    value: p.project_id,
                    label: `使用字幕提取项目「${p.name}」的时间`,
                  })),
                ]}
                style={{ width: 280 }}
                data-testid="erase-ocr-project"
              />
            )}
          </div>
        )}
        <div className="vw-vt-field">
          <span id="erase-method-label">擦除方法</span>
          <Select
            aria-labelledby="erase-method-label"
            value={method}
            onChange={(m) => {
              setMethod(m);
              preview.reset();
            }}
            options={[
              { value: 'fast', label: '快速（按周边像素填充）' },
              { value: 'blur', label: '模糊' },
            ]}
            style={{ width: 200 }}
            data-testid="erase-method"
          />
        </div>
        <Checkbox
          checked={secondPass}
          onChange={(e) => setSecondPass(e.target.checked)}
          data-testid="erase-second-pass"
        >
          擦除后检查并二次擦除残留
        </Checkbox>
      </section>
      {mode === 'erase' && rangeMode === 'custom' && (
        <section className="vw-vt-step" data-testid="erase-ranges">
          {ranges.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: ranges are edited in place
            <div key={i} className="vw-vt-field">
              <InputNumber
                min={0}
                max={durationMs / 1000}
                step={0.1}
                value={r.start}
                addonAfter="秒"
                onChange={(v) => setRanges(ranges.map((x, j) => (j === i ? { ...x, start: v ?? 0 } : x)))}
                data-testid="erase-range-start"
              />
              <span>至</span>
              <InputNumber
                min={0}
                max={durationMs / 1000}
                step={0.1}
                value={r.end}
                addonAfter="秒"
                onChange={(v) => setRanges(ranges.map((x, j) => (j === i ? { ...x, end: v ?? 0 } : x)))}
                data-testid="erase-range-end"
              />
              <Button
                type="text"
                icon={<DeleteOutlined />}
                aria-label="删除时段"
                onClick={() => setRanges(ranges.filter((_, j) => j !== i))}
              />
            </div>
          ))}
          <Button
            icon={<PlusOutlined />}
            onClick={() => setRanges([...ranges, { start: 0, end: Math.min(5, durationMs / 1000) }])}
            data-testid="erase-range-add"
          >
            添加时段
          </Button>
          {!rangesOk && (
            <span className="vw-vt-error">请添加时段，结束时间需晚于开始时间且不超过视频时长</span>
          )}
        </section>
      )}
      {asset && current.length > 0 && availability.available && (
        <section className="vw-vt-step" data-testid="erase-preview">
          <Button
            loading={preview.isPending}
            onClick={() =>
              preview.mutate({
                body: {
                  asset_id: asset.asset_id,
                  at_ms: frames.frameAt,
                  boxes: boxesOnly(current),
                  method,
                  tool: mode,
                },
              })
            }
            data-testid="erase-preview-run"
          >
            预览擦除效果（当前画面）
          </Button>
          {preview.data && (
            <div className="vw-st-pair">
              <figure>
                <img src={preview.data.before.url} alt="擦除前" data-testid="erase-preview-before" />
                <figcaption className="vw-vt-muted">擦除前</figcaption>
              </figure>
              <figure>
                <img src={preview.data.after.url} alt="擦除后" data-testid="erase-preview-after" />
                <figcaption className="vw-vt-muted">擦除后</figcaption>
              </figure>
            </div>
          )}
        </section>
      )}
      <section className="vw-vt-step vw-vt-footer">
        <Estimate tool="subtitle_erase" seconds={seconds} testId="erase-estimate" />
        <div className="vw-vt-actions">
          <Button onClick={onBack}>返回列表</Button>
          {availability.available ? (
            <Button
              type="primary"
              disabled={!asset || current.length === 0 || !rangesOk}
              loading={erase.isPending || watermark.isPending}
              onClick={start}
              data-testid="erase-start"
            >
              {mode === 'erase' ? '开始擦除' : '开始去水印'}
            </Button>
          ) : (
            <span className="vw-vt-error" data-testid="erase-reason">
              {availability.reason}
            </span>
          )}
        </div>
      </section>
    </div>
  );
}
