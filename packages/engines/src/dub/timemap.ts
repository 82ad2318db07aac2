import { EngineError } from '../errors.ts';
import { runFfmpeg } from '../media/run.ts';

/*
 * Slow video (issue 17, fit step 4): stretches of the original timeline whose video plays slower so a
 * line that is too long even at the speed cap still fits. A time map turns original times into output
 * times; everything placed after a stretch moves by the time added before it, in whole milliseconds,
 * so placement stays sample-accurate (48 samples a millisecond) and nothing drifts.
 */

/** Longest a stretch may become: 1.5× its original length (video at ≥ 0.667× speed). */
export const MAX_SLOW_FACTOR = 1.5;

/** A stretch [start_ms, end_ms) of the original timeline that lasts `add_ms` longer in the output. */
export interface SlowStretch {
  start_ms: number;
  end_ms: number;
  add_ms: number;
}

/** Sorted, non-overlapping stretches with integer times, each slowed at most MAX_SLOW_FACTOR. */
export type TimeMap = SlowStretch[];

/**
 * The time map of the marked stretches: sorted, overlapping stretches merged (their added time summed,
 * then capped), empty ones dropped, limited to [0, durationMs).
 */
export function buildTimeMap(stretches: SlowStretch[], durationMs: number): TimeMap {
  const list = stretches
    .map((s) => ({
      start_ms: Math.max(0, Math.round(s.start_ms)),
      end_ms: Math.min(Math.round(durationMs), Math.round(s.end_ms)),
      add_ms: Math.max(0, Math.ceil(s.add_ms)),
    }))
    .filter((s) => s.end_ms > s.start_ms && s.add_ms > 0)
    .sort((a, b) => a.start_ms - b.start_ms);
  const out: TimeMap = [];
  for (const s of list) {
    const last = out.at(-1);
    if (last && s.start_ms < last.end_ms) {
      last.end_ms = Math.max(last.end_ms, s.end_ms);
      last.add_ms += s.add_ms;
    } else out.push({ ...s });
  }
  for (const s of out) {
    s.add_ms = Math.min(s.add_ms, Math.floor((s.end_ms - s.start_ms) * (MAX_SLOW_FACTOR - 1)));
  }
  return out.filter((s) => s.add_ms > 0);
}

/** Time added by the map before original time `t` (whole stretches only). */
function addedBefore(map: TimeMap, t: number): number {
  let added = 0;
  for (const s of map) if (s.end_ms <= t) added += s.add_ms;
  return added;
}

/** Original time → output time (linear inside a slowed stretch). */
export function mapTime(map: TimeMap, t: number): number {
  let added = 0;
  for (const s of map) {
    if (t >= s.end_ms) {
      added += s.add_ms;
      continue;
    }
    if (t > s.start_ms) {
      const f = (s.end_ms - s.start_ms + s.add_ms) / (s.end_ms - s.start_ms);
      return s.start_ms + added + Math.round((t - s.start_ms) * f);
    }
    break;
  }
  return t + added;
}

/** Output duration of an original duration. */
export function mappedDuration(map: TimeMap, durationMs: number): number {
  return durationMs + addedBefore(map, durationMs);
}

/** The pieces of [0, durationMs): normal ones (factor 1) and slowed ones, in order. */
export function timeSegments(
  map: TimeMap,
  durationMs: number,
): Array<{ start_ms: number; end_ms: number; factor: number; out_ms: number }> {
  const segs: Array<{ start_ms: number; end_ms: number; factor: number; out_ms: number }> = [];
  let at = 0;
  for (const s of map) {
    if (s.start_ms >= durationMs) break;
    if (s.start_ms > at) segs.push({ start_ms: at, end_ms: s.start_ms, factor: 1, out_ms: s.start_ms - at });
    const end = Math.min(s.end_ms, durationMs);
    const len = s.end_ms - s.start_ms;
    segs.push({
      start_ms: s.start_ms,
      end_ms: end,
      factor: (len + s.add_ms) / len,
      out_ms: end - s.start_ms + s.add_ms,
    });
    at = end;
  }
  if (at < durationMs) segs.push({ start_ms: at, end_ms: durationMs, factor: 1, out_ms: durationMs - at });
  return segs;
}

/**
 * The video filter graph of a time map: the input split, each piece trimmed and its timestamps
 * stretched by its factor (setpts), the pieces concatenated and resampled to `fps` (constant rate).
 * Returns the graph text ending in `[${label}]`.
 */
export function slowVideoGraph(
  map: TimeMap,
  durationMs: number,
  fps: number,
  input = '0:v:0',
  label = 'vslow',
): string {
  const segs = timeSegments(map, durationMs);
  const sec = (ms: number) => (ms / 1000).toFixed(3);
  const parts = [`[${input}]split=${segs.length}${segs.map((_, i) => `[vs${i}]`).join('')}`];
  segs.forEach((s, i) => {
    const pts = s.factor === 1 ? 'PTS-STARTPTS' : `${s.factor.toFixed(6)}*(PTS-STARTPTS)`;
    parts.push(`[vs${i}]trim=start=${sec(s.start_ms)}:end=${sec(s.end_ms)},setpts=${pts}[vt${i}]`);
  });
  parts.push(
    `${segs.map((_, i) => `[vt${i}]`).join('')}concat=n=${segs.length}:v=1:a=0,fps=${fps.toFixed(3)}[${label}]`,
  );
  return parts.join(';');
}

/**
 * The original audio through the time map: each slowed stretch time-stretched (atempo, pitch kept) to
 * its exact output length in samples, the rest as it is, concatenated — so it stays aligned with the
 * slowed video. Output: 48 kHz stereo WAV of exactly mappedDuration(map, durationMs).
 */
export async function slowAudio(
  input: string,
  out: string,
  map: TimeMap,
  opts: { durationMs: number; signal?: AbortSignal },
): Promise<void> {
  if (!(opts.durationMs > 0))
    throw new EngineError('invalid_request', '时长必须大于 0', 'durationMs must be > 0');
  const rate = 48_000;
  const samples = (ms: number) => Math.round((ms / 1000) * rate);
  const segs = timeSegments(map, opts.durationMs);
  const parts = [
    `[0:a:0]aresample=${rate},aformat=sample_fmts=s16:channel_layouts=stereo,apad=whole_len=${samples(opts.durationMs)},asplit=${segs.length}${segs.map((_, i) => `[as${i}]`).join('')}`,
  ];
  segs.forEach((s, i) => {
    const len = samples(s.out_ms);
    const tempo = s.factor === 1 ? '' : `,atempo=${(1 / s.factor).toFixed(6)}`;
    // Exact length: padded with silence then cut at the sample (atempo's length is approximate).
    parts.push(
      `[as${i}]atrim=start_sample=${samples(s.start_ms)}:end_sample=${samples(s.end_ms)},asetpts=PTS-STARTPTS${tempo},apad=whole_len=${len},atrim=end_sample=${len}[at${i}]`,
    );
  });
  parts.push(`${segs.map((_, i) => `[at${i}]`).join('')}concat=n=${segs.length}:v=0:a=1[aout]`);
  await runFfmpeg(
    [
      '-i',
      input,
      '-filter_complex',
      parts.join(';'),
      '-map',
      '[aout]',
      '-ar',
      String(rate),
      '-c:a',
      'pcm_s16le',
      '-y',
      out,
    ],
    { signal: opts.signal },
  );
}
