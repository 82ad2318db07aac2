import { pickGrayFrames, probeVideo } from '../ocr/frames.ts';
import type { Box } from '../ocr/types.ts';
import { recognizeVideo } from '../ocr/video.ts';
import { eraseVideo, pixelSpans, spansFromCues } from './erase.ts';
import { dilate } from './mask.ts';
import type {
  CheckErasedOptions,
  CheckErasedResult,
  Damage,
  DarkResidue,
  EraseMethod,
  Span,
} from './types.ts';

/** |mean luma inside − mean luma of the ring around| at or above this (0..255) is a visible patch. */
export const DARK_RESIDUE_DELTA = 28;
/** A pixel whose luma moved by more than this (0..255) was changed by the erase, not by the encoder. */
export const DAMAGE_DELTA = 12;
const PROBE_WIDTH = 640;

const overlaps = (a0: number, a1: number, s: Span) =>
  a1 > (s.start_ms ?? 0) && a0 < (s.end_ms ?? Number.POSITIVE_INFINITY);

/**
 * The check after erasing: recognises the regions of the erased video again (text still readable
 * during an erased span is residual) and measures each span's box against the picture around it at
 * the middle of the span (a box much darker or brighter than its surroundings is a visible patch:
 * "dark residue"). Given the `source` (the video before erasing), it also measures the damage at
 * that frame: what changed outside the text itself (its mask in the source).
 */
export async function checkErased(output: string, opts: CheckErasedOptions): Promise<CheckErasedResult> {
  const { engine, signal } = opts;
  const info = await probeVideo(output, { signal });
  const px = pixelSpans(opts.spans, info);
  const rec = await recognizeVideo(output, { engine, regions: opts.regions, fps: opts.fps ?? 4, signal });
  const residual: CheckErasedResult['residual'] = [];
  for (const t of rec.tracks) {
    for (const c of t.cues) {
      if (opts.spans.some((s) => overlaps(c.start_ms, c.end_ms, s))) {
        residual.push({ start_ms: c.start_ms, end_ms: c.end_ms, text: c.text, box: c.box });
      }
    }
  }
  residual.sort((a, b) => a.start_ms - b.start_ms);
  const residual_chars = residual.reduce((n, r) => n + [...r.text.replace(/\s+/gu, '')].length, 0);

  // Dark residue: one probe frame per span (its middle), gray, at most 640 px wide.
  const scale = Math.min(1, PROBE_WIDTH / info.width);
  const w = Math.max(2, Math.round((info.width * scale) / 2) * 2);
  const h = Math.max(2, Math.round((info.height * scale) / 2) * 2);
  const times = px.map((s) => {
    const a = s.start ?? 0;
    const b = Math.min(s.end ?? info.durationMs, info.durationMs);
    return Math.max(0, (a + b) / 2);
  });
  const frameNo = times.map((t) =>
    Math.min(Math.floor((t / 1000) * info.fps), Math.floor((info.durationMs / 1000) * info.fps) - 1),
  );
  const pick = (video: string) =>
    pickGrayFrames(['-i', video], frameNo, { fps: info.fps, width: w, height: h, signal });
  const picked = await pick(output);
  const before = opts.source ? await pick(opts.source) : undefined;
  const damage: Damage[] = [];
  const dark_residue: DarkResidue[] = [];
  px.forEach((s, i) => {
    const frame = picked.get(frameNo[i]);
    if (!frame) return;
    const box = {
      x: Math.round(s.x * scale),
      y: Math.round(s.y * scale),
      w: Math.max(1, Math.round(s.w * scale)),
      h: Math.max(1, Math.round(s.h * scale)),
    };
    const span = opts.spans[i];
    const source = before?.get(frameNo[i]);
    if (source) {
      damage.push({
        box: span.box,
        start_ms: span.start_ms ?? 0,
        end_ms: span.end_ms ?? info.durationMs,
        ...damageOf(source, frame, w, h, box, opts.wholeBox),
      });
    }
    const delta = lumaDelta(frame, w, h, box);
    if (delta !== null && Math.abs(delta) >= DARK_RESIDUE_DELTA) {
      dark_residue.push({
        box: span.box,
        start_ms: span.start_ms ?? 0,
        end_ms: span.end_ms ?? info.durationMs,
        mean_luma_delta: Math.round(delta * 10) / 10,
      });
    }
  });
  return { residual, residual_chars, dark_residue, ...(opts.source ? { damage } : {}) };
}

/**
 * The text's strokes in one frame, strictly (a single frame cannot tell text from picture by
 * stillness): very bright with a much darker pixel within 2 px, grown by 2 px for the outline.
 */
function strokeMask(frame: Uint8Array, width: number, b: { x: number; y: number; w: number; h: number }) {
  const core = new Uint8Array(b.w * b.h);
  for (let y = b.y; y < b.y + b.h; y++) {
    for (let x = b.x; x < b.x + b.w; x++) {
      const v = frame[y * width + x];
      if (v < STROKE) continue;
      for (const [dx, dy] of STROKE_REACH) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < b.x || yy < b.y || xx >= b.x + b.w || yy >= b.y + b.h) continue;
        if (frame[yy * width + xx] <= v - STROKE_CONTRAST) {
          core[(y - b.y) * b.w + (x - b.x)] = 1;
          break;
        }
      }
    }
  }
  return dilate(core, b.w, b.h, 2);
}

const STROKE = 190;
const STROKE_CONTRAST = 110;
const STROKE_REACH = [1, 2].flatMap((d) => [
  [d, 0],
  [-d, 0],
  [0, d],
  [0, -d],
]);

/**
 * What an erase changed besides the text, in one frame: over the box and a ring around it (half the
 * box height wide), the pixels outside the text's mask (found in `before`) whose luma moved by more
 * than DAMAGE_DELTA. delogo and blur change their whole box; fill, only the text. With `wholeBox` (a
 * watermark: the whole box is what was erased) only the ring counts.
 */
export function damageOf(
  before: Uint8Array,
  after: Uint8Array,
  width: number,
  height: number,
  b: { x: number; y: number; w: number; h: number },
  wholeBox = false,
): { changed_share: number; mean_change: number } {
  const text = wholeBox ? null : strokeMask(before, width, b);
  const ring = Math.max(2, Math.round(b.h / 2));
  let changed = 0;
  let sum = 0;
  let n = 0;
  for (let y = Math.max(0, b.y - ring); y < Math.min(height, b.y + b.h + ring); y++) {
    for (let x = Math.max(0, b.x - ring); x < Math.min(width, b.x + b.w + ring); x++) {
      const inBox = x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;
      if (inBox && (!text || text[(y - b.y) * b.w + (x - b.x)])) continue;
      const d = Math.abs(before[y * width + x] - after[y * width + x]);
      if (d > DAMAGE_DELTA) changed++;
      sum += d;
      n++;
    }
  }
  return {
    changed_share: n ? Math.round((changed / n) * 1000) / 1000 : 0,
    mean_change: n ? Math.round((sum / n) * 10) / 10 : 0,
  };
}

/** Mean luma inside the box minus the mean of a ring around it (half the box height wide). */
export function lumaDelta(
  frame: Uint8Array,
  width: number,
  height: number,
  b: { x: number; y: number; w: number; h: number },
): number | null {
  const ring = Math.max(2, Math.round(b.h / 2));
  const x0 = Math.max(0, b.x - ring);
  const y0 = Math.max(0, b.y - ring);
  const x1 = Math.min(width, b.x + b.w + ring);
  const y1 = Math.min(height, b.y + b.h + ring);
  let inSum = 0;
  let inN = 0;
  let outSum = 0;
  let outN = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const v = frame[y * width + x];
      if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h) {
        inSum += v;
        inN++;
      } else {
        outSum += v;
        outN++;
      }
    }
  }
  if (!inN || !outN) return null;
  return inSum / inN - outSum / outN;
}

/**
 * Second pass: erases, on top of `erased`, what `check` found — residual text (its box padded, its
 * time ± `marginMs`) and dark residue. Dark residue is blurred (another delogo would draw the same
 * patch), so any dark residue makes the whole pass a blur pass. Returns the spans it erased; `[]` =
 * nothing to do and `output` is not written.
 */
export async function eraseAgain(
  erased: string,
  output: string,
  opts: {
    check: CheckErasedResult;
    method: EraseMethod;
    marginMs?: number;
    padBox?: number;
    signal?: AbortSignal;
  },
): Promise<Span[]> {
  const { check } = opts;
  const spans: Span[] = [
    ...spansFromCues(check.residual, { marginMs: opts.marginMs ?? 250, padBox: opts.padBox ?? 0.01 }),
    ...check.dark_residue.map((d) => ({ box: d.box, start_ms: d.start_ms, end_ms: d.end_ms })),
  ];
  if (!spans.length) return [];
  const method: EraseMethod = check.dark_residue.length ? 'blur' : opts.method;
  await eraseVideo(erased, output, { method, spans: clampToFrame(spans), signal: opts.signal });
  return spans;
}

function clampToFrame(spans: Span[]): Span[] {
  return spans.map((s) => {
    const b: Box = { ...s.box };
    b.x = Math.max(0, b.x);
    b.y = Math.max(0, b.y);
    b.w = Math.min(1 - b.x, b.w);
    b.h = Math.min(1 - b.y, b.h);
    return { ...s, box: b };
  });
}
