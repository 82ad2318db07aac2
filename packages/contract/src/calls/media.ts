import { z } from 'zod';
import { defineCall } from '../call.ts';
import { type FeatureSwitch as Feature, featureSwitchErrors, MEDIA_KINDS } from '../constants/tasks.ts';

export * from '../constants/tasks.ts';

/*
 * Uploaded media (design §9): resumable uploads end in one media asset per file — sniffed, probed,
 * hashed, with waveform peaks and a thumbnail. Times are unix seconds unless a field says `_ms`.
 */

export const MediaKind = z.enum(MEDIA_KINDS);
export const FeatureSwitch = z.enum(Object.keys(featureSwitchErrors) as [Feature, ...Feature[]]);

export const mediaAsset = z.object({
  asset_id: z.string(),
  /** The name the user uploaded it with. */
  name: z.string(),
  kind: MediaKind,
  /** Sniffed from the bytes, e.g. video/mp4, audio/mpeg. */
  mime: z.string(),
  size: z.number().int(),
  duration_ms: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  has_audio: z.boolean(),
  has_video: z.boolean(),
  sha256: z.string(),
  /** 'processing' while peaks and thumbnail are made; 'ready' after; 'failed' if they could not be. */
  status: z.enum(['processing', 'ready', 'failed']),
  /** Signed link to the file (an hour). */
  url: z.string(),
  /** Signed link to a JPEG thumbnail; '' for audio or while processing. */
  thumbnail_url: z.string(),
  created_time: z.number().int(),
});
export type MediaAsset = z.infer<typeof mediaAsset>;

/** How the browser uploads a file: resumable tus to this server, or presigned multipart parts to S3. */
export const uploadTicket = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('tus'),
    /** The tus creation endpoint (relative to the site); send the access token as Authorization. */
    endpoint: z.string(),
    /** Largest file this account may upload (bytes). */
    max_size: z.number().int(),
    chunk_size: z.number().int(),
  }),
  z.object({
    provider: z.literal('s3'),
    upload_id: z.string(),
    part_size: z.number().int(),
    /** Presigned PUT URLs, one per part (part_number from 1), valid for `expires_in` seconds. */
    parts: z.array(z.object({ part_number: z.number().int(), url: z.string() })),
    expires_in: z.number().int(),
    max_size: z.number().int(),
  }),
]);
export type UploadTicket = z.infer<typeof uploadTicket>;

export const generateUploadCredentials = defineCall({
  operationId: 'generateUploadCredentials',
  method: 'POST',
  path: '/v1/misc/generate_obs_temporary_credentials',
  summary: '获取上传凭证（本地断点续传 tus，或对象存储分片直传）',
  tags: ['media'],
  auth: 'user',
  body: z.object({
    name: z.string().min(1).max(255),
    size: z.number().int().min(1),
    content_type: z.string().max(128).default('application/octet-stream'),
  }),
  data: uploadTicket,
});

export const completeUpload = defineCall({
  operationId: 'completeUpload',
  method: 'POST',
  path: '/v1/media/complete_upload',
  summary: '上传完成：检查文件并登记为素材',
  tags: ['media'],
  auth: 'user',
  body: z.union([
    /** tus: the upload URL (or its last path segment) the tus server created. */
    z.object({ tus_upload: z.string().min(1).max(512) }),
    /** S3: the multipart upload and the ETag of every part. */
    z.object({
      upload_id: z.string().min(1).max(1024),
      parts: z.array(z.object({ part_number: z.number().int().min(1), etag: z.string().max(256) })).min(1),
    }),
  ]),
  data: z.object({ asset: mediaAsset }),
});

export const getMediaAsset = defineCall({
  operationId: 'getMediaAsset',
  method: 'GET',
  path: '/v1/media/get',
  summary: '素材详情',
  tags: ['media'],
  auth: 'user',
  query: z.object({ asset_id: z.string().min(1).max(64) }),
  data: z.object({ asset: mediaAsset }),
});

export const listMediaAssets = defineCall({
  operationId: 'listMediaAssets',
  method: 'GET',
  path: '/v1/media/list',
  summary: '我的素材',
  tags: ['media'],
  auth: 'user',
  query: z.object({
    kind: MediaKind.optional(),
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  data: z.object({ total: z.number().int(), list: z.array(mediaAsset) }),
});

export const deleteMediaAsset = defineCall({
  operationId: 'deleteMediaAsset',
  method: 'DELETE',
  path: '/v1/media/delete',
  summary: '删除素材（仍被任务使用的素材保留到任务删除）',
  tags: ['media'],
  auth: 'user',
  body: z.object({ asset_id: z.string().min(1).max(64) }),
  data: z.object({ deleted: z.number().int() }),
});

/** Waveform peaks: min/max pairs per bucket, normalised to −1…1. */
export const mediaPeaks = z.object({
  /** Buckets per second of media. */
  buckets_per_second: z.number(),
  duration_ms: z.number().int(),
  /** [min0, max0, min1, max1, …] */
  peaks: z.array(z.number()),
});
export type MediaPeaks = z.infer<typeof mediaPeaks>;

export const getMediaPeaks = defineCall({
  operationId: 'getMediaPeaks',
  method: 'GET',
  path: '/v1/media/peaks',
  summary: '音频波形峰值',
  tags: ['media'],
  auth: 'user',
  query: z.object({ asset_id: z.string().min(1).max(64) }),
  data: mediaPeaks,
});

/** What this account may use: feature switches, media limits of its plan, and each tool's engine. */
export const toolAvailability = z.object({
  tool: z.string(),
  /** The engine is configured and the account may use the tool. */
  available: z.boolean(),
  /** Why not (Chinese, names what to configure or enable); '' when available. */
  reason: z.string(),
  /** The named error a create call would answer, '' when available. */
  error_type: z.string(),
  /** Engines that would run it, with honest labels. */
  engines: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      /** Recognizers: whether it tells speakers apart (absent for other tools). */
      diarization: z.boolean().optional(),
    }),
  ),
});
export type ToolAvailability = z.infer<typeof toolAvailability>;

export const mediaLimits = z.object({
  max_upload_bytes: z.number().int(),
  max_duration_seconds: z.number().int(),
  max_width: z.number().int(),
  max_height: z.number().int(),
});
export type MediaLimits = z.infer<typeof mediaLimits>;

export const getToolCapabilities = defineCall({
  operationId: 'getToolCapabilities',
  method: 'GET',
  path: '/v1/tools/capabilities',
  summary: '本账号可用的工具、功能开关与媒体限制',
  tags: ['media'],
  auth: 'user',
  data: z.object({
    features: z.record(FeatureSwitch, z.boolean()),
    limits: mediaLimits,
    tools: z.array(toolAvailability),
  }),
});
