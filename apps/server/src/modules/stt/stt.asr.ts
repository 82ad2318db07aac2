import { type AsrProvider, isEngineError, type Transcript } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';

/*
 * The server's side of the ASR port: which recognizer answers, and what its errors mean to a user.
 * Shared by the stt tool's pipeline and the public transcription API.
 */

/**
 * The recognizer to use: the one named (an id from the registry, e.g. 'sherpa-onnx:sense-voice…' or
 * 'openai-compatible') when it exists, else the first configured. Nothing configured → err_interface_unavailable
 * with the registry's sentence naming what to configure.
 */
export function pickRecognizer(ctx: AppContext, name?: string): AsrProvider {
  try {
    return name && ctx.asr.has(name) ? ctx.asr.get(name) : ctx.asr.get();
  } catch (err) {
    throw asAppError(err);
  }
}

/** Whether speech to text can run at all, and if not, the sentence that says what to configure. */
export function recognizerStatus(ctx: AppContext): { available: boolean; reason: string } {
  try {
    ctx.asr.get();
    return { available: true, reason: '' };
  } catch (err) {
    return { available: false, reason: isEngineError(err) ? err.zh : String(err) };
  }
}

/**
 * An engine's failure as the error a user sees (Chinese sentence of the engine kept). HTTP 200 like
 * every business error; the public API answers err_interface_unavailable with 503.
 */
export function asAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isEngineError(err)) {
    switch (err.code) {
      case 'engine_not_configured':
      case 'engine_unavailable':
      case 'model_not_found':
      case 'model_file_missing':
      case 'model_invalid':
        return AppError.named('err_interface_unavailable', err.zh);
      case 'media_failed':
        return AppError.named('err_file_not_supported', err.zh);
      case 'invalid_request':
        return AppError.named('err_invalid_param', err.zh);
      default:
        // remote_error, timeout, aborted: the recognizer did not answer usefully this time.
        return AppError.named('err_interface_unavailable', `语音识别失败：${err.zh}`);
    }
  }
  return AppError.named('err_system');
}

/** 'S1' → '说话人1' (diarization labels in order of first appearance). */
export function speakerName(label: string): string {
  const n = /^S(\d+)$/.exec(label)?.[1];
  return n ? `说话人${n}` : label;
}

/** Honest label for the editor and list: 'openai-compatible:whisper-1' → 'OpenAI 兼容接口 · whisper-1'. */
export function engineLabel(transcript: Pick<Transcript, 'engine'>): string {
  const [family, ...rest] = transcript.engine.split(':');
  const model = rest.join(':');
  const name =
    family === 'sherpa-onnx' ? 'sherpa-onnx' : family === 'openai-compatible' ? 'OpenAI 兼容接口' : family;
  return model ? `${name} · ${model}` : name!;
}
