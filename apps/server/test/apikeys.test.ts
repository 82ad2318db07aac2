import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.ts';
import { isWellFormedApiKey } from '../src/modules/apikeys/keys.ts';
import { attemptDelivery, checkWebhookUrl } from '../src/modules/apikeys/webhooks.service.ts';
import { grantMembership } from '../src/modules/credits/membership.service.ts';
import { priceTask } from '../src/modules/credits/pricing.service.ts';
import { runSynthesisTask } from '../src/modules/tts/tts.service.ts';
import { call, createTestServer, fund, signIn, type TestServer } from './harness.ts';

let server: TestServer;
let alice: string;
let aliceId: string;
let bob: string;
let bobId: string;

async function createKey(token: string, body: Record<string, unknown> = {}) {
  const res = await call(server.app, 'POST', '/v1/api_keys/create', {
    token,
    body: { name: '测试密钥', ...body },
  });
  expect(res.body.code).toBe(0);
  return res.body.data as { key: { key_id: string; masked_key: string }; secret_key: string };
}

function publicCall(method: 'GET' | 'POST', url: string, key: string | null, body?: unknown, bearer = false) {
  const headers: Record<string, string> = {};
  if (key) headers[bearer ? 'authorization' : 'x-api-key'] = bearer ? `Bearer ${key}` : key;
  return server.app.inject({ method, url, headers, payload: body as never });
}

const tts = (key: string, text: string, extra: Record<string, unknown> = {}) =>
  publicCall('POST', '/api/v1/tts', key, { text, voice_id: 'espeak-zh-xiaowen', ...extra });

beforeAll(async () => {
  server = await createTestServer({
    PUBLIC_API_KEY_RPM: '5000',
    PUBLIC_API_ACCOUNT_RPM: '5000',
    WEBHOOK_RETRY_BASE_MS: '1000',
    WEBHOOK_MAX_ATTEMPTS: '3',
    WEBHOOK_DISABLE_AFTER: '2',
  });
  const a = await signIn(server.app, '13900000001');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  const b = await signIn(server.app, '13900000002');
  bob = b.secure_tokens.access_token;
  bobId = b.user_info.uid;
  await fund(server, aliceId, 100_000);
  await fund(server, bobId, 100_000);
});
afterAll(async () => server?.close());

describe('API keys', () => {
  it('shows the key once, stores only its hash, and the key works with either header', async () => {
    const { key, secret_key } = await createKey(alice);
    expect(secret_key).toMatch(/^vwk_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(secret_key)).toBe(true);
    expect(key.masked_key).toBe(`${secret_key.slice(0, 8)}…${secret_key.slice(-4)}`);
    // Nothing stored contains the key.
    const row = await server.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.key_id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret_key.slice(8, 30));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const list = await call(server.app, 'GET', '/v1/api_keys/list', { token: alice });
    expect(JSON.stringify(list.body)).not.toContain(secret_key);
    expect(list.body.data.keys[0]).toMatchObject({ key_id: key.key_id, status: 'active', credits_used: 0 });

    for (const bearer of [false, true]) {
      const res = await publicCall('GET', '/api/v1/balance', secret_key, undefined, bearer);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.key.key_id).toBe(key.key_id);
      expect(res.json().data.balance).toBeGreaterThan(0);
    }
  });

  it('refuses missing, malformed, mistyped, revoked and expired keys', async () => {
    const none = await publicCall('GET', '/api/v1/voices', null);
    expect(none.statusCode).toBe(401);
    expect(none.json().data.detail[0].type).toBe('err_tenant_apikey_not_found');
    const { key, secret_key } = await createKey(alice);
    // One character changed: the checksum no longer matches.
    const typo = secret_key.slice(0, 10) + (secret_key[10] === 'a' ? 'b' : 'a') + secret_key.slice(11);
    expect((await publicCall('GET', '/api/v1/voices', typo)).json().data.detail[0].type).toBe(
      'err_tenant_apikey_not_found',
    );
    expect((await publicCall('GET', '/api/v1/voices', 'sk-not-ours')).statusCode).toBe(401);

    expect((await publicCall('GET', '/api/v1/voices', secret_key)).statusCode).toBe(200);
    const revoked = await call(server.app, 'POST', '/v1/api_keys/revoke', {
      token: alice,
      body: { key_id: key.key_id },
    });
    expect(revoked.body.data.key.status).toBe('revoked');
    const refused = await publicCall('GET', '/api/v1/voices', secret_key);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().data.detail[0].type).toBe('err_apikey_revoked');
    expect(refused.json().error.type).toBe('err_apikey_revoked');

    const soon = await createKey(alice, { expires_time: Math.floor(server.clock.now() / 1000) + 60 });
    expect((await publicCall('GET', '/api/v1/voices', soon.secret_key)).statusCode).toBe(200);
    server.clock.advance(61_000);
    const expired = await publicCall('GET', '/api/v1/voices', soon.secret_key);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().data.detail[0].type).toBe('err_apikey_expired');
    const past = await call(server.app, 'POST', '/v1/api_keys/create', {
      token: alice,
      body: { name: 'x', expires_time: Math.floor(server.clock.now() / 1000) - 1 },
    });
    expect(past.body.data.detail[0].type).toBe('err_invalid_param');
  });

  it('belongs to its owner only', async () => {
    const { key, secret_key } = await createKey(alice);
    for (const [url, body] of [
      ['/v1/api_keys/rename', { key_id: key.key_id, name: '别人的' }],
      ['/v1/api_keys/revoke', { key_id: key.key_id }],
    ] as const) {
      const res = await call(server.app, 'POST', url, { token: bob, body });
      expect(res.body.data.detail[0].type).toBe('err_tenant_apikey_not_found');
    }
    const usage = await call(server.app, 'GET', `/v1/api_keys/usage?key_id=${key.key_id}`, { token: bob });
    expect(usage.body.data.detail[0].type).toBe('err_tenant_apikey_not_found');
    const bobKeys = await call(server.app, 'GET', '/v1/api_keys/list', { token: bob });
    expect(bobKeys.body.data.keys.map((k: { key_id: string }) => k.key_id)).not.toContain(key.key_id);
    // Alice's key spends Alice's credits and sees Alice's tasks only.
    const started = await tts(secret_key, '这是爱丽丝的异步任务。', { mode: 'task' });
    const taskId = started.json().data.task_id;
    const bobKey = await createKey(bob);
    const other = await publicCall('GET', `/api/v1/tts/task?task_id=${taskId}`, bobKey.secret_key);
    expect(other.statusCode).toBe(404);
    const own = await publicCall('GET', `/api/v1/tts/task?task_id=${taskId}`, secret_key);
    expect(own.statusCode).toBe(200);
    const renamed = await call(server.app, 'POST', '/v1/api_keys/rename', {
      token: alice,
      body: { key_id: key.key_id, name: '新名字' },
    });
    expect(renamed.body.data.key.name).toBe('新名字');
  });
});

describe('public text to speech', () => {
  it('streams audio, charges the same credits as the workbench, and records the key on the ledger', async () => {
    const { key, secret_key } = await createKey(alice);
    const text = '公开接口合成一句话。';
    const res = await tts(secret_key, text);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.rawPayload.length).toBeGreaterThan(1000);
    const price = await priceTask(server.ctx, 'tts', { characters: Number(res.headers['x-characters']) });
    expect(Number(res.headers['x-credits'])).toBe(price);
    expect(res.headers['ratelimit-limit']).toBe('5000');

    const holds = await server.ctx.db
      .selectFrom('credit_holds')
      .selectAll()
      .where('api_key_id', '=', key.key_id)
      .execute();
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatchObject({ status: 'captured', captured: price });
    const ledger = await server.ctx.db
      .selectFrom('credit_ledger')
      .selectAll()
      .where('hold_id', '=', holds[0].id)
      .execute();
    expect(ledger.length).toBeGreaterThan(0);
    expect(ledger.every((l) => l.api_key_id === key.key_id)).toBe(true);

    // The same text again is a cache hit: free, and still counted as a request.
    const again = await tts(secret_key, text);
    expect(again.headers['x-cache-hit']).toBe('1');
    const usage = await call(server.app, 'GET', `/v1/api_keys/usage?key_id=${key.key_id}&days=7`, {
      token: alice,
    });
    expect(usage.body.data.totals).toMatchObject({ requests: 2, credits: price });
    const listed = (await call(server.app, 'GET', '/v1/api_keys/list', { token: alice })).body.data.keys.find(
      (k: { key_id: string }) => k.key_id === key.key_id,
    );
    expect(listed).toMatchObject({ credits_used: price, requests: 2 });
    expect(listed.last_used_time).not.toBeNull();
    const pub = await publicCall('GET', '/api/v1/usage?days=7', secret_key);
    expect(pub.json().data.keys.find((k: { key_id: string }) => k.key_id === key.key_id).credits_used).toBe(
      price,
    );
  });

  it('answers voices, models (OpenAI list shape) and bad input with the contract error', async () => {
    const { secret_key } = await createKey(alice);
    const voices = await publicCall('GET', '/api/v1/voices', secret_key);
    expect(voices.json().data.voices.length).toBeGreaterThan(3);
    const models = await publicCall('GET', '/api/v1/models', secret_key);
    expect(models.json().object).toBe('list');
    expect(models.json().data[0]).toMatchObject({ id: 'espeak-standard', object: 'model' });
    const bad = await publicCall('POST', '/api/v1/tts', secret_key, { voice_id: 'espeak-zh-xiaowen' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().data.detail[0].type).toBe('value_error.missing');
  });

  it('enforces a key credit limit under concurrent calls', async () => {
    // A plan with room for 16 requests at once, so only the key's limit can refuse.
    const dave = await signIn(server.app, '13900000004');
    await fund(server, dave.user_info.uid, 100_000);
    await grantMembership(server.ctx, { userId: dave.user_info.uid, level: 400, isAnnual: false, months: 1 });
    const texts = Array.from({ length: 8 }, (_, i) => `并发额度测试第${i}句话，内容各不相同。`);
    const price = await priceTask(server.ctx, 'tts', { characters: texts[0].length });
    const { key, secret_key } = await createKey(dave.secure_tokens.access_token, { credit_limit: price * 3 });
    const results = await Promise.all(texts.map((t) => tts(secret_key, t, { mode: 'task' })));
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 402);
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r.json().data.detail[0].type).toBe('err_apikey_credit_limit');
    const balance = await publicCall('GET', '/api/v1/balance', secret_key);
    expect(balance.json().data.key).toMatchObject({ credits_used: price * 3, credits_remaining: 0 });
    const held = await server.ctx.db
      .selectFrom('credit_holds')
      .selectAll()
      .where('api_key_id', '=', key.key_id)
      .execute();
    expect(held.reduce((s, h) => s + h.amount, 0)).toBe(price * 3);
  });

  it('limits concurrent requests by plan with 429', async () => {
    const carol = await signIn(server.app, '13900000003');
    await fund(server, carol.user_info.uid, 100_000);
    const { secret_key } = await createKey(carol.secure_tokens.access_token);
    // Free plan: 2 at once.
    const texts = Array.from({ length: 6 }, (_, i) => `并发数测试第${i}句话，请合成出来。`.repeat(4));
    const results = await Promise.all(texts.map((t) => tts(secret_key, t)));
    const limited = results.filter((r) => r.statusCode === 429);
    expect(results.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(2);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].json()).toMatchObject({ code: 429 });
    expect(limited[0].json().data.detail[0].type).toBe('err_concurrency_limit');
    expect(limited[0].headers['retry-after']).toBe('1');
    // Slots are given back: one at a time always gets through.
    expect((await tts(secret_key, texts[0])).statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  it('answers 429 with the standard headers after the per-key limit, per account too', async () => {
    const limited = await createTestServer({ PUBLIC_API_KEY_RPM: '3', PUBLIC_API_ACCOUNT_RPM: '5' });
    try {
      const u = await signIn(limited.app, '13900000009');
      const mk = async () =>
        (
          await call(limited.app, 'POST', '/v1/api_keys/create', {
            token: u.secure_tokens.access_token,
            body: { name: 'k' },
          })
        ).body.data.secret_key as string;
      const [k1, k2] = [await mk(), await mk()];
      const get = (k: string) =>
        limited.app.inject({ method: 'GET', url: '/api/v1/voices', headers: { 'x-api-key': k } });
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await get(k1));
      expect(seen.map((r) => r.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
      const over = await get(k1);
      expect(over.statusCode).toBe(429);
      expect(over.json()).toMatchObject({ code: 429 });
      expect(over.headers['ratelimit-limit']).toBe('3');
      expect(over.headers['ratelimit-remaining']).toBe('0');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      // The other key has its own window, until the account's (5) is used up.
      expect((await get(k2)).statusCode).toBe(200);
      const acct = await get(k2);
      expect(acct.statusCode).toBe(429);
      expect(acct.headers['ratelimit-limit']).toBe('5');
      limited.clock.advance(60_001);
      expect((await get(k1)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('OpenAI-compatible speech', () => {
  it('works with the official openai client as the caller', async () => {
    const { key, secret_key } = await createKey(alice);
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const client = new OpenAI({
      apiKey: secret_key,
      baseURL: `http://127.0.0.1:${port}/api/v1`,
      maxRetries: 0,
    });
    const speech = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'espeak-zh-xiaowen',
      input: '你好，这是 OpenAI 客户端。',
    });
    const bytes = Buffer.from(await speech.arrayBuffer());
    expect(speech.headers.get('content-type')).toBe('audio/mpeg');
    expect(bytes.length).toBeGreaterThan(1000);
    // An OpenAI voice name speaks with our default voice; wav works too.
    const wav = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: '第二句。',
      response_format: 'wav',
    });
    expect(
      Buffer.from(await wav.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF');
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('espeak-standard');
    await expect(
      client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x', response_format: 'opus' }),
    ).rejects.toMatchObject({ status: 400 });

    await call(server.app, 'POST', '/v1/api_keys/revoke', { token: alice, body: { key_id: key.key_id } });
    const err = await client.audio.speech
      .create({ model: 'tts-1', voice: 'alloy', input: '撤销之后' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((err as InstanceType<typeof OpenAI.AuthenticationError>).message).toContain('API 密钥已撤销');
  });
});

describe('webhooks', () => {
  let receiver: Server;
  let url: string;
  const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  let failuresLeft = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        if (failuresLeft > 0) {
          failuresLeft--;
          res.statusCode = 500;
        }
        res.end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  async function deliveries(endpointId: string) {
    return server.ctx.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('created_at')
      .execute();
  }

  it('accepts only HTTPS (or loopback outside production)', async () => {
    for (const bad of ['http://example.com/hook', 'ftp://x/y', 'not a url']) {
      const res = await call(server.app, 'POST', '/v1/webhooks/create', { token: alice, body: { url: bad } });
      expect(res.body.data.detail[0].type).toBe('err_webhook_url_invalid');
    }
    // In production a literal address that is not public is refused when registered.
    for (const bad of ['https://169.254.169.254/x', 'https://[fd00::1]/x', 'https://[::ffff:7f00:1]/x']) {
      expect(() => checkWebhookUrl(bad, true), bad).toThrow(AppError);
      expect(checkWebhookUrl(bad, false)).toBe(bad);
    }
    const ok = await call(server.app, 'POST', '/v1/webhooks/create', {
      token: alice,
      body: { url: 'https://hooks.example.com/x' },
    });
    expect(ok.body.code).toBe(0);
    await call(server.app, 'POST', '/v1/webhooks/delete', {
      token: alice,
      body: { endpoint_id: ok.body.data.endpoint.endpoint_id },
    });
  });

  it('signs task events verifiably, retries with backoff and stops after success', async () => {
    const created = await call(server.app, 'POST', '/v1/webhooks/create', { token: alice, body: { url } });
    const { endpoint, secret } = created.body.data;
    expect(secret).toMatch(/^whsec_/);
    const { secret_key } = await createKey(alice);
    const started = await tts(secret_key, '异步任务完成后应收到签名的回调。', { mode: 'task' });
    const { history_id, task_id } = started.json().data;
    await runSynthesisTask(server.ctx, history_id);
    const [d] = await deliveries(endpoint.endpoint_id);
    expect(d).toMatchObject({ event: 'task.succeeded', status: 'pending', attempts: 0 });

    failuresLeft = 2;
    received.length = 0;
    expect(await attemptDelivery(server.ctx, d.id)).toBe('pending');
    let row = (await deliveries(endpoint.endpoint_id))[0];
    expect(row.next_attempt_at! - server.clock.now()).toBe(1000);
    expect(await attemptDelivery(server.ctx, d.id)).toBe('pending');
    row = (await deliveries(endpoint.endpoint_id))[0];
    expect(row.next_attempt_at! - server.clock.now()).toBe(2000);
    expect(row.last_status_code).toBe(500);
    expect(await attemptDelivery(server.ctx, d.id)).toBe('succeeded');
    // Done: a further run (e.g. a duplicate job) sends nothing.
    expect(await attemptDelivery(server.ctx, d.id)).toBe('succeeded');
    expect(received).toHaveLength(3);
    // Retries are queued as delayed jobs, each attempt once.
    const jobs = await server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'webhooks.deliver')
      .execute();
    expect(jobs.filter((j) => JSON.parse(j.payload).delivery_id === d.id)).toHaveLength(3);

    // What a receiver does: recompute the HMAC over "<t>.<raw body>" with its secret.
    const last = received[2];
    const sig = String(last.headers['x-vw-signature']);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(sig)!;
    expect(createHmac('sha256', secret).update(`${t}.${last.body}`).digest('hex')).toBe(v1);
    expect(createHmac('sha256', 'whsec_wrong').update(`${t}.${last.body}`).digest('hex')).not.toBe(v1);
    const payload = JSON.parse(last.body);
    expect(payload).toMatchObject({
      event: 'task.succeeded',
      data: { task_id, history_id, status: 'succeeded' },
    });
    expect(last.headers['x-vw-event']).toBe('task.succeeded');

    const list = await call(server.app, 'GET', '/v1/webhooks/list', { token: alice });
    expect(list.body.data.endpoints[0]).toMatchObject({
      last_status: 'succeeded',
      last_status_code: 200,
      consecutive_failures: 0,
    });
    const ping = await call(server.app, 'POST', '/v1/webhooks/test', {
      token: alice,
      body: { endpoint_id: endpoint.endpoint_id },
    });
    expect(ping.body.data).toMatchObject({ delivered: true, status_code: 200 });
    // Bob cannot see or test Alice's endpoint.
    const foreign = await call(server.app, 'POST', '/v1/webhooks/test', {
      token: bob,
      body: { endpoint_id: endpoint.endpoint_id },
    });
    expect(foreign.body.data.detail[0].type).toBe('err_not_found');
    await call(server.app, 'POST', '/v1/webhooks/delete', {
      token: alice,
      body: { endpoint_id: endpoint.endpoint_id },
    });
  });

  it('disables an endpoint after repeated failed deliveries', async () => {
    const created = await call(server.app, 'POST', '/v1/webhooks/create', { token: alice, body: { url } });
    const { endpoint } = created.body.data;
    const { secret_key } = await createKey(alice);
    failuresLeft = 100;
    for (const text of ['第一个会失败的任务。', '第二个会失败的任务。']) {
      const { history_id } = (await tts(secret_key, text, { mode: 'task' })).json().data;
      await runSynthesisTask(server.ctx, history_id);
    }
    const ds = await deliveries(endpoint.endpoint_id);
    expect(ds).toHaveLength(2);
    for (const d of ds) for (let i = 0; i < 3; i++) await attemptDelivery(server.ctx, d.id);
    const after = await deliveries(endpoint.endpoint_id);
    expect(after.map((d) => [d.status, d.attempts])).toEqual([
      ['failed', 3],
      ['failed', 3],
    ]);
    let view = (await call(server.app, 'GET', '/v1/webhooks/list', { token: alice })).body.data.endpoints[0];
    expect(view).toMatchObject({ status: 'disabled', last_status: 'failed', consecutive_failures: 2 });
    const enabled = await call(server.app, 'POST', '/v1/webhooks/enable', {
      token: alice,
      body: { endpoint_id: endpoint.endpoint_id },
    });
    view = enabled.body.data.endpoint;
    expect(view).toMatchObject({ status: 'active', consecutive_failures: 0 });
    failuresLeft = 0;
  });

  describe('delivery log', () => {
    async function addEndpoint(token = alice) {
      const res = await call(server.app, 'POST', '/v1/webhooks/create', { token, body: { url } });
      expect(res.body.code).toBe(0);
      return res.body.data as { endpoint: { endpoint_id: string }; secret: string };
    }
    const ping = (endpointId: string) =>
      call(server.app, 'POST', '/v1/webhooks/test', { token: alice, body: { endpoint_id: endpointId } });
    const listDeliveries = (endpointId: string, paging = '', token = alice) =>
      call(server.app, 'GET', `/v1/webhooks/deliveries?endpoint_id=${endpointId}${paging}`, { token });
    const redeliver = (deliveryId: string, token = alice) =>
      call(server.app, 'POST', '/v1/webhooks/redeliver', { token, body: { delivery_id: deliveryId } });

    it('lists the owner’s deliveries newest first, paged, with the payload that was sent', async () => {
      const { endpoint } = await addEndpoint();
      received.length = 0;
      const sent: string[] = [];
      for (let i = 0; i < 3; i++) {
        server.clock.advance(1000);
        sent.push((await ping(endpoint.endpoint_id)).body.data.delivery.delivery_id);
      }
      const first = await listDeliveries(endpoint.endpoint_id, '&page=1&page_size=2');
      expect(first.body.data.total).toBe(3);
      expect(first.body.data.list.map((d: { delivery_id: string }) => d.delivery_id)).toEqual([
        sent[2],
        sent[1],
      ]);
      const second = await listDeliveries(endpoint.endpoint_id, '&page=2&page_size=2');
      expect(second.body.data.list.map((d: { delivery_id: string }) => d.delivery_id)).toEqual([sent[0]]);
      const newest = first.body.data.list[0];
      expect(newest).toMatchObject({
        endpoint_id: endpoint.endpoint_id,
        event: 'ping',
        status: 'succeeded',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        next_attempt_time: null,
        created_time: Math.floor(server.clock.now() / 1000),
      });
      // The payload is the body the receiver got, byte for byte.
      expect(newest.payload).toBe(received[2].body);
      expect(JSON.parse(newest.payload)).toMatchObject({
        id: newest.delivery_id,
        event: 'ping',
        data: { endpoint_id: endpoint.endpoint_id },
      });

      const missing = await call(server.app, 'GET', '/v1/webhooks/deliveries', { token: alice });
      expect(missing.body.code).toBe(422);
      expect(missing.body.data.detail[0].type).toBe('value_error.missing');
      const tooBig = await listDeliveries(endpoint.endpoint_id, '&page_size=101');
      expect(tooBig.body.code).toBe(422);
    });

    it('shows and redelivers only the owner’s deliveries', async () => {
      const { endpoint } = await addEndpoint();
      const { delivery } = (await ping(endpoint.endpoint_id)).body.data;
      const foreignList = await listDeliveries(endpoint.endpoint_id, '', bob);
      expect(foreignList.body.data.detail[0].type).toBe('err_not_found');
      const foreignRedeliver = await redeliver(delivery.delivery_id, bob);
      expect(foreignRedeliver.body.data.detail[0].type).toBe('err_not_found');
      expect((await redeliver('whd_nothing')).body.data.detail[0].type).toBe('err_not_found');
      expect((await listDeliveries(endpoint.endpoint_id)).body.data.total).toBe(1);
    });

    it('redelivers an event now as a new delivery, freshly signed, with the same event and data', async () => {
      const { endpoint, secret } = await addEndpoint();
      const { secret_key } = await createKey(alice);
      const { history_id, task_id } = (
        await tts(secret_key, '投递失败后由用户重新投递。', { mode: 'task' })
      ).json().data;
      await runSynthesisTask(server.ctx, history_id);
      const [original] = await deliveries(endpoint.endpoint_id);
      failuresLeft = 100;
      for (let i = 0; i < 3; i++) await attemptDelivery(server.ctx, original.id);
      failuresLeft = 0;
      received.length = 0;
      server.clock.advance(60_000);

      const res = await redeliver(original.id);
      expect(res.body.data).toMatchObject({ delivered: true, status_code: 200, error: null });
      const again = res.body.data.delivery;
      expect(again.delivery_id).not.toBe(original.id);
      expect(again).toMatchObject({ event: 'task.succeeded', status: 'succeeded', attempts: 1 });
      expect(res.body.data.endpoint.last_status).toBe('succeeded');

      // The receiver verifies it like any delivery: signed now, over the new body, with the secret.
      expect(received).toHaveLength(1);
      const { headers, body } = received[0];
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(headers['x-vw-signature']))!;
      expect(Number(t)).toBe(Math.floor(server.clock.now() / 1000));
      expect(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')).toBe(v1);
      expect(headers['x-vw-delivery']).toBe(again.delivery_id);
      expect(headers['x-vw-event']).toBe('task.succeeded');
      const sentPayload = JSON.parse(body);
      expect(sentPayload.id).toBe(again.delivery_id);
      expect(sentPayload.data).toEqual(JSON.parse(original.payload).data);
      expect(sentPayload.data).toMatchObject({ task_id, history_id });

      // Both are in the log, the redelivery first; the original keeps its outcome.
      const log = (await listDeliveries(endpoint.endpoint_id)).body.data;
      expect(log.list.map((d: { delivery_id: string; status: string }) => [d.delivery_id, d.status])).toEqual(
        [
          [again.delivery_id, 'succeeded'],
          [original.id, 'failed'],
        ],
      );
      expect(log.list[1].attempts).toBe(3);
    });

    it('refuses to redeliver to a disabled endpoint', async () => {
      const { endpoint } = await addEndpoint();
      const { delivery } = (await ping(endpoint.endpoint_id)).body.data;
      await server.ctx.db
        .updateTable('webhook_endpoints')
        .set({ status: 'disabled', disabled_at: server.clock.now() })
        .where('id', '=', endpoint.endpoint_id)
        .execute();
      received.length = 0;
      const res = await redeliver(delivery.delivery_id);
      expect(res.body.code).toBe(422);
      expect(res.body.data.detail[0].type).toBe('err_webhook_endpoint_disabled');
      expect(res.body.msg).toBe('该 Webhook 地址已停用，请先重新启用');
      expect(received).toHaveLength(0);
      expect((await listDeliveries(endpoint.endpoint_id)).body.data.total).toBe(1);
    });

    it('keeps the newest 200 deliveries per endpoint, and any still pending', async () => {
      const { endpoint } = await addEndpoint();
      const other = await addEndpoint();
      await ping(other.endpoint.endpoint_id);
      const base = server.clock.now() - 1_000_000;
      const row = (i: number, status: 'succeeded' | 'pending') => ({
        id: `whd_seed_${endpoint.endpoint_id}_${String(i).padStart(3, '0')}`,
        endpoint_id: endpoint.endpoint_id,
        user_id: aliceId,
        event: 'ping',
        payload: '{}',
        status,
        attempts: 1,
        next_attempt_at: status === 'pending' ? server.clock.now() : null,
        last_status_code: status === 'pending' ? 500 : 200,
        last_error: null,
        created_at: base + i * 1000,
        updated_at: base + i * 1000,
      });
      // The oldest is still being retried; then 200 finished ones.
      await server.ctx.db
        .insertInto('webhook_deliveries')
        .values([row(0, 'pending'), ...Array.from({ length: 200 }, (_, i) => row(i + 1, 'succeeded'))])
        .execute();

      const { delivery } = (await ping(endpoint.endpoint_id)).body.data;
      const kept = await deliveries(endpoint.endpoint_id);
      const ids = new Set(kept.map((d) => d.id));
      expect(kept).toHaveLength(201);
      expect(ids.has(delivery.delivery_id)).toBe(true);
      expect(ids.has(row(1, 'succeeded').id)).toBe(false); // the oldest finished one went
      expect(ids.has(row(2, 'succeeded').id)).toBe(true);
      expect(ids.has(row(0, 'pending').id)).toBe(true);
      expect((await listDeliveries(endpoint.endpoint_id)).body.data.total).toBe(201);
      // Another endpoint's log is its own.
      expect(await deliveries(other.endpoint.endpoint_id)).toHaveLength(1);
    });
  });
});

describe('public API documentation', () => {
  it('serves its own OpenAPI document and a docs page', async () => {
    const doc = (await server.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.paths['/api/v1/tts'].post.operationId).toBe('publicTts');
    expect(doc.paths['/api/v1/audio/speech'].post.operationId).toBe('openaiSpeech');
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKeyHeader', 'bearerKey']);
    expect(doc.paths['/api/v1/tts'].post.requestBody.content['application/json'].schema.required).toContain(
      'text',
    );
    // The client API's document does not list the public routes.
    const client = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(client.paths['/api/v1/tts']).toBeUndefined();
    expect(client.paths['/v1/api_keys/create'].post.operationId).toBe('apiKeyCreate');
    expect(client.paths['/v1/webhooks/deliveries'].get.operationId).toBe('webhookDeliveries');
    expect(client.paths['/v1/webhooks/redeliver'].post.operationId).toBe('webhookRedeliver');
    const page = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui-bundle.js');
  });
});

describe('webhooks through the job worker', () => {
  it('a task finished by the worker is delivered, retried after its delay and then left alone', async () => {
    const s = await createTestServer({ WEBHOOK_RETRY_BASE_MS: '5000', WEBHOOK_MAX_ATTEMPTS: '3' });
    const hits: string[] = [];
    let fail = 1;
    const rx = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        hits.push(body);
        res.statusCode = fail-- > 0 ? 503 : 204;
        res.end();
      });
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    try {
      const u = await signIn(s.app, '13900000010');
      const token = u.secure_tokens.access_token;
      await fund(s, u.user_info.uid, 10_000);
      const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;
      const hook = await call(s.app, 'POST', '/v1/webhooks/create', {
        token,
        body: { url, events: ['task.succeeded'] },
      });
      expect(hook.body.code).toBe(0);
      const key = (await call(s.app, 'POST', '/v1/api_keys/create', { token, body: { name: 'w' } })).body.data
        .secret_key;
      const started = await s.app.inject({
        method: 'POST',
        url: '/api/v1/tts',
        headers: { 'x-api-key': key },
        payload: { text: '由后台任务完成的合成。', voice_id: 'espeak-zh-xiaowen', mode: 'task' },
      });
      expect(started.statusCode).toBe(200);
      await s.ctx.jobs.startWorker({ concurrency: 2 });
      const until = async (check: () => boolean) => {
        for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
        expect(check()).toBe(true);
      };
      const deliveryJobs = () =>
        s.ctx.db.selectFrom('jobs').selectAll().where('name', '=', 'webhooks.deliver').execute();
      const settled = async (check: (jobs: Awaited<ReturnType<typeof deliveryJobs>>) => boolean) => {
        for (let i = 0; i < 200 && !check(await deliveryJobs()); i++)
          await new Promise((r) => setTimeout(r, 50));
        expect(check(await deliveryJobs())).toBe(true);
      };
      await until(() => hits.length === 1);
      // The retry waits for its delay on the server's clock: it is queued to run 5 s from now, and
      // the queue runs nothing before its time (db-queue.test.ts), so no second hit can come yet.
      await settled(
        (jobs) =>
          jobs.some((j) => j.status === 'queued' && j.run_at === s.clock.now() + 5_000) &&
          jobs.every((j) => j.status !== 'running'),
      );
      expect(hits).toHaveLength(1);
      s.clock.advance(5_000);
      await until(() => hits.length === 2);
      // Then it succeeds and nothing follows: no delivery job is left to run.
      await settled((jobs) => jobs.length === 2 && jobs.every((j) => j.status === 'succeeded'));
      expect(hits).toHaveLength(2);
      expect(JSON.parse(hits[1]).event).toBe('task.succeeded');
      const view = (await call(s.app, 'GET', '/v1/webhooks/list', { token })).body.data.endpoints[0];
      expect(view).toMatchObject({ last_status: 'succeeded', last_status_code: 204 });
    } finally {
      await new Promise<void>((r) => rx.close(() => r()));
      await s.close();
    }
  });
});
