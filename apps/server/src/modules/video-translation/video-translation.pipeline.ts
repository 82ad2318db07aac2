import path from 'node:path';
import {
  type Box,
  cueFix,
  DubOutput,
  type ProjectDocument,
  type SubtitleCue,
  type SubtitleTrack,
  subtitleRulesFor,
  type TranslationSettings,
} from '@vw/contract';
import {
  applySampleFix,
  backTranslate,
  type ChatClient,
  guessLanguage,
  punctuate,
  runFfmpeg,
  splitCues,
  summarize,
  type TranslationCache,
  translateLines,
} from '@vw/engines';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { ENGINE_FAILURES, engineAppError } from '../../engine-errors.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { definePipeline, type StageContext, type StageDef, taskFailure } from '../../tasks/index.ts';
import { dubStages, ocrInto, recognizeInto } from '../projects/stages/dub.ts';
import { readDubProject, updateDubDocument } from '../projects/stages/dub-project.ts';
import { mediaOf } from '../projects/stages/media.ts';
import { subtitleRegions } from '../projects/stages/recognize-text.ts';
import { cloneSpeakerVoice } from '../voices/clones.ts';
import { LIPSYNC_MISSING } from './video-translation.lipsync.ts';
import { readGlossary } from './video-translation.profile.ts';
import { cacheGet, cacheSet, findSpeakerVoices, saveSpeakerVoices } from './video-translation.repo.ts';

/*
 * 视频翻译's pipeline (tool `translate`), one task per target language:
 * recognize (speech / on-screen / the uploaded file → the source track; the erase regions) → split
 * (智能字幕断句; the translation track's cues, one per source cue; pause for review or for a manual
 * translation) → translate (summary + chunks through the language model, cached) → back_translate
 * (drift flags; pause for review) → clone_voices (dub.clone_speakers: speakers cloned from the video)
 * → the dub stages of AI配音 speaking the translation track
 * (prepare → dub → render, where the render erases the original subtitles in the same encode).
 * Line actions run the same pipeline with another scope: their tasks have only the scope's stages.
 * A line action while the project's task waits at a review pause changes lines only (`takes_only`: a
 * re-dub makes the line's take; the paused task renders when it goes on).
 */

const box = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });

export const translateInput = z.object({
  project_id: z.string(),
  /** create: the whole flow; retranslate / back_translate / stale / line / all / render: line actions. */
  scope: z.enum(['create', 'retranslate', 'back_translate', 'stale', 'line', 'all', 'render']),
  /** create: where the subtitles come from ('subtitle': already on the document). */
  source: z
    .object({
      kind: z.enum(['asr', 'ocr', 'subtitle']),
      language: z.string(),
      regions: z.array(box).optional(),
    })
    .optional(),
  /** create: erase the original subtitles (regions: given, else the OCR regions, else detected). */
  erase: z.object({ regions: z.array(box).optional() }).optional(),
  /** create: pause for review (not `review`: the dub stages read that as AI配音's own review run). */
  pauses: z.object({ after_recognition: z.boolean(), after_translation: z.boolean() }).optional(),
  /** retranslate / back_translate: translation-track cue ids (all when omitted). */
  cue_ids: z.array(z.string()).optional(),
  instructions: z.string().optional(),
  /** create with dub.clone_speakers: when the user attested consent; default_voice: the video's default
   * dub voice was not chosen (cloned when there are no speakers). */
  clone: z.object({ accepted_at: z.number(), default_voice: z.boolean() }).optional(),
  // The dub stages' fields (dubbing's regenerate input):
  cue_id: z.string().optional(),
  outputs: z.array(DubOutput).optional(),
  fix: cueFix.optional(),
  /** A re-dub while the project's task is paused for review: the takes, no render. */
  takes_only: z.boolean().optional(),
  priced_ms: z.number().int().min(0),
});
export type TranslateInput = z.infer<typeof translateInput>;
type Ctx = StageContext<TranslateInput>;

const CHUNK = 120;

export const sourceTrack = (doc: ProjectDocument) => doc.tracks.find((t) => t.kind === 'source');
export const targetTrack = (doc: ProjectDocument) => doc.tracks.find((t) => t.kind === 'translation');
const settingsOf = (doc: ProjectDocument): TranslationSettings => {
  if (!doc.translation) throw AppError.named('err_dubbing_task_not_found');
  return doc.translation;
};

/** Source text of a translation cue: its source cues' texts, one line (CJK without spaces). */
export function sourceTextOf(doc: ProjectDocument, cue: SubtitleCue): string {
  const source = sourceTrack(doc)?.cues ?? [];
  const ids = cue.source_ids ?? [];
  const cjk = /^(zh|ja|ko|yue)/i.test(doc.translation?.source_language ?? '');
  return source
    .filter((c) => ids.includes(c.id))
    .map((c) => c.text.replace(/\s*\n\s*/g, cjk ? '' : ' ').trim())
    .join(cjk ? '' : ' ');
}

/** The language model's cache, per owner, in the translation_cache table. */
function cacheOf(app: AppContext, ownerId: string): TranslationCache {
  return {
    get: (key) => cacheGet(app.db, ownerId, key),
    set: (key, text) => cacheSet(app.db, ownerId, key, text, app.clock.now()),
  };
}

/** 重新翻译 wants another translation: the model is asked again and its answer replaces the cached one. */
const freshAnswers = (cache: TranslationCache): TranslationCache => ({
  get: async () => undefined,
  set: cache.set,
});

const MANUAL = '自动翻译暂未开放：请在编辑器中手动翻译，然后点「继续」生成配音与成片';

/** The chat client, or the clear failure of a stage that needs it. */
function needChat(app: AppContext): ChatClient {
  const chat = app.engines.llm;
  if (!chat) throw taskFailure(1, MANUAL);
  return chat;
}

async function readDoc(ctx: Ctx) {
  return (await readDubProject(ctx.app, ctx.task.owner_id, ctx.input.project_id)).document;
}
const writeDoc = (ctx: Ctx, change: (doc: ProjectDocument) => ProjectDocument, label?: string) =>
  updateDubDocument(ctx.app, ctx.task.owner_id, ctx.input.project_id, change, label);

/** The project's honest label: what read the subtitles and what translated them. */
function projectLabel(ctx: Ctx, model: string): string {
  const read = (ctx.results.recognize as { engine_label?: string } | undefined)?.engine_label;
  return [read, `翻译 · ${model}`].filter(Boolean).join(' / ');
}

/** A stage only some scopes have (a line action's task lists, weighs and runs only its own). */
function only(
  scopes: TranslateInput['scope'][],
  stage: StageDef<TranslateInput>,
  unless?: (input: TranslateInput) => boolean,
): StageDef<TranslateInput> {
  return { ...stage, when: (input) => scopes.includes(input.scope) && !unless?.(input) };
}

const recognize: StageDef<TranslateInput> = {
  name: 'recognize',
  label: '识别字幕',
  lane: 'heavy',
  weight: 3,
  attempts: 2,
  async run(ctx) {
    const source = ctx.input.source!;
    let doc = await readDoc(ctx);
    const keep = { dub: doc.dub, translation: doc.translation };
    let label: string | undefined;
    let ocrRegions: Box[] | undefined;
    if (source.kind !== 'subtitle') {
      let recognised: ProjectDocument;
      if (source.kind === 'asr') {
        recognised = await recognizeInto(
          { ...ctx, input: { recognize: { language: source.language } } },
          doc,
        );
      } else {
        const media = await mediaOf(ctx, doc);
        if (!media?.asset.has_video) throw taskFailure(1, '没有可识别的视频画面');
        ocrRegions = await subtitleRegions(ctx, media.file, source.regions);
        recognised = await ocrInto(
          { ...ctx, input: { ocr: { language: source.language, regions: ocrRegions } } },
          doc,
        );
      }
      label = (recognised as ProjectDocument & { engine?: string }).engine;
      const track = sourceTrack(recognised)!;
      doc = {
        ...doc,
        speakers: recognised.speakers,
        tracks: [
          { ...track, language: track.language === 'auto' ? source.language : track.language },
          ...doc.tracks.filter((t) => t.kind !== 'source'),
        ],
      };
    }
    const cues = sourceTrack(doc)?.cues.filter((c) => c.text.trim()) ?? [];
    if (cues.length === 0) throw AppError.named('err_video_without_subtitle', '没有识别到可翻译的字幕');
    // The original subtitles' regions for the render's erase.
    let eraseRegions: Box[] = [];
    if (ctx.input.erase) {
      eraseRegions = ctx.input.erase.regions ?? ocrRegions ?? [];
      if (!eraseRegions.length) {
        const media = await mediaOf(ctx, doc);
        if (media?.asset.has_video) eraseRegions = await subtitleRegions(ctx, media.file, undefined);
      }
    }
    // The same speaker name keeps the voice it had in this user's earlier projects.
    const remembered = await findSpeakerVoices(ctx.app.db, ctx.task.owner_id);
    await writeDoc(
      ctx,
      () => ({
        ...doc,
        speakers: doc.speakers.map((s) => ({ ...s, voice_id: s.voice_id ?? remembered[s.name] ?? null })),
        dub: keep.dub,
        translation: { ...keep.translation!, erase_regions: eraseRegions },
      }),
      label,
    );
    return {
      cues: cues.length,
      erase_regions: eraseRegions.length,
      ...(label ? { engine_label: label } : {}),
    };
  },
};

/** 智能字幕断句 of the source track, then the translation track: one empty cue per source cue. */
export function splitDocument(doc: ProjectDocument): ProjectDocument {
  const t = settingsOf(doc);
  const source = sourceTrack(doc)!;
  const kept = source.cues.filter((c) => c.text.trim() !== '');
  // 'auto' is settled here, from the recognizer or else the script of the text (later stages and the
  // prompts need the language).
  const detected = source.language !== 'auto' ? source.language : guessLanguage(kept.map((c) => c.text));
  const lang = t.source_language === 'auto' ? (detected ?? 'auto') : t.source_language;
  let cues: SubtitleCue[] = kept;
  if (t.split) {
    const speakerOf = new Map(kept.map((c) => [c.id, c.speaker_id]));
    // The source is cut by its own language's rules (the document's rules are the target's).
    const rules = subtitleRulesFor(lang);
    cues = splitCues(
      kept.map((c) => ({ id: c.id, start_ms: c.start_ms, end_ms: c.end_ms, text: c.text })),
      {
        language: lang,
        maxCharsPerLine: rules.max_chars_per_line,
        maxLines: rules.max_lines,
        maxCps: rules.max_cps,
        minMs: rules.min_duration_ms,
        maxMs: rules.max_duration_ms,
      },
    ).map((c) => ({
      id: newId('cue'),
      start_ms: c.start_ms,
      end_ms: c.end_ms,
      text: c.text,
      speaker_id: speakerOf.get(c.source_ids[0] ?? '') ?? null,
    }));
  }
  const target: SubtitleTrack = {
    id: t.target_track_id,
    kind: 'translation',
    language: t.target_language,
    cues: cues.map((c) => ({
      id: newId('cue'),
      start_ms: c.start_ms,
      end_ms: c.end_ms,
      text: '',
      speaker_id: c.speaker_id,
      source_ids: [c.id],
      text_rev: 0,
      audio_rev: 0,
      stale: true,
      locked: false,
      takes: [],
      take_id: null,
    })),
  };
  return {
    ...doc,
    translation: { ...t, source_language: lang },
    tracks: [{ ...source, id: t.source_track_id, language: lang, cues }, target],
  };
}

const split: StageDef<TranslateInput> = {
  name: 'split',
  label: '智能断句',
  lane: 'light',
  weight: 1,
  pauseAfter: 'recognition',
  pauseWhen: (r) => Boolean((r as { pause?: boolean }).pause),
  async run(ctx) {
    const chat = ctx.app.engines.llm;
    const before = await readDoc(ctx);
    if (chat && settingsOf(before).split) {
      // Language-model assisted: recognised lines without punctuation get it (words unchanged), so the
      // splitter can cut at clauses.
      const t = settingsOf(before);
      const lines = (sourceTrack(before)?.cues ?? [])
        .filter((c) => c.text.trim())
        .map((c) => ({ id: c.id, text: c.text }));
      const punctuated = await ctx.item('punctuate', async () => {
        const r = await punctuate(chat, lines, {
          language:
            t.source_language === 'auto' ? (sourceTrack(before)?.language ?? 'auto') : t.source_language,
          signal: ctx.signal,
        });
        return Object.fromEntries(r.lines.map((l) => [l.id, l.text]));
      });
      await writeDoc(ctx, (d) => {
        for (const cue of sourceTrack(d)?.cues ?? []) cue.text = punctuated[cue.id] ?? cue.text;
        return d;
      });
    }
    await writeDoc(ctx, splitDocument);
    const doc = await readDoc(ctx);
    const manual = !chat;
    if (manual) {
      await writeDoc(ctx, (d) => ({
        ...d,
        translation: { ...settingsOf(d), model: '手动翻译' },
      }));
    }
    return {
      cues: targetTrack(doc)?.cues.length ?? 0,
      manual,
      ...(manual ? { message: MANUAL } : {}),
      pause: manual || Boolean(ctx.input.pauses?.after_recognition),
    };
  },
};

/** The translation cues a line action names (all of them when none are named). */
function chosen(doc: ProjectDocument, ids: string[] | undefined): SubtitleCue[] {
  const cues = targetTrack(doc)?.cues ?? [];
  if (!ids) return cues;
  const set = new Set(ids);
  return cues.filter((c) => set.has(c.id));
}

const translate: StageDef<TranslateInput> = {
  name: 'translate',
  label: '翻译',
  lane: 'light',
  weight: 3,
  attempts: 2,
  async run(ctx) {
    const { owner_id: ownerId } = ctx.task;
    const doc = await readDoc(ctx);
    const t = settingsOf(doc);
    // create: the lines nobody translated by hand yet; retranslate: the named (or every unlocked) line.
    const lines =
      ctx.input.scope === 'create'
        ? chosen(doc, undefined).filter((c) => c.text.trim() === '')
        : chosen(doc, ctx.input.cue_ids).filter((c) => ctx.input.cue_ids || !c.locked);
    const work = lines
      .map((c) => ({ id: c.id, text: sourceTextOf(doc, c) }))
      .filter((l) => l.text.trim() !== '');
    if (work.length === 0) return { lines: 0, requests: 0, cached: 0 };
    const chat = needChat(ctx.app);
    const glossary = t.use_glossary ? await readGlossary(ctx.app, ownerId) : [];
    const prefs = {
      ...t.preferences,
      instructions: [t.preferences.instructions, ctx.input.instructions ?? ''].filter(Boolean).join('\n'),
    };
    let summary = t.summary;
    if (!summary && ctx.input.scope === 'create') {
      summary = await ctx.item('summary', () =>
        summarize(
          chat,
          (sourceTrack(doc)?.cues ?? []).map((c) => c.text),
          { language: t.source_language, signal: ctx.signal },
        ),
      );
      await writeDoc(ctx, (d) => ({
        ...d,
        translation: { ...settingsOf(d), summary: summary.slice(0, 4000) },
      }));
    }
    const cache = cacheOf(ctx.app, ownerId);
    let requests = 0;
    let cached = 0;
    let repaired = 0;
    let model = '';
    const total = work.length;
    for (let i = 0; i < work.length; i += CHUNK) {
      const chunk = work.slice(i, i + CHUNK);
      const done = await ctx.item(`chunk-${i / CHUNK}`, async () => {
        const result = await translateLines(chat, chunk, {
          source: t.source_language,
          target: t.target_language,
          prefs,
          glossary,
          summary,
          signal: ctx.signal,
          cache: ctx.input.scope === 'retranslate' ? freshAnswers(cache) : cache,
          onProgress: (n) => {
            ctx.progress((i + n) / total).catch(() => {});
          },
        });
        const byId = new Map(result.lines.map((l) => [l.id, l.text]));
        await writeDoc(
          ctx,
          (d) => {
            for (const cue of targetTrack(d)?.cues ?? []) {
              const text = byId.get(cue.id);
              if (text === undefined) continue;
              Object.assign(cue, {
                text,
                text_rev: (cue.text_rev ?? 0) + 1,
                stale: true,
                back_text: null,
                drift: undefined,
              });
            }
            d.translation = { ...settingsOf(d), model: result.model };
            return d;
          },
          projectLabel(ctx, result.model),
        );
        return {
          requests: result.requests,
          cached: result.cached,
          repaired: result.repaired,
          model: result.model,
        };
      });
      requests += done.requests;
      cached += done.cached;
      repaired += done.repaired;
      model = done.model;
    }
    return { lines: work.length, requests, cached, repaired, model };
  },
};

const back: StageDef<TranslateInput> = {
  name: 'back_translate',
  label: '回译校对',
  lane: 'light',
  weight: 2,
  attempts: 2,
  pauseAfter: 'translation',
  pauseWhen: (r) => Boolean((r as { pause?: boolean }).pause),
  async run(ctx) {
    const { owner_id: ownerId } = ctx.task;
    const doc = await readDoc(ctx);
    const t = settingsOf(doc);
    const pause = ctx.input.scope === 'create' && Boolean(ctx.input.pauses?.after_translation);
    const chat = ctx.app.engines.llm;
    // Without a language model there is nothing to translate back (the manual translation stands).
    if (!chat) return { lines: 0, flagged: 0, pause, skipped: '自动翻译暂未开放' };
    const ids = ctx.input.scope === 'create' ? undefined : ctx.input.cue_ids;
    const pairs = chosen(doc, ids)
      .map((c) => ({ id: c.id, source: sourceTextOf(doc, c), translation: c.text }))
      .filter((p) => p.source.trim() && p.translation.trim());
    const embed = ctx.app.engines.embed;
    let flagged = 0;
    let method = embed ? 'embedding' : 'overlap';
    for (let i = 0; i < pairs.length; i += CHUNK) {
      const chunk = pairs.slice(i, i + CHUNK);
      const done = await ctx.item(`back-${i / CHUNK}`, async () => {
        const result = await backTranslate(chat, chunk, {
          source: t.source_language,
          target: t.target_language,
          ...(embed ? { embed } : { threshold: t.drift_threshold }),
          signal: ctx.signal,
          cache: cacheOf(ctx.app, ownerId),
        });
        const byId = new Map(result.lines.map((l) => [l.id, l]));
        // Only a line whose translation is still the one checked takes the result.
        const checked = new Map(chunk.map((p) => [p.id, p.translation]));
        await writeDoc(ctx, (d) => {
          for (const cue of targetTrack(d)?.cues ?? []) {
            const r = byId.get(cue.id);
            if (!r || checked.get(cue.id) !== cue.text) continue;
            cue.back_text = r.back.slice(0, 2000);
            cue.drift = { score: Math.max(0, Math.min(1, r.score)), flagged: r.flagged, method: r.method };
          }
          return d;
        });
        return {
          flagged: result.lines.filter((l) => l.flagged).length,
          method: result.lines[0]?.method ?? method,
        };
      });
      flagged += done.flagged;
      method = done.method;
      await ctx.progress(Math.min(1, (i + CHUNK) / pairs.length));
    }
    return { lines: pairs.length, flagged, method, pause };
  },
};

/** At most this much of a speaker's speech goes into the clone sample (a fast clone takes 10 s – 5 min). */
const CLONE_SAMPLE_MS = 60_000;

/** The cue spans (merged, in order) up to `limit` ms of speech. */
export function speechSpans(cues: SubtitleCue[], limit = CLONE_SAMPLE_MS): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let total = 0;
  for (const c of [...cues].sort((a, b) => a.start_ms - b.start_ms)) {
    if (total >= limit || c.end_ms <= c.start_ms) continue;
    const end = Math.min(c.end_ms, c.start_ms + (limit - total));
    const last = spans[spans.length - 1];
    if (last && c.start_ms <= last[1]) {
      total += Math.max(0, end - last[1]);
      last[1] = Math.max(last[1], end);
    } else {
      spans.push([c.start_ms, end]);
      total += end - c.start_ms;
    }
  }
  return spans;
}

/** One mono WAV of the spans of the original audio (the clone's sample). */
async function cutSpeech(file: string, spans: Array<[number, number]>, out: string, signal: AbortSignal) {
  const select = spans.map(([a, b]) => `between(t,${a / 1000},${b / 1000})`).join('+');
  await runFfmpeg(
    [
      '-i',
      file,
      '-map',
      '0:a:0',
      '-vn',
      '-af',
      `aselect='${select}',asetpts=N/SR/TB`,
      '-ac',
      '1',
      '-ar',
      '24000',
      '-c:a',
      'pcm_s16le',
      '-y',
      out,
    ],
    { signal },
  );
}

/**
 * dub.clone_speakers: each speaker without a voice (none chosen, none remembered for its name) gets a
 * fast clone of its own speech in this video, or the video's default dub voice does when there are no
 * speakers and none was chosen. A speaker that cannot be cloned keeps its voice; the result says why.
 */
const cloneVoices: StageDef<TranslateInput> = {
  name: 'clone_voices',
  label: '克隆说话人音色',
  lane: 'heavy',
  weight: 2,
  attempts: 2,
  async run(ctx) {
    const clone = ctx.input.clone;
    const { row, document: doc } = await readDubProject(ctx.app, ctx.task.owner_id, ctx.input.project_id);
    const t = settingsOf(doc);
    if (!clone || !t.clone_speakers || !t.dub_enabled) return { speakers: [] };
    const source = sourceTrack(doc);
    const cues = (source?.cues ?? []).filter((c) => c.text.trim() && c.mark !== 'mute');
    const language = t.source_language === 'auto' ? (source?.language ?? 'auto') : t.source_language;
    const groups = doc.speakers.length
      ? doc.speakers
          .filter((s) => !s.voice_id)
          .map((s) => ({
            key: s.id,
            id: s.id as string | null,
            name: s.name || s.id,
            cues: cues.filter((c) => c.speaker_id === s.id),
          }))
      : clone.default_voice
        ? [{ key: 'video', id: null, name: row.name, cues }]
        : [];
    const media = groups.length ? await mediaOf(ctx, doc) : null;
    const results: Array<
      { speaker: string } & ({ voice_id: string; engine_label: string } | { reason: string })
    > = [];
    for (const [i, g] of groups.entries()) {
      const r = await ctx.item(`clone-${g.key}`, async () => {
        const spans = speechSpans(g.cues);
        if (!media?.asset.has_audio || spans.length === 0) {
          return { ok: false as const, reason: '没有这个说话人的语音可供克隆' };
        }
        const cut = path.join(ctx.scratchDir, `speaker-${i}-cut.wav`);
        const wav = path.join(ctx.scratchDir, `speaker-${i}.wav`);
        await cutSpeech(media.file, spans, cut, ctx.signal);
        // A video's speech sits over music and noise: RNNoise first (the clone page's 降噪 fix), or
        // most real videos fail the sample check's noise floor.
        await applySampleFix('denoise', cut, wav, { signal: ctx.signal });
        return cloneSpeakerVoice(ctx.app, ctx.task.owner_id, {
          name: (g.id ? `${g.name}（${row.name}）` : row.name).slice(0, 50),
          language,
          wavPath: wav,
          dir: ctx.scratchDir,
          signal: ctx.signal,
          projectId: row.id,
          acceptedAt: clone.accepted_at,
        });
      });
      if (!r.ok) {
        results.push({ speaker: g.name, reason: r.reason });
        continue;
      }
      results.push({ speaker: g.name, voice_id: r.voice_id, engine_label: r.engine_label });
      await writeDoc(ctx, (d) => {
        if (g.id) {
          d.speakers = d.speakers.map((s) => (s.id === g.id ? { ...s, voice_id: r.voice_id } : s));
        } else if (d.dub) {
          d.dub = { ...d.dub, default_voice_id: r.voice_id };
        }
        return d;
      });
      // The same speaker name keeps its cloned voice in this user's later projects.
      if (g.id)
        await saveSpeakerVoices(ctx.app.db, ctx.task.owner_id, { [g.name]: r.voice_id }, ctx.app.clock.now());
      await ctx.progress((i + 1) / groups.length);
    }
    return { speakers: results };
  },
};

// The dub stages of AI配音 (speaking the translation track: the document's dub.spoken_track).
const [prepare, dub, render] = dubStages('translate', {
  // 口型同步: the rendered video through the configured lip-sync server.
  async afterVideo(ctx, mp4, audio, doc) {
    if (!doc.translation?.lip_sync) return;
    const lip = ctx.app.engines.lipsync;
    if (!lip) throw AppError.named('err_interface_unavailable', LIPSYNC_MISSING);
    await lip.apply(mp4, audio, ctx.signal).catch((err: unknown) => {
      throw engineAppError(err, ENGINE_FAILURES.lipSync);
    });
  },
}) as unknown as StageDef<TranslateInput>[];
const DUB_SCOPES: TranslateInput['scope'][] = ['create', 'stale', 'line', 'all', 'render'];

export const translatePipeline = definePipeline<TranslateInput>({
  tool: 'translate',
  input: translateInput,
  stages: [
    only(['create'], recognize),
    only(['create'], split),
    only(['create', 'retranslate'], translate),
    only(['create', 'retranslate', 'back_translate'], back),
    only(['create'], cloneVoices),
    only(DUB_SCOPES, prepare!),
    only(DUB_SCOPES, dub!),
    only(DUB_SCOPES, render!, (input) => Boolean(input.takes_only)),
  ],
});
