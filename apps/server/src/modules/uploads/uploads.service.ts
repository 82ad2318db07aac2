import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import type { FileStore } from '@tus/file-store';
import type { Server as TusServer } from '@tus/server';
import type { MediaAsset, MediaPeaks, UploadTicket } from '@vw/contract';
import { UploadRefusedError } from '../../adapters/storage/storage.ts';
import type { AppContext } from '../../context.ts';
import type { MediaAssetRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { localPathOf } from '../../media/files.ts';
import { createScratchDir, removeScratchDir } from '../../media/scratch.ts';
import { limitAccount } from '../accounts/account-limits.ts';
import { getMediaLimits } from '../features/features.service.ts';
import { registerAsset } from './register.ts';
import { TUS_PATH, tusIdOf, tusOwnerOf, uploadsDir } from './tus.ts';
import {
  claimUpload,
  deleteAssetOfOwner,
  deleteUpload,
  findAssetOfOwner,
  findAssetOfUpload,
  findAssetsOfOwner,
  findUploadOfOwner,
  insertUpload,
  isAssetInUse,
  type MediaUploadRow,
  setUploadClaim,
} from './uploads.repo.ts';

const LINK_SECONDS = 3600;
/** tus PATCH size the browser should use: big enough for speed, small enough to resume cheaply. */
const TUS_CHUNK = 64 * 1024 * 1024;
/** S3 parts: at least 8 MB (S3 wants ≥ 5 MB but the last), at most 10 000 parts. */
const MIN_PART = 8 * 1024 * 1024;
const PART_URL_SECONDS = 6 * 3600;
/** A completion's claim on an S3 upload, renewed while it works: a killed process frees it this soon. */
const COMPLETE_CLAIM_MS = 30_000;
/** A retry waits this long for an earlier attempt still completing the same upload. */
const COMPLETE_WAIT_MS = 30_000;

export async function getOwnedAsset(
  ctx: AppContext,
  ownerId: string,
  assetId: string,
): Promise<MediaAssetRow> {
  const row = await findAssetOfOwner(ctx.db, ownerId, assetId);
  if (!row) throw AppError.named('err_not_found');
  return row;
}

export async function toAssetView(ctx: AppContext, row: MediaAssetRow): Promise<MediaAsset> {
  const [url, thumbnailUrl] = await Promise.all([
    ctx.storage.signedUrl(row.storage_key, { expiresInSeconds: LINK_SECONDS }),
    row.thumbnail_key && row.status === 'ready'
      ? ctx.storage.signedUrl(row.thumbnail_key, { expiresInSeconds: LINK_SECONDS })
      : '',
  ]);
  return {
    asset_id: row.id,
    name: row.name,
    kind: row.kind,
    mime: row.mime,
    size: row.size,
    duration_ms: row.duration_ms,
    width: row.width,
    height: row.height,
    has_audio: row.has_audio === 1,
    has_video: row.has_video === 1,
    sha256: row.sha256,
    status: row.status,
    url,
    thumbnail_url: thumbnailUrl,
    created_time: Math.floor(row.created_at / 1000),
  };
}

export async function listAssets(
  ctx: AppContext,
  ownerId: string,
  query: { kind?: MediaAssetRow['kind']; page: number; page_size: number },
) {
  const { total, rows } = await findAssetsOfOwner(ctx.db, ownerId, {
    kind: query.kind,
    offset: (query.page - 1) * query.page_size,
    limit: query.page_size,
  });
  return { total, list: await Promise.all(rows.map((r) => toAssetView(ctx, r))) };
}

export async function getAssetPeaks(ctx: AppContext, ownerId: string, assetId: string): Promise<MediaPeaks> {
  const row = await getOwnedAsset(ctx, ownerId, assetId);
  if (!row.peaks_key) {
    return { buckets_per_second: 0, duration_ms: row.duration_ms ?? 0, peaks: [] };
  }
  return JSON.parse(await text(await ctx.storage.read(row.peaks_key))) as MediaPeaks;
}

/**
 * Deletes an asset with its files. An asset a task or an editor project still names is kept
 * (refused with a message) until that task or project is deleted: tasks read their input again on
 * retry and the editor plays it.
 */
export async function deleteAsset(ctx: AppContext, ownerId: string, assetId: string): Promise<number> {
  const row = await getOwnedAsset(ctx, ownerId, assetId);
  if (await isAssetInUse(ctx.db, ownerId, assetId)) {
    throw AppError.named('err_invalid_param', '素材仍被任务或项目使用，请先删除对应的任务或项目');
  }
  for (const key of [row.storage_key, row.peaks_key, row.thumbnail_key])
    if (key) await ctx.storage.remove(key);
  return deleteAssetOfOwner(ctx.db, ownerId, assetId);
}

/** How the browser should upload this file: tus to this server, or presigned parts to S3. */
export async function createUploadTicket(
  ctx: AppContext,
  ownerId: string,
  input: { name: string; size: number; content_type: string },
): Promise<UploadTicket> {
  const limits = await getMediaLimits(ctx, ownerId);
  if (input.size > limits.max_upload_bytes) throw AppError.named('err_file_too_large');
  const multipart = ctx.storage.multipart;
  // With tus the upload starts (and counts) when tus creates it; here nothing starts yet.
  if (!multipart) {
    return { provider: 'tus', endpoint: TUS_PATH, max_size: limits.max_upload_bytes, chunk_size: TUS_CHUNK };
  }
  await limitAccount(ctx, ownerId, 'uploads');
  const partSize = Math.max(MIN_PART, Math.ceil(input.size / 10_000));
  const count = Math.ceil(input.size / partSize);
  const id = newId('up');
  const key = `uploads/${ownerId}/${id}`;
  const providerUploadId = await multipart.create(key, 'application/octet-stream');
  await insertUpload(ctx.db, {
    id,
    owner_id: ownerId,
    storage_key: key,
    provider_upload_id: providerUploadId,
    name: input.name,
    size: input.size,
    content_type: input.content_type,
    created_at: ctx.clock.now(),
    claimed_until: null,
  });
  const parts = await Promise.all(
    Array.from({ length: count }, async (_, i) => ({
      part_number: i + 1,
      url: await multipart.presignPart(key, providerUploadId, i + 1, PART_URL_SECONDS),
    })),
  );
  return {
    provider: 's3',
    upload_id: id,
    part_size: partSize,
    parts,
    expires_in: PART_URL_SECONDS,
    max_size: limits.max_upload_bytes,
  };
}

type CompleteInput =
  | { tus_upload: string }
  | { upload_id: string; parts: { part_number: number; etag: string }[] };

/**
 * The end of both upload paths: the file becomes an asset, or is refused and removed. Completing an
 * upload again (a retry whose first answer was lost) answers the asset it became.
 */
export async function completeUpload(
  ctx: AppContext,
  tus: TusServer,
  ownerId: string,
  input: CompleteInput,
): Promise<MediaAssetRow> {
  const ref = 'tus_upload' in input ? tusIdOf(input.tus_upload) : input.upload_id;
  if (ref) {
    const done = await findAssetOfUpload(ctx.db, ownerId, ref);
    if (done) return done;
  }
  try {
    if ('tus_upload' in input) return await completeTusUpload(ctx, tus, ownerId, input.tus_upload);
    return await completeS3Upload(ctx, ownerId, input.upload_id, input.parts);
  } catch (err) {
    // A completion racing this one may have registered the file meanwhile.
    const done =
      ref && err instanceof AppError && err.detailType === 'err_not_found'
        ? await findAssetOfUpload(ctx.db, ownerId, ref)
        : undefined;
    if (done) return done;
    throw err;
  }
}

async function completeTusUpload(
  ctx: AppContext,
  tus: TusServer,
  ownerId: string,
  ref: string,
): Promise<MediaAssetRow> {
  const id = tusIdOf(ref);
  if (!id || tusOwnerOf(id) !== ownerId) throw AppError.named('err_not_found');
  const store = tus.datastore as FileStore;
  const upload = await store.getUpload(id).catch(() => null);
  if (!upload) throw AppError.named('err_not_found');
  if (upload.size === undefined || upload.offset !== upload.size) {
    throw AppError.named('err_invalid_param', '文件尚未上传完成，请继续上传');
  }
  // Claiming the bytes by renaming them into a scratch folder: a second completion finds nothing,
  // and whatever happens next, removing the folder leaves nothing behind.
  const scratchName = `upload-${id.slice(-32)}`;
  const dir = await createScratchDir(ctx, scratchName);
  const claimed = path.join(dir, 'source');
  try {
    try {
      await rename(path.join(uploadsDir(ctx), id), claimed);
    } catch {
      throw AppError.named('err_not_found');
    }
    await rm(path.join(uploadsDir(ctx), `${id}.json`), { force: true });
    const name = upload.metadata?.filename ?? upload.metadata?.name ?? 'upload';
    return await registerAsset(ctx, ownerId, { file: claimed, name, uploadRef: id });
  } finally {
    await removeScratchDir(ctx, scratchName);
  }
}

async function completeS3Upload(
  ctx: AppContext,
  ownerId: string,
  uploadId: string,
  parts: { part_number: number; etag: string }[],
): Promise<MediaAssetRow> {
  const multipart = ctx.storage.multipart;
  if (!multipart) throw AppError.named('err_not_found');
  const upload = await claimS3Upload(ctx, ownerId, uploadId);
  const renew = setInterval(() => {
    void setUploadClaim(ctx.db, upload.id, ctx.clock.now() + COMPLETE_CLAIM_MS).catch(() => {});
  }, COMPLETE_CLAIM_MS / 3);
  const scratchName = `upload-${upload.id.slice(-32)}`;
  // Used up (an asset made, or a refusal): the row and the staged object go. Otherwise (the store
  // unreachable, the database gone) both stay, and the client's retry completes the same upload.
  let usedUp = false;
  try {
    try {
      await multipart.complete(
        upload.storage_key,
        upload.provider_upload_id,
        parts.map((p) => ({ partNumber: p.part_number, etag: p.etag })),
      );
    } catch (err) {
      // An earlier attempt may have completed the parts and then stopped: the object is there.
      const staged = await ctx.storage.stat(upload.storage_key).catch(() => null);
      if (!staged) {
        if (!(err instanceof UploadRefusedError)) throw err;
        ctx.log.info({ err, upload: upload.id }, 'multipart completion refused');
        await multipart.abort(upload.storage_key, upload.provider_upload_id).catch(() => {});
        throw AppError.named('err_file_not_supported', '分片不完整或校验失败，请重新上传');
      }
    }
    const info = await ctx.storage.stat(upload.storage_key);
    if (!info || info.size === 0) throw AppError.named('err_file_empty');
    const limits = await getMediaLimits(ctx, ownerId);
    if (info.size > limits.max_upload_bytes) throw AppError.named('err_file_too_large');
    const dir = await createScratchDir(ctx, scratchName);
    const file = await localPathOf(ctx, upload.storage_key, dir);
    const asset = await registerAsset(ctx, ownerId, { file, name: upload.name, uploadRef: upload.id });
    usedUp = true;
    return asset;
  } catch (err) {
    usedUp = err instanceof AppError;
    throw err;
  } finally {
    clearInterval(renew);
    if (usedUp) {
      await deleteUpload(ctx.db, upload.id);
      await ctx.storage.remove(upload.storage_key).catch(() => {});
    } else await setUploadClaim(ctx.db, upload.id, null).catch(() => {});
    await removeScratchDir(ctx, scratchName);
  }
}

/**
 * The upload for this completion. A retry that arrives while an earlier attempt is still completing
 * waits for it: once that attempt is done the row is gone (its asset answers the retry) or released.
 */
async function claimS3Upload(ctx: AppContext, ownerId: string, uploadId: string): Promise<MediaUploadRow> {
  const waitUntil = Date.now() + COMPLETE_WAIT_MS;
  for (;;) {
    const upload = await findUploadOfOwner(ctx.db, ownerId, uploadId);
    if (!upload) throw AppError.named('err_not_found');
    const now = ctx.clock.now();
    if (await claimUpload(ctx.db, upload.id, now, now + COMPLETE_CLAIM_MS)) return upload;
    if (Date.now() > waitUntil) throw AppError.named('err_service_busy', '文件仍在处理中，请稍后重试', 503);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Size of a tus upload file so far (tests and the bench look at the folder). */
export async function tusFileSize(ctx: AppContext, id: string): Promise<number | null> {
  return stat(path.join(uploadsDir(ctx), id)).then(
    (s) => s.size,
    () => null,
  );
}
