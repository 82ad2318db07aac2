import type { MediaProbe } from '@vw/engines';
import { describe, expect, it } from 'vitest';
import { checkProbeLimits, mediaLimitsForLevel } from './limits.ts';

const video = (over: Partial<MediaProbe> = {}): MediaProbe => ({
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  durationMs: 60_000,
  size: 10_000_000,
  bitRate: 1,
  streams: [
    { index: 0, type: 'video', codec: 'h264', width: 1920, height: 1080 },
    { index: 1, type: 'audio', codec: 'aac' },
  ],
  hasVideo: true,
  hasAudio: true,
  width: 1920,
  height: 1080,
  videoCodec: 'h264',
  audioCodec: 'aac',
  ...over,
});
const refusal = (probe: MediaProbe, level = 100) => {
  try {
    checkProbeLimits(probe, mediaLimitsForLevel(level));
    return null;
  } catch (error) {
    return (error as { detailType?: string }).detailType;
  }
};

describe('media limits by plan', () => {
  it('picks the highest row at or below the level', () => {
    expect(mediaLimitsForLevel(100).max_duration_seconds).toBe(600);
    expect(mediaLimitsForLevel(250).max_upload_bytes).toBe(1024 ** 3);
    expect(mediaLimitsForLevel(300).max_width).toBe(3840);
    expect(mediaLimitsForLevel(999).max_upload_bytes).toBe(10 * 1024 ** 3);
  });

  it('checks duration, resolution (long and short side, portrait alike) and size', () => {
    expect(refusal(video())).toBeNull();
    expect(refusal(video({ width: 1080, height: 1920 }))).toBeNull();
    expect(refusal(video({ width: 2560, height: 1440 }))).toBe('err_media_resolution_too_high');
    expect(refusal(video({ width: 2560, height: 1440 }), 300)).toBeNull();
    expect(refusal(video({ durationMs: 601_000 }))).toBe('err_media_too_long');
    expect(refusal(video({ size: 201 * 1024 * 1024 }))).toBe('err_file_too_large');
  });

  it('refuses what is not real media whatever the plan', () => {
    expect(refusal(video({ hasVideo: false, hasAudio: false }), 400)).toBe('err_file_not_supported');
    expect(refusal(video({ width: null, height: null }), 400)).toBe('err_file_not_supported');
    expect(refusal(video({ durationMs: 0 }), 400)).toBe('err_file_not_supported');
    const absurd = video();
    absurd.streams[0] = { ...absurd.streams[0], width: 100_000, height: 100_000 };
    expect(refusal(absurd, 400)).toBe('err_file_not_supported');
  });
});
