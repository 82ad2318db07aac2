import { randomBytes } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Box, ProjectDocument } from '@vw/contract';
import { grabFrame } from '@vw/engines';
import type { AppContext } from '../../../context.ts';
import type { MediaAssetRow } from '../../../db/schema.ts';
import { mediaAppError } from '../../../engine-errors.ts';
import { AppError } from '../../../errors.ts';
import { localPathOf } from '../../../media/files.ts';
import { withScratchDir } from '../../../media/scratch.ts';
import type { StageContext } from '../../../tasks/pipeline.ts';
import { getOwnedAsset } from '../../uploads/uploads.service.ts';

/*
 * The media under a project, as the tools' requests and stages read it: the caller's video asset,
 * checks of boxes and time ranges against it, preview frames stored beside the asset, the source as
 * a local file in a task, and an engine's progress as the task's.
 */

const LINK_SECONDS = 3600;

/** One of the caller's assets that has a picture (others: err_not_found / err_file_not_supported). */
export async function getVideoAsset(
  ctx: AppContext,
  userId: string,
  assetId: string,
): Promise<MediaAssetRow> {
  const asset = await getOwnedAsset(ctx, userId, assetId);
  if (asset.has_video !== 1 || !asset.width || !asset.height) {
    throw AppError.named('err_file_not_supported', '该素材没有视频画面，请选择带画面的视频文件');
  }
  if (asset.status !== 'ready') throw AppError.named('err_invalid_param', '素材仍在处理中，请稍后再试');
  return asset;
}

/** Boxes are checked by the contract (inside the frame, not empty); this refuses degenerate pixels. */
export function assertBoxesFit(asset: MediaAssetRow, boxes: Box[]): void {
  for (const b of boxes) {
    if (b.w * (asset.width ?? 0) < 2 || b.h * (asset.height ?? 0) < 2) {
      throw AppError.named('err_invalid_param', '所选区域太小，请框选至少 2×2 像素的区域');
    }
  }
}

export function assetDurationMs(asset: MediaAssetRow): number {
  return Number(asset.duration_ms ?? 0);
}

/** A time inside the video (a preview frame, a custom range end). */
export function assertWithinDuration(asset: MediaAssetRow, ms: number, what = '时间'): void {
  if (ms > assetDurationMs(asset)) {
    throw AppError.named(
      'err_invalid_param',
      `${what}超出视频时长（${(assetDurationMs(asset) / 1000).toFixed(1)} 秒），请重新选择`,
    );
  }
}

const frameKey = (asset: MediaAssetRow, atMs: number) =>
  `media/${asset.owner_id}/${asset.id}/frames/${atMs}.jpg`;

/** A temporary folder under the scratch root (name with a dash: swept after 6 h if left). */
export async function withTempDir<T>(ctx: AppContext, fn: (dir: string) => Promise<T>): Promise<T> {
  return withScratchDir(ctx, `frame-${randomBytes(8).toString('hex')}`, fn);
}

/** A video the engines could not decode, in the video tools' words; other failures pass unchanged. */
export const videoError = (err: unknown): unknown => mediaAppError(err, '视频无法解码，请换一个文件');

/**
 * A JPEG of the video at `atMs`, stored beside the asset (made once per time; removed with the asset's
 * folder by the media sweep) → a signed link.
 */
export async function previewFrameOf(
  ctx: AppContext,
  asset: MediaAssetRow,
  atMs: number,
): Promise<{ at_ms: number; url: string }> {
  // Snap to 100 ms so a scrubber does not make a new file per pixel; stay inside the last frame.
  const at = Math.max(0, Math.min(Math.round(atMs / 100) * 100, Math.max(0, assetDurationMs(asset) - 100)));
  const key = frameKey(asset, at);
  if (!(await ctx.storage.stat(key))) {
    await withTempDir(ctx, async (dir) => {
      const source = await localPathOf(ctx, asset.storage_key, dir);
      const out = path.join(dir, 'frame.jpg');
      try {
        await grabFrame(source, at, out);
      } catch (err) {
        throw videoError(err);
      }
      await ctx.storage.putFile(key, out, 'image/jpeg', { move: true });
    });
  }
  return { at_ms: at, url: await ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS }) };
}

/** The task's video asset as a local path (in place on local storage; downloaded into the scratch on S3). */
export async function sourceVideo(ctx: StageContext<{ asset_id: string }>): Promise<string> {
  const asset = await getOwnedAsset(ctx.app, ctx.task.owner_id, ctx.input.asset_id);
  const local = path.join(ctx.scratchDir, `src-${path.basename(asset.storage_key)}`);
  // An S3 object downloaded by an earlier stage on this machine is read again from the scratch folder.
  const there = await access(local).then(
    () => true,
    () => false,
  );
  return there ? local : localPathOf(ctx.app, asset.storage_key, ctx.scratchDir);
}

/** The media under a dub project (video or audio) with its local path, or null. */
export async function mediaOf(ctx: StageContext<unknown>, doc: ProjectDocument) {
  const assetId = doc.dub?.media_asset_id;
  if (!assetId) return null;
  const asset = await getOwnedAsset(ctx.app, ctx.task.owner_id, assetId);
  return { asset, file: await localPathOf(ctx.app, asset.storage_key, ctx.scratchDir) };
}

/** The progress callback of an engine: throttled writes by the task, errors only logged. */
export function progressOf(ctx: StageContext<unknown>, from = 0, to = 1) {
  return (f: number) => {
    ctx
      .progress(from + (to - from) * Math.max(0, Math.min(1, f)))
      .catch((err) => ctx.app.log.warn({ err, taskId: ctx.task.id }, 'progress write failed'));
  };
}
