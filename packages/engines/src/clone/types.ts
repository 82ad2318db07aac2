import type { EngineVoice, TtsEngine } from '../tts/types.ts';

/*
 * The cloning port. A clone engine turns reference clips of one speaker into an `EngineVoice` that a
 * TTS engine of the registry can speak with. What it really is, is said by `label` and `kind`:
 * 'fitted' (a standard-engine voice fitted to the sample — 标准引擎近似, not a neural clone),
 * 'zero-shot' (a neural model conditioned on the reference clips at each synthesis), 'trained'.
 */

export type CloneEngineId = 'standard' | 'sherpa-zipvoice' | 'sherpa-pocket' | 'gpt-sovits' | 'cosyvoice';

/** What the sample sounds like, measured. */
export interface VoiceProfile {
  median_hz: number;
  p10_hz: number;
  p90_hz: number;
  /** Syllables per second (energy-envelope peaks in speech). */
  rate: number;
  gender: 'male' | 'female';
}

/** One reference clip, a mono WAV on this machine. */
export interface CloneReference {
  path: string;
  /** What is said in it, when known (ASR or the consent sentence); zero-shot engines want it. */
  text?: string;
  language: string;
  duration_ms: number;
}

export interface CloneRequest {
  /** Best first; multi-reference engines use several. */
  references: CloneReference[];
  profile: VoiceProfile;
  language: string;
  /** The new voice's id: engines that keep a copy of the references name it after the voice. */
  voiceId: string;
  signal?: AbortSignal;
}

export interface CloneResult {
  voice: EngineVoice;
  /** Honest description of the result, e.g. '标准引擎近似：中位音高 182 Hz（样本 180 Hz）'. */
  note: string;
  /** Reference clips the voice depends on at synthesis time (removed with the voice). */
  files: string[];
}

export interface CloneEngine {
  readonly id: CloneEngineId;
  /** Shown wherever the voice is: '标准引擎近似', 'GPT-SoVITS', 'CosyVoice', 'ZipVoice (sherpa-onnx)'. */
  readonly label: string;
  readonly kind: 'fitted' | 'zero-shot' | 'trained';
  /** How many reference clips it can condition on at once. */
  readonly maxReferences: number;
  /** The TTS engine (registry id) that speaks the voices it makes. */
  readonly ttsEngineId: string;
  clone(request: CloneRequest): Promise<CloneResult>;
}

export interface CloneEngineProblem {
  id: CloneEngineId;
  label: string;
  /** What the operator configures (English: the log and the admin CLI; never shown to users). */
  reason: string;
}

export interface CloneEngineSet {
  /** Working engines, preferred first (neural before the standard fit). */
  engines: CloneEngine[];
  /** TTS engines to add to the TTS registry (speaking the cloned voices of HTTP / sherpa engines). */
  ttsEngines: TtsEngine[];
  /** Configured-but-broken and not-configured engines, with what to do. */
  problems: CloneEngineProblem[];
}
