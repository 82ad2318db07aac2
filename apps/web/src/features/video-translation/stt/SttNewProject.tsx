import type { MediaAsset, SttOptions } from '@vw/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import { MediaSourcePicker } from '@/lib/upload/MediaSourcePicker.tsx';
import { formatBytes, UploadLeaveGuard } from '@/lib/upload/UploadDropzone.tsx';
import { type UseUpload, useUpload } from '@/lib/upload/useUpload.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { FormCheck, SelectField } from '../project/fields.tsx';
import {
  CreditEstimate,
  NewProjectShell,
  StartedTask,
  useCreditEstimate,
} from '../project/NewProjectShell.tsx';
import { type SetField, useToolProject } from '../project/useToolProject.ts';

const t = zhCN.videoTools.stt;
const LANGUAGES = ['auto', 'zh', 'en', 'yue', 'ja', 'ko'] as const;
const SPEAKERS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const ACCEPT = 'audio/*,video/*';
const ACCEPT_LABEL = 'MP3、WAV、M4A、AAC、FLAC、OGG、MP4、MOV、MKV、WEBM';
const ESTIMATE_TEXT = {
  label: t.estimate,
  credits: t.estimateValue,
  balance: t.balance,
  insufficient: t.insufficient,
  estimating: t.estimating,
};

/**
 * The 语音转文字 tab's new flow: a file (upload, or a recording made here) → options → the cost
 * estimate against the balance → start (`sttCreate`), then the task's progress and the editor.
 */
export function SttNewProject({ onBack }: { onBack: () => void }) {
  const project = useToolProject<SttOptions>(
    'stt',
    { language: 'auto', speakers: 0, punctuation: true, split_cues: true },
    t.started,
  );
  const upload = useUpload();
  const [picked, setPicked] = useState<MediaAsset | null>(null);
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
  const estimate = useCreditEstimate('speech_to_text', seconds);
  // Credit shortage (1010 / err_balance_insufficient) shows the app's credit prompt by itself.
  const create = useCallMutation(api.sttCreate, { onSuccess: project.onStarted });
  const reset = () => {
    upload.reset();
    setPicked(null);
    project.clearStarted();
  };

  if (project.started)
    return (
      <StartedTask
        prefix="stt"
        taskId={project.started.task_id}
        projectId={project.started.project_id}
        labels={{ open: t.openEditor, another: t.another }}
        onAnother={reset}
      />
    );

  return (
    <NewProjectShell
      prefix="stt"
      availability={project.availability}
      estimate={
        <CreditEstimate
          testId="stt-estimate"
          shown={seconds != null}
          data={estimate.data}
          fetching={estimate.isFetching}
          text={ESTIMATE_TEXT}
          balanceId="stt-balance"
          insufficientId="stt-insufficient"
        />
      }
      onBack={onBack}
      start={{
        label: t.start,
        disabled: !asset,
        loading: create.isPending,
        onClick: () => asset && create.mutate({ body: { asset_id: asset.asset_id, ...project.form } }),
      }}
    >
      <UploadLeaveGuard active={upload.active} />
      <FileStep asset={asset} upload={upload} off={project.off} onPicked={setPicked} onChange={reset} />
      <OptionsStep
        form={project.form}
        set={project.set}
        // Only when the capabilities say so: while they load, nothing is claimed.
        separatesSpeakers={
          project.availability.engines.length === 0 ||
          project.availability.engines.some((e) => e.diarization !== false)
        }
      />
    </NewProjectShell>
  );
}

/** The file: uploaded or recorded here, then its name, size and length. */
function FileStep({
  asset,
  upload,
  off,
  onPicked,
  onChange,
}: {
  asset: MediaAsset | null;
  upload: UseUpload;
  off: boolean;
  onPicked: (a: MediaAsset) => void;
  onChange: () => void;
}) {
  return (
    <section className="vw-vt-step">
      <h3>{t.file}</h3>
      {asset ? (
        <div className="vw-vt-file" data-testid="stt-file">
          <strong>{asset.name}</strong>
          <span className="vw-vt-muted">
            {formatBytes(asset.size)}
            {asset.duration_ms != null
              ? ` · ${formatDuration(asset.duration_ms / 1000)}`
              : ` · ${t.waitingAsset}`}
          </span>
          <Button size="small" type="link" onClick={onChange}>
            {t.changeFile}
          </Button>
        </div>
      ) : (
        <MediaSourcePicker
          accept={ACCEPT}
          acceptLabel={ACCEPT_LABEL}
          upload={upload}
          disabled={off}
          onPicked={onPicked}
          testId="stt-source"
        />
      )}
    </section>
  );
}

/** Recognition language, speakers, punctuation and cue splitting: the options of `sttCreate`. */
function OptionsStep({
  form,
  set,
  separatesSpeakers,
}: {
  form: SttOptions;
  set: SetField<SttOptions>;
  separatesSpeakers: boolean;
}) {
  return (
    <section className="vw-vt-step vw-vt-options">
      <SelectField
        label={t.language}
        labelId="stt-language-label"
        value={form.language}
        onChange={(language) => set('language', language)}
        options={LANGUAGES.map((l) => ({ value: l, label: t.languages[l] }))}
        style={{ width: 180 }}
        data-testid="stt-language"
      />
      <SelectField
        label={t.speakers}
        labelId="stt-speakers-label"
        value={form.speakers}
        onChange={(speakers) => set('speakers', speakers)}
        options={SPEAKERS.map((n) => ({ value: n, label: n === 0 ? t.speakersAuto : t.speakersN(n) }))}
        style={{ width: 140 }}
        data-testid="stt-speakers"
      />
      {!separatesSpeakers && form.speakers !== 1 && (
        <p className="vw-vt-muted" data-testid="stt-speakers-note">
          {t.speakersUnavailable}
        </p>
      )}
      <FormCheck form={form} set={set} name="punctuation" testId="stt-punctuation">
        {t.punctuation}
      </FormCheck>
      <FormCheck form={form} set={set} name="split_cues" testId="stt-split">
        {t.splitCues}
      </FormCheck>
    </section>
  );
}
