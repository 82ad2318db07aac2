import { z } from 'zod';
import { defineCall } from '../call.ts';
import { selfCheckFigures, sentenceCheck } from './tasks.ts';

export * from '../constants/tts.ts';

/*
 * Text to speech and the voice library (spec §2 /tts and /voices, §3, §6, §7).
 * Times are unix seconds unless a field says `_ms`.
 */

// ---------------------------------------------------------------- voices and models

export const VoiceGender = z.enum(['female', 'male']);
export const VoiceAge = z.enum(['child', 'young', 'middle', 'old']);

export const voiceLabels = z.object({
  /** Comma list, e.g. 'female' or 'female,male'. */
  gender: z.string(),
  /** Language code, e.g. 'zh-CN', 'yue', 'en-US'. */
  language: z.string(),
  /** 'child' | 'young' | 'middle' | 'old' */
  age: z.string(),
  /** Accent or dialect in words, e.g. '普通话', '粤语', '美式'. */
  accent: z.string(),
  /** Comma list of style words, e.g. '温柔,亲切'. */
  style: z.string(),
  /** Comma list of use cases, e.g. '旁白,有声书'. */
  use_case: z.string(),
});
export type VoiceLabels = z.infer<typeof voiceLabels>;

export const voice = z.object({
  voice_id: z.string(),
  name: z.string(),
  /** Engine id: 'espeak' | 'sherpa-onnx' | 'openai-compatible'. */
  engine: z.string(),
  /** Honest engine label shown on the card, e.g. '标准引擎'. */
  engine_label: z.string(),
  /** Main language code (same as labels.language). */
  language: z.string(),
  labels: voiceLabels,
  description: z.string(),
  /** Signed link to a short preview clip (MP3); '' while the clip is still being generated. */
  preview_url: z.string(),
  /** Text of the preview clip. */
  preview_text: z.string(),
  /** Lowest plan level that may use it (100 = everyone, 300 = premium). */
  required_level: z.number().int(),
  is_disabled: z.boolean(),
  status: z.number().int(),
  is_favorite: z.boolean(),
  /** Models this voice can be spoken with (the first is its default). */
  model_ids: z.array(z.string()),
  /** 'builtin' (catalogue) or 'mine' (the user's own voices, e.g. clones of a later issue). */
  category: z.enum(['builtin', 'mine']),
  sort: z.number().int(),
});
export type Voice = z.infer<typeof voice>;

/** `status=2`, `status=[2]` (repeated `status=2&status=3`) or `status=2,3` all work. */
const intList = z.preprocess((v) => {
  if (v === undefined || v === '') return undefined;
  const items = Array.isArray(v) ? v : [v];
  return items.flatMap((x) =>
    String(x)
      .replace(/[[\]\s]/g, '')
      .split(',')
      .filter(Boolean)
      .map(Number),
  );
}, z.array(z.number().int()).optional());
const boolFlag = z.preprocess(
  (v) =>
    v === 'true' || v === '1' || v === true ? true : v === 'false' || v === '0' || v === false ? false : v,
  z.boolean().optional(),
);

export const getAllVoices = defineCall({
  operationId: 'getAllVoices',
  method: 'GET',
  path: '/p1/voices/internal_get_all_voices',
  summary: '声音库：全部声音（按状态过滤；含收藏标记与预听链接）',
  tags: ['voices'],
  auth: 'user',
  query: z.object({
    /** Status filter, default [2] (published). */
    status: intList,
    /** true drops disabled voices; false (the web's value) keeps them, marked is_disabled. */
    legacy_voice_skip_disabled: boolFlag,
  }),
  data: z.object({ voices: z.array(voice) }),
});

export const getDefaultVoice = defineCall({
  operationId: 'getDefaultVoice',
  method: 'GET',
  path: '/p1/voices/get_default_voice',
  summary: '各工具的默认声音（tts、audiobook、dubbing…）',
  tags: ['voices'],
  auth: 'user',
  data: z.object({ default_voice_map: z.record(z.string(), z.string()) }),
});

export const modelLanguage = z.object({ language_id: z.string(), name: z.string() });

export const model = z.object({
  model_id: z.string(),
  name: z.string(),
  description: z.string(),
  engine: z.string(),
  languages: z.array(modelLanguage),
  /** Longest text (characters) one request may have on this model for the user's plan. */
  max_text_length: z.number().int(),
  capabilities: z.object({
    /** 'word' or 'sentence': finest subtitle timing. */
    timings: z.enum(['word', 'sentence']),
    streaming: z.boolean(),
    /** Pronunciation dictionary and polyphone correction apply. */
    dictionary: z.boolean(),
    pitch: z.boolean(),
    pauses: z.boolean(),
    cloning: z.boolean(),
  }),
});
export type Model = z.infer<typeof model>;

export const getSupportedModel = defineCall({
  operationId: 'getSupportedModel',
  method: 'GET',
  path: '/p1/voices/get_supported_model',
  summary: '可用的语音模型（仅已配置的引擎）与多语种模型 id',
  tags: ['voices'],
  auth: 'user',
  data: z.object({ models: z.array(model), multilingual_model_id: z.string() }),
});

export const languageIcon = z.object({
  language_code: z.string(),
  /** Display name, e.g. '普通话'. */
  name: z.string(),
  /** An emoji flag or an `data:image/svg+xml,…` URL. */
  icon: z.string(),
});
export type LanguageIcon = z.infer<typeof languageIcon>;

export const getLanguageIcon = defineCall({
  operationId: 'getLanguageIcon',
  method: 'GET',
  path: '/v1/misc/get_language_icon',
  summary: '语言图标',
  tags: ['voices'],
  auth: 'user',
  data: z.object({ language: z.array(languageIcon) }),
});

export const favorVoice = defineCall({
  operationId: 'favorVoice',
  method: 'POST',
  path: '/p1/voices/favor_voice',
  summary: '收藏 / 取消收藏声音',
  tags: ['voices'],
  auth: 'user',
  body: z.object({ voice_id: z.string().min(1).max(100), favor: z.boolean() }),
  data: z.object({ voice_id: z.string(), is_favorite: z.boolean() }),
});

// ---------------------------------------------------------------- synthesis

export const TtsFormat = z.enum(['mp3', 'wav']);
export type TtsFormat = z.infer<typeof TtsFormat>;

export const ttsGenerateBody = z.object({
  /**
   * The text, with the editor markup (`<break time="500ms"/>`, `<phoneme ph="hang2">行</phoneme>`; see
   * helpers/tts-markup). Limits count `countTtsCharacters`.
   */
  text: z.string().min(1).max(1_500_000),
  /** MD5 of `text` (spec §3); optional, the server computes it (a wrong one is refused). */
  text_md5: z.string().length(32).optional(),
  voice_id: z.string().min(1).max(100),
  /** Empty or omitted: the voice's default model. */
  model_id: z.string().max(100).optional(),
  /** Rate multiplier (speedStepToRate of the -5..5 steps); 2 decimals go into the cache key. */
  speed: z.number().min(0.5).max(2).default(1),
  /** Semitones, -12..12. */
  pitch: z.number().int().min(-12).max(12).default(0),
  /** Gain in dB, -20..10. */
  volume: z.number().min(-20).max(10).default(0),
  format: TtsFormat.default('mp3'),
  /** History title; default the first 20 characters of the text. */
  name: z.string().max(100).optional(),
  /**
   * 'auto': stream audio up to TTS_SYNC_MAX_CHARS, a task above. 'stream': always stream (up to the plan
   * limit). 'task': always a task (answers {task_id}).
   */
  mode: z.enum(['auto', 'stream', 'task']).default('auto'),
  /** Skip the cache and synthesise again (charged). */
  no_cache: z.boolean().default(false),
});
export type TtsGenerateBody = z.input<typeof ttsGenerateBody>;

/** What a task-mode synthesis answers (a streamed synthesis answers audio bytes instead). */
export const ttsTaskStarted = z.object({
  task_id: z.string(),
  history_id: z.string(),
  /** Credits held for the task (0 on a cache hit, which answers an already finished task). */
  credits: z.number(),
  cache_hit: z.boolean(),
});

export const ttsGenerate = defineCall({
  operationId: 'ttsGenerate',
  method: 'POST',
  path: '/v1/tts/generate',
  summary:
    '文字转语音。短文本（mode auto 且不超过 3000 字，或 mode stream）直接以音频流应答（Content-Type audio/mpeg 或 audio/wav，响应头 x-history-id / x-cache-hit / x-credits / x-characters）；长文本或 mode task 应答 {task_id}，用 ttsTaskStatus 查询进度。出错时应答通常的 JSON 信封。',
  tags: ['tts'],
  auth: 'user',
  body: ttsGenerateBody,
  data: ttsTaskStarted,
});

export const TtsItemStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const ttsSentence = z.object({
  index: z.number().int(),
  /** The sentence as written (markup included). */
  text: z.string(),
  /** Offsets into the history item's text. */
  start: z.number().int(),
  end: z.number().int(),
  start_ms: z.number(),
  end_ms: z.number(),
  /** The speech self-check of this sentence, when a recognizer heard it. */
  check: sentenceCheck.optional(),
});
export type TtsSentence = z.infer<typeof ttsSentence>;

export const historyFile = z.object({
  /** Pass as `name` to file_download_urlbyname. */
  name: z.string(),
  kind: z.enum(['audio', 'srt']),
  format: z.enum(['mp3', 'wav', 'srt']),
  size: z.number().int(),
});

export const historyItem = z.object({
  history_id: z.string(),
  tool: z.string(),
  name: z.string(),
  text: z.string(),
  text_md5: z.string(),
  voice_id: z.string(),
  voice_name: z.string(),
  model_id: z.string(),
  speed: z.number(),
  pitch: z.number(),
  volume: z.number(),
  format: TtsFormat,
  characters: z.number().int(),
  credits: z.number(),
  status: TtsItemStatus,
  /** 0–100 */
  progress: z.number(),
  /** TtsFailureCode when failed. */
  failure_code: z.number().int().nullable(),
  error: z.string().nullable(),
  task_id: z.string().nullable(),
  duration_ms: z.number(),
  /** The text or settings were edited after the audio was made (generate again to refresh it). */
  is_stale: z.boolean(),
  files: z.array(historyFile),
  /** Signed playback links (1 hour), '' until there is audio. */
  audio_url: z.string(),
  srt_url: z.string(),
  /** Only when one item is asked for (history_id) — sentence timings for the player and regeneration. */
  sentences: z.array(ttsSentence).optional(),
  /** Figures of the speech self-check; ran false when no recognizer was installed. Null before it existed. */
  self_check: selfCheckFigures.nullable().optional(),
  created_time: z.number().int(),
  updated_time: z.number().int(),
});
export type HistoryItem = z.infer<typeof historyItem>;

export const ttsTaskStatus = defineCall({
  operationId: 'ttsTaskStatus',
  method: 'GET',
  path: '/v1/tts/task',
  summary: '长文本合成任务的进度与结果',
  tags: ['tts'],
  auth: 'user',
  query: z.object({ task_id: z.string().min(1).max(64) }),
  data: z.object({
    task_id: z.string(),
    status: TtsItemStatus,
    progress: z.number(),
    sentences_done: z.number().int(),
    sentences_total: z.number().int(),
    failure_code: z.number().int().nullable(),
    error: z.string().nullable(),
    item: historyItem,
  }),
});

export const ttsRegenerateSentence = defineCall({
  operationId: 'ttsRegenerateSentence',
  method: 'POST',
  path: '/v1/tts/regenerate_sentence',
  summary: '重新生成一句：用（改过的）文字与当前词典重合成该句并替换进原音频，按该句字数计费',
  tags: ['tts'],
  auth: 'user',
  body: z.object({
    history_id: z.string().min(1).max(64),
    sentence_index: z.number().int().min(0),
    /** New text of the sentence (markup allowed); omitted: the same text again. */
    text: z.string().min(1).max(2000).optional(),
  }),
  data: z.object({ item: historyItem, credits: z.number() }),
});

// ---------------------------------------------------------------- history

export const getHistory = defineCall({
  operationId: 'getHistory',
  method: 'GET',
  path: '/p1/history/get',
  summary: '生成历史（分页，按工具；给 history_id 时只返回该条并带句子时间）',
  tags: ['history'],
  auth: 'user',
  query: z.object({
    tool: z.string().max(32).default('tts'),
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
    history_id: z.string().max(64).optional(),
  }),
  data: z.object({ total: z.number().int(), list: z.array(historyItem) }),
});

export const editHistory = defineCall({
  operationId: 'editHistory',
  method: 'POST',
  path: '/p1/history/edit',
  summary: '修改历史：重命名，或保存改过的文字/设置（音频不变，标记为待重新生成）',
  tags: ['history'],
  auth: 'user',
  body: z.object({
    history_id: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(100).optional(),
    text: z.string().min(1).max(1_500_000).optional(),
    voice_id: z.string().min(1).max(100).optional(),
    model_id: z.string().min(1).max(100).optional(),
    speed: z.number().min(0.5).max(2).optional(),
    pitch: z.number().int().min(-12).max(12).optional(),
    volume: z.number().min(-20).max(10).optional(),
  }),
  data: z.object({ item: historyItem }),
});

export const deleteHistory = defineCall({
  operationId: 'deleteHistory',
  method: 'DELETE',
  path: '/p1/history/delete',
  summary: '删除一条历史及其文件',
  tags: ['history'],
  auth: 'user',
  body: z.object({ history_id: z.string().min(1).max(64) }),
  data: z.object({ deleted: z.number().int() }),
});

export const batchDeleteHistory = defineCall({
  operationId: 'batchDeleteHistory',
  method: 'POST',
  path: '/p1/history/batch_delete',
  summary: '批量删除历史及其文件',
  tags: ['history'],
  auth: 'user',
  body: z.object({ history_ids: z.array(z.string().min(1).max(64)).min(1).max(200) }),
  data: z.object({ deleted: z.number().int() }),
});

export const fileDownloadUrlByName = defineCall({
  operationId: 'fileDownloadUrlByName',
  method: 'POST',
  path: '/v1/misc/file_download_urlbyname',
  summary: '本人文件的签名下载链接（有效期有限）；音频可要求 format wav 转换',
  tags: ['files'],
  auth: 'user',
  body: z.object({
    /** A file name from a history item's `files`. */
    name: z.string().min(1).max(300),
    /** Convert audio on the way (mp3 → wav); omitted: as stored. */
    format: z.enum(['mp3', 'wav', 'srt']).optional(),
    /** Name the browser saves it as (Content-Disposition); default from the history name. */
    file_name: z.string().max(200).optional(),
  }),
  data: z.object({
    url: z.string(),
    file_name: z.string(),
    /** unix seconds */
    expire_time: z.number().int(),
  }),
});

// ---------------------------------------------------------------- pronunciation

export const dictionaryEntry = z.object({
  word: z.string(),
  /** Tone-numbered pinyin, one syllable per character: 'yin2 hang2'. */
  pinyin: z.string(),
  updated_time: z.number().int(),
});
export type DictionaryEntry = z.infer<typeof dictionaryEntry>;

export const listDictionary = defineCall({
  operationId: 'listPronunciationDictionary',
  method: 'GET',
  path: '/v1/tts/dictionary/list',
  summary: '我的发音词典',
  tags: ['tts'],
  auth: 'user',
  data: z.object({ items: z.array(dictionaryEntry) }),
});

export const upsertDictionary = defineCall({
  operationId: 'upsertPronunciationDictionary',
  method: 'POST',
  path: '/v1/tts/dictionary/upsert',
  summary: '添加或修改词典条目（词 → 带声调数字的拼音，每字一个音节）',
  tags: ['tts'],
  auth: 'user',
  body: z.object({
    word: z.string().trim().min(1).max(20),
    /** 'hang2' / 'yin2 hang2'; the syllable count must equal the word's character count. */
    pinyin: z.string().trim().min(2).max(200),
  }),
  data: z.object({ item: dictionaryEntry }),
});

export const deleteDictionary = defineCall({
  operationId: 'deletePronunciationDictionary',
  method: 'POST',
  path: '/v1/tts/dictionary/delete',
  summary: '删除词典条目',
  tags: ['tts'],
  auth: 'user',
  body: z.object({ word: z.string().trim().min(1).max(20) }),
  data: z.object({ deleted: z.number().int() }),
});

export const characterReading = z.object({
  /** The character (or a whole dictionary word). */
  text: z.string(),
  /** UTF-16 offsets in the plain text sent. */
  start: z.number().int(),
  end: z.number().int(),
  /** The reading that will be spoken. */
  pinyin: z.string(),
  /** Every reading of the character; more than one means a polyphone the editor may offer. */
  candidates: z.array(z.string()),
  /** The reading comes from the user's dictionary. */
  from_dictionary: z.boolean(),
});
export type CharacterReading = z.infer<typeof characterReading>;

/** How a number, date, unit or Latin word of the text is read by Chinese voices (the text stays as written). */
export const spokenReading = z.object({
  kind: z.string(),
  /** UTF-16 offsets in the plain text sent. */
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
  /** What is said: 2024年 → 二〇二四年, AI → A I (spelled). */
  spoken: z.string(),
});
export type SpokenReading = z.infer<typeof spokenReading>;

export const getReadings = defineCall({
  operationId: 'getPolyphoneReadings',
  method: 'POST',
  path: '/v1/tts/readings',
  summary: '多音字助手：每个汉字的读音（已套用我的词典）与可选读音',
  tags: ['tts'],
  auth: 'user',
  body: z.object({ text: z.string().min(1).max(5000) }),
  data: z.object({ readings: z.array(characterReading), spoken: z.array(spokenReading) }),
});
