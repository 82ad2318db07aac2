import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FINISHED_TASK_STATUSES } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import type { Clock } from '../src/clock.ts';
import { type Config, ensureDataDir, loadConfig } from '../src/config.ts';
import { type AppContext, createContext } from '../src/context.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import type { TaskRow } from '../src/db/schema.ts';
import { createEngines } from '../src/engines/engines.ts';
import type { JobDefinition } from '../src/jobs/index.ts';
import { createLogger } from '../src/logger.ts';
import { grantCredits } from '../src/modules/credits/ledger.service.ts';
import { appJobs, appPipelines } from '../src/modules/jobs.ts';
import { prepareDatabase } from '../src/modules/seeds.ts';
import { upsertSetting } from '../src/modules/settings/settings.repo.ts';
import type { Pipeline } from '../src/tasks/pipeline.ts';

/** Which database the server tests run on: the test command runs the suite once per kind. */
export const TEST_DB = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';
const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export class TestClock implements Clock {
  constructor(private t = Date.now()) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface TestDatabase {
  /** The environment that points a config at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A fresh scratch database: a temp SQLite file, or a new PostgreSQL database on the test server. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DB === 'sqlite') return { env: {}, drop: async () => {} };
  const name = `vw_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      // Let the closed pool's connections go before dropping, so none is cut off mid-goodbye.
      for (let i = 0; i < 50; i++) {
        const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestServer {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  clock: TestClock;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * A migrated database, a context with a movable clock, and the HTTP app for `inject`; `own` adds a
 * test's own jobs and pipelines to the app's.
 */
export async function createTestServer(
  env: Record<string, string> = {},
  extendApp?: (app: FastifyInstance) => void,
  own: { jobs?: readonly JobDefinition[]; pipelines?: readonly Pipeline<unknown>[] } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-test-'));
  const testDb = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    PUBLIC_URL: 'http://127.0.0.1:8787',
    ...testDb.env,
    ...env,
  });
  ensureDataDir(config);
  const database = openDatabase(config.database);
  await prepareDatabase(database.db);
  // The free plan issues no monthly credits in tests unless a test turns it on (free-credits tests):
  // every balance a test checks is then exactly what it granted.
  await upsertSetting(database.db, 'free_monthly_credits', '0', Date.now());
  const clock = new TestClock();
  const log = createLogger(config.LOG_LEVEL);
  const engines = await createEngines(config, log);
  const ctx = createContext({
    config,
    database,
    clock,
    log,
    engines,
    jobs: [...appJobs, ...(own.jobs ?? [])],
    pipelines: [...appPipelines, ...(own.pipelines ?? [])],
  });
  const app = await buildApp(ctx);
  extendApp?.(app);
  await app.ready();
  return {
    app,
    ctx,
    config,
    clock,
    database,
    async close() {
      await ctx.jobs.close();
      await app.close();
      await database.close();
      await engines.close();
      await testDb.drop();
      // A file still being closed (a log, a stream's last write) can make the first pass find it.
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}

/** Gives a user a year-long gift of credits, so paid calls have something to spend. */
export async function fund(server: Pick<TestServer, 'ctx' | 'clock'>, userId: string, amount: number) {
  await grantCredits(server.ctx, {
    userId,
    source: 'gift',
    amount,
    expiresAt: server.clock.now() + 365 * 86_400_000,
    grantKey: `test:${userId}:${Math.random()}`,
    remark: 'test',
  });
}

export const CLIENT_HEADERS = { 'x-device-id': 'test-device', 'x-bundle-id': 'com.voiceworkbench.web' };

/** POST/GET a call and return the parsed envelope with the HTTP status. */
export async function call(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; ip?: string } = {},
) {
  const res = await app.inject({
    method,
    url,
    payload: options.body as never,
    remoteAddress: options.ip,
    headers: {
      ...CLIENT_HEADERS,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    // biome-ignore lint/suspicious/noExplicitAny: tests read whatever data each call returns
    body: res.json() as { code: number; msg: string; data: any },
  };
}

/** The latest verification code the dev outbox holds for a target. */
export async function latestCode(app: FastifyInstance, to: string): Promise<string> {
  const res = await call(app, 'GET', `/dev/outbox?to=${encodeURIComponent(to)}`);
  const text: string = res.body.data.messages[0]?.text ?? '';
  const match = /\b(\d{6})\b/.exec(text);
  if (!match) throw new Error(`no code in the outbox for ${to}`);
  return match[1];
}

/** Signs in by verification code (creating the user on first sign-in). */
export async function signIn(app: FastifyInstance, account: string, ip = '10.0.0.1') {
  const sent = await call(app, 'POST', '/accounts/v1/send_verification_code', {
    body: { account, scene: 'login' },
    ip,
  });
  if (sent.body.code !== 0) throw new Error(`send code failed: ${JSON.stringify(sent.body)}`);
  const code = await latestCode(app, account.replace(/^\+?86/, '').toLowerCase());
  const res = await call(app, 'POST', '/accounts/v1/auth_with_verification_code', {
    body: { account, code },
    ip,
  });
  if (res.body.code !== 0) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return res.body.data as {
    secure_tokens: { access_token: string; refresh_token: string };
    user_info: { uid: string };
  };
}

/** A tasks row for tests that need one without running a pipeline; `over` sets what matters. */
export function taskRow(ownerId: string, now: number, over: Partial<TaskRow> & { id: string }): TaskRow {
  return {
    owner_id: ownerId,
    tool: 'stt',
    title: 't',
    status: 'running',
    stage: 'x',
    progress: 0,
    error_code: 0,
    error: null,
    pause_point: null,
    credits_estimated: 0,
    credits_held: 0,
    credits_captured: 0,
    hold_key: null,
    api_key_id: null,
    input: '{}',
    input_asset_ids: '[]',
    outputs: '[]',
    project_id: null,
    created_at: now,
    started_at: null,
    stage_started_at: null,
    self_check: null,
    finished_at: null,
    updated_at: now,
    ...over,
  };
}

/** Waits until a task pauses for review and answers its row; a task that ends instead fails the wait. */
export async function taskPaused(ctx: AppContext, taskId: string): Promise<TaskRow> {
  for (;;) {
    const row = await ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    if (row.status === 'paused') return row;
    if (FINISHED_TASK_STATUSES.includes(row.status as never))
      throw new Error(`task ${row.id} ${row.status} instead of pausing: ${row.error}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits for a task's final event (written after its credits are settled; the status changes just
 * before), then answers the row. Polls the events table; on timeout the error carries the row and
 * its stages.
 */
export async function taskFinished(ctx: AppContext, taskId: string, timeoutMs = 60_000): Promise<TaskRow> {
  const until = Date.now() + timeoutMs;
  const finalEvents = FINISHED_TASK_STATUSES.map((s) => `task.${s}`);
  for (;;) {
    const event = await ctx.db
      .selectFrom('task_events')
      .select('type')
      .where('task_id', '=', taskId)
      .where('type', 'in', finalEvents)
      .executeTakeFirst();
    if (event)
      return ctx.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
    if (Date.now() > until) {
      const row = await ctx.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
      const stages = await ctx.db
        .selectFrom('task_stages')
        .selectAll()
        .where('task_id', '=', taskId)
        .execute();
      throw new Error(
        `task ${taskId} not finished after ${timeoutMs} ms: ${JSON.stringify({ row, stages })}`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * A task worker in its own process (`pipeline-worker.ts`) on this server's database and data folder,
 * for the kill-and-resume tests; `env` adds settings (e.g. the language model). Resolves with the child
 * and a promise of its exit; the test SIGKILLs it.
 */
export function spawnPipelineWorker(
  server: Pick<TestServer, 'config'>,
  prefix: string,
  env: Record<string, string> = {},
): { child: ChildProcess; exited: Promise<unknown> } {
  const script = fileURLToPath(new URL('./pipeline-worker.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: server.config.dataDir,
      JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
      PUBLIC_URL: 'http://127.0.0.1:8787',
      ...(server.config.database.kind === 'postgres' ? { DATABASE_URL: server.config.database.url } : {}),
      JOB_TEST_PREFIX: prefix,
      JOB_TEST_LEASE_MS: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { child, exited: new Promise((resolve) => child.once('exit', resolve)) };
}
