import { DEFAULT_SUBTITLE_RULES, namedErrorMessages, type ocrCalls } from '@vw/contract';
import { detectSubtitleRegions } from '@vw/engines';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { localPathOf } from '../../media/files.ts';
import { createTask } from '../../tasks/tasks.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import { assertFeature, getFeatures, type ToolChecks } from '../features/features.service.ts';
import { createProjectWithTask, emptyDocument } from '../projects/projects.service.ts';
import {
  assertBoxesFit,
  assertWithinDuration,
  assetDurationMs,
  getVideoAsset,
  previewFrameOf,
  videoError,
  withTempDir,
} from '../projects/stages/media.ts';
import { ocrPipeline } from './ocr.pipeline.ts';

type OcrCreateBody = z.output<NonNullable<typeof ocrCalls.ocrCreate.body>>;

/** Credits for `seconds` of video read by OCR (the pricing row subtitle_ocr). */
export const priceOcr = (ctx: AppContext, durationMs: number) =>
  priceTask(ctx, 'subtitle_ocr', { seconds: Math.ceil(durationMs / 1000) });

/**
 * Subtitle recognition from one of the user's videos: a new editor project (empty until the task
 * writes the recognised tracks) and a task holding the credits for the video's length. Recognition
 * makes subtitles, so spec §6's subtitle generation switch applies (as the web's tool map says); the
 * engine is offline and always there.
 */
export async function createOcrTask(ctx: AppContext, userId: string, body: OcrCreateBody) {
  await assertFeature(ctx, userId, 'subtitle_generate');
  const asset = await getVideoAsset(ctx, userId, body.asset_id);
  assertBoxesFit(asset, body.regions);
  const credits = await priceOcr(ctx, assetDurationMs(asset));
  const name = body.name ?? (asset.name.replace(/\.[^.]{1,8}$/, '') || asset.name);
  const { projectId, taskId } = await createProjectWithTask(
    ctx,
    {
      ownerId: userId,
      tool: 'ocr',
      name,
      sourceAssetId: asset.id,
      document: emptyDocument(DEFAULT_SUBTITLE_RULES),
    },
    (projectId) =>
      createTask(ctx, ocrPipeline, {
        ownerId: userId,
        title: name,
        input: {
          asset_id: asset.id,
          project_id: projectId,
          regions: body.regions,
          fps: body.fps,
          min_score: body.min_score,
          convert: body.convert,
          language: body.language,
        },
        inputAssetIds: [asset.id],
        projectId,
        credits: { tool: 'subtitle_ocr', amount: credits },
      }),
  );
  return { task_id: taskId, project_id: projectId, credits };
}

/** Where subtitles are, from frames sampled over the video, and those frames as previews. */
export async function detectRegions(ctx: AppContext, userId: string, assetId: string) {
  await assertFeature(ctx, userId, 'subtitle_generate');
  const asset = await getVideoAsset(ctx, userId, assetId);
  const detected = await withTempDir(ctx, async (dir) => {
    const source = await localPathOf(ctx, asset.storage_key, dir);
    try {
      return await detectSubtitleRegions(source, { engine: ctx.engines.ocr, samples: 8 });
    } catch (err) {
      throw videoError(err);
    }
  });
  // A handful of the sampled times as preview frames (the scrubber asks for others).
  const times = detected.frame_ms.filter(
    (_, i, all) => all.length <= 6 || i % Math.ceil(all.length / 6) === 0,
  );
  const frames = [];
  for (const at of times) frames.push(await previewFrameOf(ctx, asset, at));
  return {
    regions: detected.regions,
    frames,
    width: asset.width ?? 0,
    height: asset.height ?? 0,
    duration_ms: assetDurationMs(asset),
    engine_label: ctx.engines.ocr.label,
  };
}

export async function previewFrame(ctx: AppContext, userId: string, assetId: string, atMs: number) {
  await assertFeature(ctx, userId, 'subtitle_generate');
  const asset = await getVideoAsset(ctx, userId, assetId);
  assertWithinDuration(asset, atMs, '预览时间');
  return previewFrameOf(ctx, asset, atMs);
}

// /v1/tools/capabilities: the offline engine is always there; only the switch can turn it off.
export const ocrAvailability: ToolChecks = {
  ocr: async (ctx, userId) => {
    const on = (await getFeatures(ctx, userId)).subtitle_generate;
    return {
      tool: 'ocr',
      available: on,
      reason: on ? '' : namedErrorMessages.err_subtitle_generate_not_allowed,
      error_type: on ? '' : 'err_subtitle_generate_not_allowed',
      engines: [{ id: ctx.engines.ocr.id, label: ctx.engines.ocr.label }],
    };
  },
};
