import { z } from 'zod';
import { defineCall } from '../call.ts';
import { dubOptions, subtitleFile } from './dubbing.ts';
import { filterEraseMethod } from './erase.ts';
import { box } from './ocr.ts';
import { DubOutput, subtitleStyle, translationPreferences } from './projects.ts';

/*
 * Video translation (tool `translate`, tab 视频翻译, issue 18): a video → subtitles (speech
 * recognition, on-screen recognition or an uploaded file) → smart splitting (智能字幕断句) → summary +
 * translation by the configured language model (preferences, glossary, context) → back-translation with
 * drift flags (智能回译校对) → optional review pauses → optional erasing of the original subtitles →
 * dubbing of the translation (timing fit, per-speaker voices) → mix → render (target / bilingual / no
 * subtitles, burned or soft) → Web Push `video-edit`. One project and one task per target language;
 * the project opens in the editor (/video-translation/editor?id=). Needs the `video_translate` switch.
 * Priced as `video_translation` per started minute of the video, per target language.
 * Line actions refuse a project that is not the caller's or not a translation with
 * err_dubbing_task_not_found.
 */

export { translationPreferences };
export type TranslationPreferences = z.infer<typeof translationPreferences>;

/** One glossary entry: `translation` null = do not translate (the term is kept as it is). */
export const glossaryEntry = z.object({
  term: z.string().trim().min(1).max(100),
  translation: z.string().trim().max(200).nullable(),
});
export type GlossaryEntry = z.infer<typeof glossaryEntry>;

export const languageOption = z.object({
  /** e.g. en, ja, zh-Hant. */
  code: z.string(),
  /** Chinese name, e.g. 英语. */
  name: z.string(),
});
export type LanguageOption = z.infer<typeof languageOption>;

export const videoTranslationLanguages = defineCall({
  operationId: 'videoTranslationLanguages',
  method: 'GET',
  path: '/v1/video-translation/languages',
  summary: '视频翻译：可选的源语言与目标语言、语言模型与口型同步是否可用',
  tags: ['video-translation'],
  auth: 'user',
  data: z.object({
    /** Recognition languages ('auto' first). */
    source: z.array(languageOption),
    /** TRANSLATE_TARGET_LANGUAGES, in that order. */
    target: z.array(languageOption),
    /** The language model (LLM_BASE_URL + LLM_MODEL): without it translation is manual in the editor. */
    llm: z.object({ configured: z.boolean(), model: z.string(), reason: z.string() }),
    /** LLM_EMBEDDING_MODEL on the same base URL: drift by embedding similarity, else by token overlap. */
    embedding: z.object({ configured: z.boolean(), model: z.string() }),
    /** LIPSYNC_URL: hidden in the wizard when false. */
    lip_sync: z.object({ available: z.boolean(), reason: z.string() }),
    /** Speech recognition configured (subtitle source `asr`). */
    asr: z.object({ available: z.boolean(), reason: z.string() }),
    /** On-screen recognition engine label (subtitle source `ocr`), e.g. PP-OCRv4. */
    ocr_label: z.string(),
    /**
     * dub.clone_speakers: available when voice_clone_switch is on and a cloning engine is configured;
     * engine_label names the engine the clones are made with (e.g. the fitted standard voice), reason
     * says why not.
     */
    clone: z.object({ available: z.boolean(), reason: z.string(), engine_label: z.string().optional() }),
  }),
});

/** The subtitles of the output: target only, target + source (bilingual), none; burned or soft. */
export const translationSubtitles = z.object({
  lines: z.enum(['target', 'bilingual', 'none']).default('bilingual'),
  mode: z.enum(['burn', 'soft']).default('burn'),
  style: subtitleStyle.partial().optional(),
});
export type TranslationSubtitles = z.infer<typeof translationSubtitles>;

export const translationBody = z.object({
  asset_id: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(100).optional(),
  /** Language of the video ('auto' to detect). */
  source_language: z.string().min(2).max(16).default('auto'),
  /** One project and task per target; each must be in TRANSLATE_TARGET_LANGUAGES. */
  target_languages: z.array(z.string().min(2).max(16)).min(1).max(5),
  /** Where the subtitles come from. */
  subtitle_source: z.enum(['asr', 'ocr', 'subtitle']).default('asr'),
  /** For `ocr`: the subtitle regions to read; detected automatically when omitted. */
  ocr_regions: z.array(box).min(1).max(4).optional(),
  /** For `subtitle`: the uploaded file (SRT/VTT/ASS as text). */
  subtitle: subtitleFile.optional(),
  /** 智能字幕断句: re-segment the recognised text into readable cues before translating. */
  split: z.boolean().default(true),
  /** Omitted → the user's saved preferences. */
  preferences: translationPreferences.optional(),
  /** Apply the user's glossary. */
  use_glossary: z.boolean().default(true),
  /** Pause (task status `paused`) for a check in the editor; continue with videoTranslationContinue. */
  review: z
    .object({
      after_recognition: z.boolean().default(false),
      after_translation: z.boolean().default(false),
    })
    .default({ after_recognition: false, after_translation: false }),
  /** Erase the original burned-in subtitles (regions: the OCR regions, else detected). Needs `subtitle_erase`. */
  erase: z
    .object({
      enabled: z.boolean().default(false),
      regions: z.array(box).min(1).max(4).optional(),
      method: filterEraseMethod.default('fast'),
    })
    .default({ enabled: false, method: 'fast' }),
  /** Speak the translation (timing fit as in AI配音). */
  dub: z
    .object({
      enabled: z.boolean().default(true),
      /** Omitted → the platform's default voice for video translation. */
      default_voice_id: z.string().min(1).max(64).optional(),
      /** Speaker name → voice id (else the voice the user gave that name before, else the default). */
      speaker_voices: z.record(z.string().max(64), z.string().max(64)).default({}),
      /**
       * Clone each speaker without a chosen voice (or the whole video's voice when there are no
       * speakers) from this video's speech: a fast clone of the user (quota), see languages().clone.
       */
      clone_speakers: z.boolean().default(false),
      /**
       * Required with clone_speakers: the user ticked 「我确认拥有该视频中说话人声音的使用授权」 (kept
       * with each clone as its consent), else err_invalid_param.
       */
      clone_consent: z.literal(true).optional(),
      options: dubOptions
        .pick({ background: true, loudness: true, accept_rate: true, max_rate: true, condense: true })
        .default({}),
    })
    .default({ enabled: true, speaker_voices: {}, clone_speakers: false, options: {} }),
  subtitles: translationSubtitles.default({ lines: 'bilingual', mode: 'burn' }),
  /** 口型同步 through LIPSYNC_URL (needs the `lip_sync` switch). */
  lip_sync: z.boolean().default(false),
});
export type TranslationBody = z.infer<typeof translationBody>;

export const videoTranslationEstimate = defineCall({
  operationId: 'videoTranslationEstimate',
  method: 'POST',
  path: '/v1/video-translation/estimate',
  summary: '视频翻译：预估积分（每个目标语言一个任务）',
  tags: ['video-translation'],
  auth: 'user',
  body: translationBody,
  data: z.object({
    credits: z.number(),
    per_target: z.number(),
    seconds: z.number().int(),
    balance: z.number(),
    sufficient: z.boolean(),
  }),
});

export const videoTranslationCreate = defineCall({
  operationId: 'videoTranslationCreate',
  method: 'POST',
  path: '/v1/video-translation/create',
  summary: '视频翻译：识别 → 断句 → 翻译 → 回译校对 → 擦除 → 配音 → 成片（每个目标语言一个异步任务）',
  tags: ['video-translation'],
  auth: 'user',
  body: translationBody,
  data: z.object({
    /** The first target's task and project (the common single-target case). */
    task_id: z.string(),
    project_id: z.string(),
    credits: z.number(),
    items: z.array(z.object({ target_language: z.string(), task_id: z.string(), project_id: z.string() })),
  }),
});

const projectRef = z.object({ project_id: z.string().min(1).max(64) });
const lineAction = z.object({ task_id: z.string(), credits: z.number(), lines: z.number().int() });

/** Translates lines again (all unlocked lines when cue_ids is omitted); back-translation follows. */
export const videoTranslationRetranslate = defineCall({
  operationId: 'videoTranslationRetranslate',
  method: 'POST',
  path: '/v1/video-translation/retranslate',
  summary: '重新翻译一句或多句（异步任务，之后自动回译校对）',
  tags: ['video-translation'],
  auth: 'user',
  body: projectRef.extend({
    /** Cue ids of the translation track. */
    cue_ids: z.array(z.string().min(1).max(64)).min(1).max(20_000).optional(),
    /** Extra instructions for this run only (e.g. 更口语一些). */
    instructions: z.string().max(500).optional(),
  }),
  data: lineAction,
});

/** Back-translates lines again and scores their drift (all lines when cue_ids is omitted). */
export const videoTranslationBackTranslate = defineCall({
  operationId: 'videoTranslationBackTranslate',
  method: 'POST',
  path: '/v1/video-translation/back-translate',
  summary: '重新回译校对（异步任务）',
  tags: ['video-translation'],
  auth: 'user',
  body: projectRef.extend({
    cue_ids: z.array(z.string().min(1).max(64)).min(1).max(20_000).optional(),
  }),
  data: lineAction,
});

/**
 * Dubs the translation again (dubbing's regenerate semantics): `stale` stale unlocked lines, `line` one
 * line (with an optional one-click fix), `all` every unlocked line, `render` none (erase + mix + render
 * the outputs again, e.g. an export with other subtitles).
 */
export const videoTranslationRedub = defineCall({
  operationId: 'videoTranslationRedub',
  method: 'POST',
  path: '/v1/video-translation/redub',
  summary: '重新配音一句 / 生成过期配音 / 重新渲染导出（异步任务）',
  tags: ['video-translation'],
  auth: 'user',
  body: projectRef.extend({
    scope: z.enum(['stale', 'line', 'all', 'render']),
    cue_id: z.string().min(1).max(64).optional(),
    fix: z.enum(['shorten', 'borrow_gap', 'speed', 'slow_video', 'keep_text']).optional(),
    /** Outputs of the render that follows (the project's when omitted). */
    outputs: z.array(DubOutput).max(7).optional(),
    /** Subtitles of this render (the project's when omitted). */
    subtitles: translationSubtitles.optional(),
  }),
  data: lineAction,
});

/** Continues the project's task paused for review (after recognition or after translation). */
export const videoTranslationContinue = defineCall({
  operationId: 'videoTranslationContinue',
  method: 'POST',
  path: '/v1/video-translation/continue',
  summary: '确认字幕 / 译文后继续',
  tags: ['video-translation'],
  auth: 'user',
  body: projectRef,
  data: z.object({ task_id: z.string() }),
});

export const TranslationExportFormat = z.enum(['srt', 'vtt', 'ass', 'csv', 'txt']);
export type TranslationExportFormat = z.infer<typeof TranslationExportFormat>;

/** Text exports: SRT/VTT/ASS/TXT of source, target or both; CSV speaker,start,end,source,translation. */
export const videoTranslationExport = defineCall({
  operationId: 'videoTranslationExport',
  method: 'POST',
  path: '/v1/video-translation/export',
  summary: '导出字幕（源语言 / 目标语言 / 双语）或 CSV，返回下载链接',
  tags: ['video-translation'],
  auth: 'user',
  body: projectRef.extend({
    format: TranslationExportFormat,
    /** Ignored for CSV (always both). */
    lines: z.enum(['source', 'target', 'bilingual']).default('target'),
  }),
  data: z.object({ url: z.string(), file_name: z.string(), size: z.number().int() }),
});

export const translationPreferencesGet = defineCall({
  operationId: 'translationPreferencesGet',
  method: 'GET',
  path: '/v1/video-translation/preferences',
  summary: '我的翻译偏好（风格、受众、语气、补充要求）',
  tags: ['video-translation'],
  auth: 'user',
  data: z.object({ preferences: translationPreferences }),
});

export const translationPreferencesSave = defineCall({
  operationId: 'translationPreferencesSave',
  method: 'POST',
  path: '/v1/video-translation/preferences',
  summary: '保存翻译偏好（之后的项目默认使用）',
  tags: ['video-translation'],
  auth: 'user',
  body: z.object({ preferences: translationPreferences }),
  data: z.object({ preferences: translationPreferences }),
});

export const glossaryGet = defineCall({
  operationId: 'glossaryGet',
  method: 'GET',
  path: '/v1/video-translation/glossary',
  summary: '我的术语表（术语 → 译法，或不翻译）',
  tags: ['video-translation'],
  auth: 'user',
  data: z.object({ entries: z.array(glossaryEntry), updated_time: z.number().int() }),
});

/** Replaces the whole glossary (terms unique, case-insensitive; the last one wins). */
export const glossarySave = defineCall({
  operationId: 'glossarySave',
  method: 'POST',
  path: '/v1/video-translation/glossary',
  summary: '保存术语表（整体替换，跨项目复用）',
  tags: ['video-translation'],
  auth: 'user',
  body: z.object({ entries: z.array(glossaryEntry).max(2000) }),
  data: z.object({ entries: z.array(glossaryEntry), updated_time: z.number().int() }),
});

/** Speaker name → the voice it got last time (the same name keeps the same voice across projects). */
export const speakerVoicesGet = defineCall({
  operationId: 'speakerVoicesGet',
  method: 'GET',
  path: '/v1/video-translation/speaker-voices',
  summary: '说话人与其配音音色（跨项目沿用）',
  tags: ['video-translation'],
  auth: 'user',
  data: z.object({ voices: z.record(z.string(), z.string()) }),
});
