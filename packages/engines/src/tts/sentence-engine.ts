import { resamplePcm, shiftPitch } from '../audio/ffmpeg.ts';
import { applyGainDb, concatPcm, type Pcm } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { splitSentences, type TextPiece } from '../text/sentences.ts';
import type {
  AudioChunk,
  CallOptions,
  EngineCapabilities,
  EngineId,
  SynthesisRequest,
  SynthesisResult,
  Timing,
  TtsEngine,
} from './types.ts';

/** A word inside one sentence: offsets into the sentence text, times from the sentence start. */
export interface SentenceWord {
  text: string;
  start: number;
  end: number;
  startMs: number;
  endMs: number;
}

export interface SentenceAudio extends Pcm {
  words?: SentenceWord[];
}

/** What an engine implements; splitting, pauses, gain, pitch fallback, timings and streaming are shared. */
export interface SentenceEngineSpec {
  id: EngineId;
  capabilities: EngineCapabilities;
  /** Rate of pauses when a request has no speech at all. */
  fallbackSampleRate: number;
  /** True when `synthesizeSentence` applies `request.pitch` itself; otherwise ffmpeg shifts the pitch. */
  nativePitch: boolean;
  maxSentenceLength: number;
  /** Sentences synthesised ahead at once (default 1); audio is still emitted in order. */
  parallelism?: number;
  synthesizeSentence(text: string, request: SynthesisRequest, options: CallOptions): Promise<SentenceAudio>;
  close?(): Promise<void>;
}

const LIMITS = { speed: [0.25, 4], pitch: [-12, 12], volume: [-30, 20], pauseMs: [0, 60_000] } as const;

function invalid(zh: string, en: string): never {
  throw new EngineError('invalid_request', zh, en);
}

function checkRange(name: keyof typeof LIMITS, value: number | undefined) {
  if (value === undefined) return;
  const [min, max] = LIMITS[name];
  if (!Number.isFinite(value) || value < min || value > max) {
    invalid(`参数 ${name} 应在 ${min} 到 ${max} 之间`, `${name} must be between ${min} and ${max}`);
  }
}

export function validateRequest(id: EngineId, capabilities: EngineCapabilities, request: SynthesisRequest) {
  if (request.voice?.engine !== id) {
    invalid(`音色不属于引擎 ${id}`, `voice belongs to engine ${request.voice?.engine}, not ${id}`);
  }
  if (!Array.isArray(request.segments) || request.segments.length === 0)
    invalid('没有要合成的内容', 'no segments');
  let chars = 0;
  for (const s of request.segments) {
    if ('pauseMs' in s) checkRange('pauseMs', s.pauseMs);
    else if (typeof s.text === 'string') chars += s.text.length;
    else invalid('片段格式不正确', 'each segment needs text or pauseMs');
  }
  if (!request.segments.some((s) => 'text' in s && s.text.trim()))
    invalid('没有要合成的文字', 'no text to speak');
  if (chars > capabilities.maxTextLength) {
    throw new EngineError(
      'text_too_long',
      `文本过长：${chars} 字，单次最多 ${capabilities.maxTextLength} 字`,
      `text too long: ${chars} characters, at most ${capabilities.maxTextLength} per call`,
    );
  }
  checkRange('speed', request.speed);
  checkRange('pitch', request.pitch);
  checkRange('volume', request.volume);
}

function throwIfAborted(signal?: AbortSignal) {
  if (signal?.aborted) throw new EngineError('aborted', '合成已取消', 'synthesis aborted');
}

export function createSentenceEngine(spec: SentenceEngineSpec): TtsEngine {
  async function* stream(request: SynthesisRequest, { signal }: CallOptions = {}): AsyncIterable<AudioChunk> {
    validateRequest(spec.id, spec.capabilities, request);
    // Positions are kept in samples so that chunk boundaries add up exactly.
    let at = 0;
    let rate: number | undefined;
    let pendingPauseMs = 0;
    const ms = (samples: number) => (samples / (rate ?? spec.fallbackSampleRate)) * 1000;

    function* flushPause(): Generator<AudioChunk> {
      if (pendingPauseMs <= 0) return;
      const sampleRate = rate ?? spec.fallbackSampleRate;
      const samples = new Int16Array(Math.round((pendingPauseMs / 1000) * sampleRate));
      pendingPauseMs = 0;
      const startMs = ms(at);
      at += samples.length;
      yield { kind: 'pause', samples, sampleRate, startMs, endMs: ms(at), timings: [] };
    }

    // Every piece in order; speech starts synthesising up to `parallelism` sentences ahead.
    type Piece = { segment: number; pauseMs: number } | { segment: number; piece: TextPiece };
    const pieces = request.segments.flatMap((part, segment): Piece[] =>
      'pauseMs' in part
        ? [{ segment, pauseMs: part.pauseMs }]
        : splitSentences(part.text, spec.maxSentenceLength).map((piece) => ({ segment, piece })),
    );
    const ahead = Math.max(1, spec.parallelism ?? 1);
    const started = new Map<number, Promise<SentenceAudio>>();
    const start = (index: number) => {
      for (let i = index; i < pieces.length && started.size < ahead; i++) {
        const p = pieces[i];
        if (!('piece' in p) || started.has(i)) continue;
        const spoken = spec.synthesizeSentence(p.piece.text, request, { signal });
        spoken.catch(() => {}); // awaited in order below; an abandoned one must not go unhandled
        started.set(i, spoken);
      }
    };

    for (const [index, item] of pieces.entries()) {
      if ('pauseMs' in item) {
        pendingPauseMs += item.pauseMs;
        continue;
      }
      const { segment, piece } = item;
      throwIfAborted(signal);
      start(index);
      const spoken = await started.get(index)!;
      started.delete(index);
      start(index + 1);
      let audio: Pcm = spoken;
      if (!spec.nativePitch && request.pitch) audio = await shiftPitch(audio, request.pitch);
      if (request.volume) audio = applyGainDb(audio, request.volume);
      // A pause before the first sentence waits until the engine has told us its sample rate.
      rate ??= audio.sampleRate;
      if (audio.sampleRate !== rate) audio = await resamplePcm(audio, rate);
      yield* flushPause();
      const startMs = ms(at);
      at += audio.samples.length;
      const endMs = ms(at);
      const timings: Timing[] = [
        { kind: 'sentence', text: piece.text, startMs, endMs, segment, start: piece.start, end: piece.end },
        ...(spoken.words ?? []).map(
          (w): Timing => ({
            kind: 'word',
            text: w.text,
            startMs: startMs + w.startMs,
            endMs: Math.min(endMs, startMs + w.endMs),
            segment,
            start: piece.start + w.start,
            end: piece.start + w.end,
          }),
        ),
      ];
      yield { kind: 'speech', samples: audio.samples, sampleRate: rate, startMs, endMs, timings };
    }
    yield* flushPause();
  }

  async function synthesize(request: SynthesisRequest, options?: CallOptions): Promise<SynthesisResult> {
    const chunks: AudioChunk[] = [];
    for await (const chunk of stream(request, options)) chunks.push(chunk);
    const pcm = concatPcm(chunks, chunks[0].sampleRate);
    return {
      ...pcm,
      durationMs: (pcm.samples.length / pcm.sampleRate) * 1000,
      timings: chunks.flatMap((c) => c.timings),
    };
  }

  return {
    id: spec.id,
    capabilities: spec.capabilities,
    synthesize,
    stream,
    close: spec.close ?? (async () => {}),
  };
}
