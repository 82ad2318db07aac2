import { z } from 'zod';
import { defineCall } from '../call.ts';
import { mediaPeaks } from './media.ts';

/*
 * Voice changer (tool `voice_changer`, page /voice-changer): one of the user's audio/video assets
 * (upload or browser recording, ≤ 50 MB / 5 minutes and within the plan's media limits) → the same
 * speech in another voice. The target is a library voice the user may use (built-in or cloned) or
 * manual settings. Priced per second (`voice_changer` pricing row); short credits →
 * err_sts_balance_insufficient with nothing held or written. History = tasks of tool voice_changer
 * (`listTasks`, `deleteTask`); each result says which engine made it.
 */

/** The tool's own cap; the plan's media limits apply on top (the smaller wins). */
export const VOICE_CHANGER_MAX_BYTES = 50 * 1024 * 1024;
export const VOICE_CHANGER_MAX_SECONDS = 5 * 60;

export const voiceChangerOptions = z.object({
  /** Target voice (voice library id, built-in or cloned); omitted = manual settings only. */
  voice_id: z.string().min(1).max(64).optional(),
  /** Semitones: the whole shift in manual mode, a nudge on top of the target voice otherwise. */
  pitch_shift: z.number().min(-12).max(12).default(0),
  /**
   * Formant shift in semitones (timbre: negative = larger/darker, positive = smaller/brighter): the whole
   * shift in manual mode; with a target voice, signal-processing engines move the formants with part of
   * the pitch move themselves and this is added on top.
   */
  formant_shift: z.number().min(-6).max(6).default(0),
  /** Remove background noise first (RNNoise). */
  denoise: z.boolean().default(false),
  /** Keep the duration (true) or change speed with pitch like a tape (false). */
  keep_timing: z.boolean().default(true),
  format: z.enum(['mp3', 'wav']).default('mp3'),
  /** Engine id from the tool's capabilities; the default (offline Rubber Band R3) when omitted. */
  engine: z.string().min(1).max(64).optional(),
});
export type VoiceChangerOptions = z.infer<typeof voiceChangerOptions>;

export const voiceChangerCreate = defineCall({
  operationId: 'voiceChangerCreate',
  method: 'POST',
  path: '/v1/voice-changer/create',
  summary: '变声：把素材中的人声变为目标声音（异步任务）',
  tags: ['voice-changer'],
  auth: 'user',
  body: voiceChangerOptions.extend({
    asset_id: z.string().min(1).max(64),
    /** Task title; the asset's name when omitted. */
    name: z.string().trim().min(1).max(100).optional(),
  }),
  data: z.object({ task_id: z.string(), credits: z.number() }),
});

export const voiceChangerTarget = z.object({
  voice_id: z.string(),
  name: z.string(),
  /** 'builtin' (library) or 'mine' (a cloned voice). */
  category: z.enum(['builtin', 'mine']),
  language: z.string(),
  gender: z.string(),
  engine_label: z.string(),
  /** Median F0 once measured (built-in voices are measured on first use, then cached); null before. */
  median_hz: z.number().nullable(),
  /** Below the user's plan level: shown, refused with err_voice_cannot_access_other_voice. */
  required_level: z.number().int(),
});
export type VoiceChangerTarget = z.infer<typeof voiceChangerTarget>;

export const voiceChangerTargets = defineCall({
  operationId: 'voiceChangerTargets',
  method: 'GET',
  path: '/v1/voice-changer/targets',
  summary: '变声可选的目标声音（声音库与我的克隆声音）',
  tags: ['voice-changer'],
  auth: 'user',
  data: z.object({ targets: z.array(voiceChangerTarget) }),
});

const resultAudio = z.object({
  url: z.string(),
  name: z.string(),
  format: z.string(),
  size: z.number().int(),
  peaks: mediaPeaks,
});

export const voiceChangerResult = defineCall({
  operationId: 'voiceChangerResult',
  method: 'GET',
  path: '/v1/voice-changer/result',
  summary: '变声结果：原声与变声后的音频（含波形）和所用引擎',
  tags: ['voice-changer'],
  auth: 'user',
  query: z.object({ task_id: z.string().min(1).max(64) }),
  data: z.object({
    task_id: z.string(),
    /** Honest engine label, e.g. 'Rubber Band R3'. */
    engine: z.string(),
    engine_label: z.string(),
    target_name: z.string(),
    semitones: z.number(),
    formant_semitones: z.number(),
    source_f0_hz: z.number(),
    target_f0_hz: z.number(),
    output_f0_hz: z.number(),
    denoised: z.boolean(),
    duration_ms: z.number().int(),
    /** How it was made: 'signal' = standard signal processing (pitch and formant shifting), 'neural' = a voice-conversion model. */
    engine_kind: z.enum(['signal', 'neural']).optional(),
    /**
     * Measured on the result against the source: median F0 ratio and spectral-envelope warp factor
     * (cepstrally smoothed envelope cross-correlated on a log-frequency axis; 1 = timbre kept).
     * 0 = not measurable (no voiced speech); absent on older results.
     */
    measured: z.object({ f0_ratio: z.number(), envelope_ratio: z.number() }).optional(),
    original: resultAudio,
    converted: resultAudio,
  }),
});
