import { rm } from 'node:fs/promises';
import { spawnMedia } from '../media/run.ts';
import { probeVideo } from '../ocr/frames.ts';
import { eraseVideo, pixelSpans, videoEncodeArgs } from './erase.ts';
import type { EraseOptions, EraseResult, Span } from './types.ts';
import { estimateUnblend, frameMs, type UnblendModel, unblendFrame } from './unblend.ts';
import { frameBytes, rawVideoEncoder, readFrames, writeFrame } from './yuv.ts';

/**
 * Erasing a watermark (the whole found box, not strokes). fast and blur: delogo / blur of the box.
 * fill: a semi-transparent logo is un-blended where the picture around it lets its opacity and colour
 * be estimated (unblend.ts) — the picture under it comes back, grain included (an opaque part gets the
 * level interpolated from around it); every span where un-blending is not trusted is filled from
 * nearby frames (fill.ts), after the un-blending when both kinds are there.
 */

export interface WatermarkEraseResult extends EraseResult {
  /** fill: share (0..1) of the boxes' pixels (over the frames they are shown) un-blended. */
  unblended_share?: number;
}

const shownAt = (s: { start_ms: number | null; end_ms: number | null }, ms: number) =>
  ms >= (s.start_ms ?? 0) && (s.end_ms === null || ms <= s.end_ms);

/** Erases the watermark spans from a video (see the top of this file). */
export async function eraseWatermark(
  input: string,
  output: string,
  /** `mask` is always the whole box here. */
  opts: EraseOptions,
): Promise<WatermarkEraseResult> {
  if (opts.method !== 'fill') return eraseVideo(input, output, { ...opts, mask: 'box' });
  const { signal } = opts;
  const progress = (f: number) => opts.onProgress?.(Math.min(1, f));
  const info = await probeVideo(input, { signal });
  const pixels = pixelSpans(opts.spans, info);
  const models = await estimateUnblend(input, info, pixels, signal);
  progress(0.2);
  const trusted = models.filter((m): m is UnblendModel => !!m?.trusted);
  if (!trusted.length) {
    const r = await eraseVideo(input, output, {
      ...opts,
      mask: 'box',
      onProgress: (f) => progress(0.2 + 0.8 * f),
    });
    return { ...r, unblended_share: 0 };
  }
  // What the fill still does: the spans not un-blended.
  const rest: Span[] = opts.spans.filter((_, k) => !models[k]?.trusted);
  const unblended = rest.length ? `${output}.unblended.mkv` : output;
  const share = (f: number) => (rest.length ? 0.2 + 0.4 * f : 0.2 + 0.8 * f);
  try {
    const counts = await unblendPass(input, unblended, trusted, opts, info, (f) => progress(share(f)));
    // An un-blended box is the span's, grown to even corners.
    const area = (k: number) => {
      const m = models[k];
      return m?.trusted ? m.box.w * m.box.h : pixels[k].w * pixels[k].h;
    };
    const boxed = pixels.reduce((sum, _, k) => sum + (counts.shown[k] ?? 0) * area(k), 0);
    const unblendedShare = boxed ? Math.min(1, counts.changed / boxed) : 0;
    if (!rest.length) {
      progress(1);
      return { method: 'fill', unblended_share: unblendedShare };
    }
    const r = await eraseVideo(unblended, output, {
      ...opts,
      spans: rest,
      mask: 'box',
      onProgress: (f) => progress(0.6 + 0.4 * f),
    });
    return { ...r, unblended_share: unblendedShare };
  } finally {
    if (unblended !== output) await rm(unblended, { force: true });
  }
}

/**
 * Decode → un-blend → encode: with the fill still to run, losslessly to a temporary file (the fill
 * encodes once more); else straight to the output with the encoder settings of every erase. The
 * original audio is copied either way.
 */
async function unblendPass(
  input: string,
  output: string,
  models: UnblendModel[],
  opts: EraseOptions,
  info: Awaited<ReturnType<typeof probeVideo>>,
  onProgress: (f: number) => void,
): Promise<{ changed: number; shown: number[] }> {
  const { signal } = opts;
  const { width, height, fps } = info;
  const total = Math.max(1, Math.round((info.durationMs / 1000) * fps));
  const final = output.endsWith('.mp4');
  const videoOnly = `${output}.video.${final ? 'mp4' : 'mkv'}`;
  const decoder = spawnMedia(
    'ffmpeg',
    ['-i', input, '-an', '-fps_mode', 'passthrough', '-pix_fmt', 'yuv420p', '-f', 'rawvideo', 'pipe:1'],
    { signal, timeoutMs: 6 * 60 * 60_000 },
  );
  const { encoder, stdin } = rawVideoEncoder(
    { width, height },
    fps,
    final
      ? videoEncodeArgs(info)
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p'],
    videoOnly,
    signal,
  );
  const spans = opts.spans;
  const shown = spans.map(() => 0);
  let changed = 0;
  const work = (async () => {
    let index = 0;
    for await (const frame of readFrames(decoder.child.stdout, frameBytes(width, height))) {
      const ms = frameMs(index, fps);
      spans.forEach((s, k) => {
        if (shownAt(s, ms)) shown[k]++;
      });
      changed += unblendFrame(frame, info, models, ms);
      await writeFrame(stdin, frame);
      onProgress(++index / total);
    }
    stdin.end();
  })();
  try {
    try {
      await Promise.all([work, decoder.done, encoder.done]);
    } catch (e) {
      decoder.kill();
      encoder.kill();
      if (!signal?.aborted && (e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
      const ended = await Promise.allSettled([encoder.done, decoder.done]);
      const why = ended.find((s): s is PromiseRejectedResult => s.status === 'rejected');
      throw why ? why.reason : e;
    }
    // The original audio and metadata around the new picture.
    const faststart = final ? ['-movflags', '+faststart'] : [];
    await spawnMedia(
      'ffmpeg',
      ['-i', videoOnly, '-i', input, '-map', '0:v', '-map', '1:a?', '-c', 'copy', '-map_metadata', '1']
        .concat(faststart)
        .concat(['-y', output]),
      { signal },
    ).done;
  } catch (e) {
    await rm(output, { force: true });
    throw e;
  } finally {
    await rm(videoOnly, { force: true });
  }
  return { changed, shown };
}
