import { rm, writeFile } from 'node:fs/promises';
import { runFfmpeg } from '../media/run.ts';
import type { Rect } from './yuv.ts';

/**
 * Clips with a known clean picture, for the erase tests and `npm run bench:erase`: a clean clip made
 * by ffmpeg (a texture or smooth "skin" gradients, still, panning, or moving in the band only), the
 * same clip with subtitles burned in by drawtext (Noto Sans CJK), and the measures of an erased clip
 * against the clean one — in the text boxes and outside them.
 */

export type CleanKind = 'static' | 'pan' | 'band' | 'face';

export interface TruthCue {
  text: string;
  start_ms: number;
  end_ms: number;
}

const FONT = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';

/** Structured texture with grain: several waves plus blurred noise, in colour. */
const TEXTURE =
  "geq=lum='128+45*sin(X/11)*cos(Y/17)+30*sin((X+2*Y)/37)+20*cos(X/5+Y/7)':cb='128+30*sin(X/23)':cr='128+30*cos(Y/19+X/41)'";
/** Smooth skin-like blobs (faces, chins, hands): wide gaussians over a warm gradient. */
const FACE =
  "geq=lum='70+120*exp(-(pow((X-W*0.5)/(W*0.2),2)+pow((Y-H*0.75)/(H*0.25),2)))+40*exp(-(pow((X-W*0.25)/(W*0.1),2)+pow((Y-H*0.9)/(H*0.12),2)))+Y/H*20':cb='110+10*X/W':cr='150+12*Y/H'";

/** A clean clip of `kind`: `width`×`height`, 25 fps, `seconds` long, x264 near-lossless. */
export async function makeCleanClip(
  out: string,
  kind: CleanKind,
  o: { width: number; height: number; seconds: number; signal?: AbortSignal },
): Promise<void> {
  const { width: w, height: h, seconds } = o;
  const picture = `${out}.png`;
  // The picture is drawn once (geq is slow), then moved and given fresh grain in every frame.
  await runFfmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `nullsrc=s=${w * 2}x${h}:d=0.04`,
      '-vf',
      `format=yuv444p,${kind === 'face' ? FACE : TEXTURE}`,
    ].concat(['-frames:v', '1', '-y', picture]),
    { restrictDemuxers: false, signal: o.signal },
  );
  // Pixels per frame: a slow pan moves the whole picture, `band` only the lower third.
  const speed = { static: 0, pan: 2, band: 3, face: 1 }[kind];
  const moving = `crop=${w}:${h}:x='min(${w}\\,n*${speed})':y=0`;
  const low = Math.round(h / 3);
  const graph =
    kind === 'band'
      ? `[0:v]split[a][b];[a]crop=${w}:${h}:0:0[top];[b]${moving},crop=${w}:${low}:0:${h - low}[low];[top][low]overlay=0:${h - low}`
      : `[0:v]${moving}`;
  await runFfmpeg(
    ['-loop', '1', '-framerate', '25', '-i', picture, '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono']
      .concat([
        '-filter_complex',
        `${graph},noise=alls=3:allf=t,format=yuv420p[v]`,
        '-map',
        '[v]',
        '-map',
        '1:a',
      ])
      .concat([
        '-t',
        String(seconds),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '4',
        '-c:a',
        'aac',
        '-y',
        out,
      ]),
    { restrictDemuxers: false, signal: o.signal, timeoutMs: 10 * 60_000 },
  );
  await rm(picture, { force: true });
}

/** Burns `cues` at the bottom centre: white strokes with a black outline and a soft shadow. */
export async function burnCues(
  clean: string,
  out: string,
  cues: TruthCue[],
  o: { height: number; dir: string; signal?: AbortSignal },
): Promise<void> {
  const size = Math.round(o.height * 0.065);
  const filters = await Promise.all(
    cues.map(async (c, i) => {
      const file = `${o.dir}/cue-${i}.txt`;
      await writeFile(file, c.text);
      const on = `between(t\\,${(c.start_ms / 1000).toFixed(3)}\\,${(c.end_ms / 1000).toFixed(3)})`;
      return `drawtext=fontfile=${FONT}:textfile=${file}:fontsize=${size}:fontcolor=white:borderw=${Math.max(2, Math.round(size / 16))}:bordercolor=black:shadowx=2:shadowy=2:shadowcolor=black@0.6:x=(w-text_w)/2:y=h-text_h-${Math.round(o.height * 0.07)}:enable='${on}'`;
    }),
  );
  await runFfmpeg(
    [
      '-i',
      clean,
      '-vf',
      filters.join(','),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '4',
      '-c:a',
      'copy',
      '-y',
      out,
    ],
    { signal: o.signal, timeoutMs: 10 * 60_000 },
  );
}

/** Every frame's luma, one buffer per frame. */
export async function lumaFrames(video: string, width: number, height: number): Promise<Uint8Array[]> {
  const raw = await runFfmpeg(
    ['-i', video, '-an', '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'],
    {
      timeoutMs: 10 * 60_000,
    },
  );
  const size = width * height;
  const frames: Uint8Array[] = [];
  for (let at = 0; at + size <= raw.length; at += size) frames.push(raw.subarray(at, at + size));
  return frames;
}

/**
 * The box of each cue where it was burned: pixels that differ from the clean clip by more than 24
 * in the frame at the cue's middle, grown by `pad` pixels.
 */
export function burnedBoxes(
  clean: Uint8Array[],
  burned: Uint8Array[],
  cues: TruthCue[],
  o: { width: number; height: number; fps: number; pad: number },
): Rect[] {
  return cues.map((c) => {
    const f = Math.round(((c.start_ms + c.end_ms) / 2000) * o.fps);
    const a = clean[f];
    const b = burned[f];
    let x0 = o.width;
    let y0 = o.height;
    let x1 = 0;
    let y1 = 0;
    for (let y = 0; y < o.height; y++) {
      for (let x = 0; x < o.width; x++) {
        if (Math.abs(a[y * o.width + x] - b[y * o.width + x]) <= 24) continue;
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x + 1);
        y1 = Math.max(y1, y + 1);
      }
    }
    x0 = Math.max(2, x0 - o.pad);
    y0 = Math.max(2, y0 - o.pad);
    x1 = Math.min(o.width - 2, x1 + o.pad);
    y1 = Math.min(o.height - 2, y1 + o.pad);
    return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  });
}

export interface Measures {
  /** Luma PSNR (dB) inside the boxes while their cue is shown, all frames pooled. */
  inBoxPsnr: number;
  /** Mean luma SSIM inside the boxes while shown (8 × 8 windows, step 4). */
  inBoxSsim: number;
  /** Luma PSNR of every pixel outside the boxes (all frames pooled). */
  outsidePsnr: number;
}

const psnr = (sse: number, n: number) => (n && sse ? 10 * Math.log10((255 * 255 * n) / sse) : 100);

function ssim(a: Uint8Array, b: Uint8Array, stride: number, r: Rect): { sum: number; n: number } {
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0;
  let n = 0;
  for (let y = r.y; y + 8 <= r.y + r.h; y += 4) {
    for (let x = r.x; x + 8 <= r.x + r.w; x += 4) {
      let sa = 0;
      let sb = 0;
      let saa = 0;
      let sbb = 0;
      let sab = 0;
      for (let j = 0; j < 8; j++) {
        for (let i = 0; i < 8; i++) {
          const p = a[(y + j) * stride + x + i];
          const q = b[(y + j) * stride + x + i];
          sa += p;
          sb += q;
          saa += p * p;
          sbb += q * q;
          sab += p * q;
        }
      }
      const ma = sa / 64;
      const mb = sb / 64;
      const va = saa / 64 - ma * ma;
      const vb = sbb / 64 - mb * mb;
      const cov = sab / 64 - ma * mb;
      sum += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2));
      n++;
    }
  }
  return { sum, n };
}

/** Erased vs clean, in the boxes of the cues shown in each frame and outside every box. */
export function measure(
  clean: Uint8Array[],
  erased: Uint8Array[],
  cues: TruthCue[],
  boxes: Rect[],
  o: { width: number; height: number; fps: number },
): Measures {
  const inside = new Uint8Array(o.width * o.height);
  for (const b of boxes) {
    for (let y = b.y; y < b.y + b.h; y++) inside.fill(1, y * o.width + b.x, y * o.width + b.x + b.w);
  }
  let inSse = 0;
  let inN = 0;
  let outSse = 0;
  let outN = 0;
  let ssimSum = 0;
  let ssimN = 0;
  const frames = Math.min(clean.length, erased.length);
  for (let f = 0; f < frames; f++) {
    const a = clean[f];
    const b = erased[f];
    const ms = (f / o.fps) * 1000;
    for (let i = 0; i < a.length; i++) {
      if (inside[i]) continue;
      const d = a[i] - b[i];
      outSse += d * d;
      outN++;
    }
    cues.forEach((c, k) => {
      if (ms < c.start_ms || ms > c.end_ms) return;
      const r = boxes[k];
      for (let y = r.y; y < r.y + r.h; y++) {
        for (let x = r.x; x < r.x + r.w; x++) {
          const d = a[y * o.width + x] - b[y * o.width + x];
          inSse += d * d;
          inN++;
        }
      }
      const s = ssim(a, b, o.width, r);
      ssimSum += s.sum;
      ssimN += s.n;
    });
  }
  return {
    inBoxPsnr: psnr(inSse, inN),
    inBoxSsim: ssimN ? ssimSum / ssimN : 1,
    outsidePsnr: psnr(outSse, outN),
  };
}

/** A watermark shown at `rect` from `start_ms` to `end_ms` (exclusive). */
export interface TruthMark {
  rect: Rect;
  start_ms: number;
  end_ms: number;
}

/**
 * Lays a semi-transparent logo over the clean clip: a white plate at 40 % with "VW" in black at 50 %
 * (its edges are the watermark's), at each mark's place and time.
 */
export async function burnWatermark(
  clean: string,
  out: string,
  marks: TruthMark[],
  o: { signal?: AbortSignal },
): Promise<void> {
  const filters = marks.flatMap((m) => {
    const on = `gte(t\\,${(m.start_ms / 1000).toFixed(3)})*lt(t\\,${(m.end_ms / 1000).toFixed(3)})`;
    const r = m.rect;
    return [
      `drawbox=x=${r.x}:y=${r.y}:w=${r.w}:h=${r.h}:color=white@0.4:t=fill:enable='${on}'`,
      `drawtext=fontfile=${FONT}:text=VW:fontsize=${Math.round(r.h * 0.7)}:fontcolor=black@0.5:x=${r.x}+(${r.w}-text_w)/2:y=${r.y}+(${r.h}-text_h)/2:enable='${on}'`,
    ];
  });
  await runFfmpeg(
    ['-i', clean, '-vf', filters.join(','), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '4'].concat([
      '-c:a',
      'copy',
      '-y',
      out,
    ]),
    { signal: o.signal, timeoutMs: 10 * 60_000 },
  );
}
