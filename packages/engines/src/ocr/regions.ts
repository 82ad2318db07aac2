import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../errors.ts';
import { grabFrame, probeVideo } from './frames.ts';
import type { Box, DetectedRegion, DetectRegionsOptions, DetectRegionsResult, OcrLine } from './types.ts';

export interface Hit {
  frame: number;
  box: Box;
}

interface Cluster {
  hits: Hit[];
  y0: number;
  y1: number;
}

/** A box more than this many line heights tall is no one line's (see bandOf). */
const TALL_BOX = 1.5;

/** Whether some frame shows two of the lines one above the other (centres a line height apart). */
function twoLines(hits: Hit[], lineH: number): boolean {
  const centre = (h: Hit) => h.box.y + h.box.h / 2;
  return hits.some((a) => hits.some((b) => a.frame === b.frame && centre(b) - centre(a) >= lineH * 0.9));
}

/**
 * The band a group of lines (seen over several frames) calls for: their extent padded by 0.6 of a
 * line, and for a group that never showed two lines at once, room for one more line on its inner side.
 */
export function bandOf(hits: Hit[]): { y: number; h: number; kind: 'subtitle' | 'title' } {
  // The median: a busy picture now and then gives a line a box several lines tall, which says
  // neither how tall a line is nor where the band ends.
  const heights = hits.map((h) => h.box.h).sort((a, b) => a - b);
  const lineH = heights[heights.length >> 1];
  const lines = hits.filter((h) => h.box.h <= lineH * TALL_BOX);
  const y0 = Math.min(...lines.map((h) => h.box.y));
  const y1 = Math.max(...lines.map((h) => h.box.y + h.box.h));
  const pad = lineH * 0.6;
  const centre = (y0 + y1) / 2;
  // Bottom subtitles grow upwards when a cue has two lines (titles at the top grow downwards), and
  // a few samples easily miss the rarer two-line cues: leave room for one more line on that side,
  // unless a sample showed two lines stacked (a subtitle has at most two).
  const grow = twoLines(lines, lineH) ? pad : lineH * 1.6;
  const y = Math.max(0, y0 - (centre >= 0.5 ? grow : pad));
  const bottom = Math.min(1, y1 + (centre >= 0.5 ? pad : grow));
  return { y, h: bottom - y, kind: centre >= 0.5 ? 'subtitle' : 'title' };
}

/** A line is a subtitle candidate when its centre is near the middle of the frame horizontally. */
const CENTRED = 0.15;

/**
 * Where subtitles are: text lines found by OCR on `samples` frames spread over the video, grouped by
 * height; a group seen in several frames and horizontally centred is a region — in the lower half a
 * 'subtitle', in the upper half a 'title'. Lines that touch vertically (a bilingual two-line subtitle)
 * form one region. Regions span the frame's width (subtitle lengths vary) with some vertical padding.
 */
export async function detectSubtitleRegions(
  video: string,
  opts: DetectRegionsOptions,
): Promise<DetectRegionsResult> {
  const { engine, signal } = opts;
  const samples = Math.max(3, Math.min(40, opts.samples ?? 12));
  const info = await probeVideo(video, { signal });
  if (!info.durationMs)
    throw new EngineError('media_unsupported', '无法读取视频长度', `${video}: no duration`);
  const frame_ms = Array.from({ length: samples }, (_, i) =>
    Math.round(((i + 0.5) * info.durationMs) / samples),
  );
  const dir = await mkdtemp(join(tmpdir(), 'vw-regions-'));
  const hits: Hit[] = [];
  try {
    const frames = await Promise.all(
      frame_ms.map(async (ms, i) => {
        const file = join(dir, `f${i}.jpg`);
        await grabFrame(video, ms, file, { maxWidth: 960, signal });
        return file;
      }),
    );
    const results = await Promise.all(frames.map((f) => engine.recognize(f, { signal })));
    results.forEach((lines: OcrLine[], frame) => {
      for (const l of lines) {
        if (l.score < 0.7 || l.text.trim().length < 2) continue;
        const cx = l.box.x + l.box.w / 2;
        if (Math.abs(cx - 0.5) > CENTRED) continue;
        hits.push({ frame, box: l.box });
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  // Group lines by vertical overlap, then join groups that touch (two-line subtitles).
  const clusters: Cluster[] = [];
  for (const h of hits.sort((a, b) => a.box.y - b.box.y)) {
    const y0 = h.box.y;
    const y1 = h.box.y + h.box.h;
    // Lines less than one line height apart belong together (the two lines of a bilingual cue).
    const c = clusters.find((k) => y0 < k.y1 + h.box.h && y1 > k.y0 - h.box.h);
    if (c) {
      c.hits.push(h);
      c.y0 = Math.min(c.y0, y0);
      c.y1 = Math.max(c.y1, y1);
    } else clusters.push({ hits: [h], y0, y1 });
  }

  const minFrames = Math.max(2, Math.ceil(samples * 0.2));
  const regions: DetectedRegion[] = [];
  for (const c of clusters) {
    const seen = new Set(c.hits.map((h) => h.frame)).size;
    if (seen < minFrames) continue;
    const { y, h, kind } = bandOf(c.hits);
    regions.push({
      x: 0.02,
      y,
      w: 0.96,
      h,
      kind,
      confidence: Math.round((seen / samples) * 100) / 100,
    });
  }
  // Subtitles first (most confident first), then titles.
  regions.sort((a, b) => (a.kind === b.kind ? b.confidence - a.confidence : a.kind === 'subtitle' ? -1 : 1));
  return { regions, frame_ms };
}
