import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  type Box,
  cueFix,
  DubOutput,
  dubSettings,
  type ProjectDocument,
  type SubtitleCue,
  type TaskTool,
} from '@vw/contract';
import { extractAudio, type SelfCheckFigures, type SentenceCheck, selfCheckFigures } from '@vw/engines';
import { z } from 'zod';
import { AppError } from '../../../errors.ts';
import { type StageContext, type StageDef, taskFailure } from '../../../tasks/index.ts';
import { getOwnedAsset } from '../../uploads/uploads.service.ts';
import type { UsableVoice } from '../../voices/voices.service.ts';
import { projectFilesPrefix } from '../projects.service.ts';
import { dubbingDocument, dubTrack, needsAudio, trackEndMs, voiceOf } from './dub-document.ts';
import { dubLine } from './dub-line.ts';
import { readDubProject, updateDubDocument } from './dub-project.ts';
import { mediaOf, videoError } from './media.ts';
import { engineLabel, recognitionError, recognizeSpeech } from './recognize-speech.ts';
import { recognizeText, subtitleRegions } from './recognize-text.ts';
import { type RenderHooks, renderProject } from './render.ts';
import { recordTaskFigures } from './self-check.ts';
import { transcriptToDocument } from './speech-document.ts';
import { countChars, ocrToDocument } from './text-document.ts';

/*
 * The dub stages of a dub project (tools srt_dubbing, dubbing, synthesis, and 视频翻译 after its own):
 * prepare (subtitles from recognition when asked; which lines to make) → dub (each line an item:
 * synthesis, fit, check; its take stored under the project) → render (render.ts).
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
  /** The speech self-check's figures for the lines of this run. */
  self_check?: SelfCheckFigures;
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
  (next as ProjectDocument & { engine?: string }).engine = engineLabel(
    transcript,
    ctx.app.engines.asr.list(),
  );
  return next;
}

/** Subtitles read from the picture (recognizeText): the main track becomes the dub track. */
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

/** The dub stages (prepare → dub → render) of a tool; 视频翻译 runs them after its own stages. */
export const dubStages = (tool: TaskTool, hooks: RenderHooks = {}): StageDef<DubInput>[] => [
  {
    name: 'prepare',
    label: '准备字幕',
    lane: 'heavy',
    weight: 1,
    run: (ctx) => prepare(ctx, tool),
  },
  {
    name: 'dub',
    label: '合成配音',
    lane: 'heavy',
    weight: 6,
    attempts: 2,
    run: dubLines,
  },
  {
    name: 'render',
    label: '混音与渲染',
    lane: 'heavy',
    weight: 3,
    attempts: 2,
    async run(ctx) {
      if (ctx.input.review) return { review: true };
      return renderProject(ctx, tool, hooks);
    },
  },
];

/** The subtitles recognised when the project asks for it, and the lines to dub with their slots. */
async function prepare(ctx: StageContext<DubInput>, tool: TaskTool): Promise<PrepareResult> {
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
}

type DubCtx = StageContext<DubInput>;

/** What every line of one dub run shares. */
interface LineRun {
  chat: DubCtx['app']['engines']['llm'];
  voices: Map<string, Promise<UsableVoice>>;
  hasVideo: boolean;
  workDir: string;
}

/** Each prepared line dubbed as a task item (a restarted task resumes after the last line made). */
async function dubLines(ctx: DubCtx): Promise<DubResult> {
  const { owner_id: ownerId } = ctx.task;
  const { project_id: projectId } = ctx.input;
  const prepared = ctx.results.prepare as PrepareResult;
  const mediaId = (await readDubProject(ctx.app, ownerId, projectId)).document.dub?.media_asset_id;
  const run: LineRun = {
    chat: ctx.app.engines.llm,
    voices: new Map(),
    hasVideo: mediaId ? Boolean((await getOwnedAsset(ctx.app, ownerId, mediaId)).has_video) : false,
    workDir: path.join(ctx.scratchDir, 'lines'),
  };
  await mkdir(run.workDir, { recursive: true });
  const failed: string[] = [];
  const checks: Array<SentenceCheck | undefined> = [];
  let made = 0;
  for (const [i, cueId] of prepared.cue_ids.entries()) {
    const done = await ctx.item(cueId, () => dubCue(ctx, run, cueId));
    if (done.made) made++;
    if (done.failed) failed.push(cueId);
    checks.push(done.check);
    await ctx.progress((i + 1) / prepared.cue_ids.length);
  }
  const self_check = selfCheckFigures(checks);
  // Runs that dub no line (render only, review) have nothing to report.
  if (checks.length) await recordTaskFigures(ctx.app, ctx.task.id, self_check);
  // Lines the automatic check still failed keep their take, flagged in the editor (failure code 5
  // per line, their credits refunded by finalCredits); the task succeeds with the rest.
  const failed_ms = failed.reduce((s, id) => s + (prepared.slot_ms[id] ?? 0), 0);
  return { made, failed, failed_ms, self_check };
}

/** One line: a new take made, stored and chosen (old takes beyond MAX_TAKES removed). */
async function dubCue(
  ctx: DubCtx,
  run: LineRun,
  cueId: string,
): Promise<{ made: boolean; failed: boolean; check?: SentenceCheck }> {
  const { owner_id: ownerId } = ctx.task;
  const { project_id: projectId } = ctx.input;
  const { chat, voices, hasVideo, workDir } = run;
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
  const { take, check } = await dubLine({
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
  return { made: true, failed: take.check?.status === 'failed', ...(check ? { check } : {}) };
}

/** Captures the credits of the lines that were made and passed, refunding lines that failed the check. */
export function finalCredits(results: Record<string, unknown>, held: number): number {
  const prepared = results.prepare as PrepareResult | undefined;
  const dub = results.dub as DubResult | undefined;
  if (!prepared || !dub || dub.failed_ms === 0) return held;
  const total = Object.values(prepared.slot_ms).reduce((a, b) => a + b, 0);
  if (total <= 0) return held;
  return Math.max(0, Math.floor(held * (1 - dub.failed_ms / total)));
}
