import { accountsCalls, creditsCalls } from '@vw/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { registerCall } from '../../http/calls.ts';
import { newId } from '../../ids.ts';
import { spendCredits } from '../credits/ledger.service.ts';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Whether a request comes from this machine: its socket and, behind a trusted proxy, the client
 * the proxy names. (A proxy on this machine forwarding outside clients does not make them local.)
 */
export function isLoopbackRequest(request: FastifyRequest): boolean {
  return LOOPBACK.test(request.socket.remoteAddress ?? '') && LOOPBACK.test(request.ip);
}

/**
 * Development-only routes; never registered in production mode, and answered only to clients on
 * this machine: the outbox holds every verification code, so whoever reads it can sign in as anyone.
 */
export async function registerDevRoutes(parent: FastifyInstance, ctx: AppContext): Promise<void> {
  await parent.register(async (app) => {
    app.addHook('onRequest', async (request) => {
      if (!isLoopbackRequest(request)) throw AppError.named('err_not_found', undefined, 404);
    });
    registerDevCalls(app, ctx);
  });
}

function registerDevCalls(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, accountsCalls.devOutbox, async ({ query }) => {
    let q = ctx.db.selectFrom('dev_outbox').selectAll().orderBy('created_at', 'desc').limit(50);
    if (query.to) q = q.where('to', '=', query.to);
    const rows = await q.execute();
    return { messages: rows.map((r) => ({ ...r, channel: r.channel as 'sms' | 'mail' })) };
  });

  registerCall(app, creditsCalls.devSpendCredits, async ({ user, body }) => {
    const taskId = newId('devtask');
    const hold = await spendCredits(ctx, {
      userId: user.uid,
      holdKey: `dev:${taskId}`,
      amount: body.credits,
      tool: body.tool,
      taskId,
      taskName: body.task_name,
    });
    return { hold_id: hold.id };
  });
}
