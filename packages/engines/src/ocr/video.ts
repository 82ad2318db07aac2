import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '../errors.ts';
import { runFfmpeg } from '../media/run.ts';
import { assertBox, pixelBox, probeVideo, type VideoInfo } from './frames.ts';
import { changeFrame, partOwners, shownOwners } from './shown.ts';
import {
  convertScript,
  lineScript,
  nearPartOf,
  sameCueText,
  textPartOf,
  textSimilarity,
  voteText,
} from './text.ts';
import { maskDistance, steadyMask, type TextMask, textMask } from './textmask.ts';
import type {
  Box,
  OcrCue,
  OcrEngine,
  OcrLine,
  OcrTrack,
  RecognizeVideoOptions,
  RecognizeVideoResult,
} from './types.ts';

/** Masks closer than this are the same subtitle: the band is not recognised again. */
const SAME_MASK = 0.3;
/** Fewer mask pixels than this (per 10 000 dense pixels) = no text in the band. */
const EMPTY_MASK_PER_10K = 8;
/** Consecutive samples whose texts are at least this similar belong to one cue. */
const SAME_TEXT = 0.6;
/**
 * Samples a cue may skip (text not read, or misread) and still continue when its text is read again
 * after them: a busy background hides a cue from OCR in a frame now and then.
 */
const MAX_GAP = 3;
/** Two cues this similar with only unread samples between are one cue (see buildCues)… */
const SAME_CUE_AGAIN = 0.8;
/** …when what was not read lasts at most this long… */
const HIDDEN_SECONDS = 2;
/** …and a cue read this many times or fewer between them is a misread of theirs. */
const MISREAD_READS = 2;
/**
 * Lines read with less confidence than `minScore` but at least this much never start a cue nor vote
 * on its text; they only carry a cue already read through frames where the background blurs it.
 */
const WEAK_SCORE = 0.5;
/** A pixel belongs to a cue's own mask when set in at least this share of the cue's samples. */
const STEADY = 0.6;
/**
 * Median luma change between consecutive frames above which the band is busy (grain, texture in
 * motion): there a mask without text-like pixels does not mean "no text", the sample is read anyway.
 */
const BUSY_MEDIAN = 2;
/**
 * On a moving picture grain changes the text mask at every sample, so the mask cannot tell "same
 * text" there: every this many samples one is read, the others only where the reads around differ.
 */
const READ_GRID = 4;
/** Width of the band for change detection (every frame, gray). */
const DENSE_WIDTH = 480;
/** Width of the band handed to OCR (sampled frames). */
const OCR_WIDTH = 960;
/** Each line's box grows by this share of its height on every side. */
const LINE_PAD = 0.6;
/** Seconds of video per chunk (one ffmpeg run, one checkpoint). */
const CHUNK_SECONDS = 60;

interface Geometry {
  crop: { x: number; y: number; w: number; h: number };
  dense: { w: number; h: number };
  ocr: { w: number; h: number };
}

export interface SampleResult {
  /** Global frame index. */
  n: number;
  /** Empty = no text read in the band. */
  lines: OcrLine[];
  /** Frame where the band changed to this sample's state (for the first sample of a state). */
  from: number;
  /** Lines read below `minScore` (and ≥ WEAK_SCORE): evidence that a cue goes on, nothing more. */
  weak?: OcrLine[];
  /** The band showed no text-like pixels at all (a cue never continues across such a sample). */
  blank?: boolean;
}

interface ChunkResult {
  regions: SampleResult[][];
  recognised: number;
}

const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);

function geometry(region: Box, info: VideoInfo): Geometry {
  const crop = pixelBox(region, info.width, info.height);
  const ds = Math.min(1, DENSE_WIDTH / crop.w);
  const os = Math.min(1, OCR_WIDTH / crop.w);
  return {
    crop,
    dense: { w: even(crop.w * ds), h: even(crop.h * ds) },
    ocr: { w: even(crop.w * os), h: even(crop.h * os) },
  };
}

const aborted = () => new EngineError('aborted', '字幕识别已取消', 'subtitle recognition aborted');

/** One ffmpeg pass over a chunk: every frame of every band small and gray, every `step`-th as JPEG. */
async function extractChunk(
  video: string,
  dir: string,
  geos: Geometry[],
  first: number,
  frames: number,
  step: number,
  fps: number,
  signal?: AbortSignal,
) {
  const chains: string[] = [];
  const outputs: string[] = [];
  const split =
    geos.length > 1 ? `split=${geos.length}${geos.map((_, i) => `[in${i}]`).join('')}` : 'null[in0]';
  chains.push(`[0:v]trim=end_frame=${frames},setpts=PTS-STARTPTS,${split}`);
  geos.forEach((g, i) => {
    const { crop } = g;
    chains.push(`[in${i}]crop=${crop.w}:${crop.h}:${crop.x}:${crop.y},split[d${i}][s${i}]`);
    chains.push(`[d${i}]scale=${g.dense.w}:${g.dense.h}:flags=area,format=gray[dense${i}]`);
    chains.push(
      `[s${i}]select='not(mod(n\\,${step}))',scale=${g.ocr.w}:${g.ocr.h}:flags=bicubic,format=yuvj420p[ocr${i}]`,
    );
    outputs.push('-map', `[dense${i}]`, '-f', 'rawvideo', join(dir, `dense${i}.gray`));
    outputs.push('-map', `[ocr${i}]`, '-fps_mode', 'passthrough', '-q:v', '2', join(dir, `s${i}_%05d.jpg`));
  });
  const seek = first > 0 ? ['-ss', (first / fps).toFixed(4)] : [];
  await runFfmpeg(
    [...seek, '-i', video, '-an', '-sn', '-filter_complex', chains.join(';'), ...outputs, '-y'],
    { signal, timeoutMs: 20 * 60_000 },
  );
}

/** Recognises one chunk: change detection on every frame, OCR on changed samples only. */
/** Frames of one chunk extracted into a scratch folder (deleted by whoever consumes it). */
async function prepareChunk(
  video: string,
  geos: Geometry[],
  chunk: { first: number; frames: number; lead: number },
  step: number,
  info: VideoInfo,
  signal?: AbortSignal,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vw-ocr-'));
  try {
    await extractChunk(
      video,
      dir,
      geos,
      chunk.first - chunk.lead,
      chunk.frames + chunk.lead,
      step,
      info.fps,
      signal,
    );
    return dir;
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Recognises one extracted chunk: change detection on every frame, OCR on changed samples only. */
async function recogniseChunk(
  dir: string,
  geos: Geometry[],
  engine: OcrEngine,
  chunk: { first: number; frames: number; lead: number },
  step: number,
  minScore: number,
  signal?: AbortSignal,
): Promise<ChunkResult> {
  try {
    let recognised = 0;
    const regions: SampleResult[][] = [];
    for (let r = 0; r < geos.length; r++) {
      const { w, h } = geos[r].dense;
      const raw = await readFile(join(dir, `dense${r}.gray`));
      const size = w * h;
      const total = Math.floor(raw.length / size);
      const masks: TextMask[] = [];
      const emptyBelow = (EMPTY_MASK_PER_10K * size) / 10_000;
      for (let j = 0; j < total; j++) {
        const m = textMask(raw.subarray(j * size, (j + 1) * size), w, h);
        masks.push(m.count < emptyBelow ? { bits: m.bits, count: 0 } : m);
      }
      const samples: SampleResult[] = [];
      // For each sample: the recognised sample whose text it shows (itself when recognised), or null.
      const sources: Array<SampleResult | null> = [];
      // Every sample with its frame in the chunk (and its JPEG's number), the lead-in one included.
      const read: Array<{ j: number; sample: SampleResult; k: number }> = [];
      const readSample = (sample: SampleResult, k: number) =>
        engine.recognize(join(dir, `s${r}_${String(k).padStart(5, '0')}.jpg`), { signal }).then((lines) => {
          const text = lines.filter((l) => l.text.trim());
          sample.lines = text.filter((l) => l.score >= minScore);
          sample.weak = text.filter((l) => l.score < minScore && l.score >= WEAK_SCORE);
        });
      let lastMask: TextMask | null = null;
      let lastSource: SampleResult | null = null;
      // Samples (indices in `read`) whose text is decided once the grid's reads are in.
      const deferred = new Set<number>();
      const pending: Array<Promise<void>> = [];
      for (let j = 0, k = 1; j < total; j += step, k++) {
        if (signal?.aborted) throw aborted();
        const mask = masks[j];
        const n = chunk.first - chunk.lead + j;
        const frame = (i: number) => raw.subarray(i * size, (i + 1) * size);
        const { busy, calm } = bandMotion(frame, j, total, step);
        const sample: SampleResult = { n, lines: [], from: n, blank: !mask.count && calm };
        if (j >= step) {
          // The frame where the band switched from the previous sample's state to this one's.
          const prev = masks[j - step];
          for (let i = j - step + 1; i <= j; i++) {
            if (maskDistance(masks[i], mask, w) < maskDistance(masks[i], prev, w)) {
              sample.from = chunk.first - chunk.lead + i;
              break;
            }
          }
        }
        const fresh = !lastSource || !lastMask?.count;
        if (sample.blank) {
          lastMask = mask;
          lastSource = null;
        } else if (fresh || maskDistance(mask, lastMask as TextMask, w) >= SAME_MASK) {
          lastMask = mask;
          lastSource = sample;
          // Grain changes a busy band's mask at every sample: there only a grid is read at once.
          if (!fresh && busy && (k - 1) % READ_GRID && j + step < total) deferred.add(read.length);
          else {
            pending.push(readSample(sample, k));
            recognised++;
          }
        }
        read.push({ j, sample, k });
        sources.push(lastSource);
      }
      await Promise.all(pending);
      // Samples given a read they were not read for: they carry it on, without a vote.
      const placed = new Set<SampleResult>();
      recognised += await placeDeferred(read, sources, deferred, readSample, placed);
      // A band with text-like pixels read as nothing was misread (a busy frame), not empty: the
      // samples that took that read over are read themselves.
      const again = read.filter(({ sample }, i) => {
        const src = sources[i];
        return !sample.blank && src !== sample && !src?.lines.length && !(src && placed.has(src));
      });
      await Promise.all(again.map(({ sample, k }) => readSample(sample, k)));
      recognised += again.length;
      const own = new Set(again.map(({ sample }) => sample));
      read.forEach(({ sample }, i) => {
        const src = sources[i];
        if (src && src !== sample && !own.has(sample)) {
          sample.lines = src.lines;
          sample.weak = src.weak;
        }
      });
      textTransitions(read, masks, geos[r].dense, chunk.first - chunk.lead, step);
      // The lead-in sample (last of the previous chunk) only anchors the first transition.
      for (const { j, sample } of read) if (j >= chunk.lead) samples.push(sample);
      regions.push(samples);
    }
    return { regions, recognised };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Decides the deferred samples of a busy band: those between two reads of the same text (whitespace
 * aside) show it too (their band changed by grain only) and carry the earlier read on, without a vote
 * (`placed`); between reads that differ at all (another cue, a misread letter, nothing, or across a
 * blank band) the middle one is read, and so on until none is left. A cue is read about once per
 * READ_GRID samples, more where its reads disagree (the vote needs them), and the samples around
 * each change of text are all read. Returns the number of reads.
 */
export async function placeDeferred(
  read: Array<{ sample: SampleResult; k: number }>,
  sources: Array<SampleResult | null>,
  deferred: Set<number>,
  readSample: (sample: SampleResult, k: number) => Promise<void>,
  placed: Set<SampleResult>,
): Promise<number> {
  let reads = 0;
  const own = read.flatMap(({ sample }, i) => (sources[i] === sample ? [i] : []));
  while (deferred.size) {
    const round: Array<Promise<void>> = [];
    for (let p = 0; p < own.length; p++) {
      if (!deferred.has(own[p])) continue;
      let q = p;
      while (q + 1 < own.length && deferred.has(own[q + 1])) q++;
      // The sample before a deferred one is never deferred (nor blank in between): it was read.
      const before = read[own[p - 1]].sample;
      const after = own[q + 1];
      const blankBetween = read.slice(own[q], after ?? read.length).some(({ sample }) => sample.blank);
      const [a, b] = [before, read[after]?.sample].map((s) => (s ? bandText(s.lines) : ''));
      if (a && b && !blankBetween && textSimilarity(a, b) === 1) {
        for (let x = p; x <= q; x++) {
          Object.assign(read[own[x]].sample, { lines: [], weak: before.lines });
          placed.add(read[own[x]].sample);
          deferred.delete(own[x]);
        }
      } else {
        const mid = own[(p + q) >> 1];
        deferred.delete(mid);
        round.push(readSample(read[mid].sample, read[mid].k));
      }
      p = q;
    }
    await Promise.all(round);
    reads += round.length;
  }
  return reads;
}

/**
 * Whether the band at frame `j` is busy (changed since the frame before: grain, texture in motion)
 * and whether it is calm, which asks more: a compressed busy picture can hold still for a few frames
 * (the encoder dropped the grain), so calm is also unchanged since the previous sample.
 */
export function bandMotion(frame: (i: number) => Uint8Array, j: number, total: number, step: number) {
  const busy = medianChange(frame(j), frame(j > 0 ? j - 1 : Math.min(1, total - 1))) > BUSY_MEDIAN;
  const calm = !busy && (j < step || medianChange(frame(j), frame(j - step)) <= BUSY_MEDIAN);
  return { busy, calm };
}

/** Median absolute difference between two gray pictures of the same size. */
function medianChange(a: Uint8Array, b: Uint8Array): number {
  const histogram = new Uint32Array(256);
  for (let i = 0; i < a.length; i++) histogram[Math.abs(a[i] - b[i])]++;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v];
    if (seen * 2 >= a.length) return v;
  }
  return 255;
}

const bandText = (lines: OcrLine[]) =>
  [...lines]
    .sort((a, b) => a.box.y - b.box.y)
    .map((l) => l.text.trim())
    .join('\n');

/**
 * Where the text changed, at frame precision. Samples are grouped into runs showing the same text
 * (as read); each run's own mask is the text pixels steady across its samples inside its OCR boxes, so
 * grain and moving texture drop out. Between the last sample of one run and the first of the next,
 * the first frame whose hits on the two runs' masks look more like the new run's than the old one's
 * is where the new state begins (replacing the whole-band guess made during sampling).
 */
function textTransitions(
  read: Array<{ j: number; sample: SampleResult }>,
  masks: TextMask[],
  size: { w: number; h: number },
  firstFrame: number,
  step: number,
) {
  // Frames next to a run's first and last sample, short of halfway to the samples beside it.
  const around = Math.floor((step - 1) / 2);
  const group = () => {
    const runs: Array<{ text: string; members: number[]; mask: TextMask | null }> = [];
    const runOf = read.map(({ sample }) => {
      const text = bandText([...sample.lines, ...(sample.weak ?? [])]);
      const run = runs.at(-1);
      if (run && (run.text ? text && sameCueText(text, run.text, SAME_TEXT) : !text)) {
        run.members.push(sample.n - firstFrame);
        return runs.length - 1;
      }
      runs.push({ text, members: [sample.n - firstFrame], mask: null });
      return runs.length - 1;
    });
    runs.forEach((run, k) => {
      if (!run.text) return;
      const boxes = read
        .filter((_, i) => runOf[i] === k)
        .flatMap(({ sample }) => sample.lines.map((l) => l.box));
      // Every frame from its first sample to its last, and up to halfway to the samples beside.
      const first = Math.max(0, run.members[0] - around);
      const last = Math.min(masks.length - 1, (run.members.at(-1) ?? 0) + around);
      run.mask = steadyMask(
        run.members.map((j) => masks[j]),
        boxes,
        size.w,
        size.h,
        STEADY,
        masks.slice(first, last + 1),
      );
    });
    return { runs, runOf };
  };
  let { runs, runOf } = group();
  const best = (k: number) =>
    read
      .filter((_, i) => runOf[i] === k && read[i].sample.lines.length)
      .map(({ sample }) => sample.lines)
      .reduce<OcrLine[]>((a, l) => (meanScore(l) > meanScore(a) ? l : a), []);
  // A sample given to another run carries that run's best read on, without a vote; then regroup.
  const lend = (ownerOf: (i: number) => number) => {
    const lent = read.map((_, i) => (ownerOf(i) >= 0 ? best(ownerOf(i)) : []));
    if (!lent.some((lines) => lines.length)) return;
    lent.forEach((lines, i) => {
      if (!lines.length) return;
      read[i].sample.lines = [];
      read[i].sample.weak = lines;
    });
    ({ runs, runOf } = group());
  };
  const marks = read.map(({ j, sample }) => ({ j, blank: sample.blank }));
  // Samples whose frames still show a neighbouring run's text pixels belong to that run, whatever
  // OCR read there (nothing, or a few letters).
  const owners = shownOwners(
    marks,
    runOf,
    runs.map((run, k) => ({ ...run, readable: best(k).length > 0 })),
    masks,
    size.w,
  );
  lend((i) => owners[i]);
  // Then a partial read ("月四" of "计分子月四": the same strokes at the same place) belongs to the
  // run it is a part of, with the samples it took over.
  const parts = partOwners(
    marks,
    runOf,
    runs.map((run) => ({ ...run, readable: true })),
    size.w,
    (part, whole) => textPartOf(part, whole, SAME_TEXT) || nearPartOf(part, whole),
  );
  lend((i) => parts[runOf[i]]);
  for (let i = 1; i < read.length; i++) {
    const [a, b] = [runs[runOf[i - 1]].mask, runs[runOf[i]].mask];
    if (runOf[i] === runOf[i - 1] || !(a?.count || b?.count)) continue;
    read[i].sample.from = firstFrame + changeFrame(a, b, masks, read[i - 1].j, read[i].j, size.w);
  }
}

const meanScore = (lines: OcrLine[]) =>
  lines.length ? lines.reduce((t, l) => t + l.score, 0) / lines.length : 0;

interface TrackState {
  text: string;
  score: number;
  box: Box;
}

function trackTexts(lines: OcrLine[], region: Box): Map<'zh' | 'latin', TrackState> {
  const out = new Map<'zh' | 'latin', { parts: OcrLine[] }>();
  for (const l of [...lines].sort((a, b) => a.box.y - b.box.y)) {
    const script = lineScript(l.text);
    if (!script) continue;
    const t = out.get(script) ?? { parts: [] };
    t.parts.push(l);
    out.set(script, t);
  }
  const res = new Map<'zh' | 'latin', TrackState>();
  for (const [script, { parts }] of out) {
    const text = parts.map((p) => p.text.trim()).join('\n');
    const score = parts.reduce((s, p) => s + p.score, 0) / parts.length;
    // OCR boxes hug the letters' bodies: grow each line by a share of its height so the box covers
    // the outline and shadow too (the box is what erasing uses).
    const grown = parts.map((p) => {
      const gy = p.box.h * LINE_PAD;
      const gx = (gy * region.h) / region.w;
      return { x0: p.box.x - gx, y0: p.box.y - gy, x1: p.box.x + p.box.w + gx, y1: p.box.y + p.box.h + gy };
    });
    const x0 = Math.max(0, Math.min(...grown.map((g) => g.x0)));
    const y0 = Math.max(0, Math.min(...grown.map((g) => g.y0)));
    const x1 = Math.min(1, Math.max(...grown.map((g) => g.x1)));
    const y1 = Math.min(1, Math.max(...grown.map((g) => g.y1)));
    res.set(script, {
      text,
      score,
      box: {
        x: region.x + x0 * region.w,
        y: region.y + y0 * region.h,
        w: (x1 - x0) * region.w,
        h: (y1 - y0) * region.h,
      },
    });
  }
  return res;
}

/**
 * One track's cues from the samples: a cue continues while its text is read again (the same or
 * nearly, or a part of it), across up to MAX_GAP samples where it was not read or misread unless the
 * band went blank or another text held for two samples; reads below the confidence floor carry it
 * on (and back to where it began) but never start it; its text is voted over its confident reads.
 * A cue whose voted text is the one before's again (or a part of it, or it a part, at its place)
 * after up to HIDDEN_SECONDS of samples with no confident read (or a cue of MISREAD_READS reads) and
 * none blank continues that one.
 */
export function buildCues(
  samples: SampleResult[],
  region: Box,
  script: 'zh' | 'latin',
  info: VideoInfo,
  step: number,
): OcrCue[] {
  const ms = (frame: number) => Math.round((frame * 1000) / info.fps);
  const states = samples.map((s) => trackTexts(s.lines, region).get(script) ?? null);
  const loose = samples.map((s) => trackTexts([...s.lines, ...(s.weak ?? [])], region).get(script) ?? null);
  type Run = { start: number; last: number; reads: TrackState[]; text: string };
  const runs: Run[] = [];
  // Samples of HIDDEN_SECONDS.
  const maxHidden = Math.round((HIDDEN_SECONDS * info.fps) / step);
  let previousEnd = -1;
  for (let i = 0; i < samples.length; i++) {
    const first = states[i];
    if (!first) continue;
    const members = [i];
    let last = i;
    const same = (text: string) =>
      sameCueText(text, first.text, SAME_TEXT) || sameCueText(text, states[last]?.text ?? '', SAME_TEXT);
    for (;;) {
      let next = -1;
      for (let g = last + 1; g < samples.length && g <= last + 1 + MAX_GAP; g++) {
        const st = states[g];
        if ((st && same(st.text)) || (!st && loose[g] && same(loose[g]?.text ?? ''))) {
          next = g;
          break;
        }
        if (samples[g].blank) break;
        const then = states[g + 1];
        if (st && then && !same(then.text) && sameCueText(then.text, st.text, SAME_TEXT)) break;
      }
      if (next < 0) break;
      if (states[next]) members.push(next);
      last = next;
    }
    // Weak reads just before the first confident one: the cue was already shown.
    let start = i;
    while (
      start - 1 > previousEnd &&
      !states[start - 1] &&
      loose[start - 1] &&
      same(loose[start - 1]?.text ?? '')
    )
      start--;
    const reads = members.map((k) => states[k] as TrackState);
    const text = voteText(reads);
    // The same text again with only unread samples between (none blank), or a misread read once or
    // twice: one cue the grain hid for a while (longer than MAX_GAP); never a new cue.
    const again = (b: Run, misread?: Run) =>
      start - b.last - 1 <= maxHidden &&
      samples.slice(b.last + 1, start).every((s) => !s.blank) &&
      states.slice(b.last + 1, start).every((st) => !st || misread?.reads.includes(st)) &&
      (textSimilarity(b.text, text) >= SAME_CUE_AGAIN || partAtPlace(b, { reads, text }));
    const previous = runs.at(-1);
    let onto = previous && again(previous) ? previous : null;
    const beyond = runs.at(-2);
    if (!onto && previous && beyond && previous.reads.length <= MISREAD_READS && again(beyond, previous)) {
      // The misread's own reads leave the vote.
      runs.pop();
      onto = beyond;
    }
    if (onto) {
      onto.reads.push(...reads);
      onto.text = voteText(onto.reads);
      onto.last = last;
    } else runs.push({ start, last, reads, text });
    previousEnd = last;
    i = last;
  }
  return runs.map(({ start, last, reads, text }) => {
    const endFrame = last + 1 < samples.length ? samples[last + 1].from : samples[last].n + step;
    return {
      start_ms: ms(samples[start].from),
      end_ms: Math.min(info.durationMs || Number.POSITIVE_INFINITY, ms(endFrame)),
      text,
      box: reads.map((r) => r.box).reduce(union),
      score: reads.reduce((a, r) => a + r.score, 0) / reads.length,
    };
  });
}

/**
 * Whether one of two reads is a part of the other ("月四" of "计分子月四") read where the other's
 * letters are: within its box, left to right.
 */
function partAtPlace(a: { reads: TrackState[]; text: string }, b: { reads: TrackState[]; text: string }) {
  const [part, whole] = [...a.text].length < [...b.text].length ? [a, b] : [b, a];
  if (!textPartOf(part.text, whole.text, SAME_TEXT)) return false;
  const [p, w] = [part, whole].map((c) => c.reads.map((r) => r.box).reduce(union));
  const slack = w.h / 2;
  return p.x >= w.x - slack && p.x + p.w <= w.x + w.w + slack;
}

function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

/**
 * Burned-in subtitles of a video → timed cues per region and script. One ffmpeg pass per minute of
 * video crops every band (small gray frames for change detection at the full frame rate, JPEGs at
 * `fps` for OCR); a band whose text mask did not change is not recognised again; consecutive samples
 * with similar text merge into one cue whose start and end are the frames where the band's mask
 * changed (full frame rate, so within one frame of the truth).
 */
export async function recognizeVideo(
  video: string,
  opts: RecognizeVideoOptions,
): Promise<RecognizeVideoResult> {
  const { engine, signal, onProgress } = opts;
  const fpsWanted = opts.fps ?? 4;
  if (!(fpsWanted > 0 && fpsWanted <= 30)) {
    throw new EngineError('invalid_request', '采样帧率需在 0–30 之间', `fps ${opts.fps} out of range`);
  }
  if (!opts.regions.length) throw new EngineError('invalid_request', '请至少选择一个字幕区域', 'no regions');
  const info = await probeVideo(video, { signal });
  opts.regions.forEach((r, i) => {
    assertBox(r, info.width, info.height, `region ${i}`);
  });
  const minScore = opts.minScore ?? 0.75;
  const convert = opts.convert ?? 'none';
  const step = Math.max(1, Math.round(info.fps / fpsWanted));
  const totalFrames = Math.max(1, Math.floor((info.durationMs / 1000) * info.fps));
  const chunkSeconds = opts.chunkSeconds ?? CHUNK_SECONDS;
  const chunkFrames = Math.max(step, Math.round((chunkSeconds * info.fps) / step) * step);
  const geos = opts.regions.map((r) => geometry(r, info));
  const checkpoint = opts.checkpoint ?? (<T>(_key: string, fn: () => Promise<T>) => fn());

  const all: SampleResult[][] = opts.regions.map(() => []);
  let recognised = 0;
  const chunks = Math.ceil(totalFrames / chunkFrames);
  const chunkAt = (c: number) => {
    const first = c * chunkFrames;
    return { first, frames: Math.min(chunkFrames, totalFrames - first), lead: c > 0 ? step : 0 };
  };
  // The next chunk's frames are extracted (ffmpeg) while this chunk is recognised (OCR workers).
  let prefetch: { c: number; dir: Promise<string> } | null = null;
  const discard = (p: typeof prefetch) => {
    p?.dir.then((d) => rm(d, { recursive: true, force: true })).catch(() => {});
  };
  try {
    for (let c = 0; c < chunks; c++) {
      if (signal?.aborted) throw aborted();
      const chunk = chunkAt(c);
      const res = await checkpoint(`ocr-chunk-${c}`, async () => {
        const mine = prefetch?.c === c ? prefetch : null;
        if (!mine) discard(prefetch);
        prefetch = null;
        const dir = mine ? mine.dir : prepareChunk(video, geos, chunk, step, info, signal);
        const ready = await dir;
        if (c + 1 < chunks) {
          prefetch = { c: c + 1, dir: prepareChunk(video, geos, chunkAt(c + 1), step, info, signal) };
          prefetch.dir.catch(() => {});
        }
        return recogniseChunk(ready, geos, engine, chunk, step, minScore, signal);
      });
      res.regions.forEach((samples, r) => {
        all[r].push(...samples);
      });
      recognised += res.recognised;
      onProgress?.((c + 1) / chunks);
    }
  } finally {
    discard(prefetch);
  }

  const tracks: OcrTrack[] = [];
  opts.regions.forEach((region, r) => {
    for (const script of ['zh', 'latin'] as const) {
      const cues = buildCues(all[r], region, script, info, step).map((cue) => ({
        ...cue,
        text: script === 'zh' ? convertScript(cue.text, convert) : cue.text,
      }));
      if (!cues.length) continue;
      const language =
        script === 'latin' ? 'en' : convert === 't2s' ? 'zh-Hans' : convert === 's2t' ? 'zh-Hant' : 'zh';
      tracks.push({ region: r, script, language, cues });
    }
  });
  return {
    tracks,
    frames_sampled: all.reduce((s, a) => s + a.length, 0),
    frames_recognised: recognised,
    engine_label: engine.label,
  };
}
