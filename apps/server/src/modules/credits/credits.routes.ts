import { creditsCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { findConsumeDetails, findEarnDetails, getBalanceByLot, getUsage } from './details.service.ts';
import { getExportStatus, startConsumptionExport } from './export.service.ts';
import { getTenantBonus } from './membership.service.ts';
import { findPlans } from './plans.ts';
import { estimateTask } from './pricing.service.ts';

export function registerCreditRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, creditsCalls.getTenantBonus, ({ user }) => getTenantBonus(ctx, user.uid));
  registerCall(app, creditsCalls.getPlans, async () => ({ plans: await findPlans(ctx.db) }));
  registerCall(app, creditsCalls.getTenantBalance, ({ user }) => getBalanceByLot(ctx, user.uid));
  registerCall(app, creditsCalls.getEarnDetails, ({ user, query }) => findEarnDetails(ctx, user.uid, query));
  registerCall(app, creditsCalls.getConsumeDetails, ({ user, query }) =>
    findConsumeDetails(ctx, user.uid, query),
  );
  registerCall(app, creditsCalls.getCreditUsage, ({ user, body }) => getUsage(ctx, user.uid, body ?? {}));
  registerCall(app, creditsCalls.estimateCredits, ({ user, body }) =>
    estimateTask(ctx, user.uid, body.task_type, body.params),
  );
  registerCall(app, creditsCalls.downloadConsumeDetails, ({ user, body }) =>
    startConsumptionExport(ctx, user.uid, body),
  );
  registerCall(app, creditsCalls.exportTaskStatus, async ({ user, reply }) => {
    const { message, ...data } = await getExportStatus(ctx, user.uid);
    // A failure's reason travels as the envelope's msg (spec §3 export status: code, msg, data).
    if (message) return reply.send({ code: 0, msg: message, data });
    return data;
  });
}
