import type { DubOptions, MediaAsset } from '@vw/contract';
import type { TaskTool } from '@vw/contract/constants/tasks.ts';
import { Alert, Button, Checkbox, Segmented, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '@/lib/api.ts';
import type { BodyOf } from '@/lib/http/client.ts';
import { useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { FormCheck, SelectField } from '../project/fields.tsx';
import { MediaStep } from '../project/MediaStep.tsx';
import {
  CreditEstimate,
  NewProjectShell,
  StartedTask,
  useCreditEstimate,
} from '../project/NewProjectShell.tsx';
import { SubtitlePicker } from '../project/SubtitlePicker.tsx';
import { lastCueEndMs, type SubtitleFile, subtitleBody } from '../project/subtitleFile.ts';
import { type SetField, type StartedProject, useToolProject } from '../project/useToolProject.ts';
import { ProjectFlags } from './ProjectFlags.tsx';
import { TaskOutputs } from './TaskOutputs.tsx';
import { VoiceSelect } from './VoiceSelect.tsx';

const d = zhCN.dubbing;

export type DubMode = 'srt' | 'ai' | 'synthesis';
const TOOL: Record<DubMode, TaskTool> = { srt: 'srt_dubbing', ai: 'dubbing', synthesis: 'synthesis' };
const OUTPUTS = ['mp4', 'mp3', 'wav', 'stems', 'srt', 'vtt', 'ass'] as const;
const SOURCES = ['asr', 'ocr', 'project', 'subtitle'] as const;
const DEFAULT_VOICE = 'espeak-zh-xiaoya';
const ESTIMATE_TEXT = {
  label: d.estimate,
  credits: d.estimateValue,
  balance: d.balance,
  insufficient: d.insufficient,
};

type AiBody = BodyOf<typeof api.dubbingCreate>;
/** The dub settings this flow sets, as the create calls' `options` take them. */
type DubFormOptions = Required<
  Pick<
    DubOptions,
    | 'background'
    | 'loudness'
    | 'subtitle_mode'
    | 'subtitle_lines'
    | 'outputs'
    | 'condense'
    | 'check'
    | 'allow_slow_video'
  >
>;
/** The flow's choices, named as `dubbingCreate` names them (SRT配音 and 视频合成 take a part of them). */
type DubForm = Required<Pick<AiBody, 'source' | 'review' | 'default_voice_id' | 'speaker_voices'>> & {
  source_project_id: string | null;
  options: DubFormOptions;
};
/** The files picked for the calls: the media, 视频合成's track and music, the subtitles (and their second language). */
interface DubFiles {
  media: MediaAsset | null;
  track: MediaAsset | null;
  music: MediaAsset | null;
  subtitle: SubtitleFile | null;
  second: SubtitleFile | null;
}
const NO_FILES: DubFiles = { media: null, track: null, music: null, subtitle: null, second: null };

const initialForm = (mode: DubMode): DubForm => ({
  source: 'subtitle',
  review: false,
  default_voice_id: DEFAULT_VOICE,
  speaker_voices: {},
  source_project_id: null,
  options: {
    background: mode === 'synthesis' ? 'keep' : 'duck',
    loudness: 'online',
    subtitle_mode: mode === 'synthesis' ? 'burn' : 'none',
    subtitle_lines: 'single',
    outputs: ['mp4', 'mp3', 'srt'],
    condense: true,
    check: true,
    allow_slow_video: false,
  },
});

/**
 * Dubbing and synthesis keep the picture, so subtitles burned into it stay on screen. The video is
 * checked for them (the subtitle-band detection of 字幕提取); found, or when the check cannot run, the
 * flow says so and offers 擦除原字幕 (字幕擦除 opens with this video).
 */
function BurnedInNotice({ asset, ocrSource }: { asset: MediaAsset; ocrSource: boolean }) {
  const navigate = useNavigate();
  const ready = asset.status === 'ready' && asset.has_video;
  const detect = useCall(
    api.ocrDetectRegions,
    { body: { asset_id: asset.asset_id } },
    { enabled: ready, staleTime: Number.POSITIVE_INFINITY, retry: false, suppressError: true },
  );
  if (!ready) return null;
  if (detect.isFetching)
    return (
      <div className="vw-vt-muted" data-testid="dub-burned-in-checking">
        {d.burnedIn.checking}
      </div>
    );
  const found = detect.data ? detect.data.regions.length > 0 : null;
  if (found === false) return null;
  const erase = (
    <Button
      size="small"
      onClick={() => navigate('/video-translation/erase', { state: { asset } })}
      data-testid="dub-burned-in-erase"
    >
      {d.burnedIn.erase}
    </Button>
  );
  return (
    <Alert
      type={found ? 'warning' : 'info'}
      showIcon
      data-testid="dub-burned-in"
      data-found={!!found}
      message={found ? d.burnedIn.found : d.burnedIn.unknown}
      description={
        found || ocrSource ? (
          <>
            {found && <div>{d.burnedIn.foundText}</div>}
            {ocrSource && <div>{d.burnedIn.ocrNote}</div>}
          </>
        ) : undefined
      }
      action={erase}
    />
  );
}

/** The picked files and a stable setter for each (a picker calls its setter from an effect). */
function useDubFiles() {
  const [files, setFiles] = useState<DubFiles>(NO_FILES);
  const setFile = useMemo(() => {
    const of =
      <K extends keyof DubFiles>(key: K) =>
      (value: DubFiles[K]) =>
        setFiles((f) => ({ ...f, [key]: value }));
    return {
      media: of('media'),
      track: of('track'),
      music: of('music'),
      subtitle: of('subtitle'),
      second: of('second'),
    };
  }, []);
  // Which pickers are uploading (the start button waits for them), with a stable reporter each.
  const [uploading, setUploading] = useState<Record<string, boolean>>({});
  const busyOf = useMemo(() => {
    const of = (key: string) => (busy: boolean) =>
      setUploading((u) => (u[key] === busy ? u : { ...u, [key]: busy }));
    return { media: of('media'), track: of('track'), music: of('music') };
  }, []);
  return {
    files,
    setFile,
    busyOf,
    anyUploading: Object.values(uploading).some(Boolean),
    clear: () => setFiles(NO_FILES),
  };
}

/** The estimate: the media's length, else the subtitles' last end (SRT配音 without media). */
function useDubEstimate(mode: DubMode, form: DubForm, files: DubFiles) {
  const lastEnd = files.subtitle ? lastCueEndMs(files.subtitle.text) : 0;
  const seconds =
    files.media?.duration_ms != null
      ? files.media.duration_ms / 1000
      : lastEnd > 0
        ? lastEnd / 1000 + 0.5
        : null;
  // Paused for review, this task only recognises (the lines are priced when 生成过期音频 makes them).
  const reviewing = mode === 'ai' && form.review;
  const creditTool = !reviewing
    ? ('dubbing' as const)
    : form.source === 'asr'
      ? ('speech_to_text' as const)
      : form.source === 'ocr'
        ? ('subtitle_ocr' as const)
        : ('dubbing' as const);
  // A review run from a file or a project recognises nothing: it costs nothing until 生成过期音频.
  const estimate = useCreditEstimate(creditTool, seconds, !(reviewing && creditTool === 'dubbing'));
  return { seconds, estimate };
}

/** The create call of the mode, its body made of the form and the files. */
function useDubStart(
  mode: DubMode,
  form: DubForm,
  files: DubFiles,
  bilingualOk: boolean,
  onStarted: (r: StartedProject) => void,
) {
  const srt = useCallMutation(api.srtDubbingCreate, { onSuccess: onStarted });
  const ai = useCallMutation(api.dubbingCreate, { onSuccess: onStarted });
  const synth = useCallMutation(api.videoSynthesisCreate, { onSuccess: onStarted });
  const options = {
    ...form.options,
    subtitle_lines: bilingualOk ? form.options.subtitle_lines : ('single' as const),
  };
  const { media, subtitle } = files;
  const common = { default_voice_id: form.default_voice_id, speaker_voices: form.speaker_voices, options };
  const start = () => {
    if (mode === 'srt' && subtitle)
      srt.mutate({
        body: {
          subtitle: subtitleBody(subtitle),
          ...(files.second ? { second_subtitle: subtitleBody(files.second) } : {}),
          ...(media ? { media_asset_id: media.asset_id } : {}),
          ...common,
        },
      });
    else if (mode === 'ai' && media)
      ai.mutate({
        body: {
          asset_id: media.asset_id,
          source: form.source,
          ...(form.source === 'project' && form.source_project_id
            ? { source_project_id: form.source_project_id }
            : {}),
          ...(form.source === 'subtitle' && subtitle ? { subtitle: subtitleBody(subtitle) } : {}),
          review: form.review,
          ...common,
        },
      });
    else if (mode === 'synthesis' && media)
      synth.mutate({
        body: {
          video_asset_id: media.asset_id,
          audio_tracks: files.track ? [{ asset_id: files.track.asset_id, start_ms: 0, volume_db: 0 }] : [],
          ...(subtitle ? { subtitle: subtitleBody(subtitle) } : {}),
          ...(files.music ? { music_asset_id: files.music.asset_id } : {}),
          options: {
            background: options.background,
            loudness: options.loudness,
            subtitle_mode: options.subtitle_mode,
          },
        },
      });
  };
  return { start, pending: srt.isPending || ai.isPending || synth.isPending };
}

/**
 * The new flow of SRT配音 / AI配音 / 视频合成: files → voices and options → estimate → start, then the
 * task's progress, its downloads and the editor.
 */
export function DubNewProject({ mode, onBack }: { mode: DubMode; onBack: () => void }) {
  const project = useToolProject<DubForm>(TOOL[mode], () => initialForm(mode), d.started);
  const { form, set } = project;
  const caps = useCall(api.getToolCapabilities, undefined, { staleTime: 60_000, suppressError: true });
  const asrReady = caps.data?.tools.find((t) => t.tool === 'stt')?.available ?? false;
  const { files, setFile, busyOf, anyUploading, clear } = useDubFiles();
  const { seconds, estimate } = useDubEstimate(mode, form, files);

  // Bilingual needs a second track: the second file (SRT配音) or the source project's translation (AI配音).
  const bilingualOk = mode === 'srt' ? !!files.second : mode === 'ai' && form.source === 'project';
  const { start, pending } = useDubStart(mode, form, files, bilingualOk, project.onStarted);
  const { started } = project;
  if (started)
    return (
      <StartedTask
        prefix="dub"
        taskId={started.task_id}
        projectId={started.project_id}
        labels={{ open: d.openEditor, another: d.another }}
        onAnother={() => {
          project.clearStarted();
          clear();
        }}
        canOpen={(task) => task.status === 'succeeded' || task.status === 'failed'}
        extra={(task) => (
          <>
            <TaskOutputs task={task} />
            {task.status === 'succeeded' && <ProjectFlags projectId={started.project_id} />}
          </>
        )}
      />
    );

  const { media, subtitle } = files;
  const sourceReady = { asr: asrReady, ocr: true, project: !!form.source_project_id, subtitle: !!subtitle };
  const ready = mode === 'srt' ? !!subtitle : mode === 'ai' ? !!media && sourceReady[form.source] : !!media;
  const off = project.off;

  return (
    <NewProjectShell
      prefix="dub"
      testId={`dub-new-${mode}`}
      availability={project.availability}
      estimate={
        <CreditEstimate
          testId="dub-estimate"
          shown={seconds != null}
          data={estimate.data}
          text={ESTIMATE_TEXT}
        />
      }
      onBack={onBack}
      start={{
        label: mode === 'synthesis' ? d.startSynth : d.start,
        disabled: !ready || anyUploading,
        loading: pending,
        onClick: start,
      }}
    >
      {mode !== 'srt' && (
        <MediaStep
          title={d.video}
          kind="video"
          asset={media}
          onAsset={setFile.media}
          disabled={off}
          testId="dub-video-step"
          onBusy={busyOf.media}
        />
      )}
      {mode !== 'srt' && media && (
        <BurnedInNotice asset={media} ocrSource={mode === 'ai' && form.source === 'ocr'} />
      )}
      {mode === 'ai' && <SourceStep form={form} set={set} asrReady={asrReady} />}
      {(mode !== 'ai' || form.source === 'subtitle') && (
        <section className="vw-vt-step">
          <h3>{d.subtitleFile}</h3>
          <SubtitlePicker value={subtitle} onChange={setFile.subtitle} speakers={mode !== 'synthesis'} />
          {mode === 'srt' && (
            <>
              <p className="vw-vt-muted">{d.secondSubtitle}</p>
              <SubtitlePicker
                value={files.second}
                onChange={setFile.second}
                testId="dub-second-subtitle"
                speakers={false}
              />
            </>
          )}
        </section>
      )}
      {mode === 'srt' && (
        <MediaStep
          title={d.media}
          kind="media"
          asset={media}
          onAsset={setFile.media}
          disabled={off}
          testId="dub-media-step"
          onBusy={busyOf.media}
        />
      )}
      {mode === 'srt' && media && <BurnedInNotice asset={media} ocrSource={false} />}
      {mode === 'synthesis' && (
        <>
          <MediaStep
            title={d.audioTrack}
            kind="media"
            acceptLabel="MP3、WAV、M4A、AAC"
            asset={files.track}
            onAsset={setFile.track}
            disabled={off}
            testId="dub-track-step"
            onBusy={busyOf.track}
          />
          <MediaStep
            title={d.music}
            kind="audio"
            asset={files.music}
            onAsset={setFile.music}
            disabled={off}
            testId="dub-music-step"
            onBusy={busyOf.music}
          />
        </>
      )}
      <OptionsStep
        mode={mode}
        form={form}
        set={set}
        speakers={subtitle?.speakers ?? []}
        bilingualOk={bilingualOk}
        toolEngines={caps.data?.tools.find((t) => t.tool === TOOL[mode])?.engines ?? []}
      />
    </NewProjectShell>
  );
}

/** AI配音: where the lines come from (speech, on-screen subtitles, a subtitle project, a file), and the review pause. */
function SourceStep({ form, set, asrReady }: { form: DubForm; set: SetField<DubForm>; asrReady: boolean }) {
  // Subtitle projects to speak: 语音转文字 and 字幕提取 (the server takes either).
  const projectsOn = { enabled: form.source === 'project', suppressError: true };
  const sttProjects = useCall(
    api.listProjects,
    { query: { tool: 'stt', page: 1, page_size: 50 } },
    projectsOn,
  );
  const ocrProjects = useCall(
    api.listProjects,
    { query: { tool: 'ocr', page: 1, page_size: 50 } },
    projectsOn,
  );
  const sourceProjects = [
    { label: d.projectTools.stt, list: sttProjects.data?.list ?? [] },
    { label: d.projectTools.ocr, list: ocrProjects.data?.list ?? [] },
  ]
    .filter((g) => g.list.length > 0)
    .map((g) => ({ label: g.label, options: g.list.map((p) => ({ value: p.project_id, label: p.name })) }));
  return (
    <section className="vw-vt-step">
      <h3>{d.source}</h3>
      <Segmented
        value={form.source}
        onChange={(v) => set('source', v as DubForm['source'])}
        options={SOURCES.map((k) => ({ value: k, label: d.sources[k] }))}
        data-testid="dub-source"
      />
      {form.source === 'asr' && !asrReady && <Alert type="info" showIcon message={d.noAsr} />}
      {form.source === 'ocr' && (
        <div className="vw-vt-muted" data-testid="dub-source-ocr-hint">
          {d.ocrHint}
        </div>
      )}
      <div>
        <FormCheck form={form} set={set} name="review" testId="dub-review">
          {d.review}
        </FormCheck>
      </div>
      {form.source === 'project' && (
        <Select
          style={{ width: 320 }}
          placeholder={d.sourceProject}
          value={form.source_project_id}
          onChange={(id) => set('source_project_id', id)}
          options={sourceProjects}
          data-testid="dub-source-project"
        />
      )}
    </section>
  );
}

/** Voices (the default and one per named speaker), the original audio, loudness, subtitles and outputs. */
function OptionsStep({
  mode,
  form,
  set,
  speakers,
  bilingualOk,
  toolEngines,
}: {
  mode: DubMode;
  form: DubForm;
  set: SetField<DubForm>;
  speakers: string[];
  bilingualOk: boolean;
  toolEngines: Array<{ id: string; label: string }>;
}) {
  const { options } = form;
  const setOption: SetField<DubFormOptions> = (key, value) => set('options', { ...options, [key]: value });
  const speaking = mode !== 'synthesis';
  return (
    <section className="vw-vt-step vw-vt-options">
      {speaking && (
        <div className="vw-vt-field">
          <span>{d.voice}</span>
          <VoiceSelect
            value={form.default_voice_id}
            onChange={(v) => set('default_voice_id', v ?? DEFAULT_VOICE)}
            testId="dub-voice"
          />
        </div>
      )}
      {speaking &&
        speakers.map((name) => (
          <div className="vw-vt-field" key={name}>
            <span>{name}</span>
            <VoiceSelect
              value={form.speaker_voices[name] ?? ''}
              allowEmpty
              emptyLabel={d.defaultVoice}
              onChange={(v) => {
                const next = { ...form.speaker_voices };
                if (v) next[name] = v;
                else delete next[name];
                set('speaker_voices', next);
              }}
            />
          </div>
        ))}
      <MixFields options={options} setOption={setOption} toolEngines={toolEngines} />
      {speaking && options.subtitle_mode !== 'none' && (
        <SelectField
          label={d.subtitleLines}
          value={bilingualOk ? options.subtitle_lines : 'single'}
          onChange={(v) => setOption('subtitle_lines', v)}
          style={{ width: 260 }}
          data-testid="dub-subtitle-lines"
          options={(['single', 'bilingual'] as const).map((k) => ({
            value: k,
            label:
              k === 'bilingual' && !bilingualOk
                ? `${d.subtitleLineModes[k]}（${d.bilingualNeeds}）`
                : d.subtitleLineModes[k],
            disabled: k === 'bilingual' && !bilingualOk,
          }))}
        />
      )}
      {speaking && (
        <>
          <div className="vw-vt-field">
            <span>{d.outputs}</span>
            <Checkbox.Group
              value={options.outputs}
              onChange={(v) => setOption('outputs', v as DubFormOptions['outputs'])}
              options={OUTPUTS.map((o) => ({ value: o, label: d.outputNames[o] }))}
              data-testid="dub-outputs-choice"
            />
          </div>
          <FormCheck form={options} set={setOption} name="condense">
            {d.condense}
          </FormCheck>
          <FormCheck form={options} set={setOption} name="check">
            {d.check}
          </FormCheck>
          <FormCheck form={options} set={setOption} name="allow_slow_video" testId="dub-slow-video">
            {d.slowVideo}
          </FormCheck>
        </>
      )}
    </section>
  );
}

/** The original audio under the dub, the loudness target and how subtitles go into the video. */
function MixFields({
  options,
  setOption,
  toolEngines,
}: {
  options: DubFormOptions;
  setOption: SetField<DubFormOptions>;
  toolEngines: Array<{ id: string; label: string }>;
}) {
  // 分离人声 needs a separator engine: the tool's engines say whether one runs, or give the reason.
  const separatorReady = toolEngines.some((e) => e.id === 'separator');
  const separatorReason = toolEngines.find((e) => e.id === 'separator_missing')?.label ?? d.separatorMissing;
  return (
    <>
      <SelectField
        label={d.background}
        value={options.background}
        onChange={(v) => setOption('background', v)}
        style={{ width: 180 }}
        data-testid="dub-background"
        options={(['duck', 'mute', 'keep', 'separated'] as const).map((k) => ({
          value: k,
          label:
            k === 'separated' && !separatorReady
              ? `${d.backgrounds[k]}（${d.separatorMissingShort}）`
              : d.backgrounds[k],
          disabled: k === 'separated' && !separatorReady,
          ...(k === 'separated' && !separatorReady ? { title: separatorReason } : {}),
        }))}
      />
      <SelectField
        label={d.loudness}
        value={options.loudness}
        onChange={(v) => setOption('loudness', v)}
        style={{ width: 160 }}
        options={(['online', 'broadcast'] as const).map((k) => ({ value: k, label: d.loudnesses[k] }))}
      />
      <SelectField
        label={d.subtitleMode}
        value={options.subtitle_mode}
        onChange={(v) => setOption('subtitle_mode', v)}
        style={{ width: 130 }}
        options={(['none', 'burn', 'soft'] as const).map((k) => ({ value: k, label: d.subtitleModes[k] }))}
      />
    </>
  );
}

export const SrtDubbingNew = ({ onBack }: { onBack: () => void }) => (
  <DubNewProject mode="srt" onBack={onBack} />
);
export const AiDubbingNew = ({ onBack }: { onBack: () => void }) => (
  <DubNewProject mode="ai" onBack={onBack} />
);
export const SynthesisNew = ({ onBack }: { onBack: () => void }) => (
  <DubNewProject mode="synthesis" onBack={onBack} />
);
