import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MediaProbe } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import type { MediaAssetRow } from '../../db/schema.ts';
import { mediaAppError } from '../../engine-errors.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { checkProbeLimits } from '../../media/limits.ts';
import { withScratchDir } from '../../media/scratch.ts';
import { getMediaLimits } from '../features/features.service.ts';
import { DEMUXER_OF_EXT, SNIFF_BYTES, sniffFileType } from '../files/sniff.ts';
import { insertAsset } from './uploads.repo.ts';

/** Waveform resolution: 100 buckets a second (10 ms), fewer for long files so peaks stay ≤ 200k numbers. */
export function peaksResolution(durationMs: number): number {
  const seconds = Math.max(1, durationMs / 1000);
  return Math.max(1, Math.min(100, Math.floor(100_000 / seconds)));
}

/** Storage layout of one asset: everything under one folder, removed together. */
export const assetKeys = (ownerId: string, assetId: string, ext: string) => ({
  source: `media/${ownerId}/${assetId}/source.${ext}`,
  peaks: `media/${ownerId}/${assetId}/peaks.json`,
  thumbnail: `media/${ownerId}/${assetId}/thumb.jpg`,
});

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function sha256File(file: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash, { signal });
  return hash.digest('hex');
}

export interface RegisterInput {
  /** The uploaded bytes on this machine; moved into storage (or deleted) by the time this returns. */
  file: string;
  name: string;
  /** The upload (tus id or S3 upload id) this file completes. */
  uploadRef?: string;
}

/**
 * One uploaded file → one media_assets row, or a named refusal that leaves nothing behind. The type
 * comes from the bytes (sniffed), the probe is forced to the demuxer of that type (a playlist or
 * an image sequence never opens), limits come from the plan, and peaks and thumbnail are made before
 * the row exists: a file whose audio or first frame cannot be decoded is refused too.
 */
export async function registerAsset(
  ctx: AppContext,
  ownerId: string,
  input: RegisterInput,
): Promise<MediaAssetRow> {
  const { file } = input;
  const limits = await getMediaLimits(ctx, ownerId);
  const { size } = await stat(file);
  if (size === 0) throw AppError.named('err_file_empty');
  if (size > limits.max_upload_bytes) throw AppError.named('err_file_too_large');

  const type = sniffFileType(await readHead(file));
  const demuxer = type ? DEMUXER_OF_EXT[type.ext] : undefined;
  if (!type || !demuxer) throw AppError.named('err_file_not_supported');

  let probe: MediaProbe;
  try {
    probe = await ctx.engines.inspector.probeFile(file, { format: demuxer, timeoutMs: 60_000 });
  } catch (error) {
    throw mediaAppError(error);
  }
  checkProbeLimits({ ...probe, size }, limits);

  const kind = probe.hasVideo ? 'video' : 'audio';
  const mime = type.mimes[kind] ?? type.mimes.video ?? type.mimes.audio ?? 'application/octet-stream';
  const assetId = newId('ma');
  const keys = assetKeys(ownerId, assetId, type.ext);
  const written: string[] = [];
  try {
    return await withScratchDir(ctx, `asset-${assetId}`, async (dir) => {
      const [sha256, peaks] = await Promise.all([
        sha256File(file),
        probe.hasAudio
          ? ctx.engines.inspector
              .waveformPeaks(file, peaksResolution(probe.durationMs), { timeoutMs: 5 * 60_000 })
              .catch((e) => {
                throw mediaAppError(e);
              })
          : null,
        probe.hasVideo
          ? ctx.engines.inspector
              .thumbnail(file, path.join(dir, 'thumb.jpg'), Math.min(3, probe.durationMs / 3000), {
                timeoutMs: 60_000,
              })
              .catch((e) => {
                throw mediaAppError(e);
              })
          : null,
      ]);
      if (peaks) {
        const peaksFile = path.join(dir, 'peaks.json');
        await writeFile(
          peaksFile,
          JSON.stringify({
            buckets_per_second: peaks.bucketsPerSecond,
            duration_ms: probe.durationMs,
            peaks: peaks.peaks,
          }),
        );
        written.push(keys.peaks);
        await ctx.storage.putFile(keys.peaks, peaksFile, 'application/json', { move: true });
      }
      if (probe.hasVideo) {
        written.push(keys.thumbnail);
        await ctx.storage.putFile(keys.thumbnail, path.join(dir, 'thumb.jpg'), 'image/jpeg', { move: true });
      }
      written.push(keys.source);
      await ctx.storage.putFile(keys.source, file, mime, { move: true });
      const row: MediaAssetRow = {
        id: assetId,
        owner_id: ownerId,
        name: cleanName(input.name, `${assetId}.${type.ext}`),
        kind,
        mime,
        size,
        duration_ms: probe.durationMs,
        width: probe.width,
        height: probe.height,
        has_audio: probe.hasAudio ? 1 : 0,
        has_video: probe.hasVideo ? 1 : 0,
        probe: JSON.stringify(probeSummary(probe, demuxer)),
        sha256,
        storage_key: keys.source,
        peaks_key: peaks ? keys.peaks : null,
        thumbnail_key: probe.hasVideo ? keys.thumbnail : null,
        status: 'ready',
        created_at: ctx.clock.now(),
        upload_ref: input.uploadRef ?? null,
      };
      await insertAsset(ctx.db, row);
      return row;
    });
  } catch (error) {
    for (const key of written) {
      await ctx.storage
        .remove(key)
        .catch((err) => ctx.log.warn({ err, key }, 'could not remove a refused upload'));
    }
    throw error;
  }
}

function probeSummary(probe: MediaProbe, demuxer: string) {
  return {
    demuxer,
    format_name: probe.formatName,
    duration_ms: probe.durationMs,
    bit_rate: probe.bitRate,
    video_codec: probe.videoCodec,
    audio_codec: probe.audioCodec,
    streams: probe.streams,
  };
}

/** The last path segment without control characters, at most 200 characters. */
export function cleanName(name: string, fallback: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\x00-\x1f\x7f]/g, '').trim();
  return Array.from(base).slice(0, 200).join('') || fallback;
}
