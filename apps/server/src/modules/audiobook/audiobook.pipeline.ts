import { createWriteStream } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { pipeline as streamPipeline } from 'node:stream/promises';
import { audiobookCalls, type BookSegment } from '@vw/contract';
import { isEngineError, runFfprobe, type SentenceCheck, selfCheckFigures } from '@vw/engines';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { definePipeline, type StageContext, taskFailure } from '../../tasks/index.ts';
import { recordTaskFigures } from '../projects/stages/self-check.ts';
import { pushToAudiobookshelf } from './audiobook.abs.ts';
import {
  ACX,
  type BuiltChapter,
  buildChapter,
  type ChapterEncoding,
  combineLevels,
  EXPORT_SAMPLE_RATE,
  encodeM4b,
  encodeMp3,
  M4B_SAMPLE_RATE,
  measureLoudness,
  toChapterSrt,
  toLrc,
  verdict,
  zipFiles,
} from './audiobook.export.ts';
import {
  findChapters,
  findCharacters,
  findParagraph,
  findParagraphs,
  setParagraphAudio,
  updateChapter,
} from './audiobook.repo.ts';
import type { ParagraphRow, Take, WorkRow } from './audiobook.schema.ts';
import { Casting, paragraphText, type SpokenSentence, synthesizeParagraph } from './audiobook.synth.ts';

export const audiobookInput = z.object({
  work_id: z.string(),
  mode: z.enum(['synthesize', 'export']),
  /** Paragraphs to synthesise, in reading order (chosen when the task was created). */
  paragraph_ids: z.array(z.string()),
  /** Regenerate even when the audio is fresh (one paragraph again). */
  force: z.boolean(),
  /** Recognise each paragraph and compare (when a recognizer is configured). */
  check: z.boolean().default(false),
  export: z
    .object({
      format: audiobookCalls.exportFormat,
      preset: audiobookCalls.loudnessPreset,
      subtitles: z.enum(['none', 'srt', 'lrc']),
      audiobookshelf: z
        .object({
          url: z.string(),
          token: z.string(),
          library_id: z.string(),
          folder_id: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
});
export type AudiobookInput = z.infer<typeof audiobookInput>;

async function workOf(ctx: StageContext<AudiobookInput>): Promise<WorkRow> {
  const work = await ctx.app.db
    .selectFrom('audiobook_works')
    .selectAll()
    .where('id', '=', ctx.input.work_id)
    .where('owner_id', '=', ctx.task.owner_id)
    .executeTakeFirst();
  if (!work) throw taskFailure(1, '作品已被删除');
  return work;
}

const audioKey = (work: WorkRow, paragraphId: string, rev: number) =>
  `audiobook/${work.owner_id}/${work.id}/p/${paragraphId}-r${rev}.wav`;

type ItemResult = {
  state: 'done' | 'skipped' | 'flagged';
  chars: number;
  duration_ms?: number;
  /** Characters of the sentences the self-check flagged (refunded). */
  flagged_chars?: number;
  /** Each sentence's self-check (the job's figures). */
  checks?: SentenceCheck[];
};

const charsOf = (text: string) => Array.from(text.replace(/\s/g, '')).length;

/**
 * A paragraph's check from its sentences': flagged when one is (what was heard, sentence by sentence),
 * the error rate weighted by length.
 */
function paragraphCheck(sentences: SpokenSentence[]): SentenceCheck | undefined {
  const heard = sentences.filter((s) => s.check);
  if (!heard.length) return undefined;
  const checks = heard.map((s) => s.check!);
  const flagged = checks.find((c) => c.status === 'flagged');
  const weight = heard.reduce((n, s) => n + Math.max(1, charsOf(s.text)), 0);
  return {
    status: flagged ? 'flagged' : 'passed',
    cer:
      Math.round(
        (heard.reduce((n, s) => n + s.check!.cer * Math.max(1, charsOf(s.text)), 0) / weight) * 1000,
      ) / 1000,
    heard: checks
      .map((c) => c.heard)
      .join('')
      .slice(0, 2000),
    problem: flagged?.problem ?? null,
    attempts: Math.max(...checks.map((c) => c.attempts)),
    ms: checks.reduce((n, c) => n + c.ms, 0),
    ...(flagged ? { failure_code: 5 as const } : {}),
  };
}

/** One paragraph: synthesise, each sentence checked by the installed recognizer, store as a new take. */
async function synthesizeOne(
  ctx: StageContext<AudiobookInput>,
  work: WorkRow,
  casting: Casting,
  paragraphId: string,
): Promise<ItemResult> {
  const p = await findParagraph(ctx.app.db, work.id, paragraphId);
  // Deleted, locked meanwhile, or already fresh (unless asked again): nothing to redo.
  if (!p || p.locked || (!ctx.input.force && p.audio_key && !p.stale)) return { state: 'skipped', chars: 0 };
  let made: Awaited<ReturnType<typeof synthesizeParagraph>>;
  try {
    made = await synthesizeParagraph(ctx.app, casting, p, { signal: ctx.signal, check: ctx.input.check });
  } catch (err) {
    if (err instanceof AppError) throw taskFailure(1, err.message);
    if (isEngineError(err)) throw taskFailure(1, err.zh);
    throw err;
  }
  const paragraphChecked = paragraphCheck(made.sentences);
  const check: ParagraphRow['check_status'] = paragraphChecked?.status ?? '';
  const takes = JSON.parse(p.takes) as Array<Take & { text_rev?: number }>;
  const rev = takes.reduce((m, t) => Math.max(m, t.rev), p.audio_rev) + 1;
  const key = audioKey(work, p.id, rev);
  await ctx.app.storage.put(key, made.wav, 'audio/wav');
  takes.push({
    rev,
    key,
    duration_ms: made.durationMs,
    created_at: ctx.app.clock.now(),
    engine: made.engine,
    text_rev: p.text_rev,
    ...(paragraphChecked ? { check: paragraphChecked } : {}),
  });
  const stored = await setParagraphAudio(ctx.app.db, p.id, p.text_rev, {
    audio_key: key,
    audio_rev: rev,
    takes: JSON.stringify(takes),
    duration_ms: made.durationMs,
    check_status: check,
  });
  if (!stored) {
    // The text changed while this was made: keep it as a take, the paragraph stays stale.
    await ctx.app.db
      .updateTable('audiobook_paragraphs')
      .set({ takes: JSON.stringify(takes) })
      .where('id', '=', p.id)
      .execute();
  }
  const chars = charsOf(paragraphText(JSON.parse(p.segments) as BookSegment[]));
  const checks = made.sentences.flatMap((s) => (s.check ? [s.check] : []));
  // Only the flagged sentences' characters are refunded (failure code 5 for each), never more than the paragraph.
  const flaggedChars = Math.min(
    chars,
    made.sentences.reduce((n, s) => n + (s.check?.status === 'flagged' ? charsOf(s.text) : 0), 0),
  );
  return {
    state: check === 'flagged' ? 'flagged' : 'done',
    chars,
    duration_ms: made.durationMs,
    flagged_chars: flaggedChars,
    checks,
  };
}

/** Chapter durations as laid out for export (audio plus pauses of paragraphs that have audio). */
async function refreshChapterDurations(app: AppContext, workId: string): Promise<void> {
  const chapters = await findChapters(app.db, workId);
  const paragraphs = await findParagraphs(app.db, workId);
  for (const c of chapters) {
    const ms = paragraphs
      .filter((p) => p.chapter_id === c.id && p.audio_key)
      .reduce((n, p) => n + Number(p.duration_ms) + p.pause_before_ms + p.pause_after_ms, 0);
    if (ms !== Number(c.duration_ms)) await updateChapter(app.db, c.id, { duration_ms: ms });
  }
}

async function runSynthesis(ctx: StageContext<AudiobookInput>) {
  if (ctx.input.mode !== 'synthesize') return { skipped: true };
  const work = await workOf(ctx);
  const casting = new Casting(ctx.app, work.owner_id, work, await findCharacters(ctx.app.db, work.id));
  const ids = ctx.input.paragraph_ids;
  const counts = { done: 0, skipped: 0, flagged: 0, chars: 0, flagged_chars: 0 };
  const checks: SentenceCheck[] = [];
  let finished = 0;
  let failure: unknown = null;
  let next = 0;
  // The engines synthesise in child processes (one per core): keep that many paragraphs in flight.
  const lanes = Math.max(1, Math.min(4, availableParallelism(), ids.length));
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (failure === null && next < ids.length && !ctx.signal.aborted) {
        const id = ids[next++];
        try {
          // A checkpoint per paragraph: a resumed task skips the ones finished before the crash.
          const r = await ctx.item<ItemResult>(`p:${id}`, () => synthesizeOne(ctx, work, casting, id));
          counts[r.state]++;
          counts.chars += r.chars;
          // Items recorded before sentence checks refund the whole flagged paragraph.
          counts.flagged_chars += r.flagged_chars ?? (r.state === 'flagged' ? r.chars : 0);
          checks.push(...(r.checks ?? []));
        } catch (err) {
          failure ??= err;
          return;
        }
        finished++;
        await ctx.progress(finished / ids.length).catch(() => {});
      }
    }),
  );
  await refreshChapterDurations(ctx.app, work.id);
  if (failure) throw failure;
  const self_check = selfCheckFigures(checks);
  await recordTaskFigures(ctx.app, ctx.task.id, self_check);
  // Sentences the check still flagged keep their take, the paragraph marked 自动校对未通过 (failure
  // code 5 per sentence, refunded by finalCredits); the task succeeds with the rest.
  return { ...counts, self_check };
}

const safeName = (s: string) => s.replace(/[\\/:*?"<>|\n\r\t]/g, '_').slice(0, 80) || 'chapter';
const chapterName = (i: number, c: BuiltChapter) => `${String(i + 1).padStart(2, '0')} ${safeName(c.title)}`;

type ExportCtx = StageContext<AudiobookInput>;
type ExportOptions = NonNullable<AudiobookInput['export']>;
type ChapterPlan = Parameters<typeof buildChapter>[1];

async function runExport(ctx: ExportCtx) {
  const opts = ctx.input.export;
  if (ctx.input.mode !== 'export' || !opts) return { skipped: true };
  const work = await workOf(ctx);
  const plans = await exportPlans(ctx, work);
  const rate = opts.format === 'm4b' ? M4B_SAMPLE_RATE : EXPORT_SAMPLE_RATE;
  // M4B and per-chapter MP3s are encoded chapter by chapter in the shaping pass; one MP3 joins PCM.
  const encoding: ChapterEncoding = opts.format === 'm4b' ? 'aac' : opts.format === 'zip' ? 'mp3' : 'pcm';
  const steps = plans.length + 2;
  let step = 0;
  const tick = () => ctx.progress(++step / steps).catch(() => {});
  const built = await buildChapters(ctx, plans, opts.preset, rate, encoding, tick);
  ctx.signal.throwIfAborted();
  const dir = ctx.scratchDir;
  const subtitleFiles = await writeChapterSubtitles(dir, built, opts.subtitles);
  // Each chapter's figures were measured by ffmpeg as it was encoded (the audio that goes into the file).
  const report = await Promise.all(
    built.map(async (c, i) =>
      verdict(
        `${chapterName(i, c)}.${encoding === 'mp3' ? 'mp3' : opts.format}`,
        c.levels,
        opts.preset,
        encoding === 'mp3'
          ? await encodedFigures(c.file)
          : {
              bitrate_kbps: opts.format === 'mp3' ? ACX.bitrateKbps : 64,
              sample_rate: rate,
              duration_ms: c.duration_ms,
            },
      ),
    ),
  );
  let deliverable: string | null = null;
  if (opts.format === 'zip') {
    const zip = path.join(dir, 'book.zip');
    await zipFiles(
      [...built.map((c, i) => ({ name: `${chapterName(i, c)}.mp3`, file: c.file })), ...subtitleFiles],
      zip,
    );
    await tick();
    await saveOutput(ctx, zip, work.title, 'file', 'zip', 'application/zip');
  } else {
    deliverable = await writeBook(ctx, work, built, opts);
    await tick();
    const name = `${safeName(work.title)}.${opts.format}`;
    // M4B: the whole file's figures combine its chapters' (measured on the very AAC frames it joins);
    // one MP3 was re-encoded from PCM, so it is measured itself.
    const levels =
      opts.format === 'm4b'
        ? combineLevels(built)
        : await measureLoudness(deliverable, ['-f', 'mp3'], opts.preset === 'online', ctx.signal);
    report.unshift(verdict(name, levels, opts.preset, await encodedFigures(deliverable)));
    for (const s of subtitleFiles) {
      await saveOutput(
        ctx,
        s.file,
        s.name.replace(/\.(srt|lrc)$/, ''),
        opts.subtitles,
        opts.subtitles,
        'text/plain; charset=utf-8',
      );
    }
    const type = opts.format === 'mp3' ? 'audio/mpeg' : 'audio/mp4';
    await saveOutput(ctx, deliverable, work.title, 'audio', opts.format, type);
  }
  const reportFile = path.join(dir, 'report.json');
  await writeFile(reportFile, JSON.stringify({ preset: opts.preset, files: report }, null, 2));
  await saveOutput(ctx, reportFile, `${work.title}-响度报告`, 'file', 'json', 'application/json');
  await tick();

  let push: { ok: boolean; message: string } | null = null;
  if (opts.audiobookshelf && deliverable) {
    push = await pushToAudiobookshelf(opts.audiobookshelf, {
      file: deliverable,
      fileName: `${safeName(work.title)}.${opts.format}`,
      title: work.title,
      author: work.author,
      signal: ctx.signal,
    });
  }
  return {
    format: opts.format,
    preset: opts.preset,
    report,
    push,
    chapters: built.map((c) => ({ title: c.title, duration_ms: c.duration_ms })),
  };
}

/** The selected chapters with the paragraphs that have audio, in reading order (none: the task fails). */
async function exportPlans(ctx: ExportCtx, work: WorkRow): Promise<ChapterPlan[]> {
  const chapters = (await findChapters(ctx.app.db, work.id)).filter((c) => c.selected === 1);
  const paragraphs = await findParagraphs(
    ctx.app.db,
    work.id,
    chapters.map((c) => c.id),
  );
  const plans = chapters
    .map((c) => ({
      chapterId: c.id,
      title: c.title,
      paragraphs: paragraphs
        .filter((p) => p.chapter_id === c.id && p.audio_key)
        .sort((a, b) => a.seq - b.seq)
        .map((p) => ({
          key: p.audio_key!,
          text: paragraphText(JSON.parse(p.segments) as BookSegment[]),
          pause_before_ms: p.pause_before_ms,
          pause_after_ms: p.pause_after_ms,
        })),
    }))
    .filter((c) => c.paragraphs.length > 0);
  if (plans.length === 0) throw taskFailure(1, '没有可导出的音频，请先合成至少一个段落');
  return plans;
}

/** Chapters shaped, encoded and measured one per core at a time: each is its own ffmpeg pass. */
async function buildChapters(
  ctx: ExportCtx,
  plans: ChapterPlan[],
  preset: ExportOptions['preset'],
  rate: number,
  encoding: ChapterEncoding,
  tick: () => Promise<unknown>,
): Promise<BuiltChapter[]> {
  const dir = ctx.scratchDir;
  const contentType = encoding === 'aac' ? 'audio/aac' : 'audio/mpeg';
  const buildOne = async (i: number): Promise<BuiltChapter> => {
    if (encoding === 'pcm')
      return buildChapter(ctx.app, plans[i], preset, dir, i, rate, encoding, ctx.signal);
    // A checkpoint per chapter (its encoded audio kept in storage): a resumed export redoes only the
    // chapters it had not finished.
    const done = await ctx.item<BuiltChapter & { key: string }>(`chapter:${i}`, async () => {
      const c = await buildChapter(ctx.app, plans[i], preset, dir, i, rate, encoding, ctx.signal);
      const key = await ctx.saveArtifact({ path: c.file }, { name: `chapter-${i}.${encoding}`, contentType });
      return { ...c, key };
    });
    const there = await stat(done.file).then(
      () => true,
      () => false,
    );
    if (!there) await streamPipeline(await ctx.app.storage.read(done.key), createWriteStream(done.file));
    return done;
  };
  const built: BuiltChapter[] = new Array(plans.length);
  let nextChapter = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(availableParallelism(), 4, plans.length)) }, async () => {
      while (nextChapter < plans.length && !ctx.signal.aborted) {
        const i = nextChapter++;
        built[i] = await buildOne(i);
        await tick();
      }
    }),
  );
  return built;
}

/** Each chapter's subtitles (SRT or LRC) as a file named after the chapter. */
async function writeChapterSubtitles(dir: string, built: BuiltChapter[], kind: ExportOptions['subtitles']) {
  const files: Array<{ name: string; file: string }> = [];
  if (kind === 'none') return files;
  for (const [i, c] of built.entries()) {
    const file = path.join(dir, `chapter-${i}.${kind}`);
    await writeFile(file, kind === 'srt' ? toChapterSrt(c.cues) : toLrc(c.cues, c.title));
    files.push({ name: `${chapterName(i, c)}.${kind}`, file });
  }
  return files;
}

/** The whole book as one file: an MP3 joined from the chapters' PCM, or an M4B with chapters and cover. */
async function writeBook(ctx: ExportCtx, work: WorkRow, built: BuiltChapter[], opts: ExportOptions) {
  const dir = ctx.scratchDir;
  if (opts.format === 'mp3') {
    const book = path.join(dir, 'book.mp3');
    await encodeMp3(
      built.map((c) => c.file),
      book,
      ctx.signal,
    );
    return book;
  }
  const meta = {
    title: work.title,
    author: work.author,
    narrator: work.narrator,
    description: work.description,
    cover: undefined as { file: string; mime: string } | undefined,
  };
  if (work.cover_key && work.cover_mime) {
    const coverFile = path.join(dir, work.cover_mime === 'image/png' ? 'cover.png' : 'cover.jpg');
    await writeFile(coverFile, await buffer(await ctx.app.storage.read(work.cover_key)));
    meta.cover = { file: coverFile, mime: work.cover_mime };
  }
  const book = path.join(dir, 'book.m4b');
  await encodeM4b(built, meta, book, dir, ctx.signal);
  return book;
}

/** A file as one of the task's outputs (`<name>.<format>`). */
async function saveOutput(
  ctx: ExportCtx,
  file: string,
  name: string,
  kind: string,
  format: string,
  contentType: string,
) {
  const key = await ctx.saveArtifact(
    { path: file },
    { name: `${safeName(name.replace(/\s/g, '_'))}.${format}`, contentType },
  );
  await ctx.addOutput({ name: `${name}.${format}`, kind, format, key, size: (await stat(file)).size });
}

/** Bitrate, rate and length of an encoded file, read back with ffprobe. */
async function encodedFigures(file: string) {
  const out = await runFfprobe([
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-show_entries',
    'stream=bit_rate,sample_rate:format=duration,bit_rate',
    '-of',
    'json',
    file,
  ]);
  const j = JSON.parse(out.toString('utf8')) as {
    streams?: Array<{ bit_rate?: string; sample_rate?: string }>;
    format?: { duration?: string; bit_rate?: string };
  };
  const a = j.streams?.[0];
  return {
    bitrate_kbps: Math.round(Number(a?.bit_rate ?? j.format?.bit_rate ?? 0) / 1000),
    sample_rate: Number(a?.sample_rate ?? 0),
    duration_ms: Math.round(Number(j.format?.duration ?? 0) * 1000),
  };
}

/**
 * Audiobook tasks (tool `audiobook`): `synthesize` makes paragraphs (one checkpoint each, so a restart
 * resumes without redoing finished ones); `export` joins chapters with the loudness preset into the
 * chosen files and measures them. A task runs one of the two; the other stage passes straight through.
 */
export const audiobookPipeline = definePipeline<AudiobookInput>({
  tool: 'audiobook',
  input: audiobookInput,
  stages: [
    { name: 'synthesize', label: '合成段落', lane: 'heavy', weight: 8, attempts: 2, run: runSynthesis },
    { name: 'export', label: '导出音频', lane: 'heavy', weight: 3, run: runExport },
  ],
  finalCredits(results, held) {
    // Paragraphs that needed nothing when their turn came (locked or made fresh meanwhile) are not charged.
    const r = results.synthesize as { chars?: number; flagged_chars?: number } | undefined;
    if (!r || r.chars === undefined) return held;
    if (r.chars === 0) return 0;
    // Flagged sentences (the check still failed) are refunded: their share of the characters made.
    return r.flagged_chars ? Math.floor(held * (1 - r.flagged_chars / r.chars)) : held;
  },
});
