import { rm } from 'node:fs/promises';
import { EngineError } from '../errors.ts';
import { spawnMedia } from '../media/run.ts';
import { assertBox, probeVideo, type VideoInfo } from '../ocr/frames.ts';
import type { Box } from '../ocr/types.ts';
import { fillVideo } from './fill.ts';
import {
  ERASE_METHODS,
  type EraseOptions,
  type EraseResult,
  type FilterMethod,
  type Span,
  type SpansFromCuesOptions,
} from './types.ts';

interface PixelSpan {
  x: number;
  y: number;
  w: number;
  h: number;
  start: number | null;
  end: number | null;
}

const invalid = (zh: string, en: string) => new EngineError('invalid_request', zh, en);

/** Checks spans against the video and turns them into pixels; ranges are clipped to the video. */
export function pixelSpans(spans: Span[], info: VideoInfo): PixelSpan[] {
  if (!spans.length) throw invalid('请至少选择一个擦除区域', 'no spans to erase');
  return spans.map((s, i) => {
    assertBox(s.box, info.width, info.height, `span ${i}`);
    const start = s.start_ms ?? null;
    const end = s.end_ms ?? null;
    for (const v of [start, end]) {
      if (v !== null && (!Number.isFinite(v) || v < 0)) {
        throw invalid('时间范围无效', `span ${i}: time ${v} is not a time`);
      }
    }
    if (start !== null && end !== null && end <= start) {
      throw invalid('时间范围无效：结束早于开始', `span ${i}: end ${end} ≤ start ${start}`);
    }
    if (start !== null && info.durationMs && start >= info.durationMs) {
      throw invalid(
        '时间范围超出视频长度',
        `span ${i}: starts at ${start} ms, video is ${info.durationMs} ms long`,
      );
    }
    // delogo needs a 1-pixel border of picture around its box.
    const x = Math.max(1, Math.round(s.box.x * info.width));
    const y = Math.max(1, Math.round(s.box.y * info.height));
    const w = Math.max(1, Math.min(Math.round(s.box.w * info.width), info.width - 1 - x));
    const h = Math.max(1, Math.min(Math.round(s.box.h * info.height), info.height - 1 - y));
    return { x, y, w, h, start, end };
  });
}

const enableExpr = (ranges: Array<{ start: number | null; end: number | null }>) => {
  if (ranges.some((r) => r.start === null && r.end === null)) return '';
  const terms = ranges.map((r) => {
    const a = ((r.start ?? 0) / 1000).toFixed(3);
    return r.end === null ? `gte(t\\,${a})` : `between(t\\,${a}\\,${(r.end / 1000).toFixed(3)})`;
  });
  return `:enable='${terms.join('+')}'`;
};

/** fast: one delogo per span, switched on only during its range. */
function delogoGraph(spans: PixelSpan[], input = '0:v', output = 'v'): string {
  return `[${input}]${spans.map((s) => `delogo=x=${s.x}:y=${s.y}:w=${s.w}:h=${s.h}${enableExpr([s])}`).join(',')}[${output}]`;
}

const MAX_BLUR_GROUPS = 8;

/**
 * blur: the box cut out, box-blurred and laid back over the frame during its ranges. Spans with the
 * same box share one branch; more than 8 boxes are merged into the union of overlapping ones.
 */
function blurGraph(spans: PixelSpan[], input = '0:v', output = 'v'): string {
  type Group = { x: number; y: number; w: number; h: number; ranges: PixelSpan[] };
  const groups: Group[] = [];
  for (const s of spans) {
    const g = groups.find((k) => k.x === s.x && k.y === s.y && k.w === s.w && k.h === s.h);
    if (g) g.ranges.push(s);
    else groups.push({ x: s.x, y: s.y, w: s.w, h: s.h, ranges: [s] });
  }
  while (groups.length > MAX_BLUR_GROUPS) {
    // Merge the two groups whose union grows the least.
    let best: [number, number, number] = [0, 1, Number.POSITIVE_INFINITY];
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const a = groups[i];
        const b = groups[j];
        const x = Math.min(a.x, b.x);
        const y = Math.min(a.y, b.y);
        const area = (Math.max(a.x + a.w, b.x + b.w) - x) * (Math.max(a.y + a.h, b.y + b.h) - y);
        const cost = area - a.w * a.h - b.w * b.h;
        if (cost < best[2]) best = [i, j, cost];
      }
    }
    const [i, j] = best;
    const a = groups[i];
    const b = groups[j];
    const x = Math.min(a.x, b.x);
    const y = Math.min(a.y, b.y);
    groups[i] = {
      x,
      y,
      w: Math.max(a.x + a.w, b.x + b.w) - x,
      h: Math.max(a.y + a.h, b.y + b.h) - y,
      ranges: [...a.ranges, ...b.ranges],
    };
    groups.splice(j, 1);
  }
  const parts = [`[${input}]split=${groups.length + 1}[base]${groups.map((_, i) => `[c${i}]`).join('')}`];
  let last = 'base';
  groups.forEach((g, i) => {
    const w = g.w - (g.w % 2);
    const h = g.h - (g.h % 2);
    const radius = Math.max(2, Math.min(Math.floor(Math.min(w, h) / 2) - 1, 20));
    const chroma = Math.max(1, Math.min(radius, Math.floor(Math.min(w, h) / 4) - 1));
    parts.push(`[c${i}]crop=${w}:${h}:${g.x}:${g.y},boxblur=${radius}:3:${chroma}:3[b${i}]`);
    parts.push(`[${last}][b${i}]overlay=${g.x}:${g.y}${enableExpr(g.ranges)}[o${i}]`);
    last = `o${i}`;
  });
  parts.push(`[${last}]null[${output}]`);
  return parts.join(';');
}

/**
 * The erase filters as a filter-graph fragment from `input` to `output` labels, so another encode
 * (the dubbing render) can erase and burn subtitles in one pass.
 */
export function eraseFilterGraph(
  spans: Span[],
  method: FilterMethod,
  info: VideoInfo,
  input: string,
  output: string,
): string {
  const pixels = pixelSpans(spans, info);
  return method === 'blur' ? blurGraph(pixels, input, output) : delogoGraph(pixels, input, output);
}

const X264_PIX_FMTS = new Set(['yuv420p', 'yuvj420p', 'yuv422p', 'yuv444p', 'yuv420p10le', 'nv12']);

/** x264 settings near the original: same pixel format and size, CRF 18 capped near the original rate. */
export function videoEncodeArgs(info: VideoInfo): string[] {
  const pix = X264_PIX_FMTS.has(info.pixFmt) ? info.pixFmt : 'yuv420p';
  const cap =
    info.bitRate > 0
      ? ['-maxrate', String(Math.round(info.bitRate * 1.3)), '-bufsize', String(Math.round(info.bitRate * 2))]
      : [];
  return ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', ...cap, '-pix_fmt', pix];
}

/**
 * Erases boxes × time ranges from a video (fast: ffmpeg delogo; blur: box blur; fill: the text's
 * pixels from nearby frames, else inpainted), keeping size, pixel format and frame rate, re-encoding
 * the picture with x264 and copying the audio. A failed or cancelled run leaves no output file.
 */
export async function eraseVideo(input: string, output: string, opts: EraseOptions): Promise<EraseResult> {
  if (!ERASE_METHODS.includes(opts.method)) {
    throw invalid(
      '不支持的擦除方式',
      `method ${String(opts.method)} is not one of ${ERASE_METHODS.join(', ')}`,
    );
  }
  const info = await probeVideo(input, { signal: opts.signal });
  const spans = pixelSpans(opts.spans, info);
  if (opts.method === 'fill') {
    const counts = await fillVideo(input, output, {
      info,
      spans,
      encode: videoEncodeArgs(info),
      mask: opts.mask,
      inpaint: { lamaModel: opts.lamaModel },
      signal: opts.signal,
      onProgress: opts.onProgress,
    });
    return {
      method: 'fill',
      temporal_share: counts.masked ? counts.temporal / counts.masked : 1,
      mask_share: counts.boxed ? counts.masked / counts.boxed : 0,
      ...(counts.inpainted > 0 ? { inpaint: counts.inpaint } : {}),
    };
  }
  const graph = opts.method === 'blur' ? blurGraph(spans) : delogoGraph(spans);
  const args = [
    '-i',
    input,
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-map',
    '0:a?',
    ...videoEncodeArgs(info),
    '-c:a',
    'copy',
    '-map_metadata',
    '0',
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
    '-nostats',
    '-y',
    output,
  ];
  const proc = spawnMedia('ffmpeg', args, { signal: opts.signal, timeoutMs: 6 * 60 * 60_000 });
  let buf = '';
  proc.child.stdout.on('data', (c: Buffer) => {
    buf += c.toString('utf8');
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const l of lines) {
      const m = /^out_time_us=(\d+)/.exec(l);
      if (m && info.durationMs) opts.onProgress?.(Math.min(1, Number(m[1]) / 1000 / info.durationMs));
    }
  });
  try {
    await proc.done;
  } catch (e) {
    await rm(output, { force: true });
    throw e;
  }
  opts.onProgress?.(1);
  return { method: opts.method };
}

/**
 * Spans for erasing only while recognised subtitles are shown: each cue's box grown by `padBox` on
 * every side (kept inside the frame), its time by `marginMs` before and after.
 */
export function spansFromCues(
  cues: Array<{ start_ms: number; end_ms: number; box: Box }>,
  opts: SpansFromCuesOptions,
): Span[] {
  return cues.map((c) => {
    const x = Math.max(0, c.box.x - opts.padBox);
    const y = Math.max(0, c.box.y - opts.padBox);
    return {
      box: {
        x,
        y,
        w: Math.min(1, c.box.x + c.box.w + opts.padBox) - x,
        h: Math.min(1, c.box.y + c.box.h + opts.padBox) - y,
      },
      start_ms: Math.max(0, c.start_ms - opts.marginMs),
      end_ms: c.end_ms + opts.marginMs,
    };
  });
}
