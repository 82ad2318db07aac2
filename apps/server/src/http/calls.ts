import { type CallData, type CallDef, envelope } from '@vw/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../errors.ts';
import type { AuthUser } from './request-context.ts';

type Parsed<S> = [S] extends [z.ZodType] ? z.output<S> : undefined;

export interface CallRequest<C extends CallDef> {
  body: Parsed<NonNullable<C['body']>>;
  query: Parsed<NonNullable<C['query']>>;
  /** Present on every call whose contract says `auth: 'user'`. */
  user: C['auth'] extends 'user' ? AuthUser : AuthUser | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface CallOptions {
  /** Per-route limit (requests per window per client IP), enforced by @fastify/rate-limit. */
  rateLimit?: { max: number; timeWindow: string };
  bodyLimit?: number;
}

/**
 * Registers one contract call: the schemas validate and document it, the handler returns the
 * `data` of a success envelope, and an AppError becomes its error envelope.
 */
export function registerCall<C extends CallDef>(
  app: FastifyInstance,
  call: C,
  handler: (req: CallRequest<C>) => Promise<CallData<C>>,
  options: CallOptions = {},
): void {
  app.route({
    method: call.method,
    url: call.path,
    bodyLimit: options.bodyLimit,
    config: { rateLimit: options.rateLimit ?? false, auth: call.auth, call: true },
    schema: {
      operationId: call.operationId,
      summary: call.summary,
      tags: call.tags,
      ...(call.auth === 'user' ? { security: [{ bearerAuth: [] }] } : {}),
      ...(call.body ? { body: call.body } : {}),
      ...(call.query ? { querystring: call.query } : {}),
      response: { 200: envelope(call.data) },
    },
    handler: async (request, reply) => {
      if (call.auth === 'user' && !request.user) throw AppError.unauthorized();
      const data = await handler({
        body: request.body,
        query: request.query,
        user: request.user,
        request,
        reply,
      } as CallRequest<C>);
      // A handler that answered by itself (a stream, e.g. synthesised audio): nothing more to send.
      if (reply.sent || reply.raw.headersSent) return undefined;
      return { code: 0, msg: 'success', data };
    },
  });
}
