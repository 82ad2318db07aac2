import { type NamedError, TtsFailureCode } from '@vw/contract';
import { type EngineErrorCode, isEngineError } from '@vw/engines';
import { AppError } from './errors.ts';

/*
 * What an engine's failure means to a user, in one table. Engines throw an EngineError with a stable
 * code and a Chinese sentence; requests and tasks answer the contract error the code maps to, with
 * that sentence. `null`: the engine ran and failed this time, which each capability words as its own
 * failure (ENGINE_FAILURES).
 */
const CONTRACT_ERRORS: Record<EngineErrorCode, NamedError | null> = {
  engine_not_configured: 'err_interface_unavailable',
  engine_unavailable: 'err_interface_unavailable',
  model_not_found: 'err_interface_unavailable',
  model_file_missing: 'err_interface_unavailable',
  model_invalid: 'err_interface_unavailable',
  media_failed: 'err_file_not_supported',
  media_unsupported: 'err_file_not_supported',
  invalid_request: 'err_invalid_param',
  text_too_long: null,
  remote_error: null,
  timeout: null,
  aborted: null,
};

/** How a capability words a failed run of its engines. */
export const ENGINE_FAILURES = {
  /** Speech recognition and the engines around it (audio extraction, separation, cloning): try again. */
  recognition: { error: 'err_interface_unavailable', prefix: '语音识别失败：' },
  conversion: { error: 'err_generate_voice_failed', prefix: '变声失败：' },
  lipSync: { error: 'err_interface_unavailable', prefix: '口型同步失败：' },
} as const satisfies Record<string, { error: NamedError; prefix: string }>;

/** An engine's failure as the error a user sees (the engine's sentence kept); anything unknown is err_system. */
export function engineAppError(
  err: unknown,
  failure: (typeof ENGINE_FAILURES)[keyof typeof ENGINE_FAILURES],
): AppError {
  if (err instanceof AppError) return err;
  if (!isEngineError(err)) return AppError.named('err_system');
  const named = CONTRACT_ERRORS[err.code];
  return named ? AppError.named(named, err.zh) : AppError.named(failure.error, `${failure.prefix}${err.zh}`);
}

/**
 * Media the engines could not read, as the table's error with `message` (else the contract's own
 * sentence). Any other failure passes unchanged: a task then fails with its generic message.
 */
export function mediaAppError(err: unknown, message?: string): unknown {
  return isEngineError(err) && CONTRACT_ERRORS[err.code] === 'err_file_not_supported'
    ? AppError.named('err_file_not_supported', message)
    : err;
}

/**
 * A synthesis failure as a text-to-speech failure code: a request the engine refused for its
 * language (its sentence names the language; engines have no code of their own for it) is
 * UnsupportedLanguage, anything else GenerationFailed.
 */
export function synthesisFailure(err: unknown): { code: number; message: string } {
  if (isEngineError(err)) {
    const unsupported = err.code === 'invalid_request' && /语言|speak/.test(err.zh + err.en);
    return {
      code: unsupported ? TtsFailureCode.UnsupportedLanguage : TtsFailureCode.GenerationFailed,
      message: err.zh,
    };
  }
  return { code: TtsFailureCode.GenerationFailed, message: '生成语音失败' };
}
