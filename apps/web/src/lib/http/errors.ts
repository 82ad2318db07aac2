import {
  clientMessages,
  codeMessages,
  ErrorCode,
  namedErrorMessage,
  namedErrorMessages,
} from '@vw/contract/errors.ts';

/** What the general error handler of spec §8 shows for a failed call. */
export type ErrorDisplay =
  | { kind: 'network'; text: string }
  | { kind: 'credit'; text: string }
  | { kind: 'message'; text: string }
  | { kind: 'none'; text: string };

export type ApiErrorKind = 'network' | 'http' | 'business' | 'auth';

interface DetailData {
  detail?: Array<{ type?: string; msg?: string }>;
}

/** The detail type of a 422 envelope (`data.detail[0].type`), if any. */
export function detailType(data: unknown): string | undefined {
  const detail = (data as DetailData | null | undefined)?.detail;
  return Array.isArray(detail) && detail.length > 0 && typeof detail[0]?.type === 'string'
    ? detail[0].type
    : undefined;
}

const BALANCE_NOT_ENOUGH = 'Balance not enough';

/**
 * Maps a nonzero envelope to what the user sees (spec §8):
 * - 1010, and 422 with err_balance_insufficient → the insufficient-credits prompt;
 * - 422 with another detail type → its mapped message, falling back to err_system;
 *   422 without detail → msg, or the generic system error;
 * - other codes except 401: a msg containing "Balance not enough" → credit prompt; a code of the
 *   code table → its message; otherwise msg, or "Operation failed !".
 */
export function describeEnvelopeError(code: number, msg: string | undefined, data: unknown): ErrorDisplay {
  if (code === ErrorCode.InsufficientBalance)
    return { kind: 'credit', text: clientMessages.insufficientCredits };
  if (code === ErrorCode.Validation) {
    const type = detailType(data);
    // The voice changer's shortage (spec §8 err_sts_balance_insufficient) is a credit shortage too.
    if (type === 'err_balance_insufficient' || type === 'err_sts_balance_insufficient')
      return { kind: 'credit', text: clientMessages.insufficientCredits };
    if (type) return { kind: 'message', text: namedErrorMessage(type) };
    return { kind: 'message', text: msg || namedErrorMessages.err_system };
  }
  if (code === ErrorCode.Unauthorized) return { kind: 'none', text: codeMessages[401] };
  if (msg?.includes(BALANCE_NOT_ENOUGH)) return { kind: 'credit', text: clientMessages.insufficientCredits };
  if (code in codeMessages) return { kind: 'message', text: codeMessages[code] };
  return { kind: 'message', text: msg || clientMessages.operationFailed };
}

export function networkDisplay(): ErrorDisplay {
  return { kind: 'network', text: clientMessages.network };
}

/** Every failed call rejects with this; `message` is the text the user would see. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: number;
  readonly httpStatus: number;
  /** The named error of a 422 envelope (`data.detail[0].type`). */
  readonly type: string | undefined;
  readonly display: ErrorDisplay;
  readonly data: unknown;
  /** The envelope's own `msg`, unmapped (some flows show "server msg or a fixed fallback"). */
  readonly serverMessage: string | undefined;

  constructor(init: {
    kind: ApiErrorKind;
    code?: number;
    httpStatus?: number;
    type?: string;
    display: ErrorDisplay;
    data?: unknown;
    serverMessage?: string;
  }) {
    super(init.display.text);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.code = init.code ?? -1;
    this.httpStatus = init.httpStatus ?? 0;
    this.type = init.type;
    this.display = init.display;
    this.data = init.data;
    this.serverMessage = init.serverMessage || undefined;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** The message to show inline for any error thrown by a call. */
export function errorText(e: unknown): string {
  if (isApiError(e)) return e.message;
  return clientMessages.operationFailed;
}
