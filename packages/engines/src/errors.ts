export type EngineErrorCode =
  | 'engine_not_configured'
  | 'engine_unavailable'
  | 'invalid_request'
  | 'text_too_long'
  | 'model_not_found'
  | 'model_file_missing'
  | 'model_invalid'
  | 'remote_error'
  | 'timeout'
  | 'aborted'
  | 'media_failed'
  /** A file that is not media we accept (a playlist, an unknown container, no streams). */
  | 'media_unsupported';

/**
 * The one error engines throw. Carries a stable code plus a Chinese and an English sentence, because
 * operators read the server log in either language and the server shows the Chinese one to users.
 */
export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    readonly zh: string,
    readonly en: string,
    options?: { cause?: unknown },
  ) {
    super(`${zh} (${en})`, options);
    this.name = 'EngineError';
  }
}

export function isEngineError(err: unknown, code?: EngineErrorCode): err is EngineError {
  return err instanceof EngineError && (code === undefined || err.code === code);
}
