import { z } from 'zod';
import { defineCall } from '../call.ts';
import { box, boxShape, previewFrame } from './ocr.ts';

/*
 * Subtitle erasing (tool `erase`, tab 字幕擦除) and watermark removal (tool `watermark`, the 去水印
 * option of the same tab): boxes × time ranges erased from a video asset (fill, or ffmpeg's delogo or
 * blur; a watermark is looked for inside the boxes, per segment of time, and erased where found), then a check pass reads the boxes again and erases what was missed (a second pass). The result is an
 * MP4 (audio copied) as a task output and a new asset, plus a report of what remained.
 * Need `subtitle_erase` / `remove_watermark`.
 */

/**
 * fast (delogo) and blur: the fast methods, over the whole box, one ffmpeg filter. fill (逐帧补全): only
 * the text's own pixels, taken from nearby frames where the picture shows them, inpainted elsewhere.
 */
export const eraseMethod = z.enum(['fast', 'blur', 'fill']);
export type EraseMethodName = z.infer<typeof eraseMethod>;
/** The methods that run inside another encode (the video translation's render). */
export const filterEraseMethod = z.enum(['fast', 'blur']);

export const timeRange = z
  .object({ start_ms: z.number().int().min(0), end_ms: z.number().int().min(0) })
  .refine((r) => r.end_ms > r.start_ms, { message: 'err_invalid_param' });

export const eraseOptions = z.object({
  boxes: z.array(box).min(1).max(8),
  /**
   * whole: every frame; subtitles: only where recognised subtitles are shown (± margin_ms), from the
   * given OCR project or a fresh recognition inside the boxes; custom: the given ranges.
   */
  range_mode: z.enum(['whole', 'subtitles', 'custom']).default('subtitles'),
  ranges: z.array(timeRange).max(200).default([]),
  /** An OCR project of the same asset whose cues give the times (mode subtitles). */
  ocr_project_id: z.string().min(1).max(64).optional(),
  margin_ms: z.number().int().min(0).max(2000).default(200),
  method: eraseMethod.default('fast'),
  /** Check the result by OCR and erase what remained once more. */
  second_pass: z.boolean().default(true),
});
export type EraseOptions = z.infer<typeof eraseOptions>;

const created = z.object({ task_id: z.string(), project_id: z.string(), credits: z.number() });

export const eraseCreate = defineCall({
  operationId: 'eraseCreate',
  method: 'POST',
  path: '/v1/erase/create',
  summary: '字幕擦除：擦除视频画面中的字幕（异步任务）',
  tags: ['erase'],
  auth: 'user',
  body: eraseOptions.extend({
    asset_id: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(100).optional(),
  }),
  data: created,
});

export const watermarkRemoveCreate = defineCall({
  operationId: 'watermarkRemoveCreate',
  method: 'POST',
  path: '/v1/watermark/create',
  summary: '去水印：擦除整段视频中固定位置的水印（异步任务）',
  tags: ['erase'],
  auth: 'user',
  body: z.object({
    asset_id: z.string().min(1).max(64),
    name: z.string().trim().min(1).max(100).optional(),
    boxes: z.array(box).min(1).max(8),
    method: eraseMethod.default('fast'),
    second_pass: z.boolean().default(false),
  }),
  data: created,
});

export const erasePreview = defineCall({
  operationId: 'erasePreview',
  method: 'POST',
  path: '/v1/erase/preview',
  summary: '擦除前后对比：用所选区域与方法处理一帧',
  tags: ['erase'],
  auth: 'user',
  body: z.object({
    asset_id: z.string().min(1).max(64),
    at_ms: z.number().int().min(0),
    boxes: z.array(box).min(1).max(8),
    method: eraseMethod.default('fast'),
    /** Which tool asks (its switch applies): erase (字幕擦除) or watermark (去水印). */
    tool: z.enum(['erase', 'watermark']).default('erase'),
  }),
  data: z.object({ before: previewFrame, after: previewFrame }),
});

export const eraseReport = z.object({
  /** Text still recognisable in the boxes after erasing (and the second pass). */
  residual: z.array(z.object({ start_ms: z.number(), end_ms: z.number(), text: z.string(), box: boxShape })),
  residual_chars: z.number().int(),
  /** Boxes whose inside stays visibly darker/brighter than around them (the "dark patch" complaint). */
  dark_residue: z.array(z.object({ box: boxShape, start_ms: z.number(), mean_luma_delta: z.number() })),
  /** Characters found before erasing (in mode subtitles), for the share that remained. */
  original_chars: z.number().int(),
  second_pass: z.boolean(),
  method: eraseMethod,
  /** fill: share (0..1) of the text's pixels taken from other frames (the rest was inpainted). */
  temporal_share: z.number().min(0).max(1).optional(),
  /** 去水印 with fill: share (0..1) of the watermark boxes' pixels un-blended (its transparency undone). */
  unblended_share: z.number().min(0).max(1).optional(),
  /** fill: what inpainted the rest (lama: the LaMa model, telea: OpenCV Telea); absent when nothing was. */
  inpaint: z.enum(['lama', 'telea']).optional(),
  /** What changed outside the text, per checked span (measured against the source). */
  damage: z
    .array(
      z.object({
        box: boxShape,
        start_ms: z.number(),
        end_ms: z.number(),
        changed_share: z.number(),
        mean_change: z.number(),
      }),
    )
    .optional(),
  /** 去水印: the watermark as found, per segment of time (a watermark that moves has several). */
  watermarks: z.array(z.object({ box: boxShape, start_ms: z.number(), end_ms: z.number() })).optional(),
  engine_label: z.string(),
});
export type EraseReport = z.infer<typeof eraseReport>;

export const getEraseResult = defineCall({
  operationId: 'getEraseResult',
  method: 'GET',
  path: '/v1/erase/result',
  summary: '擦除结果：原视频、成品视频与检查报告',
  tags: ['erase'],
  auth: 'user',
  query: z.object({ task_id: z.string().min(1).max(64) }),
  data: z.object({
    task_id: z.string(),
    source_url: z.string(),
    output_url: z.string(),
    output_asset_id: z.string().nullable(),
    report: eraseReport.nullable(),
  }),
});

export const eraseDifference = defineCall({
  operationId: 'eraseDifference',
  method: 'POST',
  path: '/v1/erase/difference',
  summary: '擦除差异：某一帧原视频与成品逐像素的差异图，及擦除区域内外有明显变化的像素占比',
  tags: ['erase'],
  auth: 'user',
  body: z.object({
    task_id: z.string().min(1).max(64),
    /** Default: the middle of the first erased cue (or watermark segment, or time range). */
    at_ms: z.number().int().min(0).optional(),
  }),
  data: z.object({
    at_ms: z.number(),
    /** PNG: black where nothing changed, brighter the more a pixel changed. */
    url: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    /** The boxes erased at that time (normalised). */
    boxes: z.array(boxShape),
    /** Share (0..1) of the pixels outside the boxes that changed visibly (should be about 0). */
    outside_changed_share: z.number(),
    inside_changed_share: z.number(),
  }),
});
