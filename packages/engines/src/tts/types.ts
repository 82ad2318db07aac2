import type { Pcm } from '../audio/wav.ts';

export type EngineId =
  | 'espeak'
  | 'sherpa-onnx'
  | 'openai-compatible'
  // engines that speak cloned voices (packages/engines/src/clone)
  | 'gpt-sovits'
  | 'cosyvoice'
  | 'sherpa-zeroshot';

/** A persona of the embedded espeak-ng engine: a voice (language) plus a variant and presets. */
export interface EspeakVoice {
  engine: 'espeak';
  /**
   * espeak-ng voice name, e.g. 'cmn-latn-pinyin', 'yue', 'en-us' ('cmn' and 'zh' mean cmn-latn-pinyin);
   * when omitted, the request's language picks it.
   */
  voice?: string;
  /** espeak-ng variant, e.g. 'f2', 'm3', 'klatt', 'grandma'. */
  variant?: string;
  /** Base speaking rate in words per minute (espeak default 175); the request speed multiplies it. */
  rate?: number;
  /** Base pitch 0–100 (default 50). */
  pitch?: number;
  /** Pitch range 0–100 (default 50): low is monotone, high is lively. */
  range?: number;
}

export interface SherpaVoice {
  engine: 'sherpa-onnx';
  /** Model id from the models registry file. */
  model: string;
  /** Speaker id for multi-speaker models (default 0). */
  speaker?: number;
}

export interface OpenAiVoice {
  engine: 'openai-compatible';
  model: string;
  voice: string;
}

/** A GPT-SoVITS (api_v2) cloned voice: the reference clip as the GPT-SoVITS server sees it. */
export interface GptSovitsVoice {
  engine: 'gpt-sovits';
  ref_audio_path: string;
  aux_ref_audio_paths?: string[];
  prompt_text: string;
  prompt_lang: string;
}

/** A CosyVoice zero-shot voice: the reference clip on this machine (uploaded with each request). */
export interface CosyVoiceVoice {
  engine: 'cosyvoice';
  prompt_wav: string;
  prompt_text: string;
}

/** A sherpa-onnx zero-shot voice (ZipVoice / Pocket): reference clip on this machine. */
export interface ZeroShotVoice {
  engine: 'sherpa-zeroshot';
  model: 'zipvoice' | 'pocket';
  reference_wav: string;
  reference_text: string;
}

export type EngineVoice =
  | EspeakVoice
  | SherpaVoice
  | OpenAiVoice
  | GptSovitsVoice
  | CosyVoiceVoice
  | ZeroShotVoice;

export type Segment = { text: string } | { pauseMs: number };

/** Word → pinyin with tone numbers ('银行': 'yin2 hang2'); tone marks ('yín háng') are accepted too. */
export type PronunciationDictionary = Record<string, string>;

export interface SynthesisRequest {
  segments: Segment[];
  voice: EngineVoice;
  /** Rate multiplier, 1 = normal (0.25–4). */
  speed?: number;
  /** Pitch shift in semitones, 0 = unchanged (−12…12). */
  pitch?: number;
  /** Gain in dB, 0 = unchanged (−30…20). */
  volume?: number;
  /** BCP 47-ish language of the text ('zh', 'yue', 'en-US'): picks the espeak voice when the voice names none. */
  language?: string;
  /** Applied to Mandarin text by engines that convert it to pinyin themselves. */
  dictionary?: PronunciationDictionary;
}

export interface Timing {
  kind: 'word' | 'sentence';
  text: string;
  startMs: number;
  endMs: number;
  /** Where the text sits in the request: segment index and UTF-16 offsets inside that segment's text. */
  segment: number;
  start: number;
  end: number;
}

/** One piece of the output, in order: a sentence, or a pause. Timings are relative to the whole output. */
export interface AudioChunk extends Pcm {
  kind: 'speech' | 'pause';
  startMs: number;
  endMs: number;
  timings: Timing[];
}

export interface SynthesisResult extends Pcm {
  durationMs: number;
  timings: Timing[];
}

export interface EngineCapabilities {
  /** Language codes the configured voices/models speak. */
  languages: string[];
  /** Longest text (characters, all segments together) one call accepts; longer text goes through jobs. */
  maxTextLength: number;
  /** Finest timing the engine reports: words (from the synthesiser) or sentences (from our splitting). */
  timings: 'word' | 'sentence';
  cloning: boolean;
  /** Sentence-by-sentence chunks through `stream()`. */
  streaming: boolean;
  /** Whether `dictionary` is honoured. */
  dictionary: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface TtsEngine {
  readonly id: EngineId;
  readonly capabilities: EngineCapabilities;
  synthesize(request: SynthesisRequest, options?: CallOptions): Promise<SynthesisResult>;
  /** The same audio as `synthesize`, yielded sentence by sentence so a server can send bytes early. */
  stream(request: SynthesisRequest, options?: CallOptions): AsyncIterable<AudioChunk>;
  /** Frees native resources (loaded models). */
  close(): Promise<void>;
}
