import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  type Box,
  DEFAULT_SUBTITLE_RULES,
  type EraseReport,
  type eraseCalls,
  namedErrorMessages,
} from '@vw/contract';
import { type EraseMethod, eraseVideo, grabFrame, renderDifference, runFfmpeg, type Span } from '@vw/engines';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { MediaAssetRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { localPathOf } from '../../media/files.ts';
import { findStages } from '../../tasks/tasks.repo.ts';
import { createTask, getOwnedTask } from '../../tasks/tasks.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import { assertFeature, getFeatures, type ToolChecks } from '../features/features.service.ts';
import { findProject } from '../projects/projects.repo.ts';
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
import { findAssetOfOwner } from '../uploads/uploads.repo.ts';
import { erasePipeline, watermarkPipeline } from './erase.pipeline.ts';

type EraseCreateBody = z.output<NonNullable<typeof eraseCalls.eraseCreate.body>>;
type WatermarkCreateBody = z.output<NonNullable<typeof eraseCalls.watermarkRemoveCreate.body>>;
type PreviewBody = z.output<NonNullable<typeof eraseCalls.erasePreview.body>>;
type DifferenceBody = z.output<NonNullable<typeof eraseCalls.eraseDifference.body>>;
export type EraseTool = 'erase' | 'watermark';

const FEATURE = { erase: 'subtitle_erase', watermark: 'remove_watermark' } as const;
const LINK_SECONDS = 3600;

/** Credits for `durationMs` of video erased (the pricing row subtitle_erase, for both tools). */
export const priceErase = (ctx: AppContext, durationMs: number) =>
  priceTask(ctx, 'subtitle_erase', { seconds: Math.ceil(durationMs / 1000) });

async function checkOcrProject(ctx: AppContext, userId: string, projectId: string, asset: MediaAssetRow) {
  const project = await findProject(ctx.db, userId, projectId);
  if (!project) throw AppError.named('err_not_found');
  if (project.tool !== 'ocr' || project.source_asset_id !== asset.id) {
    throw AppError.named('err_invalid_param', '所选字幕提取项目不是这个视频的，请重新选择');
  }
}

async function startErase(
  ctx: AppContext,
  userId: string,
  tool: EraseTool,
  body: EraseCreateBody,
): Promise<{ task_id: string; project_id: string; credits: number }> {
  await assertFeature(ctx, userId, FEATURE[tool]);
  const asset = await getVideoAsset(ctx, userId, body.asset_id);
  assertBoxesFit(asset, body.boxes);
  if (body.range_mode === 'custom') {
    if (body.ranges.length === 0) throw AppError.named('err_invalid_param', '请至少添加一个时间范围');
    for (const r of body.ranges) assertWithinDuration(asset, r.end_ms, '时间范围');
  }
  if (body.range_mode === 'subtitles' && body.ocr_project_id) {
    await checkOcrProject(ctx, userId, body.ocr_project_id, asset);
  }
  const durationMs = assetDurationMs(asset);
  const credits = await priceErase(ctx, durationMs);
  const name = body.name ?? (asset.name.replace(/\.[^.]{1,8}$/, '') || asset.name);
  // Both tools list under the 字幕擦除 tab: the project's tool is erase, the task's says which.
  const { projectId, taskId } = await createProjectWithTask(
    ctx,
    {
      ownerId: userId,
      tool: 'erase',
      name,
      sourceAssetId: asset.id,
      document: emptyDocument(DEFAULT_SUBTITLE_RULES),
    },
    (projectId) =>
      createTask(ctx, tool === 'erase' ? erasePipeline : watermarkPipeline, {
        ownerId: userId,
        title: name,
        input: {
          asset_id: asset.id,
          project_id: projectId,
          duration_ms: durationMs,
          boxes: body.boxes,
          range_mode: body.range_mode,
          ranges: body.ranges,
          ocr_project_id: body.ocr_project_id,
          margin_ms: body.margin_ms,
          method: body.method,
          second_pass: body.second_pass,
        },
        inputAssetIds: [asset.id],
        projectId: projectId,
        credits: { tool: 'subtitle_erase', amount: credits },
      }),
  );
  return { task_id: taskId, project_id: projectId, credits };
}

export function createEraseTask(ctx: AppContext, userId: string, body: EraseCreateBody) {
  return startErase(ctx, userId, 'erase', body);
}

/** Watermark removal: the boxes over the whole video. */
export function createWatermarkTask(ctx: AppContext, userId: string, body: WatermarkCreateBody) {
  return startErase(ctx, userId, 'watermark', {
    ...body,
    range_mode: 'whole',
    ranges: [],
    margin_ms: 0,
  });
}

/** A preview per frame and what makes it: boxes, method, tool (the mask) and fill's inpainter. */
const previewKey = (
  asset: MediaAssetRow,
  at: number,
  made: { boxes: Box[]; method: EraseMethod; tool: string; inpaint: string },
) => {
  const hash = createHash('sha256').update(JSON.stringify(made)).digest('hex').slice(0, 16);
  return `media/${asset.owner_id}/${asset.id}/frames/erase-${hash}-${at}.jpg`;
};

/**
 * Before/after of one frame: half a second of the video from that time is cut and erased by the same
 * engine call the task makes, and its first frame is the "after" picture.
 */
export async function erasePreview(ctx: AppContext, userId: string, body: PreviewBody) {
  await assertFeature(ctx, userId, FEATURE[body.tool]);
  const asset = await getVideoAsset(ctx, userId, body.asset_id);
  assertBoxesFit(asset, body.boxes);
  assertWithinDuration(asset, body.at_ms, '预览时间');
  const before = await previewFrameOf(ctx, asset, body.at_ms);
  // Fill inpaints with LaMa while its model is installed: a preview made before (or after) is another.
  const lamaModel = body.method === 'fill' ? await ctx.engines.inpaintModel() : null;
  const key = previewKey(asset, before.at_ms, {
    boxes: body.boxes,
    method: body.method,
    tool: body.tool,
    inpaint: lamaModel ? 'lama' : 'telea',
  });
  if (!(await ctx.storage.stat(key))) {
    await withTempDir(ctx, async (dir) => {
      const source = await localPathOf(ctx, asset.storage_key, dir);
      const clip = path.join(dir, 'clip.mp4');
      const erased = path.join(dir, 'erased.mp4');
      const out = path.join(dir, 'after.jpg');
      try {
        await runFfmpeg(
          [
            '-ss',
            (before.at_ms / 1000).toFixed(3),
            '-i',
            source,
            '-t',
            '0.5',
            '-an',
            '-c:v',
            'libx264',
            '-preset',
            'ultrafast',
            '-y',
            clip,
          ],
          { timeoutMs: 60_000 },
        );
        await eraseVideo(clip, erased, {
          method: body.method,
          spans: body.boxes.map((box) => ({ box, start_ms: null, end_ms: null })),
          mask: body.tool === 'watermark' ? 'box' : 'text',
          lamaModel,
        });
        await grabFrame(erased, 0, out);
      } catch (err) {
        throw videoError(err);
      }
      await ctx.storage.putFile(key, out, 'image/jpeg', { move: true });
    });
  }
  const url = await ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS });
  return { before, after: { at_ms: before.at_ms, url } };
}

/** An erase/watermark task of the user (its switch on) and its finished stages' results. */
async function eraseTaskOf(ctx: AppContext, userId: string, taskId: string) {
  const task = await getOwnedTask(ctx, userId, taskId);
  if (task.tool !== 'erase' && task.tool !== 'watermark') throw AppError.named('err_not_found');
  await assertFeature(ctx, userId, FEATURE[task.tool]);
  const stages = await findStages(ctx.db, task.id);
  const result = (name: string) => {
    const row = stages.find((s) => s.name === name && s.status === 'done');
    return row?.result ? JSON.parse(row.result) : null;
  };
  return { task, result };
}

/**
 * The damage view of a finished task: one frame of the source and of the result, their difference
 * as a picture and the share of pixels changed outside the boxes erased at that time.
 */
export async function eraseDifference(ctx: AppContext, userId: string, body: DifferenceBody) {
  const { task, result } = await eraseTaskOf(ctx, userId, body.task_id);
  const located = result('locate') as { spans: Span[]; moments?: number[] } | null;
  const checked = result('check') as { key: string } | null;
  const sourceId = (JSON.parse(task.input_asset_ids) as string[])[0];
  const source = sourceId ? await findAssetOfOwner(ctx.db, userId, sourceId) : undefined;
  if (!located || !checked || !source) throw AppError.named('err_not_found');
  const durationMs = assetDurationMs(source);
  // By default the first cue's (or watermark segment's) middle, else the first span's.
  const first = located.spans[0];
  const at =
    body.at_ms ??
    located.moments?.[0] ??
    (first ? Math.round(((first.start_ms ?? 0) + (first.end_ms ?? durationMs)) / 2) : 0);
  assertWithinDuration(source, at, '对比时间');
  const boxes = located.spans
    .filter((s) => at >= (s.start_ms ?? 0) && at <= (s.end_ms ?? Number.POSITIVE_INFINITY))
    .map((s) => s.box);
  return withTempDir(ctx, async (dir) => {
    const before = await localPathOf(ctx, source.storage_key, dir);
    const after = await localPathOf(ctx, checked.key, dir);
    const image = path.join(dir, 'difference.png');
    let figures: Awaited<ReturnType<typeof renderDifference>>;
    try {
      figures = await renderDifference(before, after, { atMs: at, boxes, image });
    } catch (err) {
      throw videoError(err);
    }
    const key = `media/${source.owner_id}/${source.id}/frames/erase-diff-${task.id}-${figures.at_ms}.png`;
    await ctx.storage.putFile(key, image, 'image/png', { move: true });
    return {
      ...figures,
      boxes,
      url: await ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS }),
    };
  });
}

/** The finished erase/watermark task: source and result videos and the check report. */
export async function getEraseResult(ctx: AppContext, userId: string, taskId: string) {
  const { task, result } = await eraseTaskOf(ctx, userId, taskId);
  const checked = result('check') as { report: EraseReport; key: string } | null;
  const output = result('output') as { asset_id: string; key: string } | null;
  const sourceId = (JSON.parse(task.input_asset_ids) as string[])[0];
  const source = sourceId ? await findAssetOfOwner(ctx.db, userId, sourceId) : undefined;
  return {
    task_id: task.id,
    source_url: source
      ? await ctx.storage.signedUrl(source.storage_key, { expiresInSeconds: LINK_SECONDS })
      : '',
    output_url: output
      ? await ctx.storage.signedUrl(output.key, {
          expiresInSeconds: LINK_SECONDS,
          downloadName: `${task.title}.mp4`,
        })
      : '',
    output_asset_id: output?.asset_id ?? null,
    report: checked?.report ?? null,
  };
}

// /v1/tools/capabilities: the switches are the only condition (ffmpeg and the OCR engine are built in).
const eraseCheck = (tool: 'erase' | 'watermark') => async (ctx: AppContext, userId: string) => {
  const feature = FEATURE[tool];
  const on = (await getFeatures(ctx, userId))[feature];
  const error =
    feature === 'subtitle_erase' ? 'err_subtitle_erase_not_allowed' : 'err_remove_water_mark_not_allowed';
  return {
    tool,
    available: on,
    reason: on ? '' : `${namedErrorMessages[error]}（升级到基础会员或以上即可使用）`,
    error_type: on ? '' : error,
    engines: [
      { id: 'ffmpeg-delogo', label: 'ffmpeg delogo / 模糊' },
      { id: ctx.engines.ocr.id, label: `${ctx.engines.ocr.label}（擦除后检查）` },
    ],
  };
};
export const eraseAvailability: ToolChecks = {
  erase: eraseCheck('erase'),
  watermark: eraseCheck('watermark'),
};
