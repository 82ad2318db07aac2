import { codeMessages, ErrorCode, type ErrorDetail, type NamedError, namedErrorMessages } from '@vw/contract';

/**
 * The one error class of the server. A numeric code travels as the envelope code; a named error
 * travels as code 422 with `data.detail[0].type` (spec §8). Business errors keep HTTP 200.
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly detailType?: string,
    readonly httpStatus = 200,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  static code(code: number, message?: string): AppError {
    return new AppError(code, message ?? codeMessages[code] ?? namedErrorMessages.err_system);
  }

  static named(type: NamedError, message?: string, httpStatus = 200): AppError {
    return new AppError(ErrorCode.Validation, message ?? namedErrorMessages[type], type, httpStatus);
  }

  static unauthorized(): AppError {
    return new AppError(ErrorCode.Unauthorized, codeMessages[ErrorCode.Unauthorized], undefined, 401);
  }

  /** A request that breaks its contract: code 422 with every detail found (`loc` says where). */
  static validation(details: ErrorDetail[]): AppError {
    const e = new AppError(ErrorCode.Validation, details[0].msg, details[0].type);
    e.details = details;
    return e;
  }

  /** Set by `validation`: the details of a refused request (otherwise one detail from detailType). */
  details?: ErrorDetail[];
  /** Set by `insufficientBalance`: what the job needs and what the user has, for the prompt. */
  shortage?: { needed: number; available: number };

  /** Code 1010 with how many credits the job needs and how many are available (spendable now). */
  static insufficientBalance(needed: number, available: number): AppError {
    const e = AppError.code(ErrorCode.InsufficientBalance);
    e.shortage = { needed, available };
    return e;
  }

  static tooManyRequests(retryAfterSeconds: number): AppError {
    return new AppError(ErrorCode.TooManyRequests, codeMessages[ErrorCode.TooManyRequests], undefined, 429, {
      'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
    });
  }

  get data(): unknown {
    if (this.details) return { detail: this.details };
    if (this.shortage) return this.shortage;
    return this.detailType ? { detail: [{ type: this.detailType, msg: this.message }] } : null;
  }
}
