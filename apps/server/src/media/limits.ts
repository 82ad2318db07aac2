import type { MediaLimits } from '@vw/contract';
import type { MediaProbe } from '@vw/engines';
import { AppError } from '../errors.ts';

const MB = 1024 * 1024;
const GB = 1024 * MB;

/**
 * Media limits by plan level (the highest row at or below the user's level applies). Width and height
 * are the long and the short side, so portrait video has the same allowance as landscape.
 */
export const MEDIA_LIMITS_BY_LEVEL: ReadonlyArray<{ minLevel: number; limits: MediaLimits }> = [
  {
    minLevel: 400,
    limits: { max_upload_bytes: 10 * GB, max_duration_seconds: 6 * 3600, max_width: 3840, max_height: 2160 },
  },
  {
    minLevel: 300,
    limits: { max_upload_bytes: 4 * GB, max_duration_seconds: 3 * 3600, max_width: 3840, max_height: 2160 },
  },
  {
    minLevel: 200,
    limits: { max_upload_bytes: 1 * GB, max_duration_seconds: 3600, max_width: 1920, max_height: 1080 },
  },
  {
    minLevel: 0,
    limits: { max_upload_bytes: 200 * MB, max_duration_seconds: 600, max_width: 1920, max_height: 1080 },
  },
];

export function mediaLimitsForLevel(level: number): MediaLimits {
  return (MEDIA_LIMITS_BY_LEVEL.find((row) => level >= row.minLevel) ?? MEDIA_LIMITS_BY_LEVEL.at(-1)!).limits;
}

/** No real video is larger than this on a side; a header saying so is hostile or broken. */
const ABSURD_SIDE = 16384;
const MAX_STREAMS = 16;

/** Throws the named error for the first limit the probed file breaks. */
export function checkProbeLimits(probe: MediaProbe, limits: MediaLimits): void {
  if (!probe.hasAudio && !probe.hasVideo) throw AppError.named('err_file_not_supported', '文件中没有音视频');
  if (probe.streams.length > MAX_STREAMS) throw AppError.named('err_file_not_supported');
  if (probe.durationMs <= 0) throw AppError.named('err_file_not_supported', '无法读取媒体时长');
  for (const s of probe.streams) {
    if ((s.width ?? 0) > ABSURD_SIDE || (s.height ?? 0) > ABSURD_SIDE) {
      throw AppError.named('err_file_not_supported', '视频尺寸异常');
    }
  }
  // ffmpeg refuses absurd sizes (e.g. a 100000×100000 header) and then reports the stream with none.
  if (probe.hasVideo && (!probe.width || !probe.height)) {
    throw AppError.named('err_file_not_supported', '视频尺寸异常');
  }
  if (probe.size > limits.max_upload_bytes) throw AppError.named('err_file_too_large');
  if (probe.durationMs > limits.max_duration_seconds * 1000) throw AppError.named('err_media_too_long');
  if (probe.width !== null && probe.height !== null) {
    const long = Math.max(probe.width, probe.height);
    const short = Math.min(probe.width, probe.height);
    if (long > limits.max_width || short > limits.max_height) {
      throw AppError.named('err_media_resolution_too_high');
    }
  }
}
