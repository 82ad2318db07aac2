import { FileTextOutlined } from '@ant-design/icons';
import type { MediaAsset } from '@vw/contract';
import type { TaskTool } from '@vw/contract/constants/tasks.ts';
import { speakerPrefix, withoutDialogueDashes } from '@vw/contract/helpers/speakers.ts';
import { Alert, Button, Checkbox, Segmented, Select } from 'antd';
import useApp from 'antd/es/app/useApp';
import { useCallback, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatCredits } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import { invalidateCall, useCall, useCallMutation } from '@/lib/query/hooks.ts';
import { TaskProgress } from '@/lib/tasks/TaskProgress.tsx';
import { useTask } from '@/lib/tasks/useTask.ts';
import { editorPath } from '../stt/SttNewProject.tsx';
import { VideoStep } from '../subtitles/shared.tsx';
import { useToolAvailability } from '../useToolAvailability.ts';
import { ProjectFlags } from './ProjectFlags.tsx';
import { d } from './strings.ts';
import { TaskOutputs } from './TaskOutputs.tsx';
import { VoiceSelect } from './VoiceSelect.tsx';

export type DubMode = 'srt' | 'ai' | 'synthesis';
const TOOL: Record<DubMode, TaskTool> = { srt: 'srt_dubbing', ai: 'dubbing', synthesis: 'synthesis' };
const OUTPUTS = ['mp4', 'mp3', 'wav', 'stems', 'srt', 'vtt', 'ass'] as const;
type Output = (typeof OUTPUTS)[number];
const DEFAULT_VOICE = 'espeak-zh-xiaoya';

export interface SubtitleFile {
  name: string;
  text: string;
  cues: number;
  speakers: string[];
}

/**
 * Reads an SRT / VTT / ASS file in the browser: its text, how many cues, which speakers its lines
 * name (the same rule as the import: `名字：` / `[名字]` labels, never a clause such as 她说：).
 */
async function readSubtitle(file: File): Promise<SubtitleFile> {
  const text = await file.text();
  const cues = (text.match(/-->/g) ?? []).length + (text.match(/^Dialogue:/gm) ?? []).length;
  const speakers = new Set<string>();
  for (const line of withoutDialogueDashes(text.replace(/\r\n?/g, '\n')).split('\n')) {
    if (/-->|^\d+$|^WEBVTT|^Dialogue:/.test(line.trim())) continue;
    const label = speakerPrefix(line.replace(/^\s*[[【]\s*(?:静音|mute|保留原声|keep)\s*[\]】]/i, ''));
    if (label) speakers.add(label.speaker);
  }
  return { name: file.name, text, cues, speakers: [...speakers].slice(0, 20) };
}

export function SubtitlePicker({
  value,
  onChange,
  testId = 'dub-subtitle',
  speakers = true,
}: {
  value: SubtitleFile | null;
  onChange: (f: SubtitleFile | null) => void;
  testId?: string;
  /** Name the speakers found (not where nothing is spoken: 视频合成, the second language's lines). */
  speakers?: boolean;
}) {
  const id = useId();
  const { message } = useApp();
  return (
    <div className="vw-dub-subtitle">
      <label htmlFor={id} className="ant-btn ant-btn-default vw-dub-file-btn">
        <FileTextOutlined /> {value ? value.name : d.subtitlePick}
      </label>
      <input
        id={id}
        type="file"
        accept=".srt,.vtt,.ass,.ssa,text/plain"
        style={{ display: 'none' }}
        data-testid={`${testId}-input`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          if (file.size === 0) {
            message.error(d.subtitleEmpty);
            return;
          }
          readSubtitle(file).then(onChange, () => message.error(d.subtitleRead));
        }}
      />
      {value && (
        <span className="vw-vt-muted" data-testid={`${testId}-info`}>
          {d.subtitleCues(value.cues)}
          {speakers && value.speakers.length > 0 ? ` · ${value.speakers.join('、')}` : ''}
        </span>
      )}
    </div>
  );
}

/** A step that picks a file: uploaded here or taken from 我的素材 (the video tools' one picker). */
function AssetStep({
  title,
  kind,
  acceptLabel,
  asset,
  onAsset,
  disabled = false,
  testId,
  onBusy,
}: {
  title: string;
  kind: 'video' | 'audio' | 'media';
  acceptLabel?: string;
  asset: MediaAsset | null;
  onAsset: (a: MediaAsset | null) => void;
  disabled?: boolean;
  testId: string;
  /** Told while an upload is running (the start button waits for it). */
  onBusy?: (busy: boolean) => void;
}) {
  return (
    <section className="vw-vt-step" data-testid={testId}>
      <h3>{title}</h3>
      <VideoStep
        asset={asset}
        onAsset={onAsset}
        disabled={disabled}
        testId={testId}
        kind={kind}
        acceptLabel={acceptLabel}
        onBusy={onBusy}
      />
    </section>
  );
}

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
    <div className="vw-vt-started" data-testid="dub-started">
      {task && <TaskProgress task={task} />}
      {task && <TaskOutputs task={task} />}
      {task?.status === 'succeeded' && <ProjectFlags projectId={projectId} />}
      <div className="vw-vt-actions">
        {task && (task.status === 'succeeded' || task.status === 'failed') && (
          <Button
            type="primary"
            onClick={() => navigate(editorPath(projectId))}
            data-testid="dub-open-editor"
          >
            {d.openEditor}
          </Button>
        )}
        <Button onClick={onAnother} data-testid="dub-another">
          {d.another}
        </Button>
      </div>
    </div>
  );
}

/**
 * The new flow of SRT配音 / AI配音 / 视频合成: files → voices and options → estimate → start, then the
 * task's progress, its downloads and the editor.
 */
export function DubNewProject({ mode, onBack }: { mode: DubMode; onBack: () => void }) {
  const { message } = useApp();
  const tool = TOOL[mode];
  const availability = useToolAvailability(tool);
  const caps = useCall(api.getToolCapabilities, undefined, { staleTime: 60_000, suppressError: true });
  const asrReady = caps.data?.tools.find((t) => t.tool === 'stt')?.available ?? false;
  const [subtitle, setSubtitle] = useState<SubtitleFile | null>(null);
  /** SRT配音: a second-language file for bilingual two-line subtitles (not spoken). */
  const [secondSubtitle, setSecondSubtitle] = useState<SubtitleFile | null>(null);
  const [subtitleLines, setSubtitleLines] = useState<'single' | 'bilingual'>('single');
  const [media, setMedia] = useState<MediaAsset | null>(null);
  const [track, setTrack] = useState<MediaAsset | null>(null);
  const [music, setMusic] = useState<MediaAsset | null>(null);
  const [source, setSource] = useState<'asr' | 'ocr' | 'project' | 'subtitle'>('subtitle');
  const [sourceProject, setSourceProject] = useState<string | null>(null);
  const [voice, setVoice] = useState<string>(DEFAULT_VOICE);
  const [speakerVoices, setSpeakerVoices] = useState<Record<string, string>>({});
  // 分离人声 needs a separator engine: the tool's engines say whether one runs, or give the reason.
  const toolEngines = caps.data?.tools.find((t) => t.tool === tool)?.engines ?? [];
  const separatorReady = toolEngines.some((e) => e.id === 'separator');
  const separatorReason = toolEngines.find((e) => e.id === 'separator_missing')?.label ?? d.separatorMissing;
  const [background, setBackground] = useState<'duck' | 'mute' | 'keep' | 'separated'>(
    mode === 'synthesis' ? 'keep' : 'duck',
  );
  const [loudness, setLoudness] = useState<'online' | 'broadcast'>('online');
  const [subtitleMode, setSubtitleMode] = useState<'none' | 'burn' | 'soft'>(
    mode === 'synthesis' ? 'burn' : 'none',
  );
  const [outputs, setOutputs] = useState<Output[]>(['mp4', 'mp3', 'srt']);
  const [condense, setCondense] = useState(true);
  const [check, setCheck] = useState(true);
  const [slowVideo, setSlowVideo] = useState(false);
  const [review, setReview] = useState(false);
  const [started, setStarted] = useState<{ task_id: string; project_id: string } | null>(null);
  const [uploading, setUploading] = useState<Record<string, boolean>>({});
  const busyOf = useCallback(
    (key: string) => (busy: boolean) => setUploading((u) => (u[key] === busy ? u : { ...u, [key]: busy })),
    [],
  );
  const anyUploading = Object.values(uploading).some(Boolean);

  // Subtitle projects to speak: 语音转文字 and 字幕提取 (the server takes either).
  const projectsOn = { enabled: mode === 'ai' && source === 'project', suppressError: true };
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

  // The estimate: the media's length, else the subtitles' last end (SRT配音 without media).
  const lastEnd = subtitle ? lastCueEndMs(subtitle.text) : 0;
  const seconds =
    media?.duration_ms != null ? media.duration_ms / 1000 : lastEnd > 0 ? lastEnd / 1000 + 0.5 : null;
  // Paused for review, this task only recognises (the lines are priced when 生成过期音频 makes them).
  const reviewing = mode === 'ai' && review;
  const creditTool = !reviewing
    ? ('dubbing' as const)
    : source === 'asr'
      ? ('speech_to_text' as const)
      : source === 'ocr'
        ? ('subtitle_ocr' as const)
        : ('dubbing' as const);
  const estimate = useCall(
    api.estimateCredits,
    { body: { task_type: creditTool, params: { seconds: seconds ?? 0 } } },
    // A review run from a file or a project recognises nothing: it costs nothing until 生成过期音频.
    {
      enabled: seconds != null && !(reviewing && creditTool === 'dubbing'),
      suppressError: true,
      staleTime: 0,
    },
  );

  const onStarted = (r: { task_id: string; project_id: string }) => {
    setStarted(r);
    message.success(d.started);
    void invalidateCall(api.listProjects);
  };
  const srt = useCallMutation(api.srtDubbingCreate, { onSuccess: onStarted });
  const ai = useCallMutation(api.dubbingCreate, { onSuccess: onStarted });
  const synth = useCallMutation(api.videoSynthesisCreate, { onSuccess: onStarted });
  const pending = srt.isPending || ai.isPending || synth.isPending;

  // Bilingual needs a second track: the second file (SRT配音) or the source project's translation (AI配音).
  const bilingualOk = mode === 'srt' ? !!secondSubtitle : mode === 'ai' && source === 'project';
  const options = {
    background,
    loudness,
    subtitle_mode: subtitleMode,
    subtitle_lines: bilingualOk ? subtitleLines : ('single' as const),
    outputs,
    condense,
    check,
    allow_slow_video: slowVideo,
  };
  const ready =
    mode === 'srt'
      ? !!subtitle
      : mode === 'ai'
        ? !!media &&
          (source === 'asr'
            ? asrReady
            : source === 'ocr'
              ? true
              : source === 'project'
                ? !!sourceProject
                : !!subtitle)
        : !!media;
  const start = () => {
    if (mode === 'srt' && subtitle) {
      srt.mutate({
        body: {
          subtitle: { name: subtitle.name, text: subtitle.text },
          ...(secondSubtitle
            ? { second_subtitle: { name: secondSubtitle.name, text: secondSubtitle.text } }
            : {}),
          ...(media ? { media_asset_id: media.asset_id } : {}),
          default_voice_id: voice,
          speaker_voices: speakerVoices,
          options,
        },
      });
    } else if (mode === 'ai' && media) {
      ai.mutate({
        body: {
          asset_id: media.asset_id,
          source,
          ...(source === 'project' && sourceProject ? { source_project_id: sourceProject } : {}),
          ...(source === 'subtitle' && subtitle
            ? { subtitle: { name: subtitle.name, text: subtitle.text } }
            : {}),
          review,
          default_voice_id: voice,
          speaker_voices: speakerVoices,
          options,
        },
      });
    } else if (mode === 'synthesis' && media) {
      synth.mutate({
        body: {
          video_asset_id: media.asset_id,
          audio_tracks: track ? [{ asset_id: track.asset_id, start_ms: 0, volume_db: 0 }] : [],
          ...(subtitle ? { subtitle: { name: subtitle.name, text: subtitle.text } } : {}),
          ...(music ? { music_asset_id: music.asset_id } : {}),
          options: { background, loudness, subtitle_mode: subtitleMode },
        },
      });
    }
  };
  const reset = () => {
    setStarted(null);
    setMedia(null);
    setSubtitle(null);
    setSecondSubtitle(null);
    setTrack(null);
    setMusic(null);
  };

  if (started) return <Started taskId={started.task_id} projectId={started.project_id} onAnother={reset} />;
  const off = !availability.available;
  const speakers = subtitle?.speakers ?? [];

  return (
    <div className="vw-vt-new" data-testid={`dub-new-${mode}`}>
      {off && <Alert type="warning" showIcon message={availability.reason} data-testid="dub-unavailable" />}
      {mode !== 'srt' && (
        <AssetStep
          title={d.video}
          kind="video"
          asset={media}
          onAsset={setMedia}
          disabled={off}
          testId="dub-video-step"
          onBusy={busyOf('dub-video-step')}
        />
      )}
      {mode !== 'srt' && media && (
        <BurnedInNotice asset={media} ocrSource={mode === 'ai' && source === 'ocr'} />
      )}
      {mode === 'ai' && (
        <section className="vw-vt-step">
          <h3>{d.source}</h3>
          <Segmented
            value={source}
            onChange={(v) => setSource(v as typeof source)}
            options={(['asr', 'ocr', 'project', 'subtitle'] as const).map((k) => ({
              value: k,
              label: d.sources[k],
            }))}
            data-testid="dub-source"
          />
          {source === 'asr' && !asrReady && <Alert type="info" showIcon message={d.noAsr} />}
          {source === 'ocr' && (
            <div className="vw-vt-muted" data-testid="dub-source-ocr-hint">
              {d.ocrHint}
            </div>
          )}
          <div>
            <Checkbox checked={review} onChange={(e) => setReview(e.target.checked)} data-testid="dub-review">
              {d.review}
            </Checkbox>
          </div>
          {source === 'project' && (
            <Select
              style={{ width: 320 }}
              placeholder={d.sourceProject}
              value={sourceProject}
              onChange={setSourceProject}
              options={sourceProjects}
              data-testid="dub-source-project"
            />
          )}
        </section>
      )}
      {(mode !== 'ai' || source === 'subtitle') && (
        <section className="vw-vt-step">
          <h3>{d.subtitleFile}</h3>
          <SubtitlePicker value={subtitle} onChange={setSubtitle} speakers={mode !== 'synthesis'} />
          {mode === 'srt' && (
            <>
              <p className="vw-vt-muted">{d.secondSubtitle}</p>
              <SubtitlePicker
                value={secondSubtitle}
                onChange={setSecondSubtitle}
                testId="dub-second-subtitle"
                speakers={false}
              />
            </>
          )}
        </section>
      )}
      {mode === 'srt' && (
        <AssetStep
          title={d.media}
          kind="media"
          asset={media}
          onAsset={setMedia}
          disabled={off}
          testId="dub-media-step"
          onBusy={busyOf('dub-media-step')}
        />
      )}
      {mode === 'srt' && media && <BurnedInNotice asset={media} ocrSource={false} />}
      {mode === 'synthesis' && (
        <>
          <AssetStep
            title={d.audioTrack}
            kind="media"
            acceptLabel="MP3、WAV、M4A、AAC"
            asset={track}
            onAsset={setTrack}
            disabled={off}
            testId="dub-track-step"
            onBusy={busyOf('dub-track-step')}
          />
          <AssetStep
            title={d.music}
            kind="audio"
            asset={music}
            onAsset={setMusic}
            disabled={off}
            testId="dub-music-step"
            onBusy={busyOf('dub-music-step')}
          />
        </>
      )}

      <section className="vw-vt-step vw-vt-options">
        {mode !== 'synthesis' && (
          <div className="vw-vt-field">
            <span>{d.voice}</span>
            <VoiceSelect value={voice} onChange={(v) => setVoice(v ?? DEFAULT_VOICE)} testId="dub-voice" />
          </div>
        )}
        {mode !== 'synthesis' &&
          speakers.map((name) => (
            <div className="vw-vt-field" key={name}>
              <span>{name}</span>
              <VoiceSelect
                value={speakerVoices[name] ?? ''}
                allowEmpty
                emptyLabel={d.defaultVoice}
                onChange={(v) =>
                  setSpeakerVoices((m) => {
                    const next = { ...m };
                    if (v) next[name] = v;
                    else delete next[name];
                    return next;
                  })
                }
              />
            </div>
          ))}
        <div className="vw-vt-field">
          <span>{d.background}</span>
          <Select
            value={background}
            onChange={setBackground}
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
        </div>
        <div className="vw-vt-field">
          <span>{d.loudness}</span>
          <Select
            value={loudness}
            onChange={setLoudness}
            style={{ width: 160 }}
            options={(['online', 'broadcast'] as const).map((k) => ({ value: k, label: d.loudnesses[k] }))}
          />
        </div>
        <div className="vw-vt-field">
          <span>{d.subtitleMode}</span>
          <Select
            value={subtitleMode}
            onChange={setSubtitleMode}
            style={{ width: 130 }}
            options={(['none', 'burn', 'soft'] as const).map((k) => ({
              value: k,
              label: d.subtitleModes[k],
            }))}
          />
        </div>
        {mode !== 'synthesis' && subtitleMode !== 'none' && (
          <div className="vw-vt-field">
            <span>{d.subtitleLines}</span>
            <Select
              value={bilingualOk ? subtitleLines : 'single'}
              onChange={setSubtitleLines}
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
          </div>
        )}
        {mode !== 'synthesis' && (
          <>
            <div className="vw-vt-field">
              <span>{d.outputs}</span>
              <Checkbox.Group
                value={outputs}
                onChange={(v) => setOutputs(v as Output[])}
                options={OUTPUTS.map((o) => ({ value: o, label: d.outputNames[o] }))}
                data-testid="dub-outputs-choice"
              />
            </div>
            <Checkbox checked={condense} onChange={(e) => setCondense(e.target.checked)}>
              {d.condense}
            </Checkbox>
            <Checkbox checked={check} onChange={(e) => setCheck(e.target.checked)}>
              {d.check}
            </Checkbox>
            <Checkbox
              checked={slowVideo}
              onChange={(e) => setSlowVideo(e.target.checked)}
              data-testid="dub-slow-video"
            >
              {d.slowVideo}
            </Checkbox>
          </>
        )}
      </section>

      <section className="vw-vt-step vw-vt-footer">
        <div className="vw-vt-estimate" data-testid="dub-estimate">
          {seconds != null && (
            <>
              <span>{d.estimate}</span>
              {estimate.data && (
                <>
                  <strong data-testid="dub-estimate-credits">
                    {d.estimateValue(formatCredits(estimate.data.credits))}
                  </strong>
                  <span className="vw-vt-muted">{d.balance(formatCredits(estimate.data.balance))}</span>
                  {!estimate.data.sufficient && <span className="vw-vt-error">{d.insufficient}</span>}
                </>
              )}
            </>
          )}
        </div>
        <div className="vw-vt-actions">
          <Button onClick={onBack}>{d.back}</Button>
          {!off && (
            <Button
              type="primary"
              disabled={!ready || anyUploading}
              loading={pending}
              onClick={start}
              data-testid="dub-start"
            >
              {mode === 'synthesis' ? d.startSynth : d.start}
            </Button>
          )}
        </div>
      </section>
    </div>
  );
}

/** The last `-->` end time of an SRT/VTT (ms), for the estimate before the server reads the file. */
function lastCueEndMs(text: string): number {
  let last = 0;
  for (const m of text.matchAll(/-->\s*(?:(\d+):)?(\d{1,2}):(\d{2})[,.](\d{1,3})/g)) {
    const ms =
      ((Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + Number(m[4]!.padEnd(3, '0'));
    last = Math.max(last, ms);
  }
  return last;
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
