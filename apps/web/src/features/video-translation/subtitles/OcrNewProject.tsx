import type { MediaAsset } from '@vw/contract';
import { Alert, Button, Select } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import { invalidateCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { editorPath } from '../stt/SttNewProject.tsx';
import { useToolAvailability } from '../useToolAvailability.ts';
import { type EditorBox, RegionEditor } from './RegionEditor.tsx';
import { boxesOnly, Estimate, useFrames, VideoStep } from './shared.tsx';
import './subtitles.css';

const FPS = [1, 2, 3, 4, 5, 6, 8, 10];

function Started({
  taskId,
  projectId,
  onAnother,
}: {
  taskId: string;
  projectId: string;
  onAnother: () => void;
}) {
  const navigate = useNavigate();
  const { task } = useTask(taskId);
  return (
    <div className="vw-vt-started" data-testid="ocr-started">
      {task && <TaskProgress task={task} />}
      <div className="vw-vt-actions">
        {task?.status === 'succeeded' && (
          <Button
            type="primary"
            onClick={() => navigate(editorPath(projectId))}
            data-testid="ocr-open-editor"
          >
            打开编辑器
          </Button>
        )}
        <Button onClick={onAnother} data-testid="ocr-another">
          再识别一个
        </Button>
      </div>
    </div>
  );
}

/**
 * 字幕提取: a video → the detected subtitle band(s) drawn on a frame, adjustable → sampling options →
 * estimate → `ocrCreate`, then progress and the editor with the recognised tracks.
 */
export function OcrNewProject({ onBack }: { onBack: () => void }) {
  const { message } = useApp();
  const availability = useToolAvailability('ocr');
  const [asset, setAsset] = useState<MediaAsset | null>(null);
  const [atMs, setAtMs] = useState<number | null>(null);
  const [boxes, setBoxes] = useState<EditorBox[] | null>(null);
  const [fps, setFps] = useState(4);
  const [convert, setConvert] = useState<'none' | 't2s' | 's2t'>('none');
  const [started, setStarted] = useState<{ task_id: string; project_id: string } | null>(null);
  const frames = useFrames(asset, atMs);
  const { detect, initialBoxes } = frames;

  // The detected bands are the starting boxes (once per video).
  useEffect(() => {
    if (detect.data && boxes === null) setBoxes(initialBoxes);
  }, [detect.data, boxes, initialBoxes]);

  const pick = useCallback((a: MediaAsset | null) => {
    setAsset(a);
    setBoxes(null);
    setAtMs(null);
  }, []);

  const create = useCallMutation(api.ocrCreate, {
    onSuccess: (d) => {
      setStarted({ task_id: d.task_id, project_id: d.project_id });
      message.success('已开始识别');
      void invalidateCall(api.listProjects);
    },
  });

  if (started)
    return (
      <Started
        taskId={started.task_id}
        projectId={started.project_id}
        onAnother={() => {
          pick(null);
          setStarted(null);
        }}
      />
    );

  const seconds = asset?.duration_ms != null ? asset.duration_ms / 1000 : null;
  const current = boxes ?? [];
  return (
    <div className="vw-vt-new" data-testid="ocr-new">
      {!availability.available && (
        <Alert type="warning" showIcon message={availability.reason} data-testid="ocr-unavailable" />
      )}
      <section className="vw-vt-step">
        <h3>选择视频</h3>
        <VideoStep asset={asset} onAsset={pick} disabled={!availability.available} testId="ocr" />
      </section>
      {asset?.has_video && (
        <section className="vw-vt-step">
          <h3>字幕区域</h3>
          {detect.isFetching && <p className="vw-vt-muted">正在检测字幕位置…</p>}
          {detect.data && (
            <p className="vw-vt-muted" data-testid="ocr-detected">
              {detect.data.regions.length > 0
                ? `检测到 ${detect.data.regions.length} 个字幕区域（${detect.data.engine_label}），可拖动调整或新增区域（双语、顶部标题）`
                : '没有检测到字幕区域，请在画面上框选字幕所在位置'}
            </p>
          )}
          {detect.error && <Alert type="error" showIcon message={detect.error.message} />}
          <RegionEditor
            frameUrl={frames.frameUrl}
            aspect={(asset.width ?? 16) / (asset.height ?? 9)}
            boxes={current}
            onChange={setBoxes}
            durationMs={asset.duration_ms ?? 0}
            atMs={frames.frameAt}
            onSeek={setAtMs}
            loading={frames.loading}
            testId="ocr-regions"
          />
        </section>
      )}
      <section className="vw-vt-step vw-vt-options">
        <div className="vw-vt-field">
          <span id="ocr-fps-label">采样频率</span>
          <Select
            aria-labelledby="ocr-fps-label"
            value={fps}
            onChange={setFps}
            options={FPS.map((n) => ({ value: n, label: `每秒 ${n} 帧` }))}
            style={{ width: 140 }}
            data-testid="ocr-fps"
          />
        </div>
        <div className="vw-vt-field">
          <span id="ocr-convert-label">繁简转换</span>
          <Select
            aria-labelledby="ocr-convert-label"
            value={convert}
            onChange={setConvert}
            options={[
              { value: 'none', label: '不转换' },
              { value: 't2s', label: '繁体转简体' },
              { value: 's2t', label: '简体转繁体' },
            ]}
            style={{ width: 140 }}
            data-testid="ocr-convert"
          />
        </div>
      </section>
      <section className="vw-vt-step vw-vt-footer">
        <Estimate tool="subtitle_ocr" seconds={seconds} testId="ocr-estimate" />
        <div className="vw-vt-actions">
          <Button onClick={onBack}>返回列表</Button>
          {availability.available ? (
            <Button
              type="primary"
              disabled={!asset || current.length === 0}
              loading={create.isPending}
              onClick={() =>
                asset &&
                create.mutate({
                  body: { asset_id: asset.asset_id, regions: boxesOnly(current), fps, convert },
                })
              }
              data-testid="ocr-start"
            >
              开始识别
            </Button>
          ) : (
            <span className="vw-vt-error" data-testid="ocr-reason">
              {availability.reason}
            </span>
          )}
        </div>
      </section>
    </div>
  );
}
