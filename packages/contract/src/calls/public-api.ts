import { z } from 'zod';
import { PUBLIC_API_BASE } from '../constants/apikeys.ts';
import { apiKeyUsageDay } from './apikeys.ts';
import { ttsGenerateBody, ttsTaskStarted, ttsTaskStatus, voice } from './tts.ts';

/*
 * The public API for API-key holders (issue 8): versioned under /api/v1, separate from the client's
 * calls, authenticated by `X-API-Key: vwk_…` or `Authorization: Bearer vwk_…`. JSON answers use the
 * same {code, msg, data} envelope; errors also carry an OpenAI-style `error` object and a real HTTP
 * status (401 bad key, 402 credits, 404, 422 bad input, 429 limits). Its own OpenAPI document is
 * generated from these definitions.
 */

export interface PublicCallDef {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  body?: z.ZodType;
  query?: z.ZodType;
  /** The `data` of a JSON answer. */
  data?: z.ZodType;
  /** Content types of a binary (audio) answer. */
  audio?: string[];
  /** The answer is not the envelope (OpenAI-compatible routes). */
  raw?: z.ZodType;
  /** A multipart/form-data body: these fields plus the file fields named in `files`. */
  form?: z.ZodType;
  files?: string[];
  /** Content types of a text answer (subtitles, plain text). */
  text?: string[];
}

const def = <T extends PublicCallDef>(d: T) => d;

export const publicTtsBody = ttsGenerateBody.omit({ text_md5: true });

export const publicTts = def({
  operationId: 'publicTts',
  method: 'POST',
  path: `${PUBLIC_API_BASE}/tts`,
  summary: '文字转语音',
  description:
    'mode auto（默认）：不超过 3000 字直接以音频流应答（audio/mpeg 或 audio/wav；响应头 x-history-id、x-credits、x-characters、x-cache-hit），更长的文字作为异步任务应答 {task_id}；mode stream 总是流式；mode task 总是异步（完成后可收到 Webhook 事件 task.succeeded / task.failed）。扣除与工作台相同的积分。',
  tags: ['tts'],
  body: publicTtsBody,
  data: ttsTaskStarted,
  audio: ['audio/mpeg', 'audio/wav'],
});

export const publicTtsTask = def({
  operationId: 'publicTtsTask',
  method: 'GET',
  path: `${PUBLIC_API_BASE}/tts/task`,
  summary: '异步合成任务的进度与结果（item.audio_url 为 1 小时有效的下载链接）',
  tags: ['tts'],
  query: ttsTaskStatus.query,
  data: ttsTaskStatus.data,
});

export const publicVoices = def({
  operationId: 'publicVoices',
  method: 'GET',
  path: `${PUBLIC_API_BASE}/voices`,
  summary: '可用声音列表（voice_id 用于 publicTts 与 /audio/speech 的 voice）',
  tags: ['voices'],
  data: z.object({ voices: z.array(voice) }),
});

export const publicModel = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  name: z.string(),
  description: z.string(),
  languages: z.array(z.string()),
  max_text_length: z.number().int(),
});

export const publicModels = def({
  operationId: 'publicModels',
  method: 'GET',
  path: `${PUBLIC_API_BASE}/models`,
  summary: '语音模型列表（同时是 OpenAI 的 models.list 形状：object=list，data 为模型数组）',
  tags: ['models'],
  data: z.array(publicModel),
});

export const publicBalance = def({
  operationId: 'publicBalance',
  method: 'GET',
  path: `${PUBLIC_API_BASE}/balance`,
  summary: '账户积分余额；key 为当前密钥的额度与已用积分',
  tags: ['account'],
  data: z.object({
    balance: z.number().int(),
    held: z.number().int(),
    level: z.number().int(),
    key: z.object({
      key_id: z.string(),
      credit_limit: z.number().int().nullable(),
      credits_used: z.number().int(),
      /** What this key may still spend (null: up to the balance). */
      credits_remaining: z.number().int().nullable(),
    }),
  }),
});

export const publicUsage = def({
  operationId: 'publicUsage',
  method: 'GET',
  path: `${PUBLIC_API_BASE}/usage`,
  summary: '按密钥统计的用量：当前账户每个密钥的合计，以及当前密钥逐日的请求数、字数与积分',
  tags: ['account'],
  query: z.object({ days: z.coerce.number().int().min(1).max(90).default(30) }),
  data: z.object({
    key_id: z.string(),
    days: z.array(apiKeyUsageDay),
    keys: z.array(
      z.object({
        key_id: z.string(),
        name: z.string(),
        masked_key: z.string(),
        status: z.string(),
        requests: z.number().int(),
        credits_used: z.number().int(),
      }),
    ),
  }),
});

/** OpenAI's `POST /v1/audio/speech` body; `voice` is one of our voice_ids (or an OpenAI voice name). */
export const openaiSpeechBody = z.object({
  model: z.string().min(1).max(100),
  input: z.string().min(1).max(100_000),
  voice: z.string().min(1).max(100),
  response_format: z.enum(['mp3', 'wav', 'opus', 'aac', 'flac', 'pcm']).default('mp3'),
  speed: z.number().min(0.25).max(4).default(1),
  instructions: z.string().max(4096).optional(),
});

export const openaiSpeech = def({
  operationId: 'openaiSpeech',
  method: 'POST',
  path: `${PUBLIC_API_BASE}/audio/speech`,
  summary: 'OpenAI 兼容的语音合成（可用官方 openai SDK，baseURL 设为 <站点>/api/v1）',
  description:
    'model：tts-1 / tts-1-hd / gpt-4o-mini-tts（使用声音的默认模型）或 /models 中的 id；voice：/voices 中的 voice_id，或 OpenAI 声音名（alloy 等，映射到默认中文声音）；response_format 支持 mp3 与 wav；speed 0.5–2。也可通过 /v1/audio/speech 访问。',
  tags: ['openai'],
  body: openaiSpeechBody,
  audio: ['audio/mpeg', 'audio/wav'],
});

export const TRANSCRIPTION_FORMATS = ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const;
export type TranscriptionFormat = (typeof TRANSCRIPTION_FORMATS)[number];

/** The fields of OpenAI's `POST /v1/audio/transcriptions` (multipart; the audio is the `file` part). */
export const openaiTranscriptionForm = z.object({
  model: z.string().min(1).max(100),
  /** ISO 639-1; detected when omitted. */
  language: z.string().min(2).max(16).optional(),
  prompt: z.string().max(4096).optional(),
  response_format: z.enum(TRANSCRIPTION_FORMATS).default('json'),
  temperature: z.coerce.number().min(0).max(1).optional(),
  'timestamp_granularities[]': z
    .array(z.enum(['word', 'segment']))
    .max(2)
    .optional(),
});

/** The answer for response_format json (text only) and verbose_json (times in seconds). */
export const openaiTranscriptionAnswer = z.union([
  z.object({ text: z.string() }),
  z.object({
    task: z.literal('transcribe'),
    language: z.string(),
    duration: z.number(),
    text: z.string(),
    segments: z
      .array(z.object({ id: z.number(), start: z.number(), end: z.number(), text: z.string() }))
      .optional(),
    words: z.array(z.object({ word: z.string(), start: z.number(), end: z.number() })).optional(),
  }),
]);

export const openaiTranscription = def({
  operationId: 'openaiTranscription',
  method: 'POST',
  path: `${PUBLIC_API_BASE}/audio/transcriptions`,
  summary: 'OpenAI 兼容的语音转文字（可用官方 openai SDK 的 audio.transcriptions）',
  description:
    'multipart/form-data：file（音频或视频文件，大小按套餐限制）、model（任意名称使用已配置的识别引擎，或 /models 之外的引擎 id，如 sherpa-onnx:<模型>）、language（可选，ISO 639-1）、prompt、response_format（json、text、srt、vtt、verbose_json）、timestamp_granularities[]（segment、word）。按音频时长计费（语音转文字价格），识别失败不扣积分。也可通过 /v1/audio/transcriptions 访问。',
  tags: ['openai'],
  form: openaiTranscriptionForm,
  files: ['file'],
  raw: openaiTranscriptionAnswer,
  text: ['text/plain', 'application/x-subrip', 'text/vtt'],
});

export const publicApiCalls = [
  publicTts,
  publicTtsTask,
  publicVoices,
  publicModels,
  publicBalance,
  publicUsage,
  openaiSpeech,
  openaiTranscription,
] as const;
