import type { MediaAsset, VoiceChangerTarget } from '@vw/contract';
import { Alert, Button, Checkbox, Segmented, Select, Slider } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useState } from 'react';
import { formatCredits } from '@/features/credits/format.ts';
import { useToolAvailability } from '@/features/video-translation/useToolAvailability.ts';
import { api } from '@/lib/api.ts';
import { invalidateCall, useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { MediaSourcePicker } from '@/lib/upload/MediaSourcePicker.tsx';
import { formatBytes, UploadLeaveGuard } from '@/lib/upload/UploadDropzone.tsx';
import { type UseUpload, useUpload } from '@/lib/upload/useUpload.ts';
import '@/features/video-translation/video-tools.css';
import { zhCN } from '@/locales/zh-CN.ts';
import { History } from './History.tsx';
import { ResultView } from './ResultView.tsx';
import './voice-changer.css';

const t = zhCN.voiceChanger;

const ACCEPT = 'audio/*,video/*';
const ACCEPT_LABEL = 'MP3、WAV、M4A、AAC、FLAC、OGG、MP4、MOV、WEBM';
/** The tool's own cap (contract VOICE_CHANGER_MAX_*); the plan's limits apply on top. */
const MAX_BYTES = 50 * 1024 * 1024;
const MAX_SECONDS = 5 * 60;

interface Settings {
  mode: 'voice' | 'manual';
  voice_id: string | undefined;
  pitch_shift: number;
  formant_shift: number;
  denoise: boolean;
  keep_timing: boolean;
  format: 'mp3' | 'wav';
  engine: string | undefined;
}

function targetLabel(v: VoiceChangerTarget) {
  const extra = [v.median_hz ? t.pitchOf(v.median_hz) : '', v.required_level > 100 ? t.premium : '']
    .filter(Boolean)
    .join(' · ');
  return extra ? `${v.name}（${extra}）` : v.name;
}

/** The running (then finished) conversion: progress, then the A/B result. */
function Started({ taskId, onAnother }: { taskId: string; onAnother: () => void }) {
  const { task } = useTask(taskId);
  return (
    <div className="vw-vt-started" data-testid="vc-started">
      {task && <TaskProgress task={task} />}
      {task?.status === 'succeeded' && <ResultView taskId={taskId} />}
      <div className="vw-vt-actions">
        <Button onClick={onAnother} data-testid="vc-another">
          {t.another}
        </Button>
      </div>
    </div>
  );
}

/** Step 1: the file, uploaded or recorded, with its size and length checked against the limits. */
function FileSection({
  asset,
  seconds,
  limits,
  tooLong,
  tooLarge,
  upload,
  disabled,
  onPicked,
  onReset,
}: {
  asset: MediaAsset | null;
  seconds: number | null;
  limits: { maxSeconds: number; maxBytes: number };
  tooLong: boolean;
  tooLarge: boolean;
  upload: UseUpload;
  disabled: boolean;
  onPicked: (asset: MediaAsset) => void;
  onReset: () => void;
}) {
  return (
    <section className="vw-vt-step">
      <h3>{t.file}</h3>
      {asset ? (
        <div className="vw-vt-file" data-testid="vc-file">
          <strong>{asset.name}</strong>
          <span className="vw-vt-muted">
            {formatBytes(asset.size)}
            {seconds != null ? ` · ${formatDuration(seconds)}` : ` · ${t.waitingAsset}`}
          </span>
          <Button size="small" type="link" onClick={onReset}>
            {t.changeFile}
          </Button>
          {tooLong && <span className="vw-vt-error">{t.tooLong(formatDuration(limits.maxSeconds))}</span>}
          {tooLarge && <span className="vw-vt-error">{t.tooLarge(formatBytes(limits.maxBytes))}</span>}
        </div>
      ) : (
        <MediaSourcePicker
          accept={ACCEPT}
          acceptLabel={ACCEPT_LABEL}
          upload={upload}
          maxBytes={MAX_BYTES}
          maxSeconds={MAX_SECONDS}
          disabled={disabled}
          onPicked={onPicked}
          testId="vc-source"
        />
      )}
    </section>
  );
}

type SetSettings = (patch: Partial<Settings>) => void;

/** Step 2: a target voice (mine first, then the library) or manual settings. */
function TargetSection({ settings, set }: { settings: Settings; set: SetSettings }) {
  const targets = useCall(api.voiceChangerTargets, undefined, { staleTime: 60_000 });
  const list = targets.data?.targets ?? [];
  const mine = list.filter((v) => v.category === 'mine');
  const library = list.filter((v) => v.category === 'builtin');
  return (
    <section className="vw-vt-step">
      <h3>{t.target}</h3>
      <Segmented
        value={settings.mode}
        onChange={(v) => set({ mode: v as Settings['mode'] })}
        options={[
          { value: 'voice', label: t.targetVoice },
          { value: 'manual', label: t.targetManual },
        ]}
        data-testid="vc-mode"
      />
      {settings.mode === 'voice' && (
        <div className="vw-vc-field">
          <Select
            showSearch
            optionFilterProp="label"
            placeholder={t.pickVoice}
            value={settings.voice_id}
            onChange={(voice_id) => set({ voice_id })}
            loading={targets.isPending}
            style={{ width: 360 }}
            options={[
              ...(mine.length
                ? [
                    {
                      label: t.myVoices,
                      options: mine.map((v) => ({ value: v.voice_id, label: targetLabel(v) })),
                    },
                  ]
                : []),
              {
                label: t.library,
                options: library.map((v) => ({ value: v.voice_id, label: targetLabel(v) })),
              },
            ]}
            data-testid="vc-voice"
          />
        </div>
      )}
    </section>
  );
}

function OptionsSection({
  settings,
  set,
  engines,
}: {
  settings: Settings;
  set: SetSettings;
  engines: Array<{ id: string; label: string }>;
}) {
  return (
    <section className="vw-vt-step vw-vc-options">
      <h3>{t.options}</h3>
      <div className="vw-vc-slider">
        <span>{t.pitch}</span>
        <Slider
          min={-12}
          max={12}
          step={0.5}
          value={settings.pitch_shift}
          onChange={(pitch_shift) => set({ pitch_shift })}
          marks={{ '-12': '-12', 0: '0', 12: '+12' }}
          data-testid="vc-pitch"
        />
        <span className="vw-vt-muted">
          {settings.mode === 'voice' ? t.pitchHintVoice : t.pitchHintManual}
        </span>
      </div>
      <div className="vw-vc-slider">
        <span>{t.formant}</span>
        <Slider
          min={-6}
          max={6}
          step={0.5}
          value={settings.formant_shift}
          onChange={(formant_shift) => set({ formant_shift })}
          marks={{ '-6': '-6', 0: '0', 6: '+6' }}
          data-testid="vc-formant"
        />
        <span className="vw-vt-muted">{settings.mode === 'voice' ? t.formantHintVoice : t.formantHint}</span>
      </div>
      <div className="vw-vc-checks">
        <Checkbox
          checked={settings.denoise}
          onChange={(e) => set({ denoise: e.target.checked })}
          data-testid="vc-denoise"
        >
          {t.denoise}
        </Checkbox>
        <Checkbox
          checked={settings.keep_timing}
          onChange={(e) => set({ keep_timing: e.target.checked })}
          data-testid="vc-keep-timing"
        >
          {t.keepTiming}
        </Checkbox>
        {!settings.keep_timing && <span className="vw-vt-muted">{t.keepTimingHint}</span>}
      </div>
      <div className="vw-vc-checks">
        <span>{t.format}</span>
        <Segmented
          value={settings.format}
          onChange={(v) => set({ format: v as Settings['format'] })}
          options={[
            { value: 'mp3', label: 'MP3' },
            { value: 'wav', label: 'WAV' },
          ]}
          data-testid="vc-format"
        />
        {engines.length > 1 && (
          <>
            <span>{t.engine}</span>
            <Select
              value={settings.engine ?? engines[0].id}
              onChange={(engine) => set({ engine })}
              options={engines.map((e) => ({ value: e.id, label: e.label }))}
              style={{ width: 200 }}
              data-testid="vc-engine-select"
            />
          </>
        )}
      </div>
    </section>
  );
}

/** The estimate for the file's length, the balance, and the start button. */
function StartFooter({
  seconds,
  needTarget,
  canStart,
  disabled,
  starting,
  onStart,
}: {
  seconds: number | null;
  needTarget: boolean;
  canStart: boolean;
  disabled: boolean;
  starting: boolean;
  onStart: () => void;
}) {
  const estimate = useCall(
    api.estimateCredits,
    { body: { task_type: 'voice_changer', params: { seconds: Math.ceil(seconds ?? 0) } } },
    { enabled: seconds != null, suppressError: true, staleTime: 0 },
  );
  return (
    <section className="vw-vt-step vw-vt-footer">
      <div className="vw-vt-estimate" data-testid="vc-estimate">
        {seconds != null && (
          <>
            <span>{t.estimate}</span>
            {estimate.data ? (
              <>
                <strong data-testid="vc-estimate-credits">
                  {t.estimateValue(formatCredits(estimate.data.credits))}
                </strong>
                <span className="vw-vt-muted">{t.balance(formatCredits(estimate.data.balance))}</span>
                {!estimate.data.sufficient && <span className="vw-vt-error">{t.insufficient}</span>}
              </>
            ) : (
              <span className="vw-vt-muted">{estimate.isFetching ? t.estimating : ''}</span>
            )}
          </>
        )}
      </div>
      <div className="vw-vt-actions">
        {needTarget && <span className="vw-vt-muted">{t.needTarget}</span>}
        {canStart && (
          <Button
            type="primary"
            disabled={disabled}
            loading={starting}
            onClick={onStart}
            data-testid="vc-start"
          >
            {t.start}
          </Button>
        )}
      </div>
    </section>
  );
}

/** Route /voice-changer: a file (upload or recording) → target voice or manual settings → task → A/B. */
export function Component() {
  const { message } = useApp();
  const availability = useToolAvailability('voice_changer');
  const caps = useCall(api.getToolCapabilities, undefined, { staleTime: 60_000, suppressError: true });
  const engines = caps.data?.tools.find((x) => x.tool === 'voice_changer')?.engines ?? [];
  const planSeconds = caps.data?.limits.max_duration_seconds ?? MAX_SECONDS;
  const planBytes = caps.data?.limits.max_upload_bytes ?? MAX_BYTES;
  const maxSeconds = Math.min(MAX_SECONDS, planSeconds);
  const maxBytes = Math.min(MAX_BYTES, planBytes);
  const upload = useUpload();
  const [picked, setPicked] = useState<MediaAsset | null>(null);
  const [settings, setSettings] = useState<Settings>({
    mode: 'voice',
    voice_id: undefined,
    pitch_shift: 0,
    formant_shift: 0,
    denoise: false,
    keep_timing: true,
    format: 'mp3',
    engine: undefined,
  });
  const [started, setStarted] = useState<string | null>(null);
  const set = (patch: Partial<Settings>) => setSettings((s) => ({ ...s, ...patch }));

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
  const tooLong = seconds != null && seconds > maxSeconds;
  const tooLarge = !!asset && asset.size > maxBytes;
  const create = useCallMutation(api.voiceChangerCreate, {
    // A shortage (err_sts_balance_insufficient) shows the app's credit prompt by itself.
    onSuccess: (d) => {
      setStarted(d.task_id);
      message.success(t.started);
      void invalidateCall(api.listTasks);
    },
  });

  const reset = () => {
    upload.reset();
    setPicked(null);
    setStarted(null);
  };
  const hasTarget =
    settings.mode === 'voice'
      ? !!settings.voice_id
      : settings.pitch_shift !== 0 || settings.formant_shift !== 0 || settings.denoise;
  const start = () => {
    if (!asset) return;
    create.mutate({
      body: {
        asset_id: asset.asset_id,
        voice_id: settings.mode === 'voice' ? settings.voice_id : undefined,
        pitch_shift: settings.pitch_shift,
        formant_shift: settings.formant_shift,
        denoise: settings.denoise,
        keep_timing: settings.keep_timing,
        format: settings.format,
        engine: settings.engine,
      },
    });
  };

  return (
    <div className="vw-vc-page" data-testid="voice-changer-page">
      <header className="vw-vc-header">
        <h2>{t.title}</h2>
        <p className="vw-vt-muted">{t.intro}</p>
      </header>
      <div className="vw-vc-body">
        <div className="vw-vc-main">
          {started ? (
            <Started taskId={started} onAnother={reset} />
          ) : (
            <div className="vw-vt-new" data-testid="vc-new">
              <UploadLeaveGuard active={upload.active} />
              {!availability.available && (
                <Alert type="warning" showIcon message={availability.reason} data-testid="vc-unavailable" />
              )}
              <FileSection
                asset={asset}
                seconds={seconds}
                limits={{ maxSeconds, maxBytes }}
                tooLong={tooLong}
                tooLarge={tooLarge}
                upload={upload}
                disabled={!availability.available}
                onPicked={setPicked}
                onReset={reset}
              />
              <TargetSection settings={settings} set={set} />
              <OptionsSection settings={settings} set={set} engines={engines} />
              <StartFooter
                seconds={seconds}
                needTarget={!hasTarget && !!asset}
                canStart={availability.available}
                disabled={!asset || seconds == null || tooLong || tooLarge || !hasTarget}
                starting={create.isPending}
                onStart={start}
              />
            </div>
          )}
        </div>
        <aside className="vw-vc-side">
          <History onOpen={(id) => setStarted(id)} />
        </aside>
      </div>
    </div>
  );
}
