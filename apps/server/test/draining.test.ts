import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Proc, spawnRole, stop, waitForHttp, waitUntil } from '../bench/load/processes.ts';
import { openTaskStream } from '../bench/load/sse.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { findHistoryById } from '../src/modules/tts/tts.repo.ts';
import {
  call,
  createTestServer,
  fund,
  signIn,
  TEST_DB,
  TEST_REDIS_URL,
  type TestServer,
  taskFinished,
} from './harness.ts';

/** A port of this suite's own (18900–18949 is the scale-out range). */
const API_PORT = 18941;

// Draining is about processes sharing PostgreSQL and Redis: it runs in the PostgreSQL pass only.
describe.skipIf(TEST_DB !== 'postgres')('draining on SIGTERM (api and worker processes)', () => {
  let server: TestServer;
  let alice: { token: string; uid: string };
  const prefix = `vw-drain-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  let logDir = '';
  const procs: Proc[] = [];

  /** The environment of a server process on the test server's database, Redis (own prefix) and files. */
  const env = (over: Record<string, string> = {}) => ({
    NODE_ENV: 'test',
    ENGINES: 'none',
    LOG_LEVEL: 'info',
    DATA_DIR: server.config.dataDir,
    DATABASE_URL: server.config.database.kind === 'postgres' ? server.config.database.url : '',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    PUBLIC_URL: `http://127.0.0.1:${API_PORT}`,
    HOST: '127.0.0.1',
    PORT: String(API_PORT),
    ...over,
  });
  const spawn = (name: string, role: 'api' | 'worker', over: Record<string, string> = {}) => {
    const proc = spawnRole(name, role, env(over), path.join(logDir, `${name}.log`));
    procs.push(proc);
    return proc;
  };

  beforeAll(async () => {
    logDir = mkdtempSync(path.join(tmpdir(), 'vw-drain-log-'));
    server = await createTestServer({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix });
    const signed = await signIn(server.app, '13900000041');
    alice = { token: signed.secure_tokens.access_token, uid: signed.user_info.uid };
    await fund(server, alice.uid, 100_000);
  });

  afterAll(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
    await server?.close();
    rmSync(logDir, { recursive: true, force: true });
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('a worker SIGTERMed mid-task hands its stage back; another worker finishes it, once', async () => {
    const sentences = 80;
    const text = Array.from({ length: sentences }, (_, i) => `这是第${i + 1}句话，用来测试停机交接。`).join(
      '',
    );
    const started = await call(server.app, 'POST', '/v1/tts/generate', {
      token: alice.token,
      body: { text, voice_id: 'espeak-zh-xiaowen', speed: 1, mode: 'task' },
    });
    expect(started.body.code, started.body.msg).toBe(0);
    const { task_id, history_id } = started.body.data;

    const first = spawn('worker-a', 'worker', { SHUTDOWN_TIMEOUT_MS: '0' });
    // Mid-stage: some sentences are done, the task is still running.
    await waitUntil(
      'the first worker to be mid-task',
      async () => {
        const row = await findHistoryById(server.ctx.db, history_id);
        return (row?.sentences_done ?? 0) >= 2;
      },
      120_000,
      20,
    );
    expect(await stop(first, 'SIGTERM')).toBe(0);
    const handedBack = await server.ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', task_id)
      .executeTakeFirstOrThrow();
    expect(handedBack.status).toBe('running');
    const doneBefore = (await findHistoryById(server.ctx.db, history_id))!.sentences_done;
    expect(doneBefore).toBeLessThan(sentences);
    // Handed back without spending an attempt: the job is queued again, not failed.
    const jobs = await server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('name', 'like', 'task.tts.%')
      .execute();
    expect(jobs.map((j) => j.status)).toEqual(['queued']);
    expect(jobs[0].error).toBeNull();

    spawn('worker-b', 'worker');
    const done = await taskFinished(server.ctx, task_id, 240_000);
    expect(done).toMatchObject({ status: 'succeeded', error_code: 0 });
    // Once: one item per sentence, one capture of the one hold, nothing left held.
    const items = await server.ctx.db
      .selectFrom('task_items')
      .select('item')
      .where('task_id', '=', task_id)
      .execute();
    expect(items).toHaveLength(sentences);
    expect(new Set(items.map((i) => i.item)).size).toBe(sentences);
    const holds = await server.ctx.db
      .selectFrom('credit_holds')
      .selectAll()
      .where('user_id', '=', alice.uid)
      .execute();
    expect(holds.map((h) => h.status)).toEqual(['captured']);
    expect(holds[0].captured).toBe(done.credits_captured);
    expect(await getBalance(server.ctx, alice.uid)).toEqual({
      balance: 100_000 - done.credits_captured,
      held: 0,
    });
    const finished = await server.ctx.db
      .selectFrom('task_events')
      .select('type')
      .where('task_id', '=', task_id)
      .where('type', '=', 'task.succeeded')
      .execute();
    expect(finished).toHaveLength(1);
    expect((await findHistoryById(server.ctx.db, history_id))!.sentences_done).toBe(sentences);
  }, 300_000);

  it('an API process SIGTERMed answers /readyz 503, ends its SSE streams cleanly, then exits', async () => {
    const base = `http://127.0.0.1:${API_PORT}`;
    const api = spawn('api', 'api', { DRAIN_DELAY_MS: '1500' });
    await waitForHttp(`${base}/readyz`);
    const ready = await (await fetch(`${base}/readyz`)).json();
    expect(ready).toMatchObject({ ready: true, draining: false });
    expect(Object.keys(ready.checks).sort()).toEqual(['database', 'redis', 'storage']);
    expect(await (await fetch(`${base}/healthz`)).json()).toMatchObject({ ok: true });

    const stream = await openTaskStream(base, alice.token);
    expect(stream.status).toBe(200);
    api.child.kill('SIGTERM');
    const draining = await waitUntil(
      '/readyz to answer 503',
      async () => {
        const res = await fetch(`${base}/readyz`);
        return res.status === 503 ? await res.json() : undefined;
      },
      10_000,
      50,
    );
    expect(draining).toMatchObject({ ready: false, draining: true });
    // The stream ends as a finished body (the client reconnects with Last-Event-ID), not as an error.
    expect(await stream.ended).toBe('ended');
    expect(await api.exited).toBe(0);
  }, 120_000);
});

describe('readiness', () => {
  it('answers 503 naming the dependency that does not answer, and 200 once nothing is wrong', async () => {
    // An S3 endpoint where nothing listens (a port of the scale-out range this suite keeps free).
    const down = await createTestServer({
      S3_ENDPOINT: 'http://127.0.0.1:18949',
      S3_BUCKET: 'vw-media',
      S3_ACCESS_KEY_ID: 'x',
      S3_SECRET_ACCESS_KEY: 'x',
    });
    try {
      const res = await down.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body).toMatchObject({ ready: false, draining: false, checks: { database: { ok: true } } });
      expect(body.checks.storage).toMatchObject({ ok: false });
      expect(body.checks.storage.error).toEqual(expect.any(String));
      expect((await down.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await down.close();
    }
    const up = await createTestServer();
    try {
      const ok = await up.app.inject({ method: 'GET', url: '/readyz' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({
        ready: true,
        checks: { database: { ok: true }, storage: { ok: true } },
      });
      up.ctx.lifecycle.draining = true;
      const draining = await up.app.inject({ method: 'GET', url: '/readyz' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toMatchObject({ ready: false, draining: true });
    } finally {
      await up.close();
    }
  });
});
