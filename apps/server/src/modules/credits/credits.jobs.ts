import { z } from 'zod';
import { defineJob } from '../../jobs/index.ts';
import { findUsersWithDueWork } from './credits.repo.ts';
import { withCreditAccount } from './ledger.service.ts';

/**
 * Issues due plan credits and writes off expired lots for every account that may need it.
 * Reads catch up the same way, so the sweep only keeps balances fresh for users who are away.
 */
export const creditSweepJob = defineJob({
  name: 'credits.sweep',
  payload: z.object({}),
  maxAttempts: 2,
  handler: async (_payload, job) => {
    const ctx = job.app;
    const users = await findUsersWithDueWork(ctx.db, ctx.clock.now());
    for (const userId of users) await withCreditAccount(ctx, userId, async () => {});
    return { users: users.length };
  },
});
