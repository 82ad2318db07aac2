import { z } from 'zod';
import { defineJob, type JobContext } from '../define.ts';

/** Runs until its worker dies while `attempt <= hangAttempts`, then succeeds. */
async function hangThenSucceed({ hangAttempts }: { hangAttempts: number }, job: JobContext) {
  if (job.attempt > hangAttempts) return { resumedOnAttempt: job.attempt };
  // Tells the test process which job is now mid-handler, so it can kill this worker.
  process.stdout.write(`started ${job.id}\n`);
  await new Promise((_, reject) => job.signal.addEventListener('abort', () => reject(new Error('aborted'))));
  return null;
}

const payload = z.object({ hangAttempts: z.number().int() });

export const hangJob = defineJob({ name: 'fixture.hang', payload, maxAttempts: 2, handler: hangThenSucceed });
export const hangOnceJob = defineJob({
  name: 'fixture.hang-once',
  payload,
  maxAttempts: 1,
  handler: hangThenSucceed,
});
