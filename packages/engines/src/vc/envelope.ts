import { ANALYSIS_RATE, decodeMono, pitchStats, yinTrack } from '../audio/pitch.ts';

/*
 * How far a voice change moved the voice: the median F0 ratio and the spectral-envelope warp factor
 * between a source and its result. The envelope of each voiced frame is the cepstrally smoothed log
 * spectrum (harmonics removed by liftering below the shortest pitch period), averaged over voiced
 * frames and resampled on a log-frequency axis; scaling every formant by k shifts that curve by
 * log2(k), so the lag of the best cross-correlation between source and result is the warp factor.
 */

/** Envelope analysis rate: formants up to ~5 kHz matter for timbre. */
const ENVELOPE_RATE = 16_000;
const FFT_SIZE = 1024;
const WINDOW = 512; // 32 ms
const HOP_S = 0.01; // the pitch track's hop
/** Quefrency cut-off: 1.6 ms keeps the envelope and drops harmonics of F0 up to ~600 Hz. */
const LIFTER = Math.round(0.0016 * ENVELOPE_RATE);
const BINS_PER_OCTAVE = 48;
const GRID_LO_HZ = 150;
const GRID_HI_HZ = 7500;
/** The part of the result's envelope compared: below it sits F0, above it little speech energy. */
const CORE_LO_HZ = 300;
const CORE_HI_HZ = 4800;
/** Lags searched, octaves each way (×0.66…×1.52 covers every plausible voice change). */
const MAX_LAG_OCTAVES = 0.6;
/** At most this many voiced frames are analysed (evenly spread): enough for a stable average. */
const MAX_FRAMES = 1500;

export interface EnvelopeProfile {
  /** Mean smoothed log spectrum (natural log of magnitude) on the log-frequency grid. */
  logEnvelope: Float64Array;
  /** Voiced frames averaged (0: no voiced speech, the profile is empty). */
  frames: number;
  median_f0_hz: number;
}

export interface VoiceChangeMeasure {
  /** Median F0 of the result / of the source (0 when either has no voiced frames). */
  f0_ratio: number;
  /** Spectral-envelope warp factor of the result against the source (1 = formants kept; 0 = not measurable). */
  envelope_ratio: number;
  source_f0_hz: number;
  result_f0_hz: number;
}

const gridSize = Math.floor(BINS_PER_OCTAVE * Math.log2(GRID_HI_HZ / GRID_LO_HZ)) + 1;
const gridHz = (i: number) => GRID_LO_HZ * 2 ** (i / BINS_PER_OCTAVE);

/** In-place iterative radix-2 complex FFT (inverse when `inverse`, unscaled). */
function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = ((inverse ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const nr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = nr;
      }
    }
  }
}

/**
 * The average envelope of the voiced frames of `x` (at ENVELOPE_RATE); `f0` is a pitch track at
 * 10 ms hops (0 = unvoiced) that says which frames count.
 */
export function envelopeProfile(x: Float32Array, f0: Float32Array): EnvelopeProfile {
  const hop = Math.round(ENVELOPE_RATE * HOP_S);
  const voiced: number[] = [];
  for (let f = 0; f < f0.length; f++) if (f0[f] > 0 && f * hop + WINDOW <= x.length) voiced.push(f);
  const step = Math.max(1, voiced.length / MAX_FRAMES);
  const hann = new Float64Array(WINDOW);
  for (let i = 0; i < WINDOW; i++) hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (WINDOW - 1));
  const half = FFT_SIZE / 2;
  const sum = new Float64Array(half + 1);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  let frames = 0;
  for (let v = 0; v < voiced.length; v += step) {
    const start = voiced[Math.floor(v)] * hop;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < WINDOW; i++) re[i] = x[start + i] * hann[i];
    fft(re, im);
    // Log magnitude → real cepstrum → keep the low quefrencies → back to a smooth log spectrum.
    for (let k = 0; k < FFT_SIZE; k++) {
      re[k] = 0.5 * Math.log(re[k] * re[k] + im[k] * im[k] + 1e-10);
      im[k] = 0;
    }
    fft(re, im, true);
    for (let k = LIFTER + 1; k < FFT_SIZE - LIFTER; k++) {
      re[k] = 0;
      im[k] = 0;
    }
    fft(re, im);
    for (let k = 0; k <= half; k++) sum[k] += re[k] / FFT_SIZE;
    frames++;
  }
  const logEnvelope = new Float64Array(gridSize);
  if (frames > 0) {
    const binHz = ENVELOPE_RATE / FFT_SIZE;
    for (let i = 0; i < gridSize; i++) {
      const pos = Math.min(half - 1, gridHz(i) / binHz);
      const lo = Math.floor(pos);
      const t = pos - lo;
      logEnvelope[i] = ((1 - t) * sum[lo] + t * sum[lo + 1]) / frames;
    }
  }
  return { logEnvelope, frames, median_f0_hz: pitchStats(f0).median_hz };
}

/**
 * The factor k by which `result`'s envelope is `source`'s scaled in frequency: the lag (on the
 * log-frequency grid) of the best normalised cross-correlation over the result's core band, refined
 * by a parabola through the peak. 0 when either profile is empty.
 */
export function envelopeWarp(source: EnvelopeProfile, result: EnvelopeProfile): number {
  if (!source.frames || !result.frames) return 0;
  const lo = Math.ceil(BINS_PER_OCTAVE * Math.log2(CORE_LO_HZ / GRID_LO_HZ));
  const hi = Math.floor(BINS_PER_OCTAVE * Math.log2(CORE_HI_HZ / GRID_LO_HZ));
  const maxLag = Math.round(MAX_LAG_OCTAVES * BINS_PER_OCTAVE);
  const a = source.logEnvelope;
  const b = result.logEnvelope;
  const scores = new Float64Array(2 * maxLag + 1);
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    // result[i] against source[i − lag]: a positive lag means the result's envelope sits higher.
    let n = 0;
    let sa = 0;
    let sb = 0;
    for (let i = lo; i <= hi; i++) {
      const j = i - lag;
      if (j < 0 || j >= a.length) continue;
      sa += a[j];
      sb += b[i];
      n++;
    }
    const ma = sa / n;
    const mb = sb / n;
    let cov = 0;
    let va = 0;
    let vb = 0;
    for (let i = lo; i <= hi; i++) {
      const j = i - lag;
      if (j < 0 || j >= a.length) continue;
      const da = a[j] - ma;
      const db = b[i] - mb;
      cov += da * db;
      va += da * da;
      vb += db * db;
    }
    scores[lag + maxLag] = va > 0 && vb > 0 ? cov / Math.sqrt(va * vb) : -1;
  }
  let best = 0;
  for (let i = 1; i < scores.length; i++) if (scores[i] > scores[best]) best = i;
  let offset = 0;
  if (best > 0 && best < scores.length - 1) {
    const [p, q, r] = [scores[best - 1], scores[best], scores[best + 1]];
    const denom = p - 2 * q + r;
    if (denom < 0) offset = Math.max(-0.5, Math.min(0.5, (0.5 * (p - r)) / denom));
  }
  return 2 ** ((best - maxLag + offset) / BINS_PER_OCTAVE);
}

/** The envelope profile of a file (any format ffmpeg reads). */
export async function envelopeOfFile(file: string, opts: { signal?: AbortSignal } = {}) {
  const [narrow, wide] = await Promise.all([
    decodeMono(file, ANALYSIS_RATE, opts),
    decodeMono(file, ENVELOPE_RATE, opts),
  ]);
  return envelopeProfile(wide, yinTrack(narrow, ANALYSIS_RATE));
}

/** F0 ratio and envelope warp factor of `result` against `source` (both files). */
export async function measureVoiceChange(
  source: string,
  result: string,
  opts: { signal?: AbortSignal } = {},
): Promise<VoiceChangeMeasure> {
  const a = await envelopeOfFile(source, opts);
  const b = await envelopeOfFile(result, opts);
  const round3 = (v: number) => Math.round(v * 1000) / 1000;
  return {
    f0_ratio: a.median_f0_hz > 0 && b.median_f0_hz > 0 ? round3(b.median_f0_hz / a.median_f0_hz) : 0,
    envelope_ratio: round3(envelopeWarp(a, b)),
    source_f0_hz: a.median_f0_hz,
    result_f0_hz: b.median_f0_hz,
  };
}
