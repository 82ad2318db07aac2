import { z } from 'zod';
import { defineCall } from '../call.ts';

/*
 * Speech to text (tool `stt`, tab 语音转文字): an uploaded asset → a task whose result is the source
 * subtitle track of a new editor project. Needs the `subtitle_generate` feature and a configured
 * recognizer (otherwise err_interface_unavailable naming what to configure).
 */

export const sttOptions = z.object({
  /** ISO code ('zh', 'en', 'yue'…) or 'auto' to detect. */
  language: z.string().min(2).max(16).default('auto'),
  /** Expected speakers; 0 = detect (when a diarization model is configured), 1 = no diarization. */
  speakers: z.number().int().min(0).max(20).default(0),
  /** Add punctuation when the recognizer gives none (needs a punctuation model). */
  punctuation: z.boolean().default(true),
  /** Split long recognised segments into subtitle-sized cues by the default rules. */
  split_cues: z.boolean().default(true),
});
export type SttOptions = z.infer<typeof sttOptions>;

export const sttCreate = defineCall({
  operationId: 'sttCreate',
  method: 'POST',
  path: '/v1/stt/create',
  summary: '语音转文字：从素材识别字幕（异步任务）',
  tags: ['stt'],
  auth: 'user',
  body: sttOptions.extend({
    asset_id: z.string().min(1).max(64),
    /** Project name; the asset's name when omitted. */
    name: z.string().trim().min(1).max(100).optional(),
  }),
  data: z.object({ task_id: z.string(), project_id: z.string(), credits: z.number() }),
});
