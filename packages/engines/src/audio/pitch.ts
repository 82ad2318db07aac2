import { runFfmpeg } from '../media/run.ts';

/**
 * Voice analysis shared by the voice changer and voice cloning: fundamental frequency (YIN) and a
 * formant estimate (LPC envelope peaks), in plain JS on mono PCM decoded by ffmpeg.
 *
 * Speech F0 lies below 500 Hz, so the signal is decoded at 8 kHz (ffmpeg's resampler low-passes
 * first): a quarter of the work of 16 kHz for the same pitch precision after parabolic interpolation.
 * About 0.1 s of CPU per minute of audio.
 */
export const ANALYSIS_RATE = 8000;
const FRAME_HOP_S = 0.01;
const WINDOW_S = 0.025;
const MIN_F0 = 60;
const MAX_F0 = 500;
/** YIN's absolute threshold on the cumulative mean normalised difference. */
const YIN_THRESHOLD = 0.15;
/** A frame quieter than this (relative to the loudest 5 % of frames) is silence, never voiced. */
const SILENCE_BELOW_DB = -35;

export interface PitchStats {
  /** Median F0 over voiced frames, Hz (0 when nothing is voiced). */
  median_hz: number;
  p10_hz: number;
  p90_hz: number;
  /** Voiced frames / all frames (10 ms hops), 0..1. */
  voiced_share: number;
}

export interface PitchTrack extends PitchStats {
  /** F0 per 10 ms frame, 0 where unvoiced. */
  f0: Float32Array;
  hop_s: number;
}

/** Any file ffmpeg reads (audio or video) → mono Float32 PCM in −1..1 at `rate`. */
export async function decodeMono(
  file: string,
  rate: number,
  opts: { signal?: AbortSignal } = {},
): Promise<Float32Array> {
  const bytes = await runFfmpeg(
    ['-i', file, '-vn', '-ac', '1', '-ar', String(rate), '-f', 's16le', 'pipe:1'],
    {
      signal: opts.signal,
    },
  );
  const n = bytes.length >> 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = bytes.readInt16LE(i * 2) / 32768;
  return out;
}

function quantile(sorted: Float32Array | number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Frame energies in dB (RMS) on `hop`-spaced windows of `win` samples. */
function frameLevels(x: Float32Array, hop: number, win: number, frames: number): Float32Array {
  const db = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    const start = f * hop;
    let sum = 0;
    const end = Math.min(x.length, start + win);
    for (let i = start; i < end; i++) sum += x[i] * x[i];
    db[f] = 10 * Math.log10(sum / Math.max(1, end - start) + 1e-12);
  }
  return db;
}

/** Loudness of the loudest 5 % of frames: the reference for "silence" (robust to a click). */
function referenceLevel(db: Float32Array): number {
  const sorted = Float32Array.from(db).sort();
  return quantile(sorted, 0.95);
}

/** YIN (de Cheveigné & Kawahara 2002) per frame; 0 for unvoiced or silent frames. */
export function yinTrack(x: Float32Array, rate: number): Float32Array {
  const hop = Math.round(rate * FRAME_HOP_S);
  const win = Math.round(rate * WINDOW_S);
  const minTau = Math.floor(rate / MAX_F0);
  const maxTau = Math.ceil(rate / MIN_F0);
  const frames = Math.max(0, Math.floor((x.length - win - maxTau) / hop) + 1);
  const f0 = new Float32Array(frames);
  if (frames === 0) return f0;
  const db = frameLevels(x, hop, win + maxTau, frames);
  const silence = referenceLevel(db) + SILENCE_BELOW_DB;
  const d = new Float64Array(maxTau + 2);
  for (let f = 0; f < frames; f++) {
    if (db[f] < silence || db[f] < -70) continue;
    const start = f * hop;
    // Difference function d(tau) = Σ (x[j] − x[j+tau])².
    for (let tau = 1; tau <= maxTau + 1; tau++) {
      let sum = 0;
      for (let j = start, e = start + win; j < e; j++) {
        const v = x[j] - x[j + tau];
        sum += v * v;
      }
      d[tau] = sum;
    }
    // Cumulative mean normalised difference, in place.
    let running = 0;
    d[0] = 1;
    for (let tau = 1; tau <= maxTau + 1; tau++) {
      running += d[tau];
      d[tau] = running > 0 ? (d[tau] * tau) / running : 1;
    }
    let best = -1;
    for (let tau = minTau; tau <= maxTau; tau++) {
      if (d[tau] < YIN_THRESHOLD) {
        while (tau + 1 <= maxTau && d[tau + 1] < d[tau]) tau++;
        best = tau;
        break;
      }
    }
    if (best < 0) continue;
    // Parabolic interpolation around the dip for sub-sample precision.
    const a = d[best - 1];
    const b = d[best];
    const c = d[best + 1];
    const denom = a - 2 * b + c;
    const shift = denom !== 0 ? Math.max(-1, Math.min(1, (0.5 * (a - c)) / denom)) : 0;
    f0[f] = rate / (best + shift);
  }
  return f0;
}

export function pitchStats(f0: Float32Array): PitchStats {
  const voiced = f0.filter((v) => v > 0).sort();
  return {
    median_hz: round1(quantile(voiced, 0.5)),
    p10_hz: round1(quantile(voiced, 0.1)),
    p90_hz: round1(quantile(voiced, 0.9)),
    voiced_share: f0.length ? Math.round((voiced.length / f0.length) * 1000) / 1000 : 0,
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** F0 statistics of a file: median, 10th and 90th percentile over voiced frames, and the voiced share. */
export async function measurePitch(file: string, opts: { signal?: AbortSignal } = {}): Promise<PitchStats> {
  const { f0, hop_s: _hop, ...stats } = await measurePitchTrack(file, opts);
  return stats;
}

export async function measurePitchTrack(
  file: string,
  opts: { signal?: AbortSignal } = {},
): Promise<PitchTrack> {
  const x = await decodeMono(file, ANALYSIS_RATE, opts);
  const f0 = yinTrack(x, ANALYSIS_RATE);
  return { ...pitchStats(f0), f0, hop_s: FRAME_HOP_S };
}

// ---------------------------------------------------------------------------------------------
// Formants

export interface FormantStats {
  /** Median first / second formant over voiced frames, Hz (0 when nothing is voiced). */
  f1_hz: number;
  f2_hz: number;
  /** How they were measured, for honest reports. */
  method: 'lpc-envelope-peaks';
}

const LPC_ORDER = 10;
const ENVELOPE_STEP_HZ = 10;

/** Autocorrelation LPC (Levinson–Durbin); returns a[0..order] with a[0] = 1, or null if unstable. */
function lpc(frame: Float64Array, order: number): Float64Array | null {
  const r = new Float64Array(order + 1);
  for (let k = 0; k <= order; k++) {
    let s = 0;
    for (let i = k; i < frame.length; i++) s += frame[i] * frame[i - k];
    r[k] = s;
  }
  if (r[0] <= 0) return null;
  r[0] *= 1.0001; // slight white-noise correction keeps the recursion stable
  const a = new Float64Array(order + 1);
  a[0] = 1;
  let err = r[0];
  const tmp = new Float64Array(order + 1);
  for (let i = 1; i <= order; i++) {
    let acc = r[i];
    for (let j = 1; j < i; j++) acc += a[j] * r[i - j];
    const k = -acc / err;
    tmp.set(a);
    for (let j = 1; j < i; j++) a[j] = tmp[j] + k * tmp[i - j];
    a[i] = k;
    err *= 1 - k * k;
    if (err <= 0) return null;
  }
  return a;
}

/**
 * F1/F2 estimate: per voiced frame (pitch track above), pre-emphasis + Hamming window, LPC order 10
 * at 8 kHz, then the first two peaks of the LPC envelope above 200 Hz; medians over frames. This is
 * the envelope-peak method, not root solving: close formants can merge into one peak, so treat the
 * numbers as the position of the spectral envelope (good for "shifted up/down by x %"), not as
 * phonetic measurements.
 */
export async function measureFormants(
  file: string,
  opts: { signal?: AbortSignal } = {},
): Promise<FormantStats> {
  const x = await decodeMono(file, ANALYSIS_RATE, opts);
  return formantsOf(x, ANALYSIS_RATE, yinTrack(x, ANALYSIS_RATE));
}

export function formantsOf(x: Float32Array, rate: number, f0: Float32Array): FormantStats {
  const hop = Math.round(rate * FRAME_HOP_S);
  const win = Math.round(rate * WINDOW_S);
  const voicedFrames: number[] = [];
  for (let f = 0; f < f0.length; f++) if (f0[f] > 0) voicedFrames.push(f);
  // At most 1500 frames (15 s of voiced speech) are enough for a stable median.
  const step = Math.max(1, Math.floor(voicedFrames.length / 1500));
  const bins = Math.floor(rate / 2 / ENVELOPE_STEP_HZ);
  const cos = new Float64Array(bins * (LPC_ORDER + 1));
  const sin = new Float64Array(bins * (LPC_ORDER + 1));
  for (let b = 0; b < bins; b++) {
    const w = (2 * Math.PI * b * ENVELOPE_STEP_HZ) / rate;
    for (let k = 0; k <= LPC_ORDER; k++) {
      cos[b * (LPC_ORDER + 1) + k] = Math.cos(w * k);
      sin[b * (LPC_ORDER + 1) + k] = Math.sin(w * k);
    }
  }
  const hamming = new Float64Array(win);
  for (let i = 0; i < win; i++) hamming[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (win - 1));
  const frame = new Float64Array(win);
  const env = new Float64Array(bins);
  const f1s: number[] = [];
  const f2s: number[] = [];
  for (let v = 0; v < voicedFrames.length; v += step) {
    const start = voicedFrames[v] * hop;
    for (let i = 0; i < win; i++) {
      const cur = x[start + i] ?? 0;
      const prev = i + start > 0 ? (x[start + i - 1] ?? 0) : 0;
      frame[i] = (cur - 0.97 * prev) * hamming[i];
    }
    const a = lpc(frame, LPC_ORDER);
    if (!a) continue;
    for (let b = 0; b < bins; b++) {
      let re = 0;
      let im = 0;
      for (let k = 0; k <= LPC_ORDER; k++) {
        re += a[k] * cos[b * (LPC_ORDER + 1) + k];
        im -= a[k] * sin[b * (LPC_ORDER + 1) + k];
      }
      env[b] = -Math.log(re * re + im * im + 1e-12);
    }
    const peaks: number[] = [];
    for (let b = 1; b < bins - 1 && peaks.length < 2; b++) {
      const hz = b * ENVELOPE_STEP_HZ;
      if (hz < 200) continue;
      if (env[b] > env[b - 1] && env[b] >= env[b + 1]) peaks.push(hz);
    }
    if (peaks.length === 2) {
      f1s.push(peaks[0]);
      f2s.push(peaks[1]);
    }
  }
  const med = (v: number[]) =>
    Math.round(
      quantile(
        v.sort((p, q) => p - q),
        0.5,
      ),
    );
  return { f1_hz: med(f1s), f2_hz: med(f2s), method: 'lpc-envelope-peaks' };
}
