import { accountsCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';

/** Development-only routes; never registered in production mode. */
export function registerDevRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, accountsCalls.devOutbox, async ({ query }) => {
    let q = ctx.db.selectFrom('dev_outbox').selectAll().orderBy('created_at', 'desc').limit(50);
    if (query.to) q = q.where('to', '=', query.to);
    const rows = await q.execute();
    return { messages: rows.map((r) => ({ ...r, channel: r.channel as 'sms' | 'mail' })) };
  });
}
