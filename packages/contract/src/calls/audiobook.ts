import { z } from 'zod';
import { defineCall } from '../call.ts';
import { sentenceCheck } from './tasks.ts';

/*
 * Audiobooks (issue 19, pages /audio-book and /audio-book/work/:id): a book file uploaded through the
 * resumable uploader becomes a work (chapters, paragraphs with speakers, characters); paragraphs are
 * synthesised by a task (tool `audiobook`) with the narrator's or a character's voice, then exported
 * (MP3 per chapter in a ZIP, one MP3, or M4B with chapters) with a loudness preset and its report.
 * Codes of spec §8: 3000 file check failed, 3001 no extractable text, 3002 nothing synthesised yet.
 */

const id = z.string().min(1).max(64);

export const loudnessPreset = z.enum(['acx', 'online']);
export type LoudnessPreset = z.infer<typeof loudnessPreset>;

export const bookSegment = z.object({
  kind: z.enum(['narration', 'quote']),
  text: z.string().max(20_000),
  /** The speaking character of a quote (a name of the work's character list) or null (narrator). */
  speaker: z.string().max(60).nullable(),
});
export type BookSegment = z.infer<typeof bookSegment>;

export const workSummary = z.object({
  work_id: z.string(),
  title: z.string(),
  author: z.string(),
  narrator: z.string(),
  description: z.string(),
  /** Signed link of the cover image, '' when the book has none. */
  cover_url: z.string(),
  format: z.string(),
  chapters_total: z.number(),
  /** Selected chapters whose paragraphs all have fresh audio. */
  chapters_done: z.number(),
  duration_ms: z.number(),
  characters: z.number(),
  narrator_voice_id: z.string(),
  loudness: loudnessPreset,
  /** The latest synthesis or export task ('' when none). */
  task_id: z.string(),
  /** Which made the speaker attribution: '规则' or '语言模型 · <model>'. */
  attribution: z.string(),
  created_time: z.number(),
  updated_time: z.number(),
});
export type AudiobookWork = z.infer<typeof workSummary>;

export const chapterView = z.object({
  chapter_id: z.string(),
  seq: z.number(),
  title: z.string(),
  selected: z.boolean(),
  /**
   * 'chapter', or front/back matter found at import (序/前言 'preface', 后记/跋 'afterword', 注释/附录
   * 'notes'): marked so it can be left out; notes start unselected.
   */
  kind: z.enum(['chapter', 'preface', 'afterword', 'notes']),
  /** pending: no audio; partial: some paragraphs missing or stale; done: every paragraph fresh. */
  status: z.enum(['pending', 'partial', 'done']),
  paragraphs: z.number(),
  paragraphs_done: z.number(),
  characters: z.number(),
  duration_ms: z.number(),
  /** First words, for the preview. */
  preview: z.string(),
});
export type AudiobookChapter = z.infer<typeof chapterView>;

export const characterView = z.object({
  character_id: z.string(),
  name: z.string(),
  lines: z.number(),
  gender: z.enum(['male', 'female', 'unknown']),
  /** '' = the narrator's voice. */
  voice_id: z.string(),
});
export type AudiobookCharacter = z.infer<typeof characterView>;

export const takeView = z.object({
  rev: z.number(),
  url: z.string(),
  duration_ms: z.number(),
  created_time: z.number(),
  engine: z.string(),
  /** The speech self-check of the take (its sentences together), when a recognizer heard it. */
  check: sentenceCheck.optional(),
});

export const paragraphView = z.object({
  paragraph_id: z.string(),
  chapter_id: z.string(),
  seq: z.number(),
  segments: z.array(bookSegment),
  voice_id: z.string(),
  pause_before_ms: z.number(),
  pause_after_ms: z.number(),
  text_rev: z.number(),
  audio_rev: z.number(),
  /** Signed link of the current audio (WAV), '' when none. */
  audio_url: z.string(),
  duration_ms: z.number(),
  /** The text, speaker or voice changed after the audio was made. */
  stale: z.boolean(),
  locked: z.boolean(),
  check: z.enum(['', 'passed', 'flagged']),
  /** What the recognizer heard in the current audio, when it was checked (shown beside a flagged paragraph). */
  heard: z.string().optional(),
  takes: z.array(takeView),
});
export type AudiobookParagraph = z.infer<typeof paragraphView>;

const uploadRef = z.union([
  /** tus: the upload URL (or its last path segment). */
  z.object({ tus_upload: z.string().min(1).max(512) }),
  /** S3: the multipart upload and the ETag of every part. */
  z.object({
    upload_id: z.string().min(1).max(1024),
    parts: z.array(z.object({ part_number: z.number().int().min(1), etag: z.string().max(256) })).min(1),
  }),
]);

export const audiobookImport = defineCall({
  operationId: 'audiobookImport',
  method: 'POST',
  path: '/v1/audiobook/import',
  summary: '有声书：导入书籍文件（TXT/EPUB/DOCX/Markdown/PDF）',
  tags: ['audiobook'],
  auth: 'user',
  body: uploadRef,
  data: z.object({ work: workSummary }),
});

export const audiobookList = defineCall({
  operationId: 'audiobookList',
  method: 'GET',
  path: '/v1/audiobook/list',
  summary: '有声书：作品列表',
  tags: ['audiobook'],
  auth: 'user',
  query: z.object({
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  data: z.object({ total: z.number(), list: z.array(workSummary) }),
});

export const audiobookGet = defineCall({
  operationId: 'audiobookGet',
  method: 'GET',
  path: '/v1/audiobook/get',
  summary: '有声书：作品详情（章节、角色）',
  tags: ['audiobook'],
  auth: 'user',
  query: z.object({ work_id: id }),
  data: z.object({ work: workSummary, chapters: z.array(chapterView), characters: z.array(characterView) }),
});

export const audiobookParagraphs = defineCall({
  operationId: 'audiobookParagraphs',
  method: 'GET',
  path: '/v1/audiobook/paragraphs',
  summary: '有声书：一章的段落',
  tags: ['audiobook'],
  auth: 'user',
  query: z.object({ work_id: id, chapter_id: id }),
  data: z.object({ list: z.array(paragraphView) }),
});

export const audiobookDelete = defineCall({
  operationId: 'audiobookDelete',
  method: 'POST',
  path: '/v1/audiobook/delete',
  summary: '有声书：删除作品及其音频',
  tags: ['audiobook'],
  auth: 'user',
  body: z.object({ work_id: id }),
  data: z.object({ deleted: z.number() }),
});

export const audiobookUpdate = defineCall({
  operationId: 'audiobookUpdate',
  method: 'POST',
  path: '/v1/audiobook/update',
  summary: '有声书：书籍信息与旁白声音',
  tags: ['audiobook'],
  auth: 'user',
  body: z.object({
    work_id: id,
    title: z.string().trim().min(1).max(200).optional(),
    author: z.string().trim().max(200).optional(),
    narrator: z.string().trim().max(200).optional(),
    description: z.string().trim().max(4000).optional(),
    narrator_voice_id: z.string().min(1).max(64).optional(),
    loudness: loudnessPreset.optional(),
    /** A cover image, JPEG or PNG (base64, at most 2 MB), checked by its bytes. */
    cover_base64: z.string().max(2_800_000).optional(),
  }),
  data: z.object({ work: workSummary }),
});

export const audiobookChapterEdit = defineCall({
  operationId: 'audiobookChapterEdit',
  method: 'POST',
  path: '/v1/audiobook/chapter_edit',
  summary: '有声书：章节重命名、合并、拆分、选择',
  tags: ['audiobook'],
  auth: 'user',
  body: z.discriminatedUnion('action', [
    z.object({
      action: z.literal('rename'),
      work_id: id,
      chapter_id: id,
      title: z.string().trim().min(1).max(200),
    }),
    /** Joins the chapter with the next one (paragraphs kept in order, audio kept). */
    z.object({ action: z.literal('merge'), work_id: id, chapter_id: id }),
    /** A new chapter starts at this paragraph. */
    z.object({
      action: z.literal('split'),
      work_id: id,
      paragraph_id: id,
      title: z.string().trim().min(1).max(200).optional(),
    }),
    z.object({
      action: z.literal('select'),
      work_id: id,
      chapter_ids: z.array(id).max(5000),
      selected: z.boolean(),
    }),
  ]),
  data: z.object({ chapters: z.array(chapterView) }),
});

export const audiobookParagraphEdit = defineCall({
  operationId: 'audiobookParagraphEdit',
  method: 'POST',
  path: '/v1/audiobook/paragraph_edit',
  summary: '有声书：段落文字、说话人、声音、停顿、锁定、选用历史版本',
  tags: ['audiobook'],
  auth: 'user',
  body: z.object({
    work_id: id,
    paragraph_id: id,
    /** New text and speakers (marks the audio stale when they change). */
    segments: z.array(bookSegment).min(1).max(200).optional(),
    /** '' = back to the casting. */
    voice_id: z.string().max(64).optional(),
    pause_before_ms: z.number().int().min(0).max(10_000).optional(),
    pause_after_ms: z.number().int().min(0).max(10_000).optional(),
    locked: z.boolean().optional(),
    /** Use an earlier take as the current audio. */
    take_rev: z.number().int().min(1).optional(),
  }),
  data: z.object({ paragraph: paragraphView }),
});

export const audiobookCast = defineCall({
  operationId: 'audiobookCast',
  method: 'POST',
  path: '/v1/audiobook/cast',
  summary: '有声书：旁白与角色配音（声音库与克隆声音）',
  tags: ['audiobook'],
  auth: 'user',
  body: z.object({
    work_id: id,
    narrator_voice_id: z.string().min(1).max(64).optional(),
    /** voice_id '' = the narrator's voice. */
    characters: z
      .array(z.object({ character_id: id, voice_id: z.string().max(64) }))
      .max(500)
      .default([]),
  }),
  data: z.object({ characters: z.array(characterView), stale_paragraphs: z.number() }),
});

export const audiobookPronunciationChanged = defineCall({
  operationId: 'audiobookPronunciationChanged',
  method: 'POST',
  path: '/v1/audiobook/pronunciation',
  summary: '有声书：发音词典改了某个词后，把含这个词的段落标为过期',
  tags: ['audiobook'],
  auth: 'user',
  /** Call after `upsertPronunciationDictionary` / `deletePronunciationDictionary` for this word. */
  body: z.object({ work_id: id, word: z.string().trim().min(1).max(20) }),
  /** Paragraphs containing the word (their text_rev bumped); stale_paragraphs counts those with audio. */
  data: z.object({ paragraph_ids: z.array(z.string()), stale_paragraphs: z.number() }),
});

export const audiobookSynthesize = defineCall({
  operationId: 'audiobookSynthesize',
  method: 'POST',
  path: '/v1/audiobook/synthesize',
  summary: '有声书：合成章节 / 全书 / 重新生成一段（异步任务）',
  tags: ['audiobook'],
  auth: 'user',
  body: z.object({
    work_id: id,
    /** Chapters to synthesise; empty = every selected chapter (the whole book). */
    chapter_ids: z.array(id).max(5000).default([]),
    /** Regenerate this paragraph only (a new take even when its audio is fresh; not when locked). */
    paragraph_id: id.optional(),
    /**
     * Automatic check when a speech-to-text engine is configured: each paragraph recognised and
     * compared, made again when it differs (≤ 2 times), then flagged (failure code 5 for that paragraph,
     * its characters refunded); the task succeeds with the rest.
     */
    check: z.boolean().default(true),
  }),
  data: z.object({ task_id: z.string(), credits: z.number(), paragraphs: z.number() }),
});

export const exportFormat = z.enum(['m4b', 'mp3', 'zip']);
export type AudiobookExportFormat = z.infer<typeof exportFormat>;

export const audiobookExport = defineCall({
  operationId: 'audiobookExport',
  method: 'POST',
  path: '/v1/audiobook/export',
  summary: '有声书：导出（M4B 带章节 / 单个 MP3 / 每章 MP3 的 ZIP；ACX 或网络响度）',
  tags: ['audiobook'],
  auth: 'user',
  body: z.object({
    work_id: id,
    format: exportFormat.default('m4b'),
    preset: loudnessPreset.default('acx'),
    /** Read-along subtitles per chapter. */
    subtitles: z.enum(['none', 'srt', 'lrc']).default('none'),
    /** Optional push of the M4B to an Audiobookshelf server. */
    audiobookshelf: z
      .object({
        url: z.string().url().max(500),
        token: z.string().min(1).max(2000),
        library_id: z.string().min(1).max(100),
        folder_id: z.string().max(100).optional(),
      })
      .optional(),
  }),
  data: z.object({ task_id: z.string() }),
});

/** One file's loudness figures (measured by ffmpeg on the exported file) and the ACX verdict. */
export const complianceEntry = z.object({
  file: z.string(),
  rms_db: z.number(),
  peak_db: z.number(),
  noise_floor_db: z.number(),
  /** EBU R128 integrated loudness (the online preset; null for ACX). */
  lufs: z.number().nullable(),
  bitrate_kbps: z.number(),
  sample_rate: z.number(),
  duration_ms: z.number(),
  passed: z.boolean(),
  problems: z.array(z.string()),
});
export type ComplianceEntry = z.infer<typeof complianceEntry>;

export const audiobookExportReport = defineCall({
  operationId: 'audiobookExportReport',
  method: 'GET',
  path: '/v1/audiobook/export_report',
  summary: '有声书：导出文件的响度合规报告（ffmpeg 实测）',
  tags: ['audiobook'],
  auth: 'user',
  query: z.object({ work_id: id, task_id: id }),
  data: z.object({
    format: z.string(),
    preset: loudnessPreset,
    report: z.array(complianceEntry),
    push: z.object({ ok: z.boolean(), message: z.string() }).nullable(),
  }),
});
