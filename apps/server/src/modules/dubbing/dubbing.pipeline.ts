import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type Box,
  cueFix,
  DubOutput,
  type DubSettings,
  dubSettings,
  fitCues,
  type ProjectDocument,
  type SubtitleCue,
  subtitleRulesFor,
  type TaskTool,
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
  toAss,
  writeStems,
} from '@vw/engines';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { localPathOf } from '../../media/files.ts';
import { definePipeline, type StageContext, taskFailure } from '../../tasks/index.ts';
import { projectFilesPrefix } from '../projects/projects.service.ts';
import { spansFromDocument } from '../projects/stages/erase-spans.ts';
import { mediaOf, videoError } from '../projects/stages/media.ts';
import { engineLabel, recognitionError, recognizeSpeech } from '../projects/stages/recognize-speech.ts';
import { recognizeText, subtitleRegions } from '../projects/stages/recognize-text.ts';
import { transcriptToDocument } from '../projects/stages/speech-document.ts';
import { writeSubtitleOutputs } from '../projects/stages/subtitle-outputs.ts';
import { countChars, ocrToDocument } from '../projects/stages/text-document.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';
import type { UsableVoice } from '../voices/voices.service.ts';
import {
  chosenTake,
  dubbingDocument,
  dubTrack,
  needsAudio,
  secondLines,
  trackEndMs,
  voiceOf,
} from './dubbing.document.ts';
import { checkerOf, dubLine } from './dubbing.line.ts';
import { readDubProject, updateDubDocument } from './dubbing.repo.ts';
import { SEPARATOR_MISSING, separatedBackground } from './dubbing.separator.ts';

/*
 * The one dub stage and its pipelines (tools srt_dubbing, dubbing, synthesis): prepare (subtitles
 * from recognition when asked; which lines to make) → dub (each line an item: synthesis, fit, check;
 * its take stored under the project) → render (place the chosen takes, mix, render the outputs).
 */

export const dubInput = z.object({
  project_id: z.string(),
  /** create: a new project (every line); stale / line / all / render: actions on a project. */
  scope: z.enum(['create', 'stale', 'line', 'all', 'render']),
  cue_id: z.string().optional(),
  /** AI配音 from speech recognition: the prepare stage recognises the media first. */
  recognize: z.object({ language: z.string() }).optional(),
  /** AI配音 paused for review: prepare the subtitles only; the lines are dubbed by 生成过期音频 later. */
  review: z.boolean().optional(),
  /** AI配音 from on-screen subtitles: the prepare stage reads them with the OCR engine first. */
  ocr: z
    .object({
      language: z.string(),
      regions: z.array(z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() })).optional(),
    })
    .optional(),
  outputs: z.array(DubOutput).optional(),
  /** One-click fix of the `line` scope's cue (shorten, borrow gap, speed). */
  fix: cueFix.optional(),
  /** The track length the credits were priced on (ms). */
  priced_ms: z.number().int().min(0),
});
export type DubInput = z.infer<typeof dubInput>;

interface PrepareResult {
  cue_ids: string[];
  /** Slot length of each line made (ms), for the per-line refund. */
  slot_ms: Record<string, number>;
  engine_label?: string;
}
interface DubResult {
  made: number;
  failed: string[];
  failed_ms: number;
}

const takeKey = (ownerId: string, projectId: string, cueId: string, takeId: string) =>
  `${projectFilesPrefix(ownerId, projectId)}takes/${cueId}/${takeId}.wav`;
export const MAX_TAKES = 10;

export async function recognizeInto(
  ctx: StageContext<Pick<DubInput, 'recognize'>>,
  doc: ProjectDocument,
): Promise<ProjectDocument> {
  const media = await mediaOf(ctx, doc);
  if (!media) throw taskFailure(1, '没有可识别的媒体');
  const wav = path.join(ctx.scratchDir, 'speech-16k.wav');
  try {
    await extractAudio(media.file, wav, { rate: 16_000, channels: 1, format: 'wav', signal: ctx.signal });
  } catch (err) {
    throw recognitionError(err);
  }
  const transcript = await recognizeSpeech(ctx, wav, { language: ctx.input.recognize!.language });
  const next = transcriptToDocument(transcript, doc, { splitCues: true });
  next.dub = doc.dub;
  for (const cue of dubTrack(next)?.cues ?? []) {
    Object.assign(cue, { text_rev: 0, audio_rev: 0, stale: true, locked: false, takes: [], take_id: null });
  }
  (next as ProjectDocument & { engine?: string }).engine = engineLabel(transcript);
  return next;
}

/** Subtitles read from the picture (OCR engine, `recognizeVideo`): the main track becomes the dub track. */
export async function ocrInto(
  ctx: StageContext<Pick<DubInput, 'ocr'>>,
  doc: ProjectDocument,
): Promise<ProjectDocument> {
  const media = await mediaOf(ctx, doc);
  if (!media?.asset.has_video) throw taskFailure(1, '没有可识别的视频画面');
  const options = ctx.input.ocr!;
  let regions: Box[];
  try {
    regions = await subtitleRegions(ctx, media.file, options.regions);
  } catch (err) {
    throw videoError(err);
  }
  if (!regions.length) throw AppError.named('err_video_without_subtitle', '画面中没有找到字幕');
  const result = await recognizeText(ctx, media.file, { regions, itemPrefix: 'ocr-' });
  if (countChars(result) === 0)
    throw AppError.named('err_video_without_subtitle', '画面中没有识别到字幕文字');
  const main = ocrToDocument(result, doc, options.language).tracks[0]!;
  const settings = dubSettings.parse(doc.dub ?? {});
  const next = dubbingDocument(
    main.cues.map((c) => ({ start_ms: c.start_ms, end_ms: c.end_ms, text: c.text })),
    settings,
    {},
    main.language,
  );
  next.dub = doc.dub;
  (next as ProjectDocument & { engine?: string }).engine = result.engine_label;
  return next;
}

function targets(doc: ProjectDocument, input: DubInput, tool: TaskTool): SubtitleCue[] {
  if (tool === 'synthesis' || input.scope === 'render') return [];
  // 视频翻译 without a dub: subtitles only.
  if (doc.translation && !doc.translation.dub_enabled) return [];
  const cues = dubTrack(doc)?.cues ?? [];
  const speakable = (c: SubtitleCue) => !c.mark && c.text.trim() !== '';
  switch (input.scope) {
    case 'line':
      return cues.filter((c) => c.id === input.cue_id && speakable(c));
    case 'all':
      return cues.filter((c) => speakable(c) && !c.locked);
    default:
      return cues.filter((c) => !c.locked && needsAudio(doc, c));
  }
}

/** What another tool adds to the render: e.g. 视频翻译's lip sync of the rendered MP4. */
export interface RenderHooks {
  /** Called with the rendered MP4 (changed in place) and the mixed audio. */
  afterVideo?(ctx: StageContext<DubInput>, mp4: string, audio: string, doc: ProjectDocument): Promise<void>;
}

/** The dub stages (prepare → dub → render) of a tool; 视频翻译 runs them after its own stages. */
export const dubStages = (tool: TaskTool, hooks: RenderHooks = {}) => [
  {
    name: 'prepare',
    label: '准备字幕',
    lane: 'heavy' as const,
    weight: 1,
    async run(ctx: StageContext<DubInput>): Promise<PrepareResult> {
      const { owner_id: ownerId } = ctx.task;
      let label: string | undefined;
      if (ctx.input.recognize || ctx.input.ocr) {
        const { document } = await readDubProject(ctx.app, ownerId, ctx.input.project_id);
        const recognised = ctx.input.ocr ? await ocrInto(ctx, document) : await recognizeInto(ctx, document);
        label = (recognised as ProjectDocument & { engine?: string }).engine;
        delete (recognised as ProjectDocument & { engine?: string }).engine;
        await updateDubDocument(ctx.app, ownerId, ctx.input.project_id, () => recognised, label);
      }
      const { document } = await readDubProject(ctx.app, ownerId, ctx.input.project_id);
      // Paused for review: nothing is dubbed now; every line stays stale for 生成过期音频.
      const list = ctx.input.review ? [] : targets(document, ctx.input, tool);
      return {
        cue_ids: list.map((c) => c.id),
        slot_ms: Object.fromEntries(list.map((c) => [c.id, c.end_ms - c.start_ms])),
        ...(label ? { engine_label: label } : {}),
      };
    },
  },
  {
    name: 'dub',
    label: '合成配音',
    lane: 'heavy' as const,
    weight: 6,
    attempts: 2,
    async run(ctx: StageContext<DubInput>): Promise<DubResult> {
      const { owner_id: ownerId } = ctx.task;
      const { project_id: projectId } = ctx.input;
      const prepared = ctx.results.prepare as PrepareResult;
      const chat = ctx.app.engines.llm;
      const voices = new Map<string, Promise<UsableVoice>>();
      const mediaId = (await readDubProject(ctx.app, ownerId, projectId)).document.dub?.media_asset_id;
      const hasVideo = mediaId ? Boolean((await getOwnedAsset(ctx.app, ownerId, mediaId)).has_video) : false;
      const workDir = path.join(ctx.scratchDir, 'lines');
      await mkdir(workDir, { recursive: true });
      const failed: string[] = [];
      let made = 0;
      for (const [i, cueId] of prepared.cue_ids.entries()) {
        const done = await ctx.item(cueId, async () => {
          const { document, media_ms } = await readDubProject(ctx.app, ownerId, projectId);
          const cues = dubTrack(document)?.cues ?? [];
          const at = cues.findIndex((c) => c.id === cueId);
          // A line deleted while the task ran is skipped.
          if (at < 0) return { made: false, failed: false };
          const stored = cues[at]!;
          const cue =
            ctx.input.fix && ctx.input.cue_id === cueId
              ? { ...stored, fix: { ...stored.fix, ...ctx.input.fix } }
              : stored;
          const settings = dubSettings.parse(document.dub ?? {});
          const { take } = await dubLine({
            ctx: ctx.app,
            ownerId,
            cue,
            voiceId: voiceOf(document, cue),
            nextStartMs: cues[at + 1]?.start_ms ?? null,
            trackEndMs: trackEndMs(document, media_ms),
            hasVideo,
            settings,
            workDir,
            storageKey: (takeId) => takeKey(ownerId, projectId, cueId, takeId),
            chat,
            checker: checkerOf(ctx.app),
            voices,
            signal: ctx.signal,
          });
          const dropped: string[] = [];
          await updateDubDocument(ctx.app, ownerId, projectId, (doc) => {
            const c = dubTrack(doc)?.cues.find((x) => x.id === cueId);
            if (!c) {
              dropped.push(take.audio_key);
              return doc;
            }
            const takes = [...(c.takes ?? []), take];
            // Old takes beyond the limit go (never the one chosen before).
            while (takes.length > MAX_TAKES) {
              const old = takes.findIndex((t) => t.id !== c.take_id);
              dropped.push(...takes.splice(old, 1).map((t) => t.audio_key));
            }
            Object.assign(c, {
              takes,
              take_id: take.id,
              fit: take.fit,
              stale: c.text !== take.source_text,
              audio_rev: (c.audio_rev ?? 0) + 1,
              fix: undefined,
            });
            return doc;
          });
          for (const key of dropped) await ctx.app.storage.remove(key).catch(() => {});
          return { made: true, failed: take.check?.status === 'failed' };
        });
        if (done.made) made++;
        if (done.failed) failed.push(cueId);
        await ctx.progress((i + 1) / prepared.cue_ids.length);
      }
      // Lines the automatic check still failed keep their take, flagged in the editor (failure code 5
      // per line, their credits refunded by finalCredits); the task succeeds with the rest.
      const failed_ms = failed.reduce((s, id) => s + (prepared.slot_ms[id] ?? 0), 0);
      return { made, failed, failed_ms };
    },
  },
  {
    name: 'render',
    label: '混音与渲染',
    lane: 'heavy' as const,
    weight: 3,
    attempts: 2,
    async run(ctx: StageContext<DubInput>) {
      if (ctx.input.review) return { review: true };
      return renderProject(ctx, tool, hooks);
    },
  },
];

async function renderProject(ctx: StageContext<DubInput>, tool: TaskTool, hooks: RenderHooks) {
  const { owner_id: ownerId, title } = ctx.task;
  const { project_id: projectId } = ctx.input;
  const { document, media_ms } = await readDubProject(ctx.app, ownerId, projectId);
  const settings = dubSettings.parse(document.dub ?? {});
  const outputs = new Set(ctx.input.outputs ?? settings.outputs);
  const cues = dubTrack(document)?.cues ?? [];
  const sourceMs = trackEndMs(document, media_ms);
  const dir = path.join(ctx.scratchDir, 'render');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const media = await mediaOf(ctx, document);
  const signal = ctx.signal;
  // Slow video: the stretches the chosen takes marked become a time map; every later time moves
  // through it (whole ms, so placement stays sample-accurate) and the output is longer by the sum.
  // 视频翻译 erasing the original subtitles renders in one pass, which cannot also slow the video:
  // there the erase wins (a slowed line is then cut where the next starts, as any overrun).
  const erase = erasePlan(document, sourceMs);
  const slowMap =
    tool !== 'synthesis' && media?.asset.has_video && !erase
      ? buildTimeMap(slowStretches(cues), sourceMs)
      : [];
  const at = (ms: number) => mapTime(slowMap, ms);
  const duration = mappedDuration(slowMap, sourceMs);

  // The dub track: chosen takes at their cues (sample-accurate), or for 视频合成 the audio tracks.
  const dubWav = path.join(dir, 'dub.wav');
  let clipped: Array<{ cue_id: string; cut_ms: number }> = [];
  if (tool === 'synthesis') {
    await mixTracks(ctx, settings.audio_tracks, dubWav, duration);
  } else {
    const lines: Array<{ file: string; start_ms: number }> = [];
    const placedIds: string[] = [];
    for (const cue of cues) {
      const take = cue.mark ? undefined : chosenTake(cue);
      if (!take) continue;
      lines.push({ file: await localPathOf(ctx.app, take.audio_key, dir), start_ms: at(cue.start_ms) });
      placedIds.push(cue.id);
    }
    const report = await placeLines(lines, dubWav, { duration_ms: duration, signal });
    // A line that still runs past the next one (reported as not fitting) is cut there: never overlapped.
    clipped = report.clipped.map((c) => ({ cue_id: placedIds[c.index]!, cut_ms: c.cut_ms }));
  }
  await ctx.progress(0.2);
  const keep: KeepRegion[] = cues
    .filter((c) => c.mark === 'keep')
    .map((c) => ({ start_ms: at(c.start_ms), end_ms: at(c.end_ms) }));
  let music: string | undefined;
  if (settings.music_asset_id) {
    const source = await localPathOf(
      ctx.app,
      (await getOwnedAsset(ctx.app, ownerId, settings.music_asset_id)).storage_key,
      ctx.scratchDir,
    );
    // mixDub lays music 12 dB under as it comes: pre-gain it so it sits at the chosen level.
    music = path.join(dir, 'music.wav');
    await runFfmpeg(
      ['-i', source, '-vn', '-af', `volume=${settings.music_volume_db + 12}dB`, '-ar', '48000', '-y', music],
      { signal },
    );
  }
  // The original audio under a slowed stretch is time-stretched with it (atempo, pitch kept).
  let original = media?.file;
  if (original && media?.asset.has_audio && slowMap.length) {
    original = path.join(dir, 'original-slowed.wav');
    await slowAudio(media.file, original, slowMap, { durationMs: sourceMs, signal });
  }
  // 分离人声: the separator's accompaniment (plus the voices inside [保留原声] regions) under the dub.
  let stems: { vocals: string; accompaniment: string; model: string } | null = null;
  if (original && media?.asset.has_audio && settings.background === 'separated') {
    const separator = ctx.app.engines.separate;
    if (!separator) throw AppError.named('err_interface_unavailable', SEPARATOR_MISSING);
    stems = await separator.separate(original, path.join(dir, 'stems'), { signal }).catch((err: unknown) => {
      throw recognitionError(err);
    });
    original = await separatedBackground(stems, keep, path.join(dir, 'separated-bed.wav'), signal);
  }
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
    signal,
  });
  await ctx.progress(0.4);

  // The editor's players: the dub track and the mix, kept with the project.
  const prefix = projectFilesPrefix(ownerId, projectId);
  for (const [name, file] of [
    ['dub', dubWav],
    ['mix', mixWav],
  ] as const) {
    const mp3 = path.join(dir, `${name}-play.mp3`);
    await exportAudio(file, mp3, 'mp3', { signal });
    await ctx.app.storage.putFile(`${prefix}${name}.mp3`, mp3, 'audio/mpeg', { move: true });
  }
  await updateDubDocument(ctx.app, ownerId, projectId, (doc) => {
    doc.dub = {
      ...dubSettings.parse(doc.dub ?? {}),
      dub_key: `${prefix}dub.mp3`,
      mix_key: `${prefix}mix.mp3`,
    };
    return doc;
  });

  const spoken = cues
    .filter((c) => c.text.trim() !== '')
    .map((c) => ({ start_ms: at(c.start_ms), end_ms: at(c.end_ms), text: chosenTake(c)?.text ?? c.text }));
  // Subtitle files by the rules: a dubbed line too long for one cue is cut over its own time.
  const subtitles = fitCues(
    spoken,
    subtitleRulesFor(spoken.some((c) => /\p{Script=Han}/u.test(c.text)) ? 'zh' : 'en'),
  );
  // Bilingual: the translation track's lines (in the output timeline) as each subtitle's second line.
  const second = secondLines(document)?.map((c) => ({
    ...c,
    start_ms: at(c.start_ms),
    end_ms: at(c.end_ms),
  }));
  const output = async (file: string, name: string, kind: string, format: string, type: string) => {
    const key = await ctx.saveArtifact({ path: file }, { name: path.basename(file), contentType: type });
    const { size } = await stat(file).catch(() => ({ size: 0 }));
    await ctx.addOutput({ name, kind, format, key, size });
  };
  let rendered: { video_codec: string } | null = null;
  if (outputs.has('mp4') && media?.asset.has_video) {
    const mp4 = path.join(dir, 'video.mp4');
    const mode = settings.subtitle_mode;
    // 视频翻译: the original subtitles erased in the same encode (one x264 pass).
    rendered = await renderVideo({
      video: media.file,
      audio: mixWav,
      ...(erase ? { erase } : {}),
      ...(mode !== 'none' && spoken.length > 0
        ? {
            subtitles: {
              cues: spoken,
              style: settings.subtitle_style,
              mode,
              ...(second?.length ? { bilingual: second } : {}),
            },
          }
        : {}),
      ...(slowMap.length ? { slow: slowMap } : {}),
      out: mp4,
      signal,
      onProgress: (f) => {
        ctx.progress(0.4 + f * 0.5).catch(() => {});
      },
    });
    await hooks.afterVideo?.(ctx, mp4, mixWav, document);
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
      extra: [...stemExtras, { name: 'subtitles.srt', text: toSrt(subtitles) }],
      out: zip,
    });
    await output(zip, `${title}-分轨.zip`, 'file', 'zip', 'application/zip');
  }
  await writeSubtitleOutputs(ctx, {
    ...(outputs.has('srt') ? { srt: toSrt(subtitles) } : {}),
    ...(outputs.has('vtt') ? { vtt: toVtt(subtitles) } : {}),
    ...(outputs.has('ass') ? { ass: toAss(spoken, settings.subtitle_style, second) } : {}),
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
async function mixTracks(
  ctx: StageContext<DubInput>,
  tracks: DubSettings['audio_tracks'],
  out: string,
  durationMs: number,
) {
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

/** Captures the credits of the lines that were made and passed, refunding lines that failed the check. */
function finalCredits(results: Record<string, unknown>, held: number): number {
  const prepared = results.prepare as PrepareResult | undefined;
  const dub = results.dub as DubResult | undefined;
  if (!prepared || !dub || dub.failed_ms === 0) return held;
  const total = Object.values(prepared.slot_ms).reduce((a, b) => a + b, 0);
  if (total <= 0) return held;
  return Math.max(0, Math.floor(held * (1 - dub.failed_ms / total)));
}

export const dubPipelines = {
  srt_dubbing: definePipeline<DubInput>({
    tool: 'srt_dubbing',
    input: dubInput,
    stages: dubStages('srt_dubbing'),
    finalCredits,
  }),
  dubbing: definePipeline<DubInput>({
    tool: 'dubbing',
    input: dubInput,
    stages: dubStages('dubbing'),
    finalCredits,
  }),
  synthesis: definePipeline<DubInput>({
    tool: 'synthesis',
    input: dubInput,
    stages: dubStages('synthesis'),
    finalCredits,
  }),
} as const;

export type DubTool = keyof typeof dubPipelines;
