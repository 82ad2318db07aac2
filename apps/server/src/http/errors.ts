import { ErrorCode, namedErrorMessages } from '@vw/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { RequestValidationError } from './validation.ts';

/**
 * The one mapping from whatever a route threw to an AppError, for the workbench and the public API
 * alike: refused input → 422 with details, an oversize body → 413, other client faults (malformed
 * JSON, wrong content type) → err_invalid_param with their status, anything else → logged, answered
 * 500 err_system with no internals.
 */
export function toAppError(error: unknown, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof RequestValidationError) return AppError.validation(error.details);
  const { statusCode: status, code } = error as Partial<FastifyError>;
  if (status === 413 || code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return AppError.named('err_file_too_large', undefined, 413);
  }
  if (status && status >= 400 && status < 500) return AppError.named('err_invalid_param', undefined, status);
  request.log.error({ err: error }, 'unhandled error');
  return new AppError(500, namedErrorMessages.err_system, 'err_system', 500);
}

/** Workbench answers: the envelope; business errors keep HTTP 200 (see ARCHITECTURE "Decisions"). */
export function sendWorkbenchError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const e = toAppError(error, request);
  if (e.headers) reply.headers(e.headers);
  return reply.status(e.httpStatus).send({ code: e.code, msg: e.message, data: e.data });
}

/** The public API's HTTP status for an error: the envelope code stays, the status tells HTTP clients. */
function publicStatusOf(e: AppError): number {
  if (e.httpStatus !== 200) return e.httpStatus;
  if (e.details) return 422;
  if (e.code === ErrorCode.InsufficientBalance) return 402;
  switch (e.detailType) {
    case 'err_apikey_credit_limit':
    case 'err_balance_insufficient':
      return 402;
    case 'err_not_found':
    case 'err_tenant_apikey_not_found':
      return 404;
    case 'err_voice_cannot_access_other_voice':
    case 'err_permission_deny':
    case 'err_account_refused':
      return 403;
    case 'err_generate_voice_failed':
    case 'err_interface_unavailable':
      return 503;
    default:
      return 400;
  }
}

/** Public API answers: the envelope plus an OpenAI-style `error` object and a real HTTP status. */
export function sendPublicError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const e = toAppError(error, request);
  if (e.headers) reply.headers(e.headers);
  const type =
    e.detailType ?? (e.code === ErrorCode.InsufficientBalance ? 'insufficient_quota' : `code_${e.code}`);
  return reply.status(publicStatusOf(e)).send({
    code: e.code,
    msg: e.message,
    data: e.data,
    error: { message: e.message, type, code: type },
  });
}
