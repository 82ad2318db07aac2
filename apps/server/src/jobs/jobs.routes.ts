import { appCalls, type JobView } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { Job } from '../db/schema.ts';
import { registerCall } from '../http/calls.ts';
import type { JobQueue } from './queue.ts';

export function toJobView(job: Job): JobView {
  return {
    id: job.id,
    name: job.name,
    status: job.status,
    progress: job.progress,
    attempts: job.attempts,
    error: job.error,
    result: job.result === null ? null : JSON.parse(job.result),
    created_at: job.created_at,
    updated_at: job.updated_at,
  };
}

export function registerJobRoutes(app: FastifyInstance, ctx: { jobs: JobQueue }): void {
  registerCall(app, appCalls.getJob, async ({ query, user }) => ({
    job: toJobView(await ctx.jobs.getJobForOwner(query.id, user.uid)),
  }));
}
