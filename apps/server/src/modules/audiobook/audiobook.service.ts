import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  AudiobookChapter,
  AudiobookCharacter,
  AudiobookParagraph,
  AudiobookWork,
  audiobookCalls,
  BookSegment,
} from '@vw/contract';
import {
  type AttributedText,
  attributeSpeakers,
  BookImportError,
  importBook,
  refineSpeakers,
} from '@vw/engines';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { localPathOf } from '../../media/files.ts';
import { createScratchDir, removeScratchDir } from '../../media/scratch.ts';
import { createTask, deleteTask, getOwnedTask } from '../../tasks/tasks.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import { getMediaLimits, type ToolChecks } from '../features/features.service.ts';
import { tusIdOf, tusOwnerOf, uploadsDir } from '../uploads/tus.ts';
import { deleteUpload, findUploadOfOwner } from '../uploads/uploads.repo.ts';
import { voiceRuns } from '../voices/neural.ts';
import { findVoicesFor } from '../voices/voices.repo.ts';
import { defaultVoiceOf, getUsableVoice, getUserLevel } from '../voices/voices.service.ts';
import { audiobookPipeline } from './audiobook.pipeline.ts';
import {
  deleteWorkRows,
  findChapters,
  findCharacters,
  findParagraph,
  findParagraphs,
  findWorkOfOwner,
  findWorksOfOwner,
  insertWork,
  mergeChapters,
  splitChapter,
  updateChapter,
  updateCharacter,
  updateParagraph,
  updateWork,
} from './audiobook.repo.ts';
import type { ChapterRow, CharacterRow, ParagraphRow, Take, WorkRow } from './audiobook.schema.ts';
import { paragraphText } from './audiobook.synth.ts';

type Body<K extends keyof typeof audiobookCalls> = (typeof audiobookCalls)[K] extends { body?: infer B }
  ? B extends z.ZodType
    ? z.output<B>
    : never
  : never;

const LINK_SECONDS = 3600;
/** Archive limits of the book check (3000 above them). */
const BOOK_LIMITS = { maxBytes: 100 * 1024 * 1024, maxEntries: 5000, maxRatio: 200 };
const DEFAULT_PAUSE_AFTER_MS = 600;

export const workPrefix = (ownerId: string, workId: string) => `audiobook/${ownerId}/${workId}/`;

export async function getOwnedWork(ctx: AppContext, ownerId: string, workId: string): Promise<WorkRow> {
  const row = await findWorkOfOwner(ctx.db, ownerId, workId);
  if (!row) throw AppError.named('err_not_found', '作品不存在');
  return row;
}

// ---------- import ----------

type UploadRef = Body<'audiobookImport'>;

/** The uploaded file claimed into a scratch folder (a second claim finds nothing); its original name. */
async function claimUpload(
  ctx: AppContext,
  ownerId: string,
  ref: UploadRef,
  dir: string,
): Promise<{ file: string; name: string }> {
  // Named as uploaded (the importer reads the format from the extension and a TXT's title from the name).
  const named = (name: string) =>
    path.join(
      dir,
      name
        .replace(/[/\\\0]/g, '_')
        .replace(/^\.+/, '')
        .slice(-120) || 'book.txt',
    );
  if ('tus_upload' in ref) {
    const id = tusIdOf(ref.tus_upload);
    if (!id || tusOwnerOf(id) !== ownerId) throw AppError.named('err_not_found');
    const infoFile = path.join(uploadsDir(ctx), `${id}.json`);
    const info = await readFile(infoFile, 'utf8').then(
      (t) => JSON.parse(t) as { size?: number; metadata?: Record<string, string | null> },
      () => null,
    );
    if (!info) throw AppError.named('err_not_found');
    const size = await stat(path.join(uploadsDir(ctx), id)).then(
      (s) => s.size,
      () => -1,
    );
    if (info.size === undefined || size !== info.size) {
      throw AppError.named('err_invalid_param', '文件尚未上传完成，请继续上传');
    }
    const name = info.metadata?.filename ?? info.metadata?.name ?? 'book.txt';
    const claimed = named(name);
    try {
      await rename(path.join(uploadsDir(ctx), id), claimed);
    } catch {
      throw AppError.named('err_not_found');
    }
    await rm(infoFile, { force: true });
    return { file: claimed, name };
  }
  const upload = await findUploadOfOwner(ctx.db, ownerId, ref.upload_id);
  const multipart = ctx.storage.multipart;
  if (!upload || !multipart) throw AppError.named('err_not_found');
  await deleteUpload(ctx.db, upload.id);
  try {
    try {
      await multipart.complete(
        upload.storage_key,
        upload.provider_upload_id,
        ref.parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
      );
    } catch {
      await multipart.abort(upload.storage_key, upload.provider_upload_id).catch(() => {});
      throw AppError.named('err_file_not_supported', '分片不完整或校验失败，请重新上传');
    }
    const file = await localPathOf(ctx, upload.storage_key, dir);
    const claimed = named(upload.name);
    await rename(file, claimed);
    return { file: claimed, name: upload.name };
  } finally {
    await ctx.storage.remove(upload.storage_key).catch(() => {});
  }
}

/**
 * Library voices this user may use for a language (automatic casting). The user's own cloned voices
 * are never picked automatically — a character gets one only when the user chooses it.
 */
async function castableVoices(ctx: AppContext, ownerId: string, language: string) {
  const level = await getUserLevel(ctx, ownerId);
  const rows = await findVoicesFor(ctx.db, ownerId, [2]);
  return rows.filter(
    (r) =>
      r.owner_id === null &&
      !r.is_disabled &&
      r.required_level <= level &&
      r.language === language &&
      voiceRuns(ctx, r),
  );
}

/**
 * Speakers: the rules (`attributeSpeakers`), refined by the configured language model in chunks when
 * LLM_BASE_URL / LLM_MODEL are set. A model that cannot be reached leaves the rules' result (logged);
 * the work records which made the attribution.
 */
async function attributeWithModel(
  ctx: AppContext,
  paragraphs: string[],
  chapterSizes: number[],
): Promise<{ attributed: AttributedText; attribution: string }> {
  // The import's chapters are the rules' chapter breaks too (rather than headings guessed from the text).
  const attributed = attributeSpeakers(paragraphs, chapterSizes);
  const client = ctx.engines.llm;
  if (!client || !attributed.paragraphs.some((p) => p.segments.some((s) => s.kind === 'quote')))
    return { attributed, attribution: '规则' };
  try {
    const refined = await refineSpeakers(client, attributed, chapterSizes);
    if (refined.answered === 0) return { attributed, attribution: '规则' };
    return {
      attributed: { paragraphs: refined.paragraphs, characters: refined.characters },
      attribution: `语言模型 · ${client.model}`,
    };
  } catch (err) {
    ctx.log.warn({ err }, 'audiobook speaker refinement failed; keeping the rules');
    return { attributed, attribution: '规则' };
  }
}

/**
 * A book file → a work: chapters (table of contents, headings or Chinese chapter patterns),
 * paragraphs split into narration and quotes with their speakers, characters with a gender guess and
 * a voice picked from the library by it. 3000: the file check failed; 3001: no text in it.
 */
export async function importWork(ctx: AppContext, ownerId: string, ref: UploadRef): Promise<AudiobookWork> {
  const scratch = `book-${randomBytes(8).toString('hex')}`;
  const dir = await createScratchDir(ctx, scratch);
  const workId = newId('book');
  let coverKey: string | null = null;
  try {
    const { file, name } = await claimUpload(ctx, ownerId, ref, dir);
    const { size } = await stat(file);
    if (size === 0) throw AppError.named('err_file_empty');
    const limits = await getMediaLimits(ctx, ownerId);
    if (size > limits.max_upload_bytes) throw AppError.named('err_file_too_large');
    let book: Awaited<ReturnType<typeof importBook>>;
    try {
      book = await importBook(file, {
        ...BOOK_LIMITS,
        maxBytes: Math.min(BOOK_LIMITS.maxBytes, limits.max_upload_bytes),
      });
    } catch (err) {
      if (err instanceof BookImportError) throw AppError.code(err.code, err.message);
      throw err;
    }
    const chapters = book.chapters.filter((c) => c.paragraphs.some((p) => p.trim()));
    if (chapters.length === 0) throw AppError.code(3001, '没有可提取的文字');

    const flat = chapters.flatMap((c) => c.paragraphs.filter((p) => p.trim()));
    const { attributed, attribution } = await attributeWithModel(
      ctx,
      flat,
      chapters.map((c) => c.paragraphs.filter((p) => p.trim()).length),
    );
    const now = ctx.clock.now();

    // Narrator: the audiobook default when usable, else the first usable Mandarin voice.
    const defaultVoice = await defaultVoiceOf(ctx, 'audiobook');
    const narrator = await getUsableVoice(ctx, ownerId, defaultVoice, undefined).catch(() => null);
    const language = narrator?.row.language ?? 'zh-CN';
    const pool = await castableVoices(ctx, ownerId, language);
    const narratorId = narrator?.row.voice_id ?? pool[0]?.voice_id;
    if (!narratorId)
      throw AppError.named('err_interface_unavailable', '没有可用的朗读声音，请联系管理员配置语音引擎');
    const byGender = (g: string) => pool.filter((v) => v.gender === g && v.voice_id !== narratorId);
    const used = { male: 0, female: 0 };
    const characters: CharacterRow[] = attributed.characters.map((c) => {
      let voice: string | null = null;
      if (c.gender === 'male' || c.gender === 'female') {
        const list = byGender(c.gender);
        if (list.length) voice = list[used[c.gender]++ % list.length].voice_id;
      }
      return {
        id: newId('bchr'),
        work_id: workId,
        name: c.name,
        lines: c.lines,
        gender: c.gender,
        voice_id: voice,
      };
    });

    const chapterRows: ChapterRow[] = [];
    const paragraphRows: ParagraphRow[] = [];
    let at = 0;
    for (const [ci, chapter] of chapters.entries()) {
      const chapterId = newId('bch');
      chapterRows.push({
        id: chapterId,
        work_id: workId,
        seq: ci,
        title: chapter.title || `第${ci + 1}章`,
        // Notes and appendices start left out (they can be ticked); prefaces and afterwords are read.
        selected: chapter.kind === 'notes' ? 0 : 1,
        duration_ms: 0,
        kind: chapter.kind ?? 'chapter',
      });
      let seq = 0;
      for (const text of chapter.paragraphs) {
        if (!text.trim()) continue;
        const segments = attributed.paragraphs[at++]?.segments ?? [
          { kind: 'narration', text, speaker: null },
        ];
        paragraphRows.push({
          id: newId('bpar'),
          work_id: workId,
          chapter_id: chapterId,
          seq: seq++,
          segments: JSON.stringify(segments),
          voice_id: null,
          pause_before_ms: 0,
          pause_after_ms: DEFAULT_PAUSE_AFTER_MS,
          text_rev: 1,
          audio_key: null,
          audio_rev: 0,
          stale: 0,
          locked: 0,
          takes: '[]',
          duration_ms: 0,
          check_status: '',
        });
      }
    }

    if (book.cover && /^image\/(jpeg|png)$/.test(book.cover.mime) && book.cover.bytes.length > 0) {
      coverKey = `${workPrefix(ownerId, workId)}cover.${book.cover.mime === 'image/png' ? 'png' : 'jpg'}`;
      await ctx.storage.put(coverKey, book.cover.bytes, book.cover.mime);
    }
    const work: WorkRow = {
      id: workId,
      owner_id: ownerId,
      title: (book.title || name.replace(/\.[^.]{1,8}$/, '') || '未命名作品').slice(0, 200),
      author: (book.author || '').slice(0, 200),
      narrator: '',
      description: '',
      cover_key: coverKey,
      cover_mime: coverKey ? book.cover!.mime : null,
      source_name: name.slice(0, 200),
      format: book.format,
      encoding: book.encoding ?? null,
      narrator_voice_id: narratorId,
      loudness: 'acx',
      task_id: null,
      attribution,
      created_at: now,
      updated_at: now,
    };
    await insertWork(ctx.db, work, chapterRows, paragraphRows, characters);
    return (await toWorkViews(ctx, [work]))[0];
  } catch (err) {
    if (coverKey) await ctx.storage.remove(coverKey).catch(() => {});
    throw err;
  } finally {
    await removeScratchDir(ctx, scratch);
  }
}

// ---------- views ----------

const isFresh = (p: Pick<ParagraphRow, 'audio_key' | 'stale'>) => p.audio_key !== null && p.stale === 0;
const laidMs = (p: ParagraphRow) =>
  p.audio_key ? Number(p.duration_ms) + p.pause_before_ms + p.pause_after_ms : 0;

function chapterViews(chapters: ChapterRow[], paragraphs: ParagraphRow[]): AudiobookChapter[] {
  const by = new Map<string, ParagraphRow[]>();
  for (const p of paragraphs) {
    const list = by.get(p.chapter_id) ?? [];
    list.push(p);
    by.set(p.chapter_id, list);
  }
  return chapters.map((c) => {
    const list = (by.get(c.id) ?? []).sort((a, b) => a.seq - b.seq);
    const done = list.filter(isFresh).length;
    const text = list.map((p) => paragraphText(JSON.parse(p.segments) as BookSegment[])).join('');
    return {
      chapter_id: c.id,
      seq: c.seq,
      title: c.title,
      selected: c.selected === 1,
      kind: c.kind,
      status: done === 0 ? 'pending' : done === list.length ? 'done' : 'partial',
      paragraphs: list.length,
      paragraphs_done: done,
      characters: Array.from(text.replace(/\s/g, '')).length,
      duration_ms: list.reduce((n, p) => n + laidMs(p), 0),
      preview: Array.from(text).slice(0, 80).join(''),
    };
  });
}

async function toWorkViews(ctx: AppContext, works: WorkRow[]): Promise<AudiobookWork[]> {
  return Promise.all(
    works.map(async (w) => {
      const [chapters, paragraphs, characters] = await Promise.all([
        findChapters(ctx.db, w.id),
        findParagraphs(ctx.db, w.id),
        findCharacters(ctx.db, w.id),
      ]);
      const views = chapterViews(chapters, paragraphs);
      return {
        work_id: w.id,
        title: w.title,
        author: w.author,
        narrator: w.narrator,
        description: w.description,
        cover_url: w.cover_key
          ? await ctx.storage.signedUrl(w.cover_key, { expiresInSeconds: LINK_SECONDS })
          : '',
        format: w.format,
        chapters_total: chapters.length,
        chapters_done: views.filter((c) => c.status === 'done').length,
        duration_ms: views.reduce((n, c) => n + c.duration_ms, 0),
        characters: characters.length,
        narrator_voice_id: w.narrator_voice_id,
        loudness: w.loudness,
        task_id: w.task_id ?? '',
        attribution: w.attribution,
        created_time: Math.floor(w.created_at / 1000),
        updated_time: Math.floor(w.updated_at / 1000),
      };
    }),
  );
}

function characterView(c: CharacterRow): AudiobookCharacter {
  return { character_id: c.id, name: c.name, lines: c.lines, gender: c.gender, voice_id: c.voice_id ?? '' };
}

async function paragraphView(ctx: AppContext, p: ParagraphRow): Promise<AudiobookParagraph> {
  const takes = JSON.parse(p.takes) as Take[];
  const current = p.audio_key ? takes.find((t) => t.key === p.audio_key) : undefined;
  const sign = (key: string) => ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS });
  return {
    paragraph_id: p.id,
    chapter_id: p.chapter_id,
    seq: p.seq,
    segments: JSON.parse(p.segments) as BookSegment[],
    voice_id: p.voice_id ?? '',
    pause_before_ms: p.pause_before_ms,
    pause_after_ms: p.pause_after_ms,
    text_rev: p.text_rev,
    audio_rev: p.audio_rev,
    audio_url: p.audio_key ? await sign(p.audio_key) : '',
    duration_ms: Number(p.duration_ms),
    stale: p.stale === 1,
    locked: p.locked === 1,
    check: p.check_status,
    ...(current?.check ? { heard: current.check.heard } : {}),
    takes: await Promise.all(
      takes.map(async (t) => ({
        rev: t.rev,
        url: await sign(t.key),
        duration_ms: t.duration_ms,
        created_time: Math.floor(t.created_at / 1000),
        engine: t.engine,
        ...(t.check ? { check: t.check } : {}),
      })),
    ),
  };
}

export async function listWorks(ctx: AppContext, ownerId: string, q: { page: number; page_size: number }) {
  const { total, rows } = await findWorksOfOwner(ctx.db, ownerId, {
    offset: (q.page - 1) * q.page_size,
    limit: q.page_size,
  });
  return { total, list: await toWorkViews(ctx, rows) };
}

export async function getWork(ctx: AppContext, ownerId: string, workId: string) {
  const work = await getOwnedWork(ctx, ownerId, workId);
  const [chapters, paragraphs, characters] = await Promise.all([
    findChapters(ctx.db, workId),
    findParagraphs(ctx.db, workId),
    findCharacters(ctx.db, workId),
  ]);
  return {
    work: (await toWorkViews(ctx, [work]))[0],
    chapters: chapterViews(chapters, paragraphs),
    characters: characters.map(characterView),
  };
}

export async function getParagraphs(ctx: AppContext, ownerId: string, workId: string, chapterId: string) {
  await getOwnedWork(ctx, ownerId, workId);
  const rows = await findParagraphs(ctx.db, workId, [chapterId]);
  return { list: await Promise.all(rows.sort((a, b) => a.seq - b.seq).map((p) => paragraphView(ctx, p))) };
}

/** Removes the work's tasks (running ones cancelled), its audio, cover and rows. */
export async function deleteWork(ctx: AppContext, ownerId: string, workId: string): Promise<number> {
  const work = await getOwnedWork(ctx, ownerId, workId);
  const tasks = await ctx.db
    .selectFrom('tasks')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('tool', '=', 'audiobook')
    .where('project_id', '=', work.id)
    .execute();
  for (const t of tasks) await deleteTask(ctx, ownerId, t.id).catch(() => {});
  for await (const o of ctx.storage.list(workPrefix(ownerId, workId))) await ctx.storage.remove(o.key);
  return deleteWorkRows(ctx.db, ownerId, workId);
}

// ---------- edits ----------

const touch = (ctx: AppContext, workId: string) =>
  updateWork(ctx.db, workId, { updated_at: ctx.clock.now() });

export async function updateWorkInfo(ctx: AppContext, ownerId: string, body: Body<'audiobookUpdate'>) {
  const work = await getOwnedWork(ctx, ownerId, body.work_id);
  const patch: Partial<WorkRow> = { updated_at: ctx.clock.now() };
  for (const k of ['title', 'author', 'narrator', 'description', 'loudness'] as const)
    if (body[k] !== undefined) (patch as Record<string, unknown>)[k] = body[k];
  if (body.narrator_voice_id && body.narrator_voice_id !== work.narrator_voice_id) {
    await getUsableVoice(ctx, ownerId, body.narrator_voice_id, undefined);
    patch.narrator_voice_id = body.narrator_voice_id;
    await markStale(
      ctx,
      work.id,
      (p) =>
        !p.voice_id &&
        (JSON.parse(p.segments) as BookSegment[]).some((s) => !s.speaker || s.kind === 'narration'),
    );
  }
  if (body.cover_base64) {
    const bytes = Buffer.from(body.cover_base64, 'base64');
    const mime =
      bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff
        ? 'image/jpeg'
        : bytes.subarray(1, 4).toString('ascii') === 'PNG'
          ? 'image/png'
          : null;
    if (!mime || bytes.length > 2 * 1024 * 1024) {
      throw AppError.named('err_file_not_supported', '封面请上传 2 MB 以内的 JPG 或 PNG 图片');
    }
    const key = `${workPrefix(ownerId, work.id)}cover-${Date.now().toString(36)}.${mime === 'image/png' ? 'png' : 'jpg'}`;
    await ctx.storage.put(key, bytes, mime);
    if (work.cover_key) await ctx.storage.remove(work.cover_key).catch(() => {});
    patch.cover_key = key;
    patch.cover_mime = mime;
  }
  await updateWork(ctx.db, work.id, patch);
  return { work: (await toWorkViews(ctx, [{ ...work, ...patch }]))[0] };
}

/** Bumps the content revision of matching paragraphs; those with audio become stale. */
async function markStale(
  ctx: AppContext,
  workId: string,
  match: (p: ParagraphRow) => boolean,
): Promise<number> {
  let n = 0;
  for (const p of await findParagraphs(ctx.db, workId)) {
    if (!match(p)) continue;
    await updateParagraph(ctx.db, p.id, { text_rev: p.text_rev + 1, stale: p.audio_key ? 1 : 0 });
    if (p.audio_key) n++;
  }
  return n;
}

/**
 * The user's pronunciation dictionary changed for `word` (TTS dictionary calls): every paragraph of the
 * work containing it gets a new text revision, and those with audio are marked stale.
 */
export async function pronunciationChanged(
  ctx: AppContext,
  ownerId: string,
  body: Body<'audiobookPronunciationChanged'>,
) {
  const work = await getOwnedWork(ctx, ownerId, body.work_id);
  const ids: string[] = [];
  const stale = await markStale(ctx, work.id, (p) => {
    const hit = paragraphText(JSON.parse(p.segments) as BookSegment[]).includes(body.word);
    if (hit) ids.push(p.id);
    return hit;
  });
  if (ids.length) await touch(ctx, work.id);
  return { paragraph_ids: ids, stale_paragraphs: stale };
}

export async function editChapters(ctx: AppContext, ownerId: string, body: Body<'audiobookChapterEdit'>) {
  const work = await getOwnedWork(ctx, ownerId, body.work_id);
  const chapters = await findChapters(ctx.db, work.id);
  const find = (id: string) => {
    const c = chapters.find((x) => x.id === id);
    if (!c) throw AppError.named('err_not_found', '章节不存在');
    return c;
  };
  if (body.action === 'rename') {
    await updateChapter(ctx.db, find(body.chapter_id).id, { title: body.title });
  } else if (body.action === 'merge') {
    const c = find(body.chapter_id);
    const next = chapters.find((x) => x.seq > c.seq);
    if (!next) throw AppError.named('err_invalid_param', '这是最后一章，没有可合并的下一章');
    const own = await findParagraphs(ctx.db, work.id, [c.id]);
    const offset = own.reduce((m, p) => Math.max(m, p.seq + 1), 0);
    await mergeChapters(ctx.db, c, next, offset);
  } else if (body.action === 'split') {
    const p = await findParagraph(ctx.db, work.id, body.paragraph_id);
    if (!p) throw AppError.named('err_not_found', '段落不存在');
    const c = find(p.chapter_id);
    if (p.seq === Math.min(...(await findParagraphs(ctx.db, work.id, [c.id])).map((x) => x.seq))) {
      throw AppError.named('err_invalid_param', '不能从章节的第一段拆分');
    }
    const firstWords = Array.from(paragraphText(JSON.parse(p.segments) as BookSegment[]))
      .slice(0, 12)
      .join('');
    await splitChapter(ctx.db, c, p.seq, {
      id: newId('bch'),
      work_id: work.id,
      seq: c.seq + 1,
      title: body.title ?? firstWords,
      selected: c.selected,
      duration_ms: 0,
      kind: c.kind,
    });
  } else {
    const ids = new Set(body.chapter_ids);
    for (const c of chapters)
      if (ids.has(c.id)) await updateChapter(ctx.db, c.id, { selected: body.selected ? 1 : 0 });
  }
  await touch(ctx, work.id);
  const [all, paragraphs] = await Promise.all([
    findChapters(ctx.db, work.id),
    findParagraphs(ctx.db, work.id),
  ]);
  return { chapters: chapterViews(all, paragraphs) };
}

const sameSegments = (a: BookSegment[], b: BookSegment[]) =>
  a.length === b.length &&
  a.every(
    (s, i) => s.kind === b[i].kind && s.text === b[i].text && (s.speaker ?? null) === (b[i].speaker ?? null),
  );

export async function editParagraph(ctx: AppContext, ownerId: string, body: Body<'audiobookParagraphEdit'>) {
  const work = await getOwnedWork(ctx, ownerId, body.work_id);
  const p = await findParagraph(ctx.db, work.id, body.paragraph_id);
  if (!p) throw AppError.named('err_not_found', '段落不存在');
  const patch: Partial<ParagraphRow> = {};
  let changed = false;
  if (body.segments) {
    const segments = body.segments.filter((s) => s.text.trim());
    if (segments.length === 0) throw AppError.named('err_invalid_param', '段落文字不能为空');
    if (!sameSegments(segments, JSON.parse(p.segments) as BookSegment[])) {
      patch.segments = JSON.stringify(segments);
      changed = true;
    }
  }
  if (body.voice_id !== undefined && (body.voice_id || null) !== p.voice_id) {
    if (body.voice_id) await getUsableVoice(ctx, ownerId, body.voice_id, undefined);
    patch.voice_id = body.voice_id || null;
    changed = true;
  }
  if (changed) {
    patch.text_rev = p.text_rev + 1;
    patch.stale = p.audio_key ? 1 : 0;
    patch.check_status = '';
  }
  if (body.pause_before_ms !== undefined) patch.pause_before_ms = body.pause_before_ms;
  if (body.pause_after_ms !== undefined) patch.pause_after_ms = body.pause_after_ms;
  if (body.locked !== undefined) patch.locked = body.locked ? 1 : 0;
  if (body.take_rev !== undefined) {
    const take = (JSON.parse(p.takes) as Array<Take & { text_rev?: number }>).find(
      (t) => t.rev === body.take_rev,
    );
    if (!take) throw AppError.named('err_not_found', '没有这个历史版本');
    patch.audio_key = take.key;
    patch.audio_rev = take.rev;
    patch.duration_ms = take.duration_ms;
    patch.stale = (take.text_rev ?? p.text_rev) === (patch.text_rev ?? p.text_rev) ? 0 : 1;
  }
  await updateParagraph(ctx.db, p.id, patch);
  await touch(ctx, work.id);
  return { paragraph: await paragraphView(ctx, { ...p, ...patch }) };
}

export async function castVoices(ctx: AppContext, ownerId: string, body: Body<'audiobookCast'>) {
  const work = await getOwnedWork(ctx, ownerId, body.work_id);
  const characters = await findCharacters(ctx.db, work.id);
  let stale = 0;
  if (body.narrator_voice_id && body.narrator_voice_id !== work.narrator_voice_id) {
    await updateWorkInfo(ctx, ownerId, { work_id: work.id, narrator_voice_id: body.narrator_voice_id });
  }
  const changed = new Set<string>();
  for (const c of body.characters) {
    const row = characters.find((x) => x.id === c.character_id);
    if (!row) throw AppError.named('err_not_found', '角色不存在');
    if ((c.voice_id || null) === row.voice_id) continue;
    if (c.voice_id) await getUsableVoice(ctx, ownerId, c.voice_id, undefined);
    await updateCharacter(ctx.db, row.id, c.voice_id || null);
    changed.add(row.name);
  }
  if (changed.size) {
    stale += await markStale(
      ctx,
      work.id,
      (p) =>
        !p.voice_id &&
        (JSON.parse(p.segments) as BookSegment[]).some((s) => s.speaker && changed.has(s.speaker)),
    );
  }
  await touch(ctx, work.id);
  return { characters: (await findCharacters(ctx.db, work.id)).map(characterView), stale_paragraphs: stale };
}

// ---------- tasks ----------

const countChars = (p: ParagraphRow) =>
  Array.from(paragraphText(JSON.parse(p.segments) as BookSegment[]).replace(/\s/g, '')).length;

/** A chapter, several, the whole book, or one paragraph again — as a task holding the credits. */
export async function startSynthesis(ctx: AppContext, ownerId: string, body: Body<'audiobookSynthesize'>) {
  const work = await getOwnedWork(ctx, ownerId, body.work_id);
  let targets: ParagraphRow[];
  if (body.paragraph_id) {
    const p = await findParagraph(ctx.db, work.id, body.paragraph_id);
    if (!p) throw AppError.named('err_not_found', '段落不存在');
    if (p.locked) throw AppError.named('err_invalid_param', '该段落已锁定，请先解锁再重新生成');
    targets = [p];
  } else {
    const chapters = await findChapters(ctx.db, work.id);
    const wanted = body.chapter_ids.length
      ? chapters.filter((c) => body.chapter_ids.includes(c.id))
      : chapters.filter((c) => c.selected === 1);
    if (body.chapter_ids.length && wanted.length !== new Set(body.chapter_ids).size)
      throw AppError.named('err_not_found', '章节不存在');
    const order = new Map(wanted.map((c) => [c.id, c.seq]));
    targets = (
      await findParagraphs(
        ctx.db,
        work.id,
        wanted.map((c) => c.id),
      )
    )
      .filter((p) => !p.locked && !isFresh(p))
      .sort((a, b) => order.get(a.chapter_id)! - order.get(b.chapter_id)! || a.seq - b.seq);
    if (targets.length === 0)
      throw AppError.named('err_invalid_param', '所选章节都已合成且没有过期段落，无需再合成');
  }
  // Every voice the targets need must be usable before anything is held.
  const characters = await findCharacters(ctx.db, work.id);
  const voiceIds = new Set<string>([work.narrator_voice_id]);
  for (const p of targets) if (p.voice_id) voiceIds.add(p.voice_id);
  for (const c of characters) if (c.voice_id) voiceIds.add(c.voice_id);
  for (const v of voiceIds) await getUsableVoice(ctx, ownerId, v, undefined);

  const characterCount = targets.reduce((n, p) => n + countChars(p), 0);
  const credits = await priceTask(ctx, 'audiobook', { characters: characterCount });
  const task = await createTask(ctx, audiobookPipeline, {
    ownerId,
    title: body.paragraph_id ? `${work.title} · 重新生成段落` : `${work.title} · 合成`,
    input: {
      work_id: work.id,
      mode: 'synthesize',
      paragraph_ids: targets.map((p) => p.id),
      force: Boolean(body.paragraph_id),
      check: body.check,
    },
    projectId: work.id,
    credits: { tool: 'audiobook', amount: credits },
  });
  await updateWork(ctx.db, work.id, { task_id: task.id, updated_at: ctx.clock.now() });
  return { task_id: task.id, credits, paragraphs: targets.length };
}

export async function startExport(ctx: AppContext, ownerId: string, body: Body<'audiobookExport'>) {
  const work = await getOwnedWork(ctx, ownerId, body.work_id);
  const chapters = (await findChapters(ctx.db, work.id)).filter((c) => c.selected === 1);
  const paragraphs = await findParagraphs(
    ctx.db,
    work.id,
    chapters.map((c) => c.id),
  );
  if (!paragraphs.some((p) => p.audio_key)) throw AppError.code(3002);
  const task = await createTask(ctx, audiobookPipeline, {
    ownerId,
    title: `${work.title} · 导出 ${body.format.toUpperCase()}`,
    input: {
      work_id: work.id,
      mode: 'export',
      paragraph_ids: [],
      force: false,
      check: false,
      export: {
        format: body.format,
        preset: body.preset,
        subtitles: body.subtitles,
        audiobookshelf: body.audiobookshelf,
      },
    },
    projectId: work.id,
    credits: null,
  });
  await updateWork(ctx.db, work.id, { task_id: task.id, loudness: body.preset, updated_at: ctx.clock.now() });
  return { task_id: task.id };
}

/** The compliance report of an export task (the export stage's result). */
export async function getExportReport(ctx: AppContext, ownerId: string, workId: string, taskId: string) {
  const work = await getOwnedWork(ctx, ownerId, workId);
  const task = await getOwnedTask(ctx, ownerId, taskId);
  if (task.project_id !== work.id) throw AppError.named('err_not_found');
  const stage = await ctx.db
    .selectFrom('task_stages')
    .select('result')
    .where('task_id', '=', task.id)
    .where('name', '=', 'export')
    .executeTakeFirst();
  const result = stage?.result ? (JSON.parse(stage.result) as Record<string, unknown>) : null;
  if (!result || !('report' in result)) throw AppError.named('err_not_found', '导出尚未完成');
  return result as unknown as {
    format: string;
    preset: 'acx' | 'online';
    report: import('@vw/contract').ComplianceEntry[];
    push: { ok: boolean; message: string } | null;
  };
}

export const audiobookAvailability: ToolChecks = {
  audiobook: async (ctx) => {
    const available = ctx.engines.tts.has('espeak') || ctx.engines.tts.list().length > 0;
    return {
      tool: 'audiobook',
      available,
      reason: available ? '' : '有声书暂未开放：没有可用的语音引擎，请联系管理员',
      error_type: available ? '' : 'err_interface_unavailable',
      engines: ctx.engines.tts.list().map((e) => ({ id: e.id, label: e.id })),
    };
  },
};
