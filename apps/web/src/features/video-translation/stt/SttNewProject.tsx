import { AudioOutlined, CloudUploadOutlined } from '@ant-design/icons';
import type { MediaAsset, SttOptions } from '@vw/contract';
import { Alert, Button, Checkbox, Segmented, Select } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { formatCredits } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import { invalidateCall, useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { formatBytes, UploadDropzone, UploadLeaveGuard } from '@/lib/upload/UploadDropzone.tsx';
import { useUpload } from '@/lib/upload/useUpload.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { Recorder } from '../Recorder.tsx';
import { useToolAvailability } from '../useToolAvailability.ts';

const t = zhCN.videoTools.stt;
const LANGUAGES = ['auto', 'zh', 'en', 'yue', 'ja', 'ko'] as const;
const SPEAKERS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
export const STT_ACCEPT = 'audio/*,video/*';
const ACCEPT_LABEL = 'MP3、WAV、M4A、AAC、FLAC、OGG、MP4、MOV、MKV、WEBM';

export const editorPath = (projectId: string) =>
  `/video-translation/editor?id=${encodeURIComponent(projectId)}`;

/** The running (or finished) recognition: live progress, then the way into the editor. */
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
    <div className="vw-vt-started" data-testid="stt-started">
      {task && <TaskProgress task={task} />}
      <div className="vw-vt-actions">
        {task?.status === 'succeeded' && (
          <Button
            type="primary"
            onClick={() => navigate(editorPath(projectId))}
            data-testid="stt-open-editor"
          >
            {t.openEditor}
          </Button>
        )}
        <Button onClick={onAnother} data-testid="stt-another">
          {t.another}
        </Button>
      </div>
    </div>
  );
}

/**
 * The 语音转文字 tab's new flow: a file (upload, or a recording made here) → options → the cost
 * estimate against the balance → start (`sttCreate`), then the task's progress and the editor.
 */
export function SttNewProject({ onBack }: { onBack: () => void }) {
  const { message } = useApp();
  const availability = useToolAvailability('stt');
  const upload = useUpload();
  const [source, setSource] = useState<'upload' | 'record'>('upload');
  const [picked, setPicked] = useState<MediaAsset | null>(null);
  const [options, setOptions] = useState<SttOptions>({
    language: 'auto',
    speakers: 0,
    punctuation: true,
    split_cues: true,
  });
  const [started, setStarted] = useState<{ task_id: string; project_id: string } | null>(null);

  // The asset is probed when the upload completes; while it is still processing, look again.
  const fresh = useCall(
    api.getMediaAsset,
    { query: { asset_id: picked?.asset_id ?? '' } },
    {
      enabled: !!picked && picked.duration_ms == null && picked.status === 'processing',
      refetchInterval: (q) => (q.state.data?.asset.status === 'processing' ? 1500 : false),
    },
  );
  const asset = fresh.data?.asset ?? picked;
  const seconds = asset?.duration_ms != null ? asset.duration_ms / 1000 : null;
  const estimate = useCall(
    api.estimateCredits,
    { body: { task_type: 'speech_to_text', params: { seconds: seconds ?? 0 } } },
    { enabled: seconds != null, suppressError: true, staleTime: 0 },
  );

  const create = useCallMutation(api.sttCreate, {
    // Credit shortage (1010 / err_balance_insufficient) shows the app's credit prompt by itself.
    onSuccess: (d) => {
      setStarted({ task_id: d.task_id, project_id: d.project_id });
      message.success(t.started);
      void invalidateCall(api.listProjects);
    },
  });

  const reset = () => {
    upload.reset();
    setPicked(null);
    setStarted(null);
  };

  if (started) return <Started taskId={started.task_id} projectId={started.project_id} onAnother={reset} />;

  const uploading = upload.state.phase !== 'idle' && upload.state.phase !== 'cancelled';
  return (
    <div className="vw-vt-new" data-testid="stt-new">
      <UploadLeaveGuard active={upload.active} />
      {!availability.available && (
        <Alert type="warning" showIcon message={availability.reason} data-testid="stt-unavailable" />
      )}
      <section className="vw-vt-step">
        <h3>{t.file}</h3>
        {asset ? (
          <div className="vw-vt-file" data-testid="stt-file">
            <strong>{asset.name}</strong>
            <span className="vw-vt-muted">
              {formatBytes(asset.size)}
              {seconds != null ? ` · ${formatDuration(seconds)}` : ` · ${t.waitingAsset}`}
            </span>
            <Button size="small" type="link" onClick={reset}>
              {t.changeFile}
            </Button>
          </div>
        ) : (
          <>
            {!uploading && (
              <Segmented
                value={source}
                onChange={(v) => setSource(v as 'upload' | 'record')}
                options={[
                  { value: 'upload', label: t.upload, icon: <CloudUploadOutlined /> },
                  { value: 'record', label: t.record, icon: <AudioOutlined /> },
                ]}
                data-testid="stt-source"
              />
            )}
            {source === 'upload' || uploading ? (
              <UploadDropzone
                accept={STT_ACCEPT}
                acceptLabel={ACCEPT_LABEL}
                upload={upload}
                leaveGuard={false}
                disabled={!availability.available}
                onUploaded={(a) => setPicked(a)}
              />
            ) : (
              <Recorder
                disabled={!availability.available}
                onFile={(file) =>
                  upload.start(file).then(
                    (a) => setPicked(a),
                    () => undefined,
                  )
                }
              />
            )}
          </>
        )}
      </section>

      <section className="vw-vt-step vw-vt-options">
        <div className="vw-vt-field">
          <span id="stt-language-label">{t.language}</span>
          <Select
            aria-labelledby="stt-language-label"
            value={options.language}
            onChange={(language) => setOptions((o) => ({ ...o, language }))}
            options={LANGUAGES.map((l) => ({ value: l, label: t.languages[l] }))}
            style={{ width: 180 }}
            data-testid="stt-language"
          />
        </div>
        <div className="vw-vt-field">
          <span id="stt-speakers-label">{t.speakers}</span>
          <Select
            aria-labelledby="stt-speakers-label"
            value={options.speakers}
            onChange={(speakers) => setOptions((o) => ({ ...o, speakers }))}
            options={SPEAKERS.map((n) => ({ value: n, label: n === 0 ? t.speakersAuto : t.speakersN(n) }))}
            style={{ width: 140 }}
            data-testid="stt-speakers"
          />
        </div>
        <Checkbox
          checked={options.punctuation}
          onChange={(e) => setOptions((o) => ({ ...o, punctuation: e.target.checked }))}
          data-testid="stt-punctuation"
        >
          {t.punctuation}
        </Checkbox>
        <Checkbox
          checked={options.split_cues}
          onChange={(e) => setOptions((o) => ({ ...o, split_cues: e.target.checked }))}
          data-testid="stt-split"
        >
          {t.splitCues}
        </Checkbox>
      </section>

      <section className="vw-vt-step vw-vt-footer">
        <div className="vw-vt-estimate" data-testid="stt-estimate">
          {asset && seconds != null && (
            <>
              <span>{t.estimate}</span>
              {estimate.data ? (
                <>
                  <strong data-testid="stt-estimate-credits">
                    {t.estimateValue(formatCredits(estimate.data.credits))}
                  </strong>
                  <span className="vw-vt-muted" data-testid="stt-balance">
                    {t.balance(formatCredits(estimate.data.balance))}
                  </span>
                  {!estimate.data.sufficient && (
                    <span className="vw-vt-error" data-testid="stt-insufficient">
                      {t.insufficient}
                    </span>
                  )}
                </>
              ) : (
                <span className="vw-vt-muted">{estimate.isFetching ? t.estimating : ''}</span>
              )}
            </>
          )}
        </div>
        <div className="vw-vt-actions">
          <Button onClick={onBack}>{zhCN.videoTools.back}</Button>
          {availability.available && (
            <Button
              type="primary"
              disabled={!asset}
              loading={create.isPending}
              onClick={() => asset && create.mutate({ body: { asset_id: asset.asset_id, ...options } })}
              data-testid="stt-start"
            >
              {t.start}
            </Button>
          )}
        </div>
      </section>
    </div>
  );
}
