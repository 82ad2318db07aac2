import { z } from 'zod';
import { defineCall } from '../call.ts';

/*
 * Voice cloning (/voice-cloning, gated by the runtime setting voice_clone_switch on every call, not
 * only the route: err_permission_deny when off). Fast clone: 10 s – 5 min of one speaker, checked and
 * fixed before anything is made, consent recorded. Professional clone: ≥ 30 min, trained by a
 * configured trainer, else the best multi-reference zero-shot voice the engines allow (said so).
 * A cloned voice is also a voice of the library (category 'mine'), usable in TTS by its voice_id.
 */

/** Clones a plan allows (existing clones count; deleting one frees its slot). Highest row ≤ level applies. */
export const VOICE_CLONE_QUOTA_BY_LEVEL: Record<number, { fast: number; professional: number }> = {
  100: { fast: 1, professional: 0 },
  200: { fast: 3, professional: 0 },
  300: { fast: 10, professional: 1 },
  400: { fast: 30, professional: 5 },
};

export function voiceCloneQuota(level: number): { fast: number; professional: number } {
  let best = VOICE_CLONE_QUOTA_BY_LEVEL[100]!;
  for (const [l, q] of Object.entries(VOICE_CLONE_QUOTA_BY_LEVEL)) if (level >= Number(l)) best = q;
  return best;
}

export const SampleFix = z.enum(['denoise', 'normalize', 'trim']);
export type SampleFix = z.infer<typeof SampleFix>;
export const sampleFixNames: Record<SampleFix, string> = {
  denoise: '降噪',
  normalize: '标准化音量',
  trim: '裁剪静音',
};

export const CloneKind = z.enum(['fast', 'professional']);
export const CloneStatus = z.enum(['queued', 'training', 'ready', 'failed']);
export const cloneStatusNames: Record<z.infer<typeof CloneStatus>, string> = {
  queued: '排队中',
  training: '训练中',
  ready: '可用',
  failed: '失败',
};

export const checkItem = z.object({
  rule: z.string(),
  label: z.string(),
  status: z.enum(['pass', 'warn', 'fail', 'not_checked']),
  measured: z.string(),
  expected: z.string(),
  fix: SampleFix.nullable(),
  advice: z.string(),
});
export type CheckItem = z.infer<typeof checkItem>;

export const sampleLevels = z.object({
  rms_db: z.number(),
  peak_db: z.number(),
  true_peak_db: z.number(),
  noise_floor_db: z.number(),
  snr_db: z.number(),
  clipped_share: z.number(),
  speech_share: z.number(),
  longest_pause_ms: z.number(),
  longest_speech_ms: z.number(),
  leading_silence_ms: z.number(),
  trailing_silence_ms: z.number(),
  duration_ms: z.number(),
  sample_rate: z.number(),
});

export const fileCheck = z.object({
  asset_id: z.string(),
  name: z.string(),
  url: z.string(),
  levels: sampleLevels,
  items: z.array(checkItem),
  fixes: z.array(SampleFix),
  ok: z.boolean(),
});
export type FileCheck = z.infer<typeof fileCheck>;

export const sampleCheck = z.object({
  kind: CloneKind,
  files: z.array(fileCheck),
  overall: z.array(checkItem),
  total_duration_ms: z.number(),
  total_speech_ms: z.number(),
  ok: z.boolean(),
});
export type SampleCheckView = z.infer<typeof sampleCheck>;

export const voiceProfile = z.object({
  median_hz: z.number(),
  p10_hz: z.number(),
  p90_hz: z.number(),
  rate: z.number(),
  gender: z.enum(['male', 'female']),
});

export const cloneCandidate = z.object({
  index: z.number().int(),
  engine: z.string(),
  engine_label: z.string(),
  note: z.string(),
  /** The reference clip it was made from: source file and where in it. */
  reference: z.object({ source: z.string(), start_ms: z.number(), end_ms: z.number(), url: z.string() }),
});

export const voiceClone = z.object({
  clone_id: z.string(),
  /** The voice id to synthesise with (same as clone_id). */
  voice_id: z.string(),
  name: z.string(),
  kind: CloneKind,
  status: CloneStatus,
  language: z.string(),
  engine: z.string(),
  engine_label: z.string(),
  profile: voiceProfile,
  sample_count: z.number().int(),
  sample_duration_ms: z.number(),
  candidates: z.array(cloneCandidate),
  chosen: z.number().int(),
  note: z.string(),
  error: z.string().nullable(),
  consent: z.object({
    accepted_at: z.number(),
    sentence: z.string(),
    recognised_text: z.string().nullable(),
    /**
     * 'asr': the recording was checked by speech recognition; 'kept': no recognizer, kept with the voice;
     * 'attestation': a speaker cloned in 视频翻译, `sentence` is the statement the user accepted.
     */
    verified_by: z.enum(['asr', 'kept', 'attestation']),
    /** attestation: the 视频翻译 project the speaker was cloned from. */
    project_id: z.string().optional(),
  }),
  created_time: z.number(),
  updated_time: z.number(),
});
export type VoiceCloneView = z.infer<typeof voiceClone>;

export const cloneEngineView = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['fitted', 'zero-shot', 'trained']),
  available: z.boolean(),
  reason: z.string(),
});

const quota = z.object({ used: z.number().int(), limit: z.number().int() });

const cloneId = z.string().min(1).max(64);
const consentInput = z.object({
  /** The checkbox: the user has the right to clone this voice. */
  accepted: z.literal(true),
  /** The sentence the server gave (voiceCloneConsentSentence). */
  sentence: z.string().min(4).max(200),
  /** The user's recording of that sentence (an uploaded asset). */
  recording_asset_id: z.string().min(1).max(64),
});

export const voiceCloneOverview = defineCall({
  operationId: 'voiceCloneOverview',
  method: 'GET',
  path: '/v1/voice-clone/overview',
  summary: '声音克隆首页：我的克隆声音、剩余次数与可用引擎',
  tags: ['voice-clone'],
  auth: 'user',
  data: z.object({
    clones: z.array(voiceClone),
    quota: z.object({ fast: quota, professional: quota }),
    engines: z.array(cloneEngineView),
    /** Speech recognition for the consent check and transcripts ('' when none is configured). */
    asr_label: z.string(),
    trainer_label: z.string(),
  }),
});

export const voiceCloneCheck = defineCall({
  operationId: 'voiceCloneCheck',
  method: 'POST',
  path: '/v1/voice-clone/check',
  summary: '样本检测（创建前，逐个文件与整体）',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({
    asset_ids: z.array(z.string().min(1).max(64)).min(1).max(200),
    kind: CloneKind.default('fast'),
    language: z.string().min(2).max(16).default('zh-CN'),
  }),
  data: z.object({ check: sampleCheck }),
});

export const voiceCloneFix = defineCall({
  operationId: 'voiceCloneFix',
  method: 'POST',
  path: '/v1/voice-clone/fix',
  summary: '一键修复样本（降噪、标准化音量、裁剪静音），生成新素材',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({
    asset_id: z.string().min(1).max(64),
    /** Applied in the order denoise → trim → normalise. */
    fixes: z.array(SampleFix).min(1).max(3),
  }),
  data: z.object({ before: fileCheck, after: fileCheck }),
});

export const voiceCloneConsentSentence = defineCall({
  operationId: 'voiceCloneConsentSentence',
  method: 'GET',
  path: '/v1/voice-clone/consent-sentence',
  summary: '随机授权朗读句子',
  tags: ['voice-clone'],
  auth: 'user',
  query: z.object({ language: z.string().min(2).max(16).default('zh-CN') }),
  data: z.object({ sentence: z.string() }),
});

export const voiceCloneCreate = defineCall({
  operationId: 'voiceCloneCreate',
  method: 'POST',
  path: '/v1/voice-clone/create',
  summary: '快速克隆：检测通过的样本 + 授权 → 克隆声音（最多三个候选）',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({
    name: z.string().trim().min(1).max(40),
    language: z.string().min(2).max(16).default('zh-CN'),
    asset_ids: z.array(z.string().min(1).max(64)).min(1).max(20),
    consent: consentInput,
    /** A clone engine id; the best configured one when omitted. */
    engine: z.string().max(32).optional(),
    candidates: z.number().int().min(1).max(3).default(3),
  }),
  data: z.object({ clone: voiceClone }),
});

export const voiceClonePreview = defineCall({
  operationId: 'voiceClonePreview',
  method: 'POST',
  path: '/v1/voice-clone/preview',
  summary: '用候选声音试听一句话',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({
    clone_id: cloneId,
    candidate: z.number().int().min(0).max(2),
    text: z.string().trim().min(1).max(200).optional(),
  }),
  data: z.object({ url: z.string(), engine_label: z.string(), text: z.string() }),
});

export const voiceCloneChoose = defineCall({
  operationId: 'voiceCloneChoose',
  method: 'POST',
  path: '/v1/voice-clone/choose',
  summary: '选定候选声音',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({ clone_id: cloneId, candidate: z.number().int().min(0).max(2) }),
  data: z.object({ clone: voiceClone }),
});

export const voiceCloneList = defineCall({
  operationId: 'voiceCloneList',
  method: 'GET',
  path: '/v1/voice-clone/list',
  summary: '我的克隆声音',
  tags: ['voice-clone'],
  auth: 'user',
  data: z.object({ clones: z.array(voiceClone) }),
});

export const voiceCloneRename = defineCall({
  operationId: 'voiceCloneRename',
  method: 'POST',
  path: '/v1/voice-clone/rename',
  summary: '重命名克隆声音',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({ clone_id: cloneId, name: z.string().trim().min(1).max(40) }),
  data: z.object({ clone: voiceClone }),
});

export const voiceCloneDelete = defineCall({
  operationId: 'voiceCloneDelete',
  method: 'POST',
  path: '/v1/voice-clone/delete',
  summary: '删除克隆声音（样本与参考音频一并删除）',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({ clone_id: cloneId }),
  data: z.object({ deleted: z.boolean(), files_removed: z.number().int() }),
});

export const voiceCloneRecheck = defineCall({
  operationId: 'voiceCloneRecheck',
  method: 'POST',
  path: '/v1/voice-clone/recheck',
  summary: '重新检测克隆声音的样本',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({ clone_id: cloneId }),
  data: z.object({ check: sampleCheck }),
});

export const voiceCloneProfessionalCreate = defineCall({
  operationId: 'voiceCloneProfessionalCreate',
  method: 'POST',
  path: '/v1/voice-clone/professional/create',
  summary: '专业克隆：≥ 30 分钟数据集 → 训练（或多参考零样本声音）',
  tags: ['voice-clone'],
  auth: 'user',
  body: z.object({
    name: z.string().trim().min(1).max(40),
    language: z.string().min(2).max(16).default('zh-CN'),
    asset_ids: z.array(z.string().min(1).max(64)).min(1).max(500),
    consent: consentInput,
  }),
  data: z.object({ clone: voiceClone }),
});
