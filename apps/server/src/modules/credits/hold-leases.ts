import { hostname } from 'node:os';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { CreditHold } from '../../db/schema.ts';
import { randomToken } from '../../ids.ts';
import { defineJob } from '../../jobs/index.ts';
import { clearHoldLease, findExpiredLeaseHolds, renewHoldLease } from './credits.repo.ts';
import { releaseCredits } from './ledger.service.ts';

/**
 * Holds owned by a live process (issue 14). Most holds belong to durable work that settles them
 * itself, even after a crash (a job's retries fail it and refund). A stream's hold has no such
 * owner: if the process dies mid-stream nobody would ever settle it. So such a hold is written
 * with a lease — this process's instance id and an end time — that the process renews while it
 * works; the lease sweep (every minute, in workers) releases holds whose lease ran out and tells
 * the hold's tool, which marks its item failed (code 1, refunded).
 */

// How long a hold is vouched for without renewal is HOLD_LEASE_MS (default a minute); it is renewed
// every quarter of that, and the sweep runs as often as the lease lasts, so a dead owner's holds
// come back within about two leases.

/** This process, as the owner of leased holds (the name and pid help an operator reading the table). */
export const PROCESS_INSTANCE = `${hostname()}:${process.pid}:${randomToken(6)}`;

/** The lease to write with a new hold (HoldInput.lease). */
export function newHoldLease(ctx: Pick<AppContext, 'clock' | 'config'>): { owner: string; until: number } {
  return { owner: PROCESS_INSTANCE, until: ctx.clock.now() + ctx.config.HOLD_LEASE_MS };
}

/**
 * Renews the lease of an open hold every quarter lease until `stop()` (call it once the hold is
 * settled). A renewal that fails (database away) is tried again at the next tick; the lease outlasts three.
 */
export function keepHoldLease(
  ctx: Pick<AppContext, 'db' | 'clock' | 'log' | 'config'>,
  holdKey: string,
): { stop(): void } {
  const lease = ctx.config.HOLD_LEASE_MS;
  const timer = setInterval(() => {
    renewHoldLease(ctx.db, holdKey, ctx.clock.now() + lease).catch((err) =>
      ctx.log.warn({ err, holdKey }, 'could not renew a hold lease'),
    );
  }, lease / 4);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Hands a leased hold over to durable work that now settles it (a job was enqueued for it): the
 * lease is cleared, so the sweep leaves it to the job. Until then a crash is covered by the lease.
 */
export async function handOverHold(ctx: Pick<AppContext, 'db'>, holdKey: string): Promise<void> {
  await clearHoldLease(ctx.db, holdKey);
}

/**
 * What a tool does with its item when the sweep released the hold of a dead owner; the tools that
 * take leased holds have theirs on the app context (AppContext.onAbandonedHold, by tool).
 */
export type AbandonedHoldHandler = (ctx: AppContext, hold: CreditHold) => Promise<void>;

/** The handler key for holds of tasks (hold key `task:<id>`), whatever their tool. */
export const TASK_HOLDS = 'task';

/** Releases open holds whose lease ran out (a batch per run), then lets their tool clean up. */
export async function releaseAbandonedHolds(ctx: AppContext, limit = 200): Promise<number> {
  let released = 0;
  for (const hold of await findExpiredLeaseHolds(ctx.db, ctx.clock.now(), limit)) {
    try {
      // The credits first: idempotent, and a settlement that raced us (an owner that was only
      // slow) wins whole; then the tool marks its item failed (refunded).
      const settled = await releaseCredits(ctx, hold.hold_key);
      if (settled.status === 'released') released++;
      const owner = hold.hold_key.startsWith(`${TASK_HOLDS}:`) ? TASK_HOLDS : hold.tool;
      await ctx.onAbandonedHold.get(owner)?.(ctx, hold);
      ctx.log.warn({ hold: hold.id, owner: hold.lease_owner, tool: hold.tool }, 'released an abandoned hold');
    } catch (err) {
      ctx.log.error({ err, hold: hold.id }, 'could not release an abandoned hold');
    }
  }
  return released;
}

export const holdLeaseSweepJob = defineJob({
  name: 'credits.hold-leases',
  payload: z.object({}),
  maxAttempts: 2,
  handler: async (_payload, job) => ({ released: await releaseAbandonedHolds(job.app) }),
});
