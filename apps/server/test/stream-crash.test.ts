import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { type AppContext, createContext } from '../src/context.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { createLogger } from '../src/logger.ts';
import { grantCredits } from '../src/modules/credits/ledger.service.ts';
import { createTestDatabase, type TestDatabase } from './harness.ts';

/**
 * A streamed synthesis whose server process is killed mid-stream (issue 14): after a restart the
 * lease sweep gives the credits back and marks the item failed (code 1), so nothing stays frozen.
 */
let testDb: TestDatabase;
let dataDir: string;
let env: Record<string, string>;
let base: string;
let child: ChildProcess | undefined;
let database: DatabaseHandle | undefined;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function startServer(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'all'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    const up = await fetch(`${base}/openapi.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return proc;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not start');
}

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return res;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'vw-crash-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  env = {
    NODE_ENV: 'development',
    ENGINES: 'none',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    JWT_SECRET: 'crash-test-secret-crash-test-secret-0123',
    LOG_LEVEL: 'error',
    HOLD_LEASE_MS: '2000',
    ...testDb.env,
  };
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await database?.close();
  await testDb.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a stream killed with its process', () => {
  it('has its hold released and its item failed (refunded) after a restart', async () => {
    child = await startServer();
    const account = '13900000301';
    expect((await post('/accounts/v1/send_verification_code', { account, scene: 'login' })).ok).toBe(true);
    const outbox = await (await fetch(`${base}/dev/outbox?to=${account}`)).json();
    const code = /\b(\d{6})\b/.exec(outbox.data.messages[0].text)![1];
    const auth = await (await post('/accounts/v1/auth_with_verification_code', { account, code })).json();
    const token: string = auth.data.secure_tokens.access_token;
    const uid: string = auth.data.user_info.uid;

    const config = loadConfig(env);
    database = openDatabase(config.database);
    const ctx: AppContext = createContext({
      config,
      database,
      clock: systemClock,
      log: createLogger('silent'),
    });
    await grantCredits(ctx, {
      userId: uid,
      source: 'gift',
      amount: 10_000,
      expiresAt: Date.now() + 86_400_000,
      grantKey: 'crash-test',
      remark: 'test',
    });
    const balance = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('credit_ledger')
            .select((eb) => eb.fn.sum<number>('delta').as('s'))
            .where('user_id', '=', uid)
            .executeTakeFirstOrThrow()
        ).s,
      );
    const before = await balance();

    // 20,000 characters, streamed: the process dies once the first bytes are out.
    const text = '这是一段用来测试中途崩溃的文字。'.repeat(1250);
    const res = await post(
      '/v1/tts/generate',
      { text, voice_id: 'espeak-zh-xiaowen', mode: 'stream' },
      token,
    );
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    await reader.cancel().catch(() => {});

    const row = await ctx.db
      .selectFrom('tts_history')
      .selectAll()
      .where('user_id', '=', uid)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('running');
    const hold = await ctx.db
      .selectFrom('credit_holds')
      .selectAll()
      .where('hold_key', '=', row.hold_key!)
      .executeTakeFirstOrThrow();
    expect(hold).toMatchObject({ status: 'held', amount: 2000 });
    expect(hold.lease_owner).toMatch(/:\d+:/);
    expect(await balance()).toBe(before - 2000);

    child = await startServer();
    // The sweep gives the credits back, then the tool marks the item: wait for the item, the last step.
    const itemStatus = async () =>
      (
        await ctx.db
          .selectFrom('tts_history')
          .select('status')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow()
      ).status;
    await expect.poll(itemStatus, { timeout: 20_000, interval: 250 }).toBe('failed');
    const failed = await ctx.db
      .selectFrom('tts_history')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'failed', failure_code: 1 });
    const released = await ctx.db
      .selectFrom('credit_holds')
      .select('status')
      .where('id', '=', hold.id)
      .executeTakeFirstOrThrow();
    expect(released.status).toBe('released');
    expect(await balance()).toBe(before);
  }, 90_000);
});
