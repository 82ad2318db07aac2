import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call, createTestServer, type TestServer } from '../../test/harness.ts';
import { findOrCreateUser } from '../modules/accounts/accounts.service.ts';
import { defineJob, type JobQueue } from './index.ts';

const echo = defineJob({
  name: 'route.echo',
  payload: z.object({ text: z.string() }),
  handler: async ({ text }, job) => {
    await job.progress(50);
    return { text };
  },
});

let server: TestServer;
let jobs: JobQueue;
let app: FastifyInstance;

beforeAll(async () => {
  server = await createTestServer({}, undefined, { jobs: [echo] });
  ({ app } = server);
  jobs = server.ctx.jobs;
});

afterAll(async () => {
  await server.close();
});

describe('GET /v1/jobs/get', () => {
  it("shows a job's status, progress and result to its owner only", async () => {
    // Tokens of real accounts: the auth hook refuses a token whose account does not exist.
    const aliceId = (await findOrCreateUser(server.ctx, '13900000401')).user.id;
    const bobId = (await findOrCreateUser(server.ctx, '13900000402')).user.id;
    const alice = server.ctx.accessTokens.sign(aliceId);
    const bob = server.ctx.accessTokens.sign(bobId);
    const job = await jobs.enqueue(echo, { text: '你好' }, { ownerId: aliceId });

    const queued = await call(app, 'GET', `/v1/jobs/get?id=${job.id}`, { token: alice });
    expect(queued.body).toMatchObject({
      code: 0,
      data: {
        job: { id: job.id, name: 'route.echo', status: 'queued', progress: 0, attempts: 0, result: null },
      },
    });

    await jobs.startWorker({ concurrency: 1 });
    for (let i = 0; i < 200 && (await jobs.getJobForOwner(job.id, aliceId)).status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const done = await call(app, 'GET', `/v1/jobs/get?id=${job.id}`, { token: alice });
    expect(done.body.data.job).toMatchObject({
      status: 'succeeded',
      progress: 100,
      result: { text: '你好' },
    });

    const other = await call(app, 'GET', `/v1/jobs/get?id=${job.id}`, { token: bob });
    expect(other.body).toMatchObject({ code: 422, data: { detail: [{ type: 'err_not_found' }] } });
    expect((await call(app, 'GET', `/v1/jobs/get?id=${job.id}`)).status).toBe(401);
  });
});
