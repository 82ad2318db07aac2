import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutboxSender } from '../src/adapters/messaging/outbox.ts';
import { loadConfig } from '../src/config.ts';
import { findOrCreateUser, liftRefusal, refuseAccount } from '../src/modules/accounts/accounts.service.ts';
import { REFRESH_REUSE_GRACE_MS } from '../src/modules/accounts/sessions.service.ts';
import { SEND_LIMITS, sendVerificationCode } from '../src/modules/accounts/verification.service.ts';
import { renewHoldLease } from '../src/modules/credits/credits.repo.ts';
import { newHoldLease, releaseAbandonedHolds } from '../src/modules/credits/hold-leases.ts';
import { holdCredits } from '../src/modules/credits/ledger.service.ts';
import { isLoopbackRequest } from '../src/modules/dev/dev.routes.ts';
import { signedFileUrl, storeFile } from '../src/modules/files/files.service.ts';
import { checkPushEndpoint } from '../src/modules/notifications/notifications.service.ts';
import { updateSetting } from '../src/modules/settings/settings.service.ts';
import { call, createTestServer, fund, latestCode, signIn, type TestServer, taskRow } from './harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await createTestServer({ PUBLIC_API_KEY_RPM: '5000', PUBLIC_API_ACCOUNT_RPM: '5000' });
});
afterEach(async () => {
  await server.close();
});

const detailType = (res: { body: { data: { detail?: Array<{ type: string }> } | null } }) =>
  res.body.data?.detail?.[0]?.type;
const userInfo = (token: string) => call(server.app, 'POST', '/v1/user/get_user_info', { token });
const balanceByKey = (key: string) =>
  server.app.inject({ method: 'GET', url: '/api/v1/balance', headers: { 'x-api-key': key } });

async function createKey(token: string): Promise<string> {
  const res = await call(server.app, 'POST', '/v1/api_keys/create', { token, body: { name: 'k' } });
  expect(res.body.code).toBe(0);
  return res.body.data.secret_key;
}

/** The operator command in its own process, against the test server's database. */
const execFileAsync = promisify(execFile);
async function admin(...args: string[]): Promise<string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    DATA_DIR: server.config.dataDir,
    JWT_SECRET: server.config.JWT_SECRET!,
    LOG_LEVEL: 'silent',
  };
  if (server.config.DATABASE_URL) env.DATABASE_URL = server.config.DATABASE_URL;
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env,
  });
  return stdout;
}

describe('accounts that have ended', () => {
  it('an operator refusal (another process) stops tokens, keys, sign-ins and refreshes; lifting it restores them', async () => {
    const a = await signIn(server.app, '13900000101');
    const token = a.secure_tokens.access_token;
    const key = await createKey(token);
    expect((await userInfo(token)).status).toBe(200);
    expect((await balanceByKey(key)).statusCode).toBe(200);

    expect(await admin('users', 'refuse', '--user', a.user_info.uid, '--reason', '滥用接口')).toMatch(
      /refused/,
    );
    // Written by another process: this one sees it within its one-second user cache.
    await expect.poll(async () => (await userInfo(token)).status, { timeout: 3000 }).toBe(401);
    const byKey = await balanceByKey(key);
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().data.detail[0].type).toBe('err_account_refused');
    const created = await call(server.app, 'POST', '/v1/api_keys/create', { token, body: { name: 'x' } });
    expect(created.status).toBe(401);
    const refreshed = await call(server.app, 'POST', '/accounts/v1/token', {
      body: { refresh_token: a.secure_tokens.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    server.clock.advance(61_000);
    await expect(signIn(server.app, '13900000101')).rejects.toThrow(/err_account_refused/);
    const row = await server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', a.user_info.uid)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 1, refused_reason: '滥用接口' });

    expect(await admin('users', 'unrefuse', '--user', a.user_info.uid)).toMatch(/lifted/);
    await expect.poll(async () => (await userInfo(token)).status, { timeout: 3000 }).toBe(200);
    expect((await balanceByKey(key)).statusCode).toBe(200);
  }, 60_000);

  it('cancellation refuses the token in hand and revokes sessions, API keys, webhooks and push subscriptions', async () => {
    const a = await signIn(server.app, '13900000102');
    const token = a.secure_tokens.access_token;
    const uid = a.user_info.uid;
    const key = await createKey(token);
    const hook = await call(server.app, 'POST', '/v1/webhooks/create', {
      token,
      body: { url: 'https://hooks.example.com/vw', events: ['task.succeeded'] },
    });
    expect(hook.body.code).toBe(0);
    const sub = await call(server.app, 'POST', '/v1/notifications/subscribe', {
      token,
      body: { endpoint: 'https://push.example.com/abc', keys: { p256dh: 'BCdef', auth: 'abc' } },
    });
    expect(sub.body.code).toBe(0);

    server.clock.advance(61_000);
    await call(server.app, 'POST', '/accounts/v1/send_verification_code', {
      token,
      body: { account: '13900000102', scene: 'cancel_account' },
    });
    const code = await latestCode(server.app, '13900000102');
    expect(
      (await call(server.app, 'POST', '/accounts/v1/cancel_account', { token, body: { code } })).body.code,
    ).toBe(0);

    // The access token is unexpired, but every call with it is refused.
    for (const url of ['/v1/api_keys/create', '/v1/webhooks/create', '/v1/tts/generate']) {
      const res = await call(server.app, 'POST', url, { token, body: { name: 'x' } });
      expect(res.status, url).toBe(401);
    }
    expect((await balanceByKey(key)).statusCode).toBe(401);
    const db = server.ctx.db;
    const keys = await db.selectFrom('api_keys').select('revoked_at').where('user_id', '=', uid).execute();
    expect(keys.map((k) => k.revoked_at !== null)).toEqual([true]);
    expect(await db.selectFrom('webhook_endpoints').selectAll().where('user_id', '=', uid).execute()).toEqual(
      [],
    );
    expect(
      await db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', uid).execute(),
    ).toEqual([]);
    const open = await db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('user_id', '=', uid)
      .where('revoked_at', 'is', null)
      .execute();
    expect(open).toEqual([]);
  });
});

describe('password guessing', () => {
  const tryPassword = (account: string, password: string, ip: string) =>
    call(server.app, 'POST', '/accounts/v1/auth_with_password', { body: { account, password }, ip });

  async function userWithPassword(account: string) {
    const a = await signIn(server.app, account);
    const set = await call(server.app, 'POST', '/v1/user/change_password', {
      token: a.secure_tokens.access_token,
      body: { new_password: 'Right12345' },
    });
    expect(set.body.code).toBe(0);
    return a;
  }

  it('limits tries per account whatever the address: backoff after 5, a lock after 10 that a code sign-in lifts', async () => {
    const account = '13900000103';
    await userWithPassword(account);
    let ip = 0;
    const nextIp = () => `10.1.${Math.floor(++ip / 250)}.${ip % 250}`;
    for (let i = 0; i < 5; i++) {
      expect(detailType(await tryPassword(account, `Wrong${i}xyz1`, nextIp()))).toBe(
        'err_password_incorrect',
      );
    }
    // A new address changes nothing, and even the right password waits now.
    expect(detailType(await tryPassword(account, 'Right12345', nextIp()))).toBe(
      'err_password_attempts_backoff',
    );
    for (let i = 5; i < 10; i++) {
      server.clock.advance(30_000 * 2 ** (i - 5));
      const wrong = await tryPassword(account, `Wrong${i}xyz1`, nextIp());
      expect(detailType(wrong)).toBe(i < 9 ? 'err_password_incorrect' : 'err_password_locked');
    }
    server.clock.advance(24 * 3600_000);
    expect(detailType(await tryPassword(account, 'Right12345', nextIp()))).toBe('err_password_locked');

    // Proving the account by a code lifts the lock.
    await signIn(server.app, account, nextIp());
    expect((await tryPassword(account, 'Right12345', nextIp())).body.code).toBe(0);
  });

  it('hears concurrent tries of one account one at a time', async () => {
    const account = '13900000104';
    await userWithPassword(account);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => tryPassword(account, `Wrong${i}abc1`, `10.2.0.${i + 1}`)),
    );
    const heard = answers.filter((r) => detailType(r) === 'err_password_incorrect').length;
    expect(heard).toBeLessThanOrEqual(5);
    const row = await server.ctx.db
      .selectFrom('users')
      .select('password_failures')
      .where('phone', '=', account)
      .executeTakeFirstOrThrow();
    expect(row.password_failures).toBe(heard);
  });
});

describe('exposure', () => {
  it('production refuses to start without a real code sender unless codes go to the operator log', () => {
    const base = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/vw-unused' } as const;
    expect(() => loadConfig(base)).toThrow(/SMS_PROVIDER: production needs a real sender/);
    expect(loadConfig({ ...base, SMTP_URL: 'smtp://mail.example.com' }).isProduction).toBe(true);
    expect(loadConfig({ ...base, VERIFICATION_CODES_TO_LOG: 'true' }).isProduction).toBe(true);
  });

  it('development listens on loopback unless HOST says otherwise', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://m.example.com' }).HOST).toBe('0.0.0.0');
  });

  it('the dev outbox never logs the code it stores', async () => {
    const lines: string[] = [];
    const log = { info: (o: unknown, m: string) => lines.push(JSON.stringify(o) + m) };
    const sender = createOutboxSender('sms', server.ctx.db, log as never, () => 0);
    await sender.send({
      to: '13900000105',
      subject: 's',
      text: '验证码是 493817',
      params: { code: '493817' },
    });
    expect(lines).toHaveLength(1);
    expect(lines.join()).not.toContain('493817');
  });

  it('/dev/* answers only clients on this machine', async () => {
    const outbox = (remoteAddress: string) =>
      server.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress });
    expect((await outbox('127.0.0.1')).statusCode).toBe(200);
    expect((await outbox('192.168.1.20')).statusCode).toBe(404);
    expect((await outbox('::ffff:10.0.0.3')).statusCode).toBe(404);
    const fake = (socket: string, ip: string) => ({ socket: { remoteAddress: socket }, ip }) as never;
    // Behind a proxy on this machine, the client the proxy names decides.
    expect(isLoopbackRequest(fake('127.0.0.1', '203.0.113.9'))).toBe(false);
    expect(isLoopbackRequest(fake('::1', '::1'))).toBe(true);
  });

  it('push endpoints get the webhooks guard in production', async () => {
    expect(() => checkPushEndpoint('http://push.example.com/a', false)).toThrow();
    expect(() => checkPushEndpoint('https://127.0.0.1:9/a', false)).not.toThrow();
    for (const bad of [
      'https://127.0.0.1:9/a',
      'https://localhost/a',
      'https://[::1]/a',
      'https://10.0.0.1/a',
    ]) {
      expect(() => checkPushEndpoint(bad, true), bad).toThrow();
    }
    expect(() => checkPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', true)).not.toThrow();
    const prod = await createTestServer({ NODE_ENV: 'production', VERIFICATION_CODES_TO_LOG: 'true' });
    try {
      const { user } = await findOrCreateUser(prod.ctx, '13900000107');
      const token = prod.ctx.accessTokens.sign(user.id);
      const subscribe = (endpoint: string) =>
        call(prod.app, 'POST', '/v1/notifications/subscribe', {
          token,
          body: { endpoint, keys: { p256dh: 'BCdef', auth: 'abc' } },
        });
      const res = await subscribe('https://127.0.0.1:8443/push');
      expect(res.body.code).toBe(422);
      expect(detailType(res)).toBe('err_invalid_param');
      expect((await subscribe('https://push.example.com/abc')).body.code).toBe(0);
    } finally {
      await prod.close();
    }
  });
});

describe('the free plan', () => {
  it('issues the monthly credits of the runtime setting once a month, and the plan card says how much', async () => {
    await updateSetting(server.ctx, 'free_monthly_credits', '500');
    const a = await signIn(server.app, '13900000106');
    const token = a.secure_tokens.access_token;
    const bonus = async () =>
      (
        await call(server.app, 'GET', '/v1/tenant/get_tenant_bonus', {
          token: server.ctx.accessTokens.sign(a.user_info.uid),
        })
      ).body.data;
    expect((await bonus()).credit_balance).toBe(500);
    expect((await bonus()).credit_balance).toBe(500);
    const plans = await call(server.app, 'GET', '/v1/tenant/get_plans', { token });
    expect(plans.body.data.plans.find((p: { level: number }) => p.level === 100).monthly_credits).toBe(500);

    // A synthesis works for a new user.
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      headers: { authorization: `Bearer ${token}` },
      payload: { text: '你好，世界。', voice_id: 'espeak-zh-xiaowen' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');

    // Next month: this month's credits are gone, the new month's are there.
    server.clock.advance(32 * 24 * 3600_000);
    expect((await bonus()).credit_balance).toBe(500);
  });
});

const bonus = async (token: string) =>
  (await call(server.app, 'GET', '/v1/tenant/get_tenant_bonus', { token })).body.data;

describe('leased holds', () => {
  it('a task hands its hold to the job; the sweep releases only holds whose lease ran out', async () => {
    const a = await signIn(server.app, '13900000108');
    const uid = a.user_info.uid;
    await fund(server, uid, 10_000);
    const task = await call(server.app, 'POST', '/v1/tts/generate', {
      token: a.secure_tokens.access_token,
      body: { text: '一个交给后台任务的合成。', voice_id: 'espeak-zh-xiaowen', mode: 'task' },
    });
    expect(task.body.code).toBe(0);
    // The hold belongs to the task (hold key task:<id>), handed over once its first stage is queued.
    const held = await server.ctx.db
      .selectFrom('credit_holds')
      .selectAll()
      .where('task_id', '=', task.body.data.task_id)
      .executeTakeFirstOrThrow();
    expect(held).toMatchObject({ status: 'held', lease_owner: null, lease_until: null });

    const leased = (key: string) =>
      holdCredits(server.ctx, {
        userId: uid,
        holdKey: key,
        amount: 10,
        tool: 'test',
        taskId: key,
        taskName: key,
        lease: newHoldLease(server.ctx),
      });
    await leased('lease:a');
    await leased('lease:b');
    server.clock.advance(server.config.HOLD_LEASE_MS - 1);
    expect(await releaseAbandonedHolds(server.ctx)).toBe(0);
    await renewHoldLease(server.ctx.db, 'lease:b', server.clock.now() + server.config.HOLD_LEASE_MS);
    server.clock.advance(2);
    expect(await releaseAbandonedHolds(server.ctx)).toBe(1);
    const statuses = await server.ctx.db
      .selectFrom('credit_holds')
      .select(['hold_key', 'status'])
      .where('hold_key', 'in', ['lease:a', 'lease:b'])
      .orderBy('hold_key')
      .execute();
    expect(statuses).toEqual([
      { hold_key: 'lease:a', status: 'released' },
      { hold_key: 'lease:b', status: 'held' },
    ]);
    // The task's hold, owned by its job, is never the sweep's.
    server.clock.advance(10 * server.config.HOLD_LEASE_MS);
    await releaseAbandonedHolds(server.ctx);
    const taskHold = await server.ctx.db
      .selectFrom('credit_holds')
      .select('status')
      .where('id', '=', held.id)
      .executeTakeFirstOrThrow();
    expect(taskHold.status).toBe('held');
  });

  it('a task whose process died before its first stage was queued is failed and refunded', async () => {
    const a = await signIn(server.app, '13900000109');
    const uid = a.user_info.uid;
    await fund(server, uid, 100);
    // What createTask had written when the process died: the leased hold and the queued task row.
    const id = 'task_orphan';
    await holdCredits(server.ctx, {
      userId: uid,
      holdKey: `task:${id}`,
      amount: 30,
      tool: 'speech_to_text',
      taskId: id,
      taskName: 'orphan',
      lease: newHoldLease(server.ctx),
    });
    await server.ctx.db
      .insertInto('tasks')
      .values(
        taskRow(uid, server.clock.now(), {
          id,
          status: 'queued',
          stage: 'extract',
          credits_estimated: 30,
          credits_held: 30,
          hold_key: `task:${id}`,
        }),
      )
      .execute();
    expect((await bonus(a.secure_tokens.access_token)).credit_balance).toBe(70);
    server.clock.advance(server.config.HOLD_LEASE_MS + 1);
    expect(await releaseAbandonedHolds(server.ctx)).toBe(1);
    const task = await server.ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(task).toMatchObject({ status: 'failed', error_code: 1 });
    expect((await bonus(a.secure_tokens.access_token)).credit_balance).toBe(100);
  });
});

describe('limits that follow the account', () => {
  // Three addresses of one client: two in one IPv6 /64, one elsewhere; the account is the same.
  const ADDRESSES = ['2001:db8:1:2::10', '2001:db8:1:2:ffff::1', '198.51.100.7'];

  const expectRefused = (res: {
    status: number;
    headers: Record<string, unknown>;
    body: { code: number };
  }) => {
    expect(res.status).toBe(429);
    expect(res.body.code).toBe(429);
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
  };

  it('task creation, uploads and webhook tests are counted per account whatever the address (runtime setting, 429 + Retry-After)', async () => {
    const a = await signIn(server.app, '13900000301');
    const token = a.secure_tokens.access_token;
    await fund(server, a.user_info.uid, 10_000);
    await updateSetting(server.ctx, 'account_rate_limits', '{"tasks":2,"uploads":2,"webhook_tests":1}');

    const newTask = (ip: string) =>
      call(server.app, 'POST', '/v1/tts/generate', {
        token,
        ip,
        body: { text: '你好。', voice_id: 'espeak-zh-xiaowen', speed: 1, mode: 'task' },
      });
    expect((await newTask(ADDRESSES[0])).body.code).toBe(0);
    expect((await newTask(ADDRESSES[1])).body.code).toBe(0);
    const third = await newTask(ADDRESSES[2]);
    expectRefused(third);
    // Refused before anything was held or written.
    const tasks = await server.ctx.db
      .selectFrom('tasks')
      .select('id')
      .where('owner_id', '=', a.user_info.uid)
      .execute();
    expect(tasks).toHaveLength(2);

    const newUpload = (ip: string) =>
      server.app.inject({
        method: 'POST',
        url: '/v1/uploads/tus',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0', 'upload-length': '10' },
      });
    expect((await newUpload(ADDRESSES[0])).statusCode).toBe(201);
    expect((await newUpload(ADDRESSES[2])).statusCode).toBe(201);
    const upload = await newUpload(ADDRESSES[1]);
    expectRefused({ status: upload.statusCode, headers: upload.headers, body: upload.json() });

    const receiver = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const hook = await call(server.app, 'POST', '/v1/webhooks/create', {
        token,
        body: { url: `http://127.0.0.1:${port}/hook`, events: ['task.succeeded'] },
      });
      const endpoint_id = hook.body.data.endpoint.endpoint_id;
      const ping = (ip: string) =>
        call(server.app, 'POST', '/v1/webhooks/test', { token, ip, body: { endpoint_id } });
      expect((await ping(ADDRESSES[0])).body.data).toMatchObject({ delivered: true });
      const again = await ping(ADDRESSES[2]);
      expectRefused(again);
      // Another account is not held back by this one's count.
      const b = await signIn(server.app, '13900000302');
      expect(
        (
          await call(server.app, 'POST', '/v1/webhooks/test', {
            token: b.secure_tokens.access_token,
            body: { endpoint_id },
          })
        ).status,
      ).not.toBe(429);

      // The window is a minute: after it the account may act again.
      server.clock.advance(60_000);
      expect((await newTask(ADDRESSES[2])).body.code).toBe(0);
      expect((await ping(ADDRESSES[1])).body.data).toMatchObject({ delivered: true });
    } finally {
      receiver.close();
    }
  });

  it('verification codes per address count an IPv6 /64 as one client', async () => {
    // The service itself (the route's own per-minute limit would answer first): a different target
    // each time, so the per-target limits stay out of the way, and a different address of one /64.
    const send = (i: number) =>
      sendVerificationCode(server.ctx, {
        account: `1390000${String(400 + i).padStart(4, '0')}`,
        scene: 'login',
        ip: `2001:db8:aa:bb:${i.toString(16)}::1`,
        user: null,
      });
    for (let i = 0; i < SEND_LIMITS.perIpHour; i++) await send(i);
    await expect(send(SEND_LIMITS.perIpHour)).rejects.toMatchObject({
      detailType: 'err_verification_code_too_frequent',
    });
  });
});

describe('sessions and links that end', () => {
  it("a session's access tokens stop with its refresh tokens: sign-out, reuse revocation, another process's revocation", async () => {
    const first = await signIn(server.app, '13900000311');
    server.clock.advance(61_000);
    const second = await signIn(server.app, '13900000311');
    const one = first.secure_tokens;
    const two = second.secure_tokens;
    expect((await userInfo(one.access_token)).status).toBe(200);

    // Sign-out in this process: the access token of that session stops at once, the other session goes on.
    await call(server.app, 'POST', '/accounts/v1/sign_out', { body: { refresh_token: one.refresh_token } });
    expect((await userInfo(one.access_token)).status).toBe(401);
    expect((await userInfo(two.access_token)).status).toBe(200);

    // A revocation written by another process (the statement bypasses this process's caches):
    // seen within the one-second cache.
    await sql`UPDATE refresh_tokens SET revoked_at = ${server.clock.now()} WHERE user_id = ${second.user_info.uid}`.execute(
      server.ctx.db,
    );
    await expect.poll(async () => (await userInfo(two.access_token)).status, { timeout: 3000 }).toBe(401);
  });

  it('a token that passes from the caches is refused the moment this process refuses its account or revokes its sessions', async () => {
    const a = await signIn(server.app, '13900000314');
    const token = a.secure_tokens.access_token;
    const uid = a.user_info.uid;
    // These reads leave the account and the session cached: the next check needs no query.
    expect((await userInfo(token)).status).toBe(200);
    expect((await userInfo(token)).status).toBe(200);
    await refuseAccount(server.ctx, uid, 'test');
    expect((await userInfo(token)).status).toBe(401);
    await liftRefusal(server.ctx, uid);
    expect((await userInfo(token)).status).toBe(200);
    expect((await userInfo(token)).status).toBe(200);

    // A password reset signs every session out, the access tokens in hand included.
    server.clock.advance(61_000);
    await call(server.app, 'POST', '/accounts/v1/send_verification_code', {
      body: { account: '13900000314', scene: 'reset_pwd' },
    });
    const code = await latestCode(server.app, '13900000314');
    const reset = await call(server.app, 'POST', '/accounts/v1/reset_pwd', {
      body: { account: '13900000314', code, new_password: 'brandnew99' },
    });
    expect(reset.body.code).toBe(0);
    expect((await userInfo(token)).status).toBe(401);
  });

  it('a rotated token used again revokes the access tokens of its whole family', async () => {
    const a = await signIn(server.app, '13900000312');
    const rotated = await call(server.app, 'POST', '/accounts/v1/token', {
      body: { refresh_token: a.secure_tokens.refresh_token },
    });
    const fresh = rotated.body.data.secure_tokens.access_token;
    expect((await userInfo(fresh)).status).toBe(200);
    server.clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    const replay = await call(server.app, 'POST', '/accounts/v1/token', {
      body: { refresh_token: a.secure_tokens.refresh_token },
    });
    expect(replay.status).toBe(401);
    expect((await userInfo(fresh)).status).toBe(401);
    expect((await userInfo(a.secure_tokens.access_token)).status).toBe(401);
  });

  it("a refused account's signed file links stop with it, and work again when the refusal is lifted", async () => {
    const a = await signIn(server.app, '13900000313');
    const uid = a.user_info.uid;
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64),
    ]);
    const file = await storeFile(server.ctx, uid, {
      bytes: png,
      originalName: 'a.png',
      allowed: ['image'],
      maxBytes: 1e6,
      prefix: 'avatars',
    });
    const url = new URL(
      await signedFileUrl(server.ctx, uid, file.key, { expiresInSeconds: 600 }),
      'http://localhost',
    );
    const get = () => server.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect((await get()).statusCode).toBe(200);

    await admin('users', 'refuse', '--user', uid, '--reason', '滥用接口');
    await expect.poll(async () => (await get()).statusCode, { timeout: 3000 }).toBe(403);
    expect((await get()).json()).toMatchObject({ code: 403, msg: '链接已失效' });

    await admin('users', 'unrefuse', '--user', uid);
    await expect.poll(async () => (await get()).statusCode, { timeout: 3000 }).toBe(200);
  }, 60_000);
});
