import { maskHits, type TextMask } from './textmask.ts';

/**
 * Which read text a sample's frames show, from the text's own pixels rather than from OCR. On a busy
 * picture OCR misses a cue in a few frames now and then, or reads only a few letters of it, while the
 * cue's strokes are all there: such samples belong to the neighbouring run whose steady text pixels
 * their frames still hit.
 */

/**
 * A sample whose frames hit at least this share of a neighbouring run's steady text pixels (compared
 * with how many the run's own frames hit) still shows that run's text.
 */
export const SHOWN = 0.6;
/** Steady masks with fewer pixels, or hit less than this by their own frames, decide nothing. */
export const MIN_STEADY = 40;
export const MIN_ON = 0.5;

export interface ShownRun {
  /** The text read ('' = nothing read). */
  text: string;
  /** Frame index of each sample in the run. */
  members: number[];
  /** The run's steady text pixels (null when nothing was read). */
  mask: TextMask | null;
  /** Whether the run has a confident read to lend to the samples it takes over. */
  readable: boolean;
}

/** Mean share of `mask` hit by frames j-1..j+1: one grainy frame does not decide. */
export function hitLevel(mask: TextMask, masks: TextMask[], j: number, width: number): number {
  let sum = 0;
  let n = 0;
  for (let q = Math.max(0, j - 1); q <= Math.min(masks.length - 1, j + 1); q++, n++)
    sum += maskHits(mask, masks[q], width);
  return n ? sum / n : 0;
}

/** Median share of a run's mask hit by every frame from its first sample to its last. */
export function ownLevel(run: ShownRun, masks: TextMask[], width: number): number {
  if (!run.mask?.count) return 0;
  const first = run.members[0];
  const last = run.members[run.members.length - 1];
  const v: number[] = [];
  for (let j = first; j <= last; j++) v.push(maskHits(run.mask, masks[j], width));
  return v.sort((x, y) => x - y)[Math.floor(v.length / 2)];
}

/**
 * For each sample (frame `j`, in order, `runOf` its run), the run whose text it shows when that is a
 * neighbouring run rather than its own, else -1. A run takes over the samples next to it while their
 * frames hit at least SHOWN of its steady pixels, stopping at a blank band and at a sample of another
 * read text unless that text is a shorter run its frames show no more (a partial misread).
 */
export function shownOwners(
  samples: Array<{ j: number; blank?: boolean }>,
  runOf: number[],
  runs: ShownRun[],
  masks: TextMask[],
  width: number,
): number[] {
  const on = runs.map((r) => ownLevel(r, masks, width));
  const shown = (k: number, j: number) => hitLevel(runs[k].mask as TextMask, masks, j, width) / on[k];
  const owner = samples.map(() => ({ run: -1, share: 0 }));
  runs.forEach((run, k) => {
    if ((run.mask?.count ?? 0) < MIN_STEADY || on[k] < MIN_ON || !run.readable) return;
    const first = runOf.indexOf(k);
    const last = runOf.lastIndexOf(k);
    for (const dir of [-1, 1]) {
      for (let i = dir < 0 ? first - 1 : last + 1; i >= 0 && i < samples.length; i += dir) {
        const { j, blank } = samples[i];
        if (blank) break;
        const share = shown(k, j);
        if (share < SHOWN) break;
        const other = runs[runOf[i]];
        if (
          other.text &&
          (other.members.length >= run.members.length ||
            (other.mask?.count && on[runOf[i]] && shown(runOf[i], j) > share))
        )
          break;
        if (share > owner[i].share) owner[i] = { run: k, share };
      }
    }
  });
  return owner.map((o) => o.run);
}

/**
 * The first frame after `j0` (a sample showing `before`'s text) that looks more like frame `j1` (a
 * sample showing `after`'s) than like `j0`, judged by the hits on both runs' steady pixels; `j1`
 * when none does. This is where the band changed, at frame precision.
 */
export function changeFrame(
  before: TextMask | null,
  after: TextMask | null,
  masks: TextMask[],
  j0: number,
  j1: number,
  width: number,
): number {
  const used = [before, after].filter((m): m is TextMask => !!m?.count);
  if (!used.length) return j1;
  const feature = (j: number) => used.map((m) => maskHits(m, masks[j], width));
  const dist = (p: number[], q: number[]) => p.reduce((d, v, k) => d + Math.abs(v - q[k]), 0);
  const from = feature(j0);
  const to = feature(j1);
  for (let j = j0 + 1; j < j1; j++) {
    const f = feature(j);
    if (dist(f, to) < dist(f, from)) return j;
  }
  return j1;
}

/** A partial read's steady mask needs this many pixels to be compared at all. */
export const MIN_PART_PIXELS = 12;
/**
 * Share of the smaller of the two steady masks (partial read, whole line) that must lie on the other.
 * Lower than SHOWN: a piece read in one sample keeps that frame's grain in its mask (0.53 for "月四"
 * on tuning seed 5, 0.65–1.0 for the other pieces there).
 */
export const PART_SHOWN = 0.5;
/**
 * For each run, the neighbouring run whose text it is a partial read of, else -1: its text is a
 * shorter (near) contiguous piece of that run's text (`partOf`) and their steady pixels overlap
 * (PART_SHOWN of the smaller mask lies on the other) — the same letters at the same place on the line, so a
 * short piece ("月四" of "计分子月四") joins too, however many samples it has. Neighbours are the
 * nearest runs with text before and after it, across samples read as nothing but not across a
 * blank band. A part of a part ends at the longest text.
 */
export function partOwners(
  samples: Array<{ j: number; blank?: boolean }>,
  runOf: number[],
  runs: ShownRun[],
  width: number,
  partOf: (part: string, whole: string) => boolean,
): number[] {
  const owner = runs.map((run, k) => {
    if (!run.text || (run.mask?.count ?? 0) < MIN_PART_PIXELS) return -1;
    let pick = -1;
    let best = PART_SHOWN;
    for (const dir of [-1, 1]) {
      let i = dir < 0 ? runOf.indexOf(k) - 1 : runOf.lastIndexOf(k) + 1;
      while (i >= 0 && i < samples.length && !samples[i].blank && !runs[runOf[i]].text) i += dir;
      if (i < 0 || i >= samples.length || samples[i].blank) continue;
      const m = runOf[i];
      const other = runs[m];
      if (!other.mask?.count || !partOf(run.text, other.text)) continue;
      // Overlap of the smaller mask: a piece read in one sample keeps that frame's grain, and a whole
      // line's mask can be little more than the piece where the rest sank into a light picture.
      const mine = run.mask as TextMask;
      const share =
        mine.count <= other.mask.count
          ? maskHits(mine, other.mask, width)
          : maskHits(other.mask, mine, width);
      if (share >= best) {
        best = share;
        pick = m;
      }
    }
    return pick;
  });
  return owner.map((k) => {
    let o = k;
    for (let guard = 0; guard < runs.length && o >= 0 && owner[o] >= 0; guard++) o = owner[o];
    return o;
  });
}
