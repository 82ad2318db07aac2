import type { PitchStats } from '../audio/pitch.ts';

/**
 * Voice conversion port: one input recording → the same words in another voice. The offline default
 * moves pitch and formants (Rubber Band R3) so the median F0 lands on the target voice's; a
 * self-hosted voice-conversion server (RVC, Seed-VC behind the HTTP protocol in http.ts) replaces the
 * timbre as well.
 */
export interface VcTarget {
  /** The target voice's measured F0; pitch-matching engines shift the source's median onto it. */
  pitch?: Pick<PitchStats, 'median_hz'> & Partial<PitchStats>;
  /** Extra pitch shift in semitones (manual settings, or a nudge on top of a target voice). */
  semitones?: number;
  /** Formant shift in semitones (−12…12); 0 keeps the source's formants (timbre). */
  formantSemitones?: number;
  /**
   * Signal-processing engines: share of the pitch move onto `pitch` that the formants follow, on top
   * of `formantSemitones` (default FORMANT_FOLLOW; 0 keeps the formants where the manual shift puts them).
   */
  formantFollow?: number;
  /** A server-side voice/model id (remote engines). */
  voiceId?: string;
  /** A short recording of the target voice (zero-shot remote engines take it as the reference). */
  referenceAudio?: string;
}

export interface VcConvertOptions {
  /** RNNoise before conversion. */
  denoise?: boolean;
  /**
   * true (default): same duration as the input (pitch and formants shifted without changing speed).
   * false: a tape-speed change — pitch and formants move together and the speed follows the pitch.
   */
  keepTiming?: boolean;
  /** A folder for intermediate files (the caller owns and removes it). */
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

export interface VcResult {
  /** Mono 16-bit WAV written to the output path. */
  file: string;
  duration_ms: number;
  /** The engine that made it, e.g. 'rubberband-r3'. */
  engine: string;
  /** Honest label shown with the result, e.g. 'Rubber Band R3（音高/共振峰变换）'. */
  label: string;
  /** How it was made: 'signal' = pitch and formant shifting (standard signal processing), 'neural' = a voice-conversion model. */
  method: 'signal' | 'neural';
  /** Pitch shift applied, semitones (computed from the F0s, plus any manual shift). */
  semitones: number;
  /** Formant shift applied, semitones (the part following the pitch plus any manual shift). */
  formant_semitones: number;
  /** Source F0 (after denoise), Hz; 0 when the source has no voiced frames. */
  source_f0_hz: number;
  /** F0 the conversion aimed at (0 when there was no target pitch). */
  target_f0_hz: number;
  /** Median F0 measured on the output. */
  output_f0_hz: number;
  denoised: boolean;
}

export interface VcProvider {
  id: string;
  label: string;
  /** 'offline' runs here; 'remote' calls a configured server. */
  kind: 'offline' | 'remote';
  /** Whether the engine uses `referenceAudio` (zero-shot servers). */
  usesReference: boolean;
  convert(input: string, output: string, target: VcTarget, opts: VcConvertOptions): Promise<VcResult>;
  close?(): Promise<void>;
}
