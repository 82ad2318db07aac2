import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type DubSettings,
  dubSettings,
  fitCues,
  type ProjectDocument,
  type SubtitleCue,
  subtitleRulesFor,
  type TaskTool,
  type TimedText,
  toSrt,
  toVtt,
} from '@vw/contract';
import {
  buildTimeMap,
  exportAudio,
  extractAudio,
  type KeepRegion,
  mappedDuration,
  mapTime,
  mixDub,
  placeLines,
  renderVideo,
  runFfmpeg,
  type SlowStretch,
  slowAudio,
  type TimeMap,
  toAss,
  writeStems,
} from '@vw/engines';
import { AppError } from '../../../errors.ts';
import { localPathOf } from '../../../media/files.ts';
import type { StageContext } from '../../../tasks/index.ts';
import { getOwnedAsset } from '../../uploads/uploads.service.ts';
import { projectFilesPrefix } from '../projects.service.ts';
import { chosenTake, dubTrack, secondLines, trackEndMs } from './dub-document.ts';
import { readDubProject, updateDubDocument } from './dub-project.ts';
import { spansFromDocument } from './erase-spans.ts';
import { mediaOf } from './media.ts';
import { recognitionError } from './recognize-speech.ts';
import { SEPARATOR_MISSING, separatedBackground } from './separator.ts';
import { writeSubtitleOutputs } from './subtitle-outputs.ts';

/*
 * The render stage of a dub project: the chosen takes placed on the timeline (slowed where a take
 * asked for more time), mixed over the original, music or the separated bed, and the outputs the
 * project asks for (MP4 with subtitles and the original subtitles erased, audio, stems, subtitle files).
 */

/** What a render needs of its task: the project, and the outputs when a line action names them. */
export type RenderInput = { project_id: string; outputs?: DubSettings['outputs'] };

/** What another tool adds to the render: e.g. 视频翻译's lip sync of the rendered MP4. */
export interface RenderHooks {
  /** Called with the rendered MP4 (changed in place) and the mixed audio. */
  afterVideo?(
    ctx: StageContext<RenderInput>,
    mp4: string,
    audio: string,
    doc: ProjectDocument,
  ): Promise<void>;
}

type Ctx = StageContext<RenderInput>;
type Media = Awaited<ReturnType<typeof mediaOf>>;

export async function renderProject(ctx: Ctx, tool: TaskTool, hooks: RenderHooks) {
  const { owner_id: ownerId } = ctx.task;
  const { document, media_ms } = await readDubProject(ctx.app, ownerId, ctx.input.project_id);
  const settings = dubSettings.parse(document.dub ?? {});
  const cues = dubTrack(document)?.cues ?? [];
  const sourceMs = trackEndMs(document, media_ms);
  const dir = path.join(ctx.scratchDir, 'render');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const media = await mediaOf(ctx, document);
  const timeline = timelineOf(tool, document, cues, sourceMs, media);
  const { at, duration } = timeline;

  const { dubWav, clipped } = await dubTrackFile(ctx, tool, settings, cues, timeline, dir);
  await ctx.progress(0.2);
  const keep: KeepRegion[] = cues
    .filter((c) => c.mark === 'keep')
    .map((c) => ({ start_ms: at(c.start_ms), end_ms: at(c.end_ms) }));
  const music = await musicBed(ctx, settings, dir);
  const { original, stems } = await originalBed(ctx, media, settings, timeline.slowMap, sourceMs, keep, dir);
  await ctx.progress(0.3);
  const mixWav = path.join(dir, 'mix.wav');
  const mixed = await mixDub({
    dub: dubWav,
    ...(media?.asset.has_audio && original ? { original } : {}),
    background: media?.asset.has_audio
      ? stems
        ? 'keep'
        : (settings.background as 'duck' | 'mute' | 'keep')
      : 'mute',
    loudness: settings.loudness,
    out: mixWav,
    keep,
    ...(music ? { music } : {}),
    signal: ctx.signal,
  });
  await ctx.progress(0.4);
  await storePlayers(ctx, dir, dubWav, mixWav);

  const rendered = await writeOutputs(ctx, {
    document,
    settings,
    media,
    timeline,
    subtitles: subtitlesOf(document, cues, at),
    dubWav,
    mixWav,
    stems,
    dir,
    hooks,
  });
  await ctx.progress(1);
  return {
    lufs: mixed.lufs,
    duration_ms: duration,
    video_codec: rendered?.video_codec ?? null,
    clipped,
    slowed_ms: duration - sourceMs,
    ...(stems ? { separator: stems.model } : {}),
  };
}

interface Timeline {
  /** The original subtitles to erase in the same encode (视频翻译), if any. */
  erase: ReturnType<typeof erasePlan>;
  slowMap: TimeMap;
  /** A source time in the output timeline. */
  at: (ms: number) => number;
  duration: number;
}

/**
 * Slow video: the stretches the chosen takes marked become a time map; every later time moves
 * through it (whole ms, so placement stays sample-accurate) and the output is longer by the sum.
 * 视频翻译 erasing the original subtitles renders in one pass, which cannot also slow the video:
 * there the erase wins (a slowed line is then cut where the next starts, as any overrun).
 */
function timelineOf(
  tool: TaskTool,
  document: ProjectDocument,
  cues: SubtitleCue[],
  sourceMs: number,
  media: Media,
): Timeline {
  const erase = erasePlan(document, sourceMs);
  const slowMap =
    tool !== 'synthesis' && media?.asset.has_video && !erase
      ? buildTimeMap(slowStretches(cues), sourceMs)
      : [];
  return {
    erase,
    slowMap,
    at: (ms: number) => mapTime(slowMap, ms),
    duration: mappedDuration(slowMap, sourceMs),
  };
}

/** The dub track: chosen takes at their cues (sample-accurate), or for 视频合成 the audio tracks. */
async function dubTrackFile(
  ctx: Ctx,
  tool: TaskTool,
  settings: DubSettings,
  cues: SubtitleCue[],
  { at, duration }: Timeline,
  dir: string,
) {
  const dubWav = path.join(dir, 'dub.wav');
  if (tool === 'synthesis') {
    await mixTracks(ctx, settings.audio_tracks, dubWav, duration);
    return { dubWav, clipped: [] };
  }
  const lines: Array<{ file: string; start_ms: number }> = [];
  const placedIds: string[] = [];
  for (const cue of cues) {
    const take = cue.mark ? undefined : chosenTake(cue);
    if (!take) continue;
    lines.push({ file: await localPathOf(ctx.app, take.audio_key, dir), start_ms: at(cue.start_ms) });
    placedIds.push(cue.id);
  }
  const report = await placeLines(lines, dubWav, { duration_ms: duration, signal: ctx.signal });
  // A line that still runs past the next one (reported as not fitting) is cut there: never overlapped.
  const clipped = report.clipped.map((c) => ({ cue_id: placedIds[c.index]!, cut_ms: c.cut_ms }));
  return { dubWav, clipped };
}

/** The chosen music, pre-gained: mixDub lays music 12 dB under as it comes, so it sits at the chosen level. */
async function musicBed(ctx: Ctx, settings: DubSettings, dir: string): Promise<string | undefined> {
  if (!settings.music_asset_id) return undefined;
  const source = await localPathOf(
    ctx.app,
    (await getOwnedAsset(ctx.app, ctx.task.owner_id, settings.music_asset_id)).storage_key,
    ctx.scratchDir,
  );
  const music = path.join(dir, 'music.wav');
  await runFfmpeg(
    ['-i', source, '-vn', '-af', `volume=${settings.music_volume_db + 12}dB`, '-ar', '48000', '-y', music],
    { signal: ctx.signal },
  );
  return music;
}

/**
 * The original audio under the dub: time-stretched with a slowed stretch (atempo, pitch kept); with
 * 分离人声 the separator's accompaniment (plus the voices inside [保留原声] regions) instead.
 */
async function originalBed(
  ctx: Ctx,
  media: Media,
  settings: DubSettings,
  slowMap: TimeMap,
  sourceMs: number,
  keep: KeepRegion[],
  dir: string,
) {
  const signal = ctx.signal;
  let original = media?.file;
  if (original && media?.asset.has_audio && slowMap.length) {
    original = path.join(dir, 'original-slowed.wav');
    await slowAudio(media.file, original, slowMap, { durationMs: sourceMs, signal });
  }
  let stems: { vocals: string; accompaniment: string; model: string } | null = null;
  if (original && media?.asset.has_audio && settings.background === 'separated') {
    const separator = ctx.app.engines.separate;
    if (!separator) throw AppError.named('err_interface_unavailable', SEPARATOR_MISSING);
    stems = await separator.separate(original, path.join(dir, 'stems'), { signal }).catch((err: unknown) => {
      throw recognitionError(err);
    });
    original = await separatedBackground(stems, keep, path.join(dir, 'separated-bed.wav'), signal);
  }
  return { original, stems };
}

/** The editor's players: the dub track and the mix, kept with the project. */
async function storePlayers(ctx: Ctx, dir: string, dubWav: string, mixWav: string) {
  const { owner_id: ownerId } = ctx.task;
  const prefix = projectFilesPrefix(ownerId, ctx.input.project_id);
  for (const [name, file] of [
    ['dub', dubWav],
    ['mix', mixWav],
  ] as const) {
    const mp3 = path.join(dir, `${name}-play.mp3`);
    await exportAudio(file, mp3, 'mp3', { signal: ctx.signal });
    await ctx.app.storage.putFile(`${prefix}${name}.mp3`, mp3, 'audio/mpeg', { move: true });
  }
  await updateDubDocument(ctx.app, ownerId, ctx.input.project_id, (doc) => {
    doc.dub = {
      ...dubSettings.parse(doc.dub ?? {}),
      dub_key: `${prefix}dub.mp3`,
      mix_key: `${prefix}mix.mp3`,
    };
    return doc;
  });
}

/** The spoken lines in the output timeline, cut by the subtitle rules, and the bilingual second lines. */
function subtitlesOf(document: ProjectDocument, cues: SubtitleCue[], at: (ms: number) => number) {
  const spoken = cues
    .filter((c) => c.text.trim() !== '')
    .map((c) => ({ start_ms: at(c.start_ms), end_ms: at(c.end_ms), text: chosenTake(c)?.text ?? c.text }));
  // Subtitle files by the rules: a dubbed line too long for one cue is cut over its own time.
  const files = fitCues(
    spoken,
    subtitleRulesFor(spoken.some((c) => /\p{Script=Han}/u.test(c.text)) ? 'zh' : 'en'),
  );
  // Bilingual: the translation track's lines (in the output timeline) as each subtitle's second line.
  const second = secondLines(document)?.map((c) => ({
    ...c,
    start_ms: at(c.start_ms),
    end_ms: at(c.end_ms),
  }));
  return { spoken, files, second };
}

interface Rendered {
  document: ProjectDocument;
  settings: DubSettings;
  media: Media;
  timeline: Timeline;
  subtitles: { spoken: TimedText[]; files: TimedText[]; second: TimedText[] | undefined };
  dubWav: string;
  mixWav: string;
  stems: { vocals: string; accompaniment: string } | null;
  dir: string;
  hooks: RenderHooks;
}

/** The outputs the project asks for, in order: MP4, dub-only audio, stems, subtitle files. */
async function writeOutputs(ctx: Ctx, r: Rendered) {
  const { settings, media, dir, dubWav, stems, subtitles } = r;
  const { title } = ctx.task;
  const signal = ctx.signal;
  const outputs = new Set(ctx.input.outputs ?? settings.outputs);
  const output = async (file: string, name: string, kind: string, format: string, type: string) => {
    const key = await ctx.saveArtifact({ path: file }, { name: path.basename(file), contentType: type });
    const { size } = await stat(file).catch(() => ({ size: 0 }));
    await ctx.addOutput({ name, kind, format, key, size });
  };
  let rendered: { video_codec: string } | null = null;
  if (outputs.has('mp4') && media?.asset.has_video) {
    const mp4 = path.join(dir, 'video.mp4');
    rendered = await renderMp4(ctx, r, mp4);
    await r.hooks.afterVideo?.(ctx, mp4, r.mixWav, r.document);
    await output(mp4, `${title}.mp4`, 'video', 'mp4', 'video/mp4');
  }
  // Dub-only audio (the voice track without the original), and the stems.
  for (const format of ['mp3', 'wav'] as const) {
    if (!outputs.has(format)) continue;
    const file = path.join(dir, `dub-only.${format}`);
    await exportAudio(dubWav, file, format, { signal });
    await output(
      file,
      `${title}-配音.${format}`,
      'audio',
      format,
      format === 'mp3' ? 'audio/mpeg' : 'audio/wav',
    );
  }
  if (outputs.has('stems')) {
    const zip = path.join(dir, 'stems.zip');
    const stemExtras: Array<{ name: string; path: string }> = [];
    let background: string | undefined;
    if (stems) {
      // The real stems: the separator's voices and accompaniment, with the dub.
      stemExtras.push(
        { name: 'vocals.wav', path: stems.vocals },
        { name: 'accompaniment.wav', path: stems.accompaniment },
      );
    } else if (media?.asset.has_audio) {
      background = path.join(dir, 'original.wav');
      await extractAudio(media.file, background, { rate: 48_000, channels: 2, format: 'wav', signal });
    }
    await writeStems({
      dub: dubWav,
      ...(background ? { background } : {}),
      extra: [...stemExtras, { name: 'subtitles.srt', text: toSrt(subtitles.files) }],
      out: zip,
    });
    await output(zip, `${title}-分轨.zip`, 'file', 'zip', 'application/zip');
  }
  await writeSubtitleOutputs(ctx, {
    ...(outputs.has('srt') ? { srt: toSrt(subtitles.files) } : {}),
    ...(outputs.has('vtt') ? { vtt: toVtt(subtitles.files) } : {}),
    ...(outputs.has('ass')
      ? { ass: toAss(subtitles.spoken, settings.subtitle_style, subtitles.second) }
      : {}),
  });
  return rendered;
}

/** The MP4: the mix under the picture, subtitles burned or muxed, and for 视频翻译 the original ones erased in the same x264 pass. */
function renderMp4(ctx: Ctx, r: Rendered, out: string) {
  const { spoken, second } = r.subtitles;
  const { erase, slowMap } = r.timeline;
  const mode = r.settings.subtitle_mode;
  return renderVideo({
    video: r.media!.file,
    audio: r.mixWav,
    ...(erase ? { erase } : {}),
    ...(mode !== 'none' && spoken.length > 0
      ? {
          subtitles: {
            cues: spoken,
            style: r.settings.subtitle_style,
            mode,
            ...(second?.length ? { bilingual: second } : {}),
          },
        }
      : {}),
    ...(slowMap.length ? { slow: slowMap } : {}),
    out,
    signal: ctx.signal,
    onProgress: (f) => {
      ctx.progress(0.4 + f * 0.5).catch(() => {});
    },
  });
}

/** The original subtitles to erase (视频翻译): its regions while any source line is shown (± 200 ms). */
function erasePlan(doc: ProjectDocument, durationMs: number) {
  const t = doc.translation;
  if (!t?.erase_regions.length) return undefined;
  const source = { ...doc, tracks: doc.tracks.filter((k) => k.kind === 'source') };
  const spans = spansFromDocument(t.erase_regions, source, 200, durationMs);
  return spans.length ? { spans, method: t.erase_method } : undefined;
}

/**
 * The stretches to slow: each chosen take whose fit marked `slow_video` slows its window (slot +
 * borrowed gap) so it lasts the marked ms longer.
 */
export function slowStretches(cues: SubtitleCue[]): SlowStretch[] {
  const out: SlowStretch[] = [];
  for (const cue of cues) {
    if (cue.mark) continue;
    const actions = chosenTake(cue)?.fit?.actions ?? [];
    const slow = actions.find((a) => a.kind === 'slow_video');
    if (!slow?.ms) continue;
    const borrowed = actions.find((a) => a.kind === 'borrow_gap')?.ms ?? 0;
    out.push({ start_ms: cue.start_ms, end_ms: cue.end_ms + borrowed, add_ms: slow.ms });
  }
  return out;
}

/** 视频合成: the uploaded audio tracks at their offsets and gains, mixed into one 48 kHz track. */
async function mixTracks(ctx: Ctx, tracks: DubSettings['audio_tracks'], out: string, durationMs: number) {
  if (tracks.length === 0) {
    await placeLines([], out, { duration_ms: durationMs, signal: ctx.signal });
    return;
  }
  const args: string[] = [];
  const filters: string[] = [];
  for (const [i, t] of tracks.entries()) {
    const asset = await getOwnedAsset(ctx.app, ctx.task.owner_id, t.asset_id);
    args.push('-i', await localPathOf(ctx.app, asset.storage_key, ctx.scratchDir));
    filters.push(
      `[${i}:a:0]aresample=48000,aformat=channel_layouts=mono,adelay=${t.start_ms}:all=1,volume=${t.volume_db}dB[a${i}]`,
    );
  }
  const inputs = tracks.map((_, i) => `[a${i}]`).join('');
  filters.push(
    `${inputs}amix=inputs=${tracks.length}:normalize=0:duration=longest,apad,atrim=0:${durationMs / 1000}[out]`,
  );
  await runFfmpeg(
    [...args, '-filter_complex', filters.join(';'), '-map', '[out]', '-ar', '48000', '-ac', '1', '-y', out],
    { signal: ctx.signal },
  );
}
