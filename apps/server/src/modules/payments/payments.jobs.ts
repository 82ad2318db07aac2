import { z } from 'zod';
import { defineJob } from '../../jobs/index.ts';
import { reconcilePayments } from './orders.service.ts';

export const RECONCILE_EVERY_MS = 60_000;

/** Catches payments whose callback never came, closes expired orders and retries failed refunds. */
export const paymentReconcileJob = defineJob({
  name: 'payments.reconcile',
  payload: z.object({}),
  maxAttempts: 2,
  handler: async (_payload, job) => reconcilePayments(job.app),
});
