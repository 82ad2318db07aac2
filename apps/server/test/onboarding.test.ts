import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ANALYTICS_LIMITS } from '@vw/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityReport, deviceKey, signReport } from '../src/modules/analytics/analytics.service.ts';
import { grantMembership } from '../src/modules/credits/membership.service.ts';
import {
  ensureVapidKeys,
  notifyTaskFinished,
  vapidSubject,
} from '../src/modules/notifications/notifications.service.ts';
import { getQuestionnaire, setQuestionnaire } from '../src/modules/onboarding/onboarding.service.ts';
import { call, createTestServer, signIn, type TestServer } from './harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await createTestServer();
});
afterEach(async () => {
  await server.close();
});

const SURVEY = '/v1/user/get_user_persona_questionnaire';
const SUBMIT = '/v1/user/submit_user_persona_questionnaire';

async function newUser(phone: string) {
  const s = await signIn(server.app, phone);
  return { token: s.secure_tokens.access_token, uid: s.user_info.uid };
}

const bonus = (token: string) => call(server.app, 'GET', '/v1/tenant/get_tenant_bonus', { token });

describe('persona questionnaire', () => {
  it('serves the seeded questionnaire: single and multiple choice, options with ids and icons', async () => {
    const { token } = await newUser('13900000001');
    const res = await call(server.app, 'GET', SURVEY, { token });
    expect(res.body.code).toBe(0);
    const qs = res.body.data.questionnaire;
    expect(qs.length).toBeGreaterThanOrEqual(3);
    expect(qs.map((q: { select_type: number }) => q.select_type)).toContain(2);
    expect(qs[0].question_options[0]).toMatchObject({ id: expect.any(Number), content: expect.any(String) });
    expect(qs[0].question_options[0].icon).toMatch(/\.svg$/);
    expect((await call(server.app, 'GET', SURVEY)).status).toBe(401);
  });

  it('submitting grants a 3-day trial once and moves the status to 1; a second submit is 1002', async () => {
    const { token } = await newUser('13900000002');
    const info = await call(server.app, 'POST', '/v1/user/get_user_info', { token });
    expect(info.body.data.user_info.user_persona_questionnaire_status).toBe(2);
    expect((await bonus(token)).body.data.is_free_package).toBe(1);

    const body = {
      questionnaire: [
        { id: 1, answer: [{ id: 101 }] },
        { id: 2, answer: [{ id: 201 }, { id: 203 }] },
      ],
    };
    const res = await call(server.app, 'POST', SUBMIT, { token, body });
    expect(res.body.code).toBe(0);
    expect(res.body.data.trial_granted).toBe(true);
    const b = (await bonus(token)).body.data;
    expect(b.is_free_package).toBe(0);
    expect(b.level).toBe(200);
    expect(b.expired_time).toBe(Math.floor((server.clock.now() + 3 * 86_400_000) / 1000));
    const after = await call(server.app, 'POST', '/v1/user/get_user_info', { token });
    expect(after.body.data.user_info.user_persona_questionnaire_status).toBe(1);

    const again = await call(server.app, 'POST', SUBMIT, { token, body });
    expect(again.body.code).toBe(1002);
    expect((await bonus(token)).body.data.expired_time).toBe(b.expired_time);
  });

  it('two concurrent submissions grant the trial exactly once', async () => {
    const { token, uid } = await newUser('13900000003');
    const body = { questionnaire: [{ id: 1, answer: [{ id: 102 }] }] };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => call(server.app, 'POST', SUBMIT, { token, body })),
    );
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 1002, 1002, 1002]);
    const responses = await server.ctx.db
      .selectFrom('questionnaire_responses')
      .selectAll()
      .where('user_id', '=', uid)
      .execute();
    expect(responses).toHaveLength(1);
    const account = await server.ctx.db
      .selectFrom('credit_accounts')
      .selectAll()
      .where('user_id', '=', uid)
      .executeTakeFirstOrThrow();
    expect(account.period_unit).toBe('day');
    expect(account.period_count).toBe(3);
  });

  it('a user with a paid plan keeps it: answers recorded, no trial', async () => {
    const { token, uid } = await newUser('13900000004');
    await grantMembership(server.ctx, { userId: uid, level: 300, isAnnual: false, months: 1 });
    const before = (await bonus(token)).body.data;
    const res = await call(server.app, 'POST', SUBMIT, {
      token,
      body: { questionnaire: [{ id: 3, answer: [{ id: 302 }] }] },
    });
    expect(res.body).toMatchObject({ code: 0, data: { trial_granted: false, trial_expire_time: 0 } });
    expect((await bonus(token)).body.data).toMatchObject({ level: 300, expired_time: before.expired_time });
  });

  it('rejects malformed answers without changing anything; unknown ids are 4001', async () => {
    const { token } = await newUser('13900000005');
    const submit = (questionnaire: unknown) =>
      call(server.app, 'POST', SUBMIT, { token, body: { questionnaire } });
    // two options on a single-choice question
    let res = await submit([{ id: 1, answer: [{ id: 101 }, { id: 102 }] }]);
    expect(res.body.code).toBe(422);
    expect(res.body.data.detail[0].type).toBe('err_invalid_param');
    // nothing answered
    res = await submit([{ id: 1, answer: [] }]);
    expect(res.body.data.detail[0].type).toBe('err_invalid_param');
    // an option of another question, a question that does not exist
    expect((await submit([{ id: 1, answer: [{ id: 201 }] }])).body.code).toBe(4001);
    expect((await submit([{ id: 99, answer: [{ id: 101 }] }])).body.code).toBe(4001);
    // missing body field
    res = await call(server.app, 'POST', SUBMIT, { token, body: {} });
    expect(res.body.data.detail[0].type).toBe('value_error.missing');
    expect((await bonus(token)).body.data.is_free_package).toBe(1);
    // still pending: a valid answer works afterwards
    expect((await submit([{ id: 1, answer: [{ id: 101 }] }])).body.code).toBe(0);
  });

  it('the operator replaces the questionnaire; an empty one answers 4001', async () => {
    const { token } = await newUser('13900000006');
    await expect(
      setQuestionnaire(server.ctx, [{ id: 1, question_content: 'x', select_type: 1, question_options: [] }]),
    ).rejects.toThrow(/invalid questionnaire/);
    await expect(
      setQuestionnaire(server.ctx, [
        {
          id: 7,
          question_content: '甲',
          select_type: 1,
          question_options: [
            { id: 1, content: 'a' },
            { id: 1, content: 'b' },
          ],
        },
      ]),
    ).rejects.toThrow(/unique/);
    await setQuestionnaire(server.ctx, [
      {
        id: 7,
        question_content: '您的团队规模？',
        select_type: 1,
        question_options: [
          { id: 71, content: '1 人' },
          { id: 72, content: '2-10 人' },
        ],
      },
    ]);
    const res = await call(server.app, 'GET', SURVEY, { token });
    expect(res.body.data.questionnaire).toEqual([
      {
        id: 7,
        question_content: '您的团队规模？',
        select_type: 1,
        question_options: [
          { id: 71, content: '1 人' },
          { id: 72, content: '2-10 人' },
        ],
      },
    ]);
    await setQuestionnaire(server.ctx, []);
    expect(await getQuestionnaire(server.ctx)).toEqual([]);
    const submit = await call(server.app, 'POST', SUBMIT, {
      token,
      body: { questionnaire: [{ id: 7, answer: [{ id: 71 }] }] },
    });
    expect(submit.body.code).toBe(4001);
  });
});

describe('analytics ingest', () => {
  const DEVICE = 'device-1';
  const encode = (events: unknown) => Buffer.from(JSON.stringify(events), 'utf8').toString('base64');
  async function report(events: unknown, opts: { key?: string; ts?: number; data?: string } = {}) {
    const key = opts.key ?? (await deviceKey(server.ctx, DEVICE));
    const ts = opts.ts ?? server.clock.now();
    const data = opts.data ?? encode(events);
    return call(server.app, 'POST', '/v1/analytics/report', {
      body: { data, ts, device_id: DEVICE, sign: signReport(key, ts, data) },
    });
  }
  const ev = (event: string, uuid = '') => ({
    event,
    uuid,
    phone: '',
    email: '',
    time: server.clock.now(),
    props: { page: '/tts' },
  });

  it('hands out the device key and stores a signed batch', async () => {
    const keyRes = await call(server.app, 'GET', '/v1/analytics/get_key', {
      headers: { 'x-device-id': DEVICE },
    });
    expect(keyRes.body.data.key).toBe(await deviceKey(server.ctx, DEVICE));
    expect(await deviceKey(server.ctx, 'another')).not.toBe(keyRes.body.data.key);

    const res = await report([
      ev('h5_page_exposure', 'u_a'),
      ev('h5_button_click', 'u_a'),
      ev('h5_user_heartbeat_log'),
    ]);
    expect(res.body).toMatchObject({ code: 0, data: { accepted: 3 } });
    const rows = await server.ctx.db.selectFrom('analytics_events').selectAll().execute();
    expect(rows).toHaveLength(3);
    expect(JSON.parse(rows[0].props)).toEqual({ page: '/tts' });
  });

  it('rejects a wrong signature, a stale timestamp and tampered data; stores nothing', async () => {
    const data = encode([ev('h5_button_click')]);
    let res = await report(null, { data, key: 'f'.repeat(64) });
    expect(res.body.data.detail[0].type).toBe('err_signature_invalid');
    res = await report(null, { data, ts: server.clock.now() - ANALYTICS_LIMITS.maxSkewMs - 1 });
    expect(res.body.data.detail[0].type).toBe('err_signature_invalid');
    // signed for one payload, sent with another
    const key = await deviceKey(server.ctx, DEVICE);
    const ts = server.clock.now();
    res = await call(server.app, 'POST', '/v1/analytics/report', {
      body: { data: encode([ev('h5_sign_up')]), ts, device_id: DEVICE, sign: signReport(key, ts, data) },
    });
    expect(res.body.data.detail[0].type).toBe('err_signature_invalid');
    expect(await server.ctx.db.selectFrom('analytics_events').selectAll().execute()).toHaveLength(0);
  });

  it('rejects oversized batches and malformed events', async () => {
    const many = Array.from({ length: ANALYTICS_LIMITS.maxEvents + 1 }, () => ev('h5_button_click'));
    expect((await report(many)).body.data.detail[0].type).toBe('err_batch_too_large');
    const huge = [{ ...ev('h5_button_click'), props: { blob: 'x'.repeat(100_000) } }];
    expect((await report(huge)).body.data.detail[0].type).toBe('err_batch_too_large');
    expect((await report([{ event: '', time: 1 }])).body.data.detail[0].type).toBe('value_error.invalid');
    expect((await report({ event: 'x' })).body.data.detail[0].type).toBe('value_error.invalid');
    expect((await report(null, { data: '!!notbase64!!' })).body.data.detail[0].type).toBe(
      'value_error.invalid',
    );
    expect(await server.ctx.db.selectFrom('analytics_events').selectAll().execute()).toHaveLength(0);
  });

  it('counts daily active users, visitors and top events', async () => {
    await report([
      ev('h5_page_exposure', 'u_a'),
      ev('h5_page_exposure', 'u_b'),
      ev('h5_button_click', 'u_a'),
    ]);
    await report([ev('h5_page_exposure')]);
    const r = await activityReport(server.ctx, 7);
    expect(r.daily).toHaveLength(1);
    expect(r.daily[0]).toMatchObject({ users: 2, visitors: 1, events: 4 });
    expect(r.top[0]).toEqual({ event: 'h5_page_exposure', count: 3 });
  });
});

describe('web push', () => {
  it('creates VAPID keys once and serves the public key', async () => {
    const keys = await ensureVapidKeys(server.ctx);
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect((await ensureVapidKeys(server.ctx)).privateKey).toBe(keys.privateKey);
    const res = await call(server.app, 'GET', '/v1/notifications/vapid_public_key');
    expect(res.body.data.public_key).toBe(keys.publicKey);
    expect(vapidSubject('声音工作台 <no-reply@x.cn>', 'http://127.0.0.1:8787')).toBe('mailto:no-reply@x.cn');
  });

  it('sends an encrypted, VAPID-signed push to a subscribed browser and drops gone endpoints', async () => {
    // A local push service over TLS (push endpoints are always https) with a throwaway certificate.
    const dir = mkdtempSync(path.join(tmpdir(), 'vw-push-'));
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
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'pipe' },
    );
    const tls = {
      key: readFileSync(path.join(dir, 'key.pem')),
      cert: readFileSync(path.join(dir, 'cert.pem')),
    };
    rmSync(dir, { recursive: true, force: true });
    const rejectUnauthorized = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    const received: IncomingMessage[] = [];
    let answer = 201;
    const push = createServer(tls, (req, res) => {
      received.push(req);
      req.resume();
      req.on('end', () => {
        res.statusCode = answer;
        res.end();
      });
    });
    await new Promise<void>((r) => push.listen(0, '127.0.0.1', r));
    const port = (push.address() as AddressInfo).port;
    try {
      const { token, uid } = await newUser('13900000007');
      // A real browser key pair for the subscription (P-256), as PushManager would make.
      const { createECDH, randomBytes } = await import('node:crypto');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const sub = {
        endpoint: `https://127.0.0.1:${port}/push/abc`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      };
      expect(
        (await call(server.app, 'POST', '/v1/notifications/subscribe', { token, body: sub })).body.code,
      ).toBe(0);
      expect(await notifyTaskFinished(server.ctx, uid, { id: 't1', name: '宣传片' })).toEqual({
        sent: 1,
        failed: 0,
      });
      expect(received).toHaveLength(1);
      expect(received[0].headers['content-encoding']).toBe('aes128gcm');
      expect(received[0].headers.authorization).toMatch(/^vapid t=.+, k=/);

      answer = 410;
      expect(await notifyTaskFinished(server.ctx, uid, { id: 't2', name: 'x' })).toEqual({
        sent: 0,
        failed: 1,
      });
      expect(await server.ctx.db.selectFrom('push_subscriptions').selectAll().execute()).toHaveLength(0);
    } finally {
      push.close();
      if (rejectUnauthorized === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = rejectUnauthorized;
    }
  });
});
