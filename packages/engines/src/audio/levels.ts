import { probeAudio, streamPcmFloat } from './ffmpeg.ts';

/*
 * Level analysis of a voice sample (shared by voice cloning's sample check and the voice changer).
 * One ffmpeg decode at the file's own rate (capped at 48 kHz) into mono float, then everything in one
 * pass over 20 ms frames: RMS of speech, sample peak, true peak (4× oversampling, ITU-R BS.1770 style),
 * noise floor, clipped share, an energy voice-activity decision, pauses and edge silences.
 */

export interface Levels {
  /** RMS of the speech frames, dBFS (a full-scale square wave is 0). */
  rms_db: number;
  /** Highest sample, dBFS. */
  peak_db: number;
  /** Highest inter-sample peak found by 4× oversampling, dBTP. */
  true_peak_db: number;
  /** Level of the quiet frames (10th percentile of frame energies, or the mean of non-speech frames), dBFS. */
  noise_floor_db: number;
  /** rms_db − noise_floor_db. */
  snr_db: number;
  /** Share of samples at or beyond ±0.998 of full scale (clipped). */
  clipped_share: number;
  /** Share of the duration that is speech (energy VAD, 200 ms hangover). */
  speech_share: number;
  /** Longest non-speech stretch between the first and the last speech. */
  longest_pause_ms: number;
  /** Longest stretch of speech without a pause of 300 ms or more. */
  longest_speech_ms: number;
  leading_silence_ms: number;
  trailing_silence_ms: number;
  duration_ms: number;
  sample_rate: number;
  /** Speech spans (ms), for trimming silence. */
  speech_spans: Array<{ start_ms: number; end_ms: number }>;
}

const FRAME_MS = 20;
const HANGOVER_FRAMES = 10; // 200 ms: gaps between syllables are not pauses
const PAUSE_SPLIT_MS = 300;
const CLIP = 0.998;
const EPS = 1e-12;

const db = (power: number) => 10 * Math.log10(power + EPS);
const ampDb = (amp: number) => 20 * Math.log10(amp + 1e-9);

/** Mono float samples of a file at `sampleRate`. */
export async function readMonoFloat(
  file: string,
  sampleRate: number,
  signal?: AbortSignal,
): Promise<Float32Array> {
  const chunks: Float32Array[] = [];
  let total = 0;
  for await (const chunk of streamPcmFloat(file, { sampleRate, signal })) {
    chunks.push(chunk);
    total += chunk.length;
  }
  const out = new Float32Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const TAPS = 16; // interpolator half-length
/** 4× oversampling interpolators (phases ¼, ½, ¾ between two samples), windowed sinc, 32 taps. */
const PHASES = [0.25, 0.5, 0.75].map((frac) => {
  const h = new Float32Array(2 * TAPS);
  for (let k = -TAPS + 1; k <= TAPS; k++) {
    const t = k - frac;
    const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
    const w = 0.5 + 0.5 * Math.cos((Math.PI * t) / (TAPS + 1)); // Hann
    h[k + TAPS - 1] = sinc * w;
  }
  return h;
});

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return -120;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.floor(p * (sorted.length - 1))));
  return sorted[i]!;
}

/**
 * Levels computed chunk by chunk while ffmpeg decodes (the analysis overlaps the decode). Frame
 * energies, sample peak and clipping per sample; the true peak by 4× oversampling, evaluated only
 * where two neighbouring samples come near the running maximum (an inter-sample peak cannot be far
 * above its neighbours), so it costs little; the VAD and the rest run on the frame energies at the end.
 */
export class LevelsAccumulator {
  private readonly frame: number;
  private energies = new Float64Array(1024);
  private frames = 0;
  private partial = 0;
  private partialCount = 0;
  private peak = 0;
  private tp = 0;
  private clipped = 0;
  private total = 0;
  /** The last 2·TAPS samples of the stream (context for the interpolator across chunks). */
  private hist = new Float32Array(0);

  constructor(readonly sampleRate: number) {
    this.frame = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  }

  push(x: Float32Array): void {
    const frame = this.frame;
    let sum = this.partial;
    let count = this.partialCount;
    let peak = this.peak;
    let clipped = this.clipped;
    for (let i = 0; i < x.length; i++) {
      const v = x[i]!;
      sum += v * v;
      const a = v < 0 ? -v : v;
      if (a > peak) peak = a;
      if (a >= CLIP) clipped++;
      if (++count === frame) {
        if (this.frames === this.energies.length) {
          const grown = new Float64Array(this.energies.length * 2);
          grown.set(this.energies);
          this.energies = grown;
        }
        this.energies[this.frames++] = sum / frame;
        sum = 0;
        count = 0;
      }
    }
    this.partial = sum;
    this.partialCount = count;
    this.peak = peak;
    this.clipped = clipped;
    // True peak over the positions whose whole window is now known.
    const ext = new Float32Array(this.hist.length + x.length);
    ext.set(this.hist);
    ext.set(x, this.hist.length);
    let best = Math.max(this.tp, peak);
    // position i lies between ext[i] and ext[i+1]; the first TAPS−1 samples are context
    for (let i = TAPS - 1; i < ext.length - TAPS; i++) {
      const a = Math.abs(ext[i]!);
      const b = Math.abs(ext[i + 1]!);
      if (Math.max(a, b) < best * 0.6) continue;
      for (const h of PHASES) {
        let acc = 0;
        for (let k = 0; k < 2 * TAPS; k++) acc += ext[i - TAPS + 1 + k]! * h[k]!;
        const v = acc < 0 ? -acc : acc;
        if (v > best) best = v;
      }
    }
    this.tp = best;
    this.total += x.length;
    this.hist = ext.slice(Math.max(0, ext.length - 2 * TAPS + 1));
  }

  finish(): Levels {
    return levelsFromFrames(
      this.energies.subarray(0, this.frames),
      this.peak,
      Math.max(this.tp, this.peak),
      this.clipped,
      this.total,
      this.sampleRate,
    );
  }
}

/** Levels of mono float samples (see `Levels`). */
export function analyseLevels(x: Float32Array, sampleRate: number): Levels {
  const acc = new LevelsAccumulator(sampleRate);
  acc.push(x);
  return acc.finish();
}

function levelsFromFrames(
  energy: Float64Array,
  peak: number,
  truePeakAmp: number,
  clipped: number,
  samples: number,
  sampleRate: number,
): Levels {
  const frames = energy.length;
  const frameDb = Float64Array.from(energy, (e) => db(e));
  const sorted = Float64Array.from(frameDb).sort();
  const p10 = percentile(sorted, 0.1);
  const p95 = percentile(sorted, 0.95);
  // Speech: clearly above the quiet frames and not far below the loud ones.
  const threshold = Math.max(p10 + 10, p95 - 35, -60);
  const raw = new Uint8Array(frames);
  for (let f = 0; f < frames; f++) raw[f] = frameDb[f]! > threshold ? 1 : 0;
  // Hangover both ways: short dips inside words stay speech.
  const speech = new Uint8Array(frames);
  let last = -1e9;
  for (let f = 0; f < frames; f++) {
    if (raw[f]) last = f;
    if (f - last <= HANGOVER_FRAMES && last >= 0) speech[f] = 1;
  }
  let next = 1e9;
  for (let f = frames - 1; f >= 0; f--) {
    if (raw[f]) next = f;
    if (next - f <= HANGOVER_FRAMES && next < 1e9) speech[f] = 1;
  }
  // Only frames that really are speech count for the level; hangover frames are for pauses.
  let speechPower = 0;
  let speechCount = 0;
  let noisePower = 0;
  let noiseCount = 0;
  let speechFrames = 0;
  for (let f = 0; f < frames; f++) {
    if (speech[f]) speechFrames++;
    if (raw[f]) {
      speechPower += energy[f]!;
      speechCount++;
    } else if (!speech[f]) {
      noisePower += energy[f]!;
      noiseCount++;
    }
  }
  const spans: Array<{ start_ms: number; end_ms: number }> = [];
  for (let f = 0; f < frames; f++) {
    if (!speech[f]) continue;
    const start = f;
    while (f < frames && speech[f]) f++;
    spans.push({ start_ms: start * FRAME_MS, end_ms: f * FRAME_MS });
  }
  const durationMs = Math.round((samples / sampleRate) * 1000);
  let longestPause = 0;
  let longestSpeech = 0;
  let runStart = spans[0]?.start_ms ?? 0;
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]!;
    if (i > 0) {
      const gap = s.start_ms - spans[i - 1]!.end_ms;
      longestPause = Math.max(longestPause, gap);
      if (gap >= PAUSE_SPLIT_MS) runStart = s.start_ms;
    }
    longestSpeech = Math.max(longestSpeech, s.end_ms - runStart);
  }
  // The noise floor: the frames that are not speech when there are enough of them, else the quietest tenth.
  const noiseFloor = Math.max(-120, noiseCount >= 10 ? db(noisePower / noiseCount) : p10);
  const rmsDb = speechCount
    ? db(speechPower / speechCount)
    : db(energy.reduce((a, b) => a + b, 0) / (frames || 1));
  return {
    rms_db: round1(rmsDb),
    peak_db: round1(ampDb(peak)),
    true_peak_db: round1(ampDb(truePeakAmp)),
    noise_floor_db: round1(noiseFloor),
    snr_db: round1(rmsDb - noiseFloor),
    clipped_share: samples ? clipped / samples : 0,
    speech_share: frames ? speechFrames / frames : 0,
    longest_pause_ms: longestPause,
    longest_speech_ms: longestSpeech,
    leading_silence_ms: spans.length ? spans[0]!.start_ms : durationMs,
    trailing_silence_ms: spans.length ? Math.max(0, durationMs - spans.at(-1)!.end_ms) : 0,
    duration_ms: durationMs,
    sample_rate: sampleRate,
    speech_spans: spans,
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** The analysis rate: the file's own, within 16–48 kHz (clipping and true peak need the real samples). */
export async function analysisRate(file: string): Promise<number> {
  const probe = await probeAudio(file);
  return Math.min(48_000, Math.max(16_000, probe.sampleRate || 48_000));
}

/** Levels of an audio (or video) file. */
export async function measureLevels(file: string, opts: { signal?: AbortSignal } = {}): Promise<Levels> {
  const rate = await analysisRate(file);
  const acc = new LevelsAccumulator(rate);
  for await (const chunk of streamPcmFloat(file, { sampleRate: rate, signal: opts.signal })) acc.push(chunk);
  return acc.finish();
}
