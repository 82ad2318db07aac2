import { type AsrProvider, isEngineError, type Transcript } from '@vw/engines';
import type { AppContext } from '../../../context.ts';
import { ENGINE_FAILURES, engineAppError } from '../../../engine-errors.ts';
import type { StageContext } from '../../../tasks/pipeline.ts';
import { progressOf } from './media.ts';

/*
 * The recognizeSpeech stage and the server's side of the ASR port: which recognizer answers, and its
 * labels. Shared by speech to text, dubbing from speech, 视频翻译 and the public transcription API.
 */

/**
 * The recognizer to use: the one named (an id from the registry, e.g. 'sherpa-onnx:sense-voice…' or
 * 'openai-compatible') when it exists, else the first configured. Nothing configured → err_interface_unavailable
 * with the registry's sentence naming what to configure.
 */
export function pickRecognizer(ctx: AppContext, name?: string): AsrProvider {
  try {
    return name && ctx.engines.asr.has(name) ? ctx.engines.asr.get(name) : ctx.engines.asr.get();
  } catch (err) {
    throw recognitionError(err);
  }
}

/** Whether speech to text can run at all, and if not, the sentence that says what to configure. */
export function recognizerStatus(ctx: AppContext): { available: boolean; reason: string } {
  try {
    ctx.engines.asr.get();
    return { available: true, reason: '' };
  } catch (err) {
    return { available: false, reason: isEngineError(err) ? err.zh : String(err) };
  }
}

/** A recognizer's (or the engines around it) failure as the error a user sees. */
export const recognitionError = (err: unknown) => engineAppError(err, ENGINE_FAILURES.recognition);

/**
 * Speech of a 16 kHz mono WAV as a transcript (one-shot: the port reports progress, not chunks, so
 * there are no items to resume). `speakers` asks for diarization: 1 none, 0 as many as heard.
 */
export async function recognizeSpeech(
  ctx: StageContext<unknown>,
  wav: string,
  options: { language: string; speakers?: number },
): Promise<Transcript> {
  const recognizer = pickRecognizer(ctx.app);
  const { language, speakers } = options;
  try {
    return await recognizer.transcribe(wav, {
      language: language === 'auto' ? undefined : language,
      ...(speakers === undefined
        ? {}
        : {
            speakers: speakers > 1 ? speakers : undefined,
            diarize: speakers !== 1 && recognizer.diarization,
          }),
      signal: ctx.signal,
      onProgress: progressOf(ctx),
    });
  } catch (err) {
    throw recognitionError(err);
  }
}

/** 'S1' → '说话人1' (diarization labels in order of first appearance). */
export function speakerName(label: string): string {
  const n = /^S(\d+)$/.exec(label)?.[1];
  return n ? `说话人${n}` : label;
}

/**
 * Honest label for the editor and list: a local model by its name ('本地识别 · SenseVoice 中英日韩粤'),
 * a server by its model ('OpenAI 兼容接口 · whisper-1'). `recognizers` are the registry's providers.
 */
export function engineLabel(
  transcript: Pick<Transcript, 'engine'>,
  recognizers: ReadonlyArray<{ id: string; label: string }> = [],
): string {
  const [family, ...rest] = transcript.engine.split(':');
  const model = rest.join(':');
  if (family === 'sherpa-onnx') {
    const name = recognizers.find((r) => r.id === transcript.engine)?.label ?? model;
    return name ? `本地识别 · ${name}` : '本地识别';
  }
  const name = family === 'openai-compatible' ? 'OpenAI 兼容接口' : family;
  return model ? `${name} · ${model}` : name!;
}
