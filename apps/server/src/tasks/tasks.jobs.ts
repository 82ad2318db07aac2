import { z } from 'zod';
import { defineJob } from '../jobs/index.ts';
import { captureCredits, releaseCredits } from '../modules/credits/ledger.service.ts';

/** How long the event stream can be replayed after a disconnect. */
const EVENTS_KEPT_MS = 7 * 86_400_000;
/** A finished task whose hold is still open this long after is taken to have lost its settlement. */
const SETTLE_GRACE_MS = 60_000;

export const TASK_SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Housekeeping of tasks: settles the credits of finished tasks whose process died between the status
 * change and the settlement (capture for a success, release otherwise; both idempotent by the hold
 * key, so a late original settlement changes nothing), and drops events too old to replay.
 */
export const taskSweepJob = defineJob({
  name: 'tasks.sweep',
  payload: z.object({}),
  maxAttempts: 2,
  handler: async (_payload, job) => {
    const ctx = job.app;
    const now = ctx.clock.now();
    const open = await ctx.db
      .selectFrom('tasks')
      .innerJoin('credit_holds', 'credit_holds.hold_key', 'tasks.hold_key')
      .select(['tasks.id', 'tasks.status', 'tasks.hold_key', 'tasks.credits_captured'])
      .where('credit_holds.status', '=', 'held')
      .where('tasks.status', 'in', ['succeeded', 'failed', 'cancelled'])
      .where('tasks.finished_at', '<', now - SETTLE_GRACE_MS)
      .execute();
    for (const task of open) {
      if (task.status === 'succeeded') await captureCredits(ctx, task.hold_key!, task.credits_captured);
      else await releaseCredits(ctx, task.hold_key!);
    }
    const old = await ctx.db
      .deleteFrom('task_events')
      .where('created_at', '<', now - EVENTS_KEPT_MS)
      .execute();
    return { settled: open.length, events: Number(old.reduce((a, r) => a + r.numDeletedRows, 0n)) };
  },
});
