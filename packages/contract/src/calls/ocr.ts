import { z } from 'zod';
import { defineCall } from '../call.ts';

/*
 * On-screen subtitle recognition (tool `ocr`, tab 字幕提取): a video asset → sampled frames read by the
 * offline OCR engine (PP-OCRv4) inside the chosen regions → subtitle tracks of a new editor project
 * (bilingual lines split into two tracks by script, a top title into its own). Nothing found →
 * the task fails with err_video_without_subtitle and the credits are released.
 */

/** Normalised box: 0..1 of the frame's width (x, w) and height (y, h), origin top-left. */
export const boxShape = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
export const box = boxShape.refine(
  (b) =>
    [b.x, b.y, b.w, b.h].every(Number.isFinite) &&
    b.x >= 0 &&
    b.y >= 0 &&
    b.w > 0.001 &&
    b.h > 0.001 &&
    b.x + b.w <= 1.0001 &&
    b.y + b.h <= 1.0001,
  // Named so a refused request carries the contract's code (box outside the frame, or zero size).
  { message: 'err_invalid_param' },
);
export type Box = z.infer<typeof box>;

export const detectedRegion = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  /** subtitle: the lower band(s) where text recurs; title: a fixed line at the top. */
  kind: z.enum(['subtitle', 'title']),
  /** Share of sampled frames with text in the region, 0..1. */
  confidence: z.number(),
});
export type DetectedRegion = z.infer<typeof detectedRegion>;

export const previewFrame = z.object({
  at_ms: z.number().int(),
  /** Signed link to a JPEG of the frame, valid for an hour. */
  url: z.string(),
});
export type PreviewFrame = z.infer<typeof previewFrame>;

export const ocrOptions = z.object({
  /** Where to read (several: bilingual bands, a top title). */
  regions: z.array(box).min(1).max(4),
  /** Frames sampled per second. */
  fps: z.number().min(1).max(10).default(4),
  /** Lines below this confidence are dropped. */
  min_score: z.number().min(0).max(1).default(0.75),
  /** Traditional/Simplified conversion of the recognised text. */
  convert: z.enum(['none', 't2s', 's2t']).default('none'),
  /** Main language of the subtitles ('zh', 'en'…; 'auto' = by script). */
  language: z.string().min(2).max(16).default('auto'),
});
export type OcrOptions = z.infer<typeof ocrOptions>;

export const ocrCreate = defineCall({
  operationId: 'ocrCreate',
  method: 'POST',
  path: '/v1/ocr/create',
  summary: '字幕提取：识别视频画面中的字幕（异步任务）',
  tags: ['ocr'],
  auth: 'user',
  body: ocrOptions.extend({
    asset_id: z.string().min(1).max(64),
    /** Project name; the asset's name when omitted. */
    name: z.string().trim().min(1).max(100).optional(),
  }),
  data: z.object({ task_id: z.string(), project_id: z.string(), credits: z.number() }),
});

export const ocrDetectRegions = defineCall({
  operationId: 'ocrDetectRegions',
  method: 'POST',
  path: '/v1/ocr/detect-regions',
  summary: '检测视频中的字幕区域，并给出采样帧预览',
  tags: ['ocr'],
  auth: 'user',
  body: z.object({ asset_id: z.string().min(1).max(64) }),
  data: z.object({
    regions: z.array(detectedRegion),
    /** The sampled frames (preview images for the region editor). */
    frames: z.array(previewFrame),
    width: z.number().int(),
    height: z.number().int(),
    duration_ms: z.number().int(),
    engine_label: z.string(),
  }),
});

export const ocrPreviewFrame = defineCall({
  operationId: 'ocrPreviewFrame',
  method: 'POST',
  path: '/v1/ocr/preview-frame',
  summary: '取视频某一时刻的画面（框选区域时预览）',
  tags: ['ocr'],
  auth: 'user',
  body: z.object({ asset_id: z.string().min(1).max(64), at_ms: z.number().int().min(0) }),
  data: previewFrame,
});
