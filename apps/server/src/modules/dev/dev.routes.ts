import { accountsCalls, creditsCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { newId } from '../../ids.ts';
import { spendCredits } from '../credits/ledger.service.ts';

/** Development-only routes; never registered in production mode. */
export function registerDevRoutes(app: FastifyInstance, ctx: AppContext): void {
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
