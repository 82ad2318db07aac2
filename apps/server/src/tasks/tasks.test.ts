import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TaskEvent } from '@vw/contract';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  call,
  createTestServer,
  fund,
  signIn,
  TEST_REDIS_URL,
  type TestServer,
  taskRow,
} from '../../test/harness.ts';
import { systemClock } from '../clock.ts';
import { createJobQueue } from '../jobs/index.ts';
import { createLogger } from '../logger.ts';
import { getBalance } from '../modules/credits/ledger.service.ts';
import { taskFinishedMessage } from '../modules/notifications/notifications.service.ts';
import { definePipeline } from './pipeline.ts';
import { finishTask, taskFailure } from './runner.ts';
import { taskSweepJob } from './tasks.jobs.ts';
import { createTask, toTaskView } from './tasks.service.ts';
import { childFfmpegPipeline, itemsPipeline } from './test-fixtures/pipelines.ts';

const log = createLogger('silent');
const LEASE_MS = 1_000;

// ---------------------------------------------------------------- test-only pipelines

/** ffmpeg that would run for ten minutes (-re: real time), until the task is cancelled. */
const ffmpegRuns = new Map<string, { pid: number; exited: Promise<number> }>();
const ffmpegPipeline = definePipeline({
  tool: 'test_ffmpeg' as never,
  input: z.object({}),
  stages: [
    {
      name: 'encode',
      label: '编码',
      lane: 'heavy',
      weight: 1,
      run: async (ctx) => {
        const child = spawn(
          'ffmpeg',
          ['-nostdin', '-re', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=600', '-f', 'null', '-'],
          { signal: ctx.signal, stdio: 'ignore' },
        );
        child.on('error', () => {}); // the AbortError of a cancel
        const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())));
        ffmpegRuns.set(ctx.task.id, { pid: child.pid!, exited });
        await exited;
        throw new Error('ffmpeg stopped');
      },
    },
  ],
});

/** Two stages; the second fails (code 4) while `failSecond` is set. */
const retryRuns = { first: 0, second: 0 };
let failSecond = true;
const retryPipeline = definePipeline({
  tool: 'test_retry' as never,
  input: z.object({}),
  finalCredits: () => 7,
  stages: [
    {
      name: 'first',
      label: '第一步',
      lane: 'light',
      weight: 1,
      run: async () => {
        retryRuns.first++;
        return { a: 1 };
      },
    },
    {
      name: 'second',
      label: '第二步',
      lane: 'light',
      weight: 1,
      run: async (ctx) => {
        retryRuns.second++;
        if (failSecond) throw taskFailure(4);
        return { fromFirst: ctx.results.first };
      },
    },
  ],
});

const pausePipeline = definePipeline({
  tool: 'test_pause' as never,
  input: z.object({}),
  stages: [
    { name: 'recognise', label: '识别', lane: 'light', weight: 1, pauseAfter: 'check', run: async () => 1 },
    { name: 'finish', label: '完成', lane: 'light', weight: 1, run: async (ctx) => ctx.results.recognise },
  ],
});

/** A first stage only some inputs have (as a line action's task has only its scope's stages). */
const scopedRuns = { whole: 0, line: 0 };
const scopedPipeline = definePipeline({
  tool: 'test_scoped' as never,
  input: z.object({ whole: z.boolean() }),
  stages: [
    {
      name: 'whole',
      label: '整体',
      lane: 'light',
      weight: 5,
      when: (input) => input.whole,
      run: async () => ++scopedRuns.whole,
    },
    { name: 'line', label: '单句', lane: 'light', weight: 1, run: async () => ++scopedRuns.line },
  ],
});

/** A quick first stage and a slow last one (a render after skipped or cached stages). */
const slowLastPipeline = definePipeline({
  tool: 'test_slow_last' as never,
  input: z.object({}),
  stages: [
    { name: 'quick', label: '快', lane: 'light', weight: 9, run: async () => 1 },
    { name: 'render', label: '渲染', lane: 'light', weight: 1, run: async () => 1 },
  ],
});

/** Given to the test server beside the app's (the worker process gets the fixtures' too). */
const testPipelines = [
  ffmpegPipeline,
  retryPipeline,
  pausePipeline,
  scopedPipeline,
  slowLastPipeline,
  itemsPipeline,
  childFfmpegPipeline,
];

// ---------------------------------------------------------------- helpers

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const readTask = (server: TestServer, id: string) =>
  server.ctx.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();

/** Waits for a status and its event, which is written after the credits are settled. */
async function waitForStatus(server: TestServer, id: string, status: string) {
  return waitFor(`task ${id} ${status}`, async () => {
    const row = await readTask(server, id);
    if (row?.status !== status) return undefined;
    const event = await server.ctx.db
      .selectFrom('task_events')
      .select('seq')
      .where('task_id', '=', id)
      .where('type', '=', `task.${status}`)
      .executeTakeFirst();
    return event ? row : undefined;
  });
}

/** Reads a text/event-stream over fetch, as the web does. */
async function openStream(base: string, token: string, lastEventId?: number) {
  const abort = new AbortController();
  const res = await fetch(`${base}/v1/tasks/events`, {
    headers: {
      authorization: `Bearer ${token}`,
      ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}),
    },
    signal: abort.signal,
  });
  const events: TaskEvent[] = [];
  const comments: string[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reading = (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)));
          else comments.push(block);
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    comments,
    async close() {
      abort.abort();
      await reading;
    },
  };
}

describe.each(['database', 'bullmq'] as const)('tasks (%s queue)', (backend) => {
  let server: TestServer;
  let prefix: string;
  let alice: { token: string; uid: string };
  let bob: { token: string; uid: string };
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    prefix = `vwtasks-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    server = await createTestServer(backend === 'bullmq' ? { REDIS_URL: TEST_REDIS_URL } : {}, undefined, {
      pipelines: testPipelines,
    });
    // Real time: leases and stage timings run on the wall clock.
    server.ctx.clock = systemClock;
    await server.ctx.jobs.close();
    server.ctx.jobs = createJobQueue({
      db: server.ctx.db,
      clock: systemClock,
      log,
      jobs: server.ctx.jobDefinitions,
      redisUrl: backend === 'bullmq' ? TEST_REDIS_URL : undefined,
      prefix,
      leaseMs: LEASE_MS,
      pollIntervalMs: 20,
      app: () => server.ctx,
    });
    // A fresh client address per test: with Redis the flood guard is shared by every test run.
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const a = await signIn(server.app, '13900000001', ip);
    const b = await signIn(server.app, '13900000002', ip);
    alice = { token: a.secure_tokens.access_token, uid: a.user_info.uid };
    bob = { token: b.secure_tokens.access_token, uid: b.user_info.uid };
    await fund(server, alice.uid, 100);
    failSecond = true;
    retryRuns.first = retryRuns.second = 0;
  });

  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await server.close();
    if (backend === 'bullmq') {
      const redis = new Redis(TEST_REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });

  /** A worker in its own process (the test pipelines loaded); resolves once its output shows `until`. */
  async function spawnWorker(env: Record<string, string>, until: string) {
    const script = fileURLToPath(new URL('./test-fixtures/worker.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: server.config.dataDir,
        JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
        PUBLIC_URL: 'http://127.0.0.1:8787',
        ...(server.config.database.kind === 'postgres' ? { DATABASE_URL: server.config.database.url } : {}),
        ...(backend === 'bullmq' ? { REDIS_URL: TEST_REDIS_URL } : {}),
        JOB_TEST_PREFIX: prefix,
        JOB_TEST_LEASE_MS: String(LEASE_MS),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const output = { text: '' };
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        output.text += chunk;
        if (output.text.includes(until)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${output.text}`)));
    });
    return { child, output };
  }

  it('resumes a worker killed mid-stage at its first unfinished item, without redoing finished ones', async () => {
    const logFile = path.join(server.config.dataDir, 'items.log');
    const task = await createTask(server.ctx, itemsPipeline, {
      ownerId: alice.uid,
      title: '断点续跑',
      input: { items: 6 },
      credits: { tool: 'tts', amount: 30 },
    });
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 70, held: 30 });

    const { child } = await spawnWorker(
      { TASK_TEST_HANG_AT: '3', TASK_TEST_LOG: logFile },
      `item ${task.id} 3`,
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;

    const items = await server.ctx.db
      .selectFrom('task_items')
      .selectAll()
      .where('task_id', '=', task.id)
      .execute();
    expect(items.map((i) => i.item).sort()).toEqual(['item-0', 'item-1', 'item-2']);
    expect((await readTask(server, task.id))?.status).toBe('running');

    // A new worker (this process) takes the stage over once the dead worker's lease runs out.
    process.env.TASK_TEST_LOG = logFile;
    await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
    const done = await waitForStatus(server, task.id, 'succeeded');
    delete process.env.TASK_TEST_LOG;
    const lines = readFileSync(logFile, 'utf8').trim().split('\n');
    const count = (line: string) => lines.filter((l) => l === line).length;
    expect(count(`prepare ${task.id}`)).toBe(1);
    for (const i of [0, 1, 2, 4, 5]) expect(count(`item ${task.id} ${i}`)).toBe(1);
    // The item the dead worker was in the middle of is the one run again.
    expect(count(`item ${task.id} 3`)).toBe(2);
    const work = await server.ctx.db
      .selectFrom('task_stages')
      .selectAll()
      .where('task_id', '=', task.id)
      .where('name', '=', 'work')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(work.result!)).toEqual({ sum: 150, prepared: { prepared: true } });
    expect(done).toMatchObject({ progress: 100, credits_captured: 30, error_code: 0 });
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 70, held: 0 });

    // The view, and deletion removing the task's files.
    const view = (await call(server.app, 'GET', `/v1/tasks/get?task_id=${task.id}`, { token: alice.token }))
      .body.data.task;
    expect(view).toMatchObject({
      status: 'succeeded',
      progress: 100,
      credits_captured: 30,
      eta_seconds: null,
    });
    expect(view.stages.map((s: { status: string }) => s.status)).toEqual(['done', 'done']);
    expect(view.stages.map((s: { weight: number }) => s.weight)).toEqual([0.25, 0.75]);
    expect(view.outputs[0]).toMatchObject({ name: '结果.txt', kind: 'file' });
    const key = JSON.parse(done.outputs)[0].key;
    expect(await server.ctx.storage.stat(key)).not.toBeNull();
    const del = await call(server.app, 'DELETE', '/v1/tasks/delete', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(del.body.data.deleted).toBe(1);
    expect(await server.ctx.storage.stat(key)).toBeNull();
    expect(await readTask(server, task.id)).toBeUndefined();
  });

  it('cancel stops a running ffmpeg within 2 s and gives the held credits back', async () => {
    await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
    const task = await createTask(server.ctx, ffmpegPipeline, {
      ownerId: alice.uid,
      title: '长时间编码',
      input: {},
      credits: { tool: 'tts', amount: 40 },
    });
    const run = await waitFor('ffmpeg to start', () => ffmpegRuns.get(task.id));
    expect(() => process.kill(run.pid, 0)).not.toThrow();
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 60, held: 40 });

    const asked = Date.now();
    const res = await call(server.app, 'POST', '/v1/tasks/cancel', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(res.body.data.task).toMatchObject({ status: 'cancelled', credits_captured: 0 });
    const stoppedAt = await run.exited;
    expect(stoppedAt - asked).toBeLessThan(2_000);
    expect(() => process.kill(run.pid, 0)).toThrow();
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 100, held: 0 });
    const hold = await server.ctx.db
      .selectFrom('credit_holds')
      .selectAll()
      .where('hold_key', '=', `task:${task.id}`)
      .executeTakeFirstOrThrow();
    expect(hold.status).toBe('released');
    // The stage ends as cancelled, not as a failure of the task.
    await waitFor('the stage to stop', async () => {
      const stage = await server.ctx.db
        .selectFrom('task_stages')
        .selectAll()
        .where('task_id', '=', task.id)
        .executeTakeFirstOrThrow();
      return stage.status === 'failed';
    });
    expect((await readTask(server, task.id))?.status).toBe('cancelled');

    // Deleting a running task cancels it first: the process stops, the credits come back, nothing stays.
    const second = await createTask(server.ctx, ffmpegPipeline, {
      ownerId: alice.uid,
      title: '删除运行中的任务',
      input: {},
      credits: { tool: 'tts', amount: 40 },
    });
    const run2 = await waitFor('ffmpeg to start', () => ffmpegRuns.get(second.id));
    const del = await call(server.app, 'DELETE', '/v1/tasks/delete', {
      token: alice.token,
      body: { task_id: second.id },
    });
    expect(del.body.data.deleted).toBe(1);
    await run2.exited;
    expect(await readTask(server, second.id)).toBeUndefined();
    expect(
      await server.ctx.db.selectFrom('task_stages').selectAll().where('task_id', '=', second.id).execute(),
    ).toEqual([]);
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 100, held: 0 });
  });

  it('a cancel asked of one process stops the ffmpeg another process runs, within 2 s', async () => {
    const task = await createTask(server.ctx, childFfmpegPipeline, {
      ownerId: alice.uid,
      title: '另一个进程里的编码',
      input: {},
      credits: { tool: 'tts', amount: 40 },
    });
    const { output } = await spawnWorker({}, `ffmpeg-started ${task.id}`);
    const pid = Number(new RegExp(`ffmpeg-started ${task.id} (\\d+)`).exec(output.text)![1]);
    expect(() => process.kill(pid, 0)).not.toThrow();
    const asked = Date.now();
    const res = await call(server.app, 'POST', '/v1/tasks/cancel', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(res.body.data.task.status).toBe('cancelled');
    const exitedAt = await waitFor('ffmpeg to stop', () => {
      const m = new RegExp(`ffmpeg-exited ${task.id} (\\d+)`).exec(output.text);
      return m ? Number(m[1]) : undefined;
    });
    expect(exitedAt - asked).toBeLessThan(2_000);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 100, held: 0 });
  });

  it('retries a failed task from its failed stage only, holding again and capturing once', async () => {
    await server.ctx.jobs.startWorker({ concurrency: 2 });
    const task = await createTask(server.ctx, retryPipeline, {
      ownerId: alice.uid,
      title: '重试',
      input: {},
      credits: { tool: 'tts', amount: 20 },
    });
    const failed = await waitForStatus(server, task.id, 'failed');
    expect(failed).toMatchObject({ error_code: 4, error: '不支持该语言，积分已退还', credits_captured: 0 });
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 100, held: 0 });
    const view = (await call(server.app, 'GET', `/v1/tasks/get?task_id=${task.id}`, { token: alice.token }))
      .body.data.task;
    expect(view.stages.map((s: { status: string }) => s.status)).toEqual(['done', 'failed']);

    failSecond = false;
    const retried = await call(server.app, 'POST', '/v1/tasks/retry', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(retried.body.code).toBe(0);
    const done = await waitForStatus(server, task.id, 'succeeded');
    expect(retryRuns).toEqual({ first: 1, second: 2 });
    expect(done).toMatchObject({ credits_held: 20, credits_captured: 7 });
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 93, held: 0 });
    // Not retryable once succeeded.
    const again = await call(server.app, 'POST', '/v1/tasks/retry', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(again.body.data.detail[0].type).toBe('err_task_not_retryable');
  });

  it('retries a cancelled task from where it stopped, holding again and capturing once', async () => {
    await server.ctx.jobs.startWorker({ concurrency: 2 });
    const task = await createTask(server.ctx, pausePipeline, {
      ownerId: alice.uid,
      title: '取消后重试',
      input: {},
      credits: { tool: 'tts', amount: 30 },
    });
    await waitForStatus(server, task.id, 'paused');
    const cancel = await call(server.app, 'POST', '/v1/tasks/cancel', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(cancel.body.data.task.status).toBe('cancelled');
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 100, held: 0 });
    const retried = await call(server.app, 'POST', '/v1/tasks/retry', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(retried.body.code).toBe(0);
    expect(retried.body.data.task).toMatchObject({ status: 'queued', error: null, credits_held: 30 });
    const done = await waitForStatus(server, task.id, 'succeeded');
    expect(done).toMatchObject({ credits_captured: 30 });
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 70, held: 0 });
    const stages = await server.ctx.db
      .selectFrom('task_stages')
      .select(['name', 'result'])
      .where('task_id', '=', task.id)
      .orderBy('seq')
      .execute();
    // The finished stage kept its result; the one after the pause ran once.
    expect(stages).toEqual([
      { name: 'recognise', result: '1' },
      { name: 'finish', result: '1' },
    ]);
  });

  it('makes, runs, shows and weighs only the stages a task’s input has', async () => {
    await server.ctx.jobs.startWorker({ concurrency: 2 });
    Object.assign(scopedRuns, { whole: 0, line: 0 });
    const line = await createTask(server.ctx, scopedPipeline, {
      ownerId: alice.uid,
      title: '单句',
      input: { whole: false },
    });
    await waitForStatus(server, line.id, 'succeeded');
    expect(scopedRuns).toEqual({ whole: 0, line: 1 });
    const view = (await call(server.app, 'GET', `/v1/tasks/get?task_id=${line.id}`, { token: alice.token }))
      .body.data.task;
    expect(view.stages).toEqual([{ name: 'line', label: '单句', status: 'done', progress: 100, weight: 1 }]);
    const whole = await createTask(server.ctx, scopedPipeline, {
      ownerId: alice.uid,
      title: '整体',
      input: { whole: true },
    });
    await waitForStatus(server, whole.id, 'succeeded');
    expect(scopedRuns).toEqual({ whole: 1, line: 2 });
    const both = (await call(server.app, 'GET', `/v1/tasks/get?task_id=${whole.id}`, { token: alice.token }))
      .body.data.task;
    expect(both.stages.map((s: { name: string }) => s.name)).toEqual(['whole', 'line']);
  });

  it('estimates the time left from the running stage’s own pace', async () => {
    const now = server.ctx.clock.now();
    const row = taskRow(alice.uid, now, {
      id: 'tsk_eta',
      tool: slowLastPipeline.tool,
      stage: 'render',
      // The quick stage (9 of 10) took seconds; the render ran a minute and is half done.
      progress: 95,
      started_at: now - 65_000,
      stage_started_at: now - 60_000,
    });
    const view = await toTaskView(server.ctx, row);
    expect(view.stages.find((s) => s.name === 'render')?.progress).toBe(50);
    expect(view.eta_seconds).toBe(60);
    // Nothing to go on before the stage has moved.
    expect((await toTaskView(server.ctx, { ...row, progress: 90 })).eta_seconds).toBeNull();
  });

  it('pauses at a pause point and goes on when resumed', async () => {
    await server.ctx.jobs.startWorker({ concurrency: 2 });
    const task = await createTask(server.ctx, pausePipeline, {
      ownerId: alice.uid,
      title: '暂停',
      input: {},
    });
    const paused = await waitForStatus(server, task.id, 'paused');
    expect(paused.pause_point).toBe('check');
    const res = await call(server.app, 'POST', '/v1/tasks/resume', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(res.body.code).toBe(0);
    await waitForStatus(server, task.id, 'succeeded');
    const again = await call(server.app, 'POST', '/v1/tasks/resume', {
      token: alice.token,
      body: { task_id: task.id },
    });
    expect(again.body.data.detail[0].type).toBe('err_task_not_paused');
  });

  it('never captures twice: of a racing success and cancel exactly one settles the credits', async () => {
    for (let round = 0; round < 8; round++) {
      const task = await createTask(server.ctx, retryPipeline, {
        ownerId: alice.uid,
        title: `竞争 ${round}`,
        input: {},
        credits: { tool: 'tts', amount: 10 },
      });
      // No worker: the task is put in the running state by hand, then finished from three sides.
      await server.ctx.db.updateTable('tasks').set({ status: 'running' }).where('id', '=', task.id).execute();
      const outcomes = await Promise.all([
        finishTask(server.ctx, retryPipeline, task.id, 'succeeded'),
        finishTask(server.ctx, retryPipeline, task.id, 'cancelled'),
        finishTask(server.ctx, retryPipeline, task.id, 'succeeded'),
        call(server.app, 'POST', '/v1/tasks/cancel', { token: alice.token, body: { task_id: task.id } }),
      ]);
      const winners = outcomes.slice(0, 3).filter(Boolean);
      const row = (await readTask(server, task.id))!;
      const hold = await server.ctx.db
        .selectFrom('credit_holds')
        .selectAll()
        .where('hold_key', '=', `task:${task.id}`)
        .executeTakeFirstOrThrow();
      expect(winners.length).toBeLessThanOrEqual(1);
      if (row.status === 'succeeded') {
        expect(winners).toHaveLength(1);
        expect(hold).toMatchObject({ status: 'captured', captured: 7 });
        expect(row.credits_captured).toBe(7);
      } else {
        expect(row.status).toBe('cancelled');
        expect(hold.status).toBe('released');
        expect(row.credits_captured).toBe(0);
      }
      const events = await server.ctx.db
        .selectFrom('task_events')
        .select('type')
        .where('task_id', '=', task.id)
        .where('type', 'in', ['task.succeeded', 'task.cancelled'])
        .execute();
      expect(events).toHaveLength(1);
    }
    const captured = await server.ctx.db
      .selectFrom('credit_holds')
      .select((eb) => eb.fn.sum<number>('captured').as('sum'))
      .where('user_id', '=', alice.uid)
      .where('status', '=', 'captured')
      .executeTakeFirstOrThrow();
    expect(await getBalance(server.ctx, alice.uid)).toEqual({
      balance: 100 - Number(captured.sum ?? 0),
      held: 0,
    });
  });

  it('streams the owner’s events live over SSE, resumes after Last-Event-ID, shows others nothing', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const unauthorised = await fetch(`${base}/v1/tasks/events`);
    expect(unauthorised.status).toBe(401);
    const mine = await openStream(base, alice.token);
    const theirs = await openStream(base, bob.token);
    expect(mine.status).toBe(200);
    expect(mine.contentType).toMatch(/^text\/event-stream/);
    await server.ctx.jobs.startWorker({ concurrency: 2 });

    const task = await createTask(server.ctx, pausePipeline, {
      ownerId: alice.uid,
      title: '事件',
      input: {},
    });
    await waitFor('paused event', () => mine.events.find((e) => e.type === 'task.paused'));
    await call(server.app, 'POST', '/v1/tasks/resume', { token: alice.token, body: { task_id: task.id } });
    await waitFor('succeeded event', () => mine.events.find((e) => e.type === 'task.succeeded'));
    const types = mine.events.map((e) => e.type);
    expect(types[0], JSON.stringify(mine.events.map((e) => [e.id, e.type, e.task.task_id]))).toBe(
      'task.created',
    );
    expect(types).toContain('task.progress');
    const ids = mine.events.map((e) => e.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(mine.events.every((e) => e.task.task_id === task.id)).toBe(true);
    expect(mine.events.at(-1)!.task).toMatchObject({ status: 'succeeded', progress: 100 });

    // Reconnect after the first event: the rest is replayed, in order.
    const resumed = await openStream(base, alice.token, ids[0]);
    await waitFor('replay', () => resumed.events.length >= ids.length - 1 && resumed.events);
    expect(resumed.events.map((e) => e.id)).toEqual(ids.slice(1));
    const byQuery = await fetch(`${base}/v1/tasks/events?last_event_id=${ids.at(-2)}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    const reader = byQuery.body!.getReader();
    let text = '';
    while (!text.includes('task.succeeded')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain(`id: ${ids.at(-1)}\n`);
    await reader.cancel();

    expect(theirs.events).toEqual([]);
    await Promise.all([mine.close(), theirs.close(), resumed.close()]);
  });

  it('does not let another user get, list, cancel, retry, resume or delete a task', async () => {
    const task = await createTask(server.ctx, pausePipeline, {
      ownerId: alice.uid,
      title: '私有',
      input: {},
    });
    const id = task.id;
    const tries = [
      call(server.app, 'GET', `/v1/tasks/get?task_id=${id}`, { token: bob.token }),
      call(server.app, 'POST', '/v1/tasks/cancel', { token: bob.token, body: { task_id: id } }),
      call(server.app, 'POST', '/v1/tasks/retry', { token: bob.token, body: { task_id: id } }),
      call(server.app, 'POST', '/v1/tasks/resume', { token: bob.token, body: { task_id: id } }),
      call(server.app, 'DELETE', '/v1/tasks/delete', { token: bob.token, body: { task_id: id } }),
    ];
    for (const res of await Promise.all(tries)) expect(res.body.data.detail[0].type).toBe('err_not_found');
    expect((await call(server.app, 'GET', '/v1/tasks/list', { token: bob.token })).body.data).toEqual({
      total: 0,
      list: [],
    });
    const list = await call(server.app, 'GET', '/v1/tasks/list?page_size=5', { token: alice.token });
    expect(list.body.data.total).toBe(1);
    expect((await readTask(server, id))?.status).toBe('queued');
  });

  it('fails a task and refunds when the queue gives its stage up (its workers kept dying)', async () => {
    const task = await createTask(server.ctx, retryPipeline, {
      ownerId: alice.uid,
      title: '进程反复中断',
      input: {},
      credits: { tool: 'tts', amount: 10 },
    });
    // The stage's job as a dead worker leaves it on its last allowed run, lease run out.
    await server.ctx.db.updateTable('tasks').set({ status: 'running' }).where('id', '=', task.id).execute();
    const job = await server.ctx.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb.ref('max_attempts'),
        locked_by: 'wrk_dead:1',
        locked_until: Date.now() - 1,
      }))
      .where('idempotency_key', '=', `task:${task.id}:first:0`)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (backend === 'bullmq') {
      // BullMQ detects the dead worker itself; what follows is its next delivery of the job, which
      // finds the attempts used up (the Redis entry was added when the task was created).
      await server.ctx.db.updateTable('jobs').set({ status: 'queued' }).where('id', '=', job.id).execute();
      await server.ctx.db
        .updateTable('jobs')
        .set((eb) => ({ max_attempts: eb('attempts', '-', 1) }))
        .where('id', '=', job.id)
        .execute();
    }
    await server.ctx.jobs.startWorker({ concurrency: 1 });
    const failed = await waitForStatus(server, task.id, 'failed');
    expect(failed).toMatchObject({ error_code: 1, error: '任务因进程中断而失败' });
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 100, held: 0 });
  });

  it('pushes to the owner when a task that ran longer than a minute finishes, not for a quick one', async () => {
    if (backend === 'bullmq') return; // the queue plays no part here
    // A local push service over TLS (push endpoints are always https) with a throwaway certificate.
    const dir = mkdtempSync(path.join(tmpdir(), 'vw-task-push-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
      ].concat([
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ]),
      { stdio: 'pipe' },
    );
    const tls = {
      key: readFileSync(path.join(dir, 'key.pem')),
      cert: readFileSync(path.join(dir, 'cert.pem')),
    };
    rmSync(dir, { recursive: true, force: true });
    const rejectUnauthorized = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    let received = 0;
    const push = createHttpsServer(tls, (req, res) => {
      received++;
      req.resume();
      req.on('end', () => {
        res.statusCode = 201;
        res.end();
      });
    });
    await new Promise<void>((r) => push.listen(0, '127.0.0.1', r));
    try {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const sub = {
        endpoint: `https://127.0.0.1:${(push.address() as AddressInfo).port}/push/task`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      };
      const subscribed = await call(server.app, 'POST', '/v1/notifications/subscribe', {
        token: alice.token,
        body: sub,
      });
      expect(subscribed.body.code).toBe(0);
      const finish = async (ranMs: number) => {
        const task = await createTask(server.ctx, pausePipeline, {
          ownerId: alice.uid,
          title: '推送',
          input: {},
        });
        await server.ctx.db
          .updateTable('tasks')
          .set({ status: 'running', started_at: Date.now() - ranMs })
          .where('id', '=', task.id)
          .execute();
        await finishTask(server.ctx, pausePipeline, task.id, 'succeeded');
      };
      await finish(5_000);
      expect(received).toBe(0);
      await finish(61_000);
      expect(received).toBe(1);
    } finally {
      push.close();
      if (rejectUnauthorized === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = rejectUnauthorized;
    }
  });

  it('settles the credits of a finished task whose settlement was lost, once', async () => {
    const task = await createTask(server.ctx, retryPipeline, {
      ownerId: alice.uid,
      title: '结算补救',
      input: {},
      credits: { tool: 'tts', amount: 10 },
    });
    // As if the process died right after the status change: succeeded, hold still open.
    const long = Date.now() - 5 * 60_000;
    await server.ctx.db
      .updateTable('tasks')
      .set({ status: 'succeeded', credits_captured: 7, finished_at: long })
      .where('id', '=', task.id)
      .execute();
    const sweep = () =>
      taskSweepJob.handler({}, { app: server.ctx, signal: new AbortController().signal } as never);
    expect(await sweep()).toMatchObject({ settled: 1 });
    expect(await sweep()).toMatchObject({ settled: 0 });
    expect(await getBalance(server.ctx, alice.uid)).toEqual({ balance: 93, held: 0 });
  });
});

describe('task notifications', () => {
  it('lead a video tool to its editor project; other tools just say so', () => {
    expect(taskFinishedMessage({ id: 't1', name: '访谈', tool: 'stt', projectId: 'prj_1' })).toMatchObject({
      action: 'video-edit',
      task_id: 't1',
      project_id: 'prj_1',
      title: '任务已完成',
    });
    const tts = taskFinishedMessage({ id: 't2', name: '长文', tool: 'tts', failed: true });
    expect(tts).toMatchObject({ task_id: 't2', title: '任务失败' });
    expect(tts).not.toHaveProperty('action');
  });
});
