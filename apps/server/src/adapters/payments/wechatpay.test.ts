import { execFileSync } from 'node:child_process';
import { createCipheriv, createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { NotifyRejected, ProviderError } from './payments.ts';
import {
  beijingRfc3339,
  createWechatPayProvider,
  loadWechatPayOptions,
  truncateUtf8,
  type WechatPayOptions,
} from './wechatpay.ts';

const pem = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

const APPID = 'wx8888888888888888';
const MCHID = '1900000109';
const MERCHANT_SERIAL = '3775B6A45ACD588826D15E583A95F5DD00000001';
const PLATFORM_SERIAL = '5157F09EFDC096DE15EBE81A47057A7232F1B8E1';
const PUB_KEY_ID = 'PUB_KEY_ID_0119000001092024112200000000001';
const APIV3_KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';

const merchant = pem();
const platform = pem();
const wechatPublicKey = pem();
const stranger = pem();
let dir: string;
let platformCert: string;

beforeAll(() => {
  // A self-signed platform certificate whose serial is the one WeChat Pay would send.
  dir = mkdtempSync(path.join(tmpdir(), 'wechatpay-test-'));
  writeFileSync(path.join(dir, 'platform-key.pem'), platform.privateKey);
  execFileSync('openssl', [
    'req',
    '-x509',
    '-new',
    '-key',
    path.join(dir, 'platform-key.pem'),
    '-subj',
    '/CN=Tenpay.com Root CA/O=Tenpay.com',
    '-days',
    '30',
    '-set_serial',
    `0x${PLATFORM_SERIAL}`,
    '-out',
    path.join(dir, 'platform-cert.pem'),
  ]);
  platformCert = readFileSync(path.join(dir, 'platform-cert.pem'), 'utf8');
  mkdirSync(path.join(dir, 'certs'));
  writeFileSync(path.join(dir, 'certs', 'wechatpay_5157F09E.pem'), platformCert);
  writeFileSync(path.join(dir, 'apiclient_key.pem'), merchant.privateKey);
  writeFileSync(path.join(dir, 'pub_key.pem'), wechatPublicKey.publicKey);
  writeFileSync(path.join(dir, 'not-a-key.pem'), 'hello');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = Date.parse('2026-11-22T08:00:00Z');
let nowMs = NOW;
const now = () => nowMs;
afterEach(() => {
  nowMs = NOW;
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

type Mode = 'certificate' | 'public-key';

function options(mode: Mode | 'both', baseUrl = 'http://127.0.0.1:9'): WechatPayOptions {
  return {
    appId: APPID,
    mchId: MCHID,
    merchantSerialNo: MERCHANT_SERIAL,
    merchantPrivateKey: merchant.privateKey,
    apiV3Key: APIV3_KEY,
    platformCertificates: mode === 'public-key' ? undefined : [platformCert],
    publicKey: mode === 'certificate' ? undefined : { id: PUB_KEY_ID, pem: wechatPublicKey.publicKey },
    baseUrl,
    now,
  };
}

/** What WeChat Pay signs with: the platform certificate's key or the WeChat Pay public key's. */
function signer(mode: Mode) {
  return mode === 'certificate'
    ? { serial: PLATFORM_SERIAL, key: platform.privateKey }
    : { serial: PUB_KEY_ID, key: wechatPublicKey.privateKey };
}

function wechatSign(key: string, timestamp: string, nonce: string, body: string) {
  return createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(key, 'base64');
}

function encryptResource(plain: object, key = APIV3_KEY, associatedData = 'transaction') {
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associatedData));
  const data = Buffer.concat([cipher.update(JSON.stringify(plain)), cipher.final(), cipher.getAuthTag()]);
  return {
    original_type: 'transaction',
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: data.toString('base64'),
    associated_data: associatedData,
    nonce,
  };
}

const paidTransaction = {
  mchid: MCHID,
  appid: APPID,
  out_trade_no: 'VW20261122000001',
  transaction_id: '4200002421202611227102519265',
  trade_type: 'NATIVE',
  trade_state: 'SUCCESS',
  trade_state_desc: '支付成功',
  bank_type: 'OTHERS',
  success_time: '2026-11-22T15:59:30+08:00',
  payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
  amount: { total: 2990, payer_total: 2990, currency: 'CNY', payer_currency: 'CNY' },
};

/** A callback as WeChat Pay would post it, signed at `now` unless told otherwise. */
function notification(
  mode: Mode,
  resource: object,
  overrides: {
    event?: string;
    apiV3Key?: string;
    timestamp?: number;
    serial?: string;
    signKey?: string;
  } = {},
) {
  const body = JSON.stringify({
    id: 'EV-2026112200000001',
    create_time: '2026-11-22T15:59:31+08:00',
    resource_type: 'encrypt-resource',
    event_type: overrides.event ?? 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: encryptResource(resource, overrides.apiV3Key),
  });
  const { serial, key } = signer(mode);
  const timestamp = String(Math.floor((overrides.timestamp ?? nowMs) / 1000));
  const nonce = randomBytes(16).toString('hex');
  return {
    headers: {
      'content-type': 'application/json',
      'wechatpay-timestamp': timestamp,
      'wechatpay-nonce': nonce,
      'wechatpay-serial': overrides.serial ?? serial,
      'wechatpay-signature': wechatSign(overrides.signKey ?? key, timestamp, nonce, body),
    },
    rawBody: Buffer.from(body),
  };
}

describe('WeChat Pay notify verification', () => {
  it.each(['certificate', 'public-key'] as const)(
    'accepts a genuine payment callback (%s mode)',
    async (mode) => {
      const provider = createWechatPayProvider(options(mode));
      const notice = await provider.verifyNotify(notification(mode, paidTransaction));
      expect(notice).toEqual({
        orderId: 'VW20261122000001',
        trade: {
          state: 'paid',
          transactionId: '4200002421202611227102519265',
          amountFen: 2990,
          paidAt: Date.parse('2026-11-22T07:59:30Z'),
        },
      });
    },
  );

  it('accepts both key kinds at once while WeChat Pay migrates a merchant', async () => {
    const provider = createWechatPayProvider(options('both'));
    for (const mode of ['certificate', 'public-key'] as const) {
      const notice = await provider.verifyNotify(notification(mode, paidTransaction));
      expect(notice.trade?.state).toBe('paid');
    }
  });

  it.each(['certificate', 'public-key'] as const)('rejects a tampered body (%s mode)', async (mode) => {
    const provider = createWechatPayProvider(options(mode));
    const genuine = notification(mode, paidTransaction);
    const tampered = {
      ...genuine,
      rawBody: Buffer.from(genuine.rawBody.toString().replace('支付成功', '支付失败')),
    };
    await expect(provider.verifyNotify(tampered)).rejects.toThrow(/signature does not match/);
    // Re-serialising the same JSON differently also breaks it: verification is over the raw bytes.
    const reformatted = {
      ...genuine,
      rawBody: Buffer.from(JSON.stringify(JSON.parse(genuine.rawBody.toString()), null, 1)),
    };
    await expect(provider.verifyNotify(reformatted)).rejects.toThrow(NotifyRejected);
  });

  it('rejects a timestamp more than 300 s away, in either direction', async () => {
    const provider = createWechatPayProvider(options('certificate'));
    await expect(
      provider.verifyNotify(notification('certificate', paidTransaction, { timestamp: NOW - 300_000 })),
    ).resolves.toMatchObject({ orderId: 'VW20261122000001' });
    for (const timestamp of [NOW - 301_000, NOW + 301_000]) {
      await expect(
        provider.verifyNotify(notification('certificate', paidTransaction, { timestamp })),
      ).rejects.toThrow(/300 s/);
    }
    // The same callback replayed ten minutes later is refused.
    const callback = notification('certificate', paidTransaction);
    nowMs = NOW + 600_000;
    await expect(provider.verifyNotify(callback)).rejects.toThrow(NotifyRejected);
  });

  it('rejects an unknown serial, and a known serial with somebody else’s signature', async () => {
    const certOnly = createWechatPayProvider(options('certificate'));
    await expect(
      certOnly.verifyNotify(notification('certificate', paidTransaction, { serial: '1234ABCD' })),
    ).rejects.toThrow(/unknown Wechatpay-Serial/);
    // Public-key callbacks mean nothing to a provider that only holds platform certificates.
    await expect(certOnly.verifyNotify(notification('public-key', paidTransaction))).rejects.toThrow(
      /unknown Wechatpay-Serial PUB_KEY_ID_/,
    );
    await expect(
      certOnly.verifyNotify(notification('certificate', paidTransaction, { signKey: stranger.privateKey })),
    ).rejects.toThrow(/signature does not match/);
  });

  it('rejects missing signature headers', async () => {
    const provider = createWechatPayProvider(options('certificate'));
    const callback = notification('certificate', paidTransaction);
    const { 'wechatpay-signature': _dropped, ...headers } = callback.headers;
    await expect(provider.verifyNotify({ ...callback, headers })).rejects.toThrow(/missing/);
  });

  it('rejects another merchant or another app', async () => {
    const provider = createWechatPayProvider(options('public-key'));
    await expect(
      provider.verifyNotify(notification('public-key', { ...paidTransaction, mchid: '1900000999' })),
    ).rejects.toThrow(/mchid 1900000999 is not ours/);
    await expect(
      provider.verifyNotify(notification('public-key', { ...paidTransaction, appid: 'wx0000000000000000' })),
    ).rejects.toThrow(/appid wx0000000000000000 is not ours/);
  });

  it('rejects a resource encrypted with another APIv3 key', async () => {
    const provider = createWechatPayProvider(options('certificate'));
    const callback = notification('certificate', paidTransaction, {
      apiV3Key: 'ffffffffffffffffffffffffffffffff',
    });
    await expect(provider.verifyNotify(callback)).rejects.toThrow(/decryption failed/);
  });

  it('reads refund callbacks as notices that change no payment', async () => {
    const provider = createWechatPayProvider(options('certificate'));
    const refund = {
      mchid: MCHID,
      out_trade_no: 'VW20261122000001',
      transaction_id: '4200002421202611227102519265',
      out_refund_no: 'RF20261122000001',
      refund_id: '50000000382019052709732678859',
      refund_status: 'SUCCESS',
      amount: { total: 2990, refund: 2990, payer_total: 2990, payer_refund: 2990 },
    };
    const notice = await provider.verifyNotify(
      notification('certificate', refund, { event: 'REFUND.SUCCESS' }),
    );
    expect(notice).toEqual({ orderId: 'VW20261122000001', trade: null });
  });

  it('replies the way WeChat Pay expects', () => {
    const provider = createWechatPayProvider(options('certificate'));
    expect(provider.ackReply()).toEqual({
      status: 200,
      contentType: 'application/json',
      body: '{"code":"SUCCESS"}',
    });
    const nack = provider.nackReply('bad signature');
    expect(nack.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(nack.body)).toEqual({ code: 'FAIL', message: 'bad signature' });
  });
});

interface Received {
  method: string;
  url: string;
  body: string;
}

/**
 * A local WeChat Pay: checks our Authorization header against the merchant public key the way
 * the real API does, then answers with what the test queued, signed with the platform key.
 */
async function fakeWechatPay(mode: Mode, signAnswers: 'genuine' | 'stranger' | 'none' = 'genuine') {
  const received: Received[] = [];
  const answers: Array<{ status: number; body?: object }> = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    received.push({ method: req.method!, url: req.url!, body });
    const auth = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(req.headers.authorization ?? '');
    const fields = Object.fromEntries(
      [...(auth?.[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    const message = `${req.method}\n${req.url}\n${fields.timestamp}\n${fields.nonce_str}\n${body}\n`;
    const valid =
      fields.mchid === MCHID &&
      fields.serial_no === MERCHANT_SERIAL &&
      Boolean(fields.signature) &&
      createVerify('RSA-SHA256').update(message).verify(merchant.publicKey, fields.signature, 'base64');
    if (!valid || !req.headers['user-agent']) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'SIGN_ERROR', message: '签名错误' }));
      return;
    }
    const answer = answers.shift() ?? { status: 500, body: { code: 'SYSTEM_ERROR', message: 'no answer' } };
    const text = answer.body ? JSON.stringify(answer.body) : '';
    const headers: Record<string, string> = { 'request-id': `req-${received.length}` };
    if (text) headers['content-type'] = 'application/json';
    if (answer.status < 300 && signAnswers !== 'none') {
      const { serial, key } = signer(mode);
      const timestamp = String(Math.floor(nowMs / 1000));
      const nonce = randomBytes(16).toString('hex');
      headers['wechatpay-timestamp'] = timestamp;
      headers['wechatpay-nonce'] = nonce;
      headers['wechatpay-serial'] = serial;
      headers['wechatpay-signature'] = wechatSign(
        signAnswers === 'genuine' ? key : stranger.privateKey,
        timestamp,
        nonce,
        text,
      );
    }
    res.writeHead(answer.status, headers);
    res.end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answer(status: number, body?: object) {
      answers.push({ status, body });
    },
  };
}

const order = {
  orderId: 'VW20261122000001',
  description: '声音工作台 专业版 月度会员',
  amountFen: 2990,
  expiresAt: NOW + 600_000,
  notifyUrl: 'https://voice.example.com/v1/pay/notify/wechatpay',
};

describe('WeChat Pay API calls', () => {
  it.each(['certificate', 'public-key'] as const)(
    'creates a Native order and returns its code_url (%s mode)',
    async (mode) => {
      const fake = await fakeWechatPay(mode);
      fake.answer(200, { code_url: 'weixin://wxpay/bizpayurl?pr=NwY5Mz9' });
      const provider = createWechatPayProvider(options(mode, fake.url));
      await expect(provider.createQr(order)).resolves.toEqual({
        codeUrl: 'weixin://wxpay/bizpayurl?pr=NwY5Mz9',
      });
      expect(fake.received[0].method).toBe('POST');
      expect(fake.received[0].url).toBe('/v3/pay/transactions/native');
      expect(JSON.parse(fake.received[0].body)).toEqual({
        appid: APPID,
        mchid: MCHID,
        description: '声音工作台 专业版 月度会员',
        out_trade_no: 'VW20261122000001',
        time_expire: '2026-11-22T16:10:00+08:00',
        notify_url: 'https://voice.example.com/v1/pay/notify/wechatpay',
        amount: { total: 2990, currency: 'CNY' },
      });
    },
  );

  it('keeps description and reason within WeChat Pay byte limits without splitting characters', () => {
    const long = '声'.repeat(50);
    expect(truncateUtf8(long, 127)).toBe('声'.repeat(42));
    expect(truncateUtf8('ab声', 4)).toBe('ab');
    expect(truncateUtf8('short', 127)).toBe('short');
  });

  it('formats time_expire as RFC 3339 in +08:00 across midnight', () => {
    expect(beijingRfc3339(Date.parse('2026-12-31T16:30:05.999Z'))).toBe('2027-01-01T00:30:05+08:00');
  });

  it('is refused when our request signature is wrong (the fake checks it like WeChat Pay)', async () => {
    const fake = await fakeWechatPay('certificate');
    const provider = createWechatPayProvider({
      ...options('certificate', fake.url),
      merchantPrivateKey: stranger.privateKey,
    });
    const error = await provider.createQr(order).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('SIGN_ERROR');
  });

  const base = { ...paidTransaction, trade_state_desc: '' };
  it.each([
    [
      'SUCCESS',
      {
        state: 'paid',
        transactionId: '4200002421202611227102519265',
        amountFen: 2990,
        paidAt: Date.parse('2026-11-22T07:59:30Z'),
      },
    ],
    [
      'REFUND',
      {
        state: 'paid',
        transactionId: '4200002421202611227102519265',
        amountFen: 2990,
        paidAt: Date.parse('2026-11-22T07:59:30Z'),
      },
    ],
    ['NOTPAY', { state: 'pending', paying: false }],
    ['USERPAYING', { state: 'pending', paying: true }],
    ['CLOSED', { state: 'closed' }],
    ['REVOKED', { state: 'closed' }],
    ['PAYERROR', { state: 'failed', reason: '银行返回失败' }],
  ])('maps trade_state %s', async (tradeState, expected) => {
    const fake = await fakeWechatPay('public-key');
    const paid = tradeState === 'SUCCESS' || tradeState === 'REFUND';
    fake.answer(200, {
      ...base,
      trade_state: tradeState,
      trade_state_desc: tradeState === 'PAYERROR' ? '银行返回失败' : '',
      transaction_id: paid ? base.transaction_id : undefined,
      success_time: paid ? base.success_time : undefined,
    });
    const provider = createWechatPayProvider(options('public-key', fake.url));
    await expect(provider.query('VW20261122000001')).resolves.toEqual(expected);
    expect(fake.received[0]).toMatchObject({
      method: 'GET',
      url: `/v3/pay/transactions/out-trade-no/VW20261122000001?mchid=${MCHID}`,
      body: '',
    });
  });

  it('reads an order WeChat Pay never saw as still pending, and other errors as ProviderError', async () => {
    const fake = await fakeWechatPay('certificate');
    fake.answer(404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    fake.answer(500, { code: 'SYSTEM_ERROR', message: '系统繁忙' });
    const provider = createWechatPayProvider(options('certificate', fake.url));
    await expect(provider.query('VW20261122000001')).resolves.toEqual({ state: 'pending', paying: false });
    const error = await provider.query('VW20261122000001').catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('SYSTEM_ERROR');
  });

  it('refuses answers that are unsigned, signed by someone else, or stale', async () => {
    for (const signing of ['none', 'stranger'] as const) {
      const fake = await fakeWechatPay('certificate', signing);
      fake.answer(200, { code_url: 'weixin://wxpay/bizpayurl?pr=forged' });
      const provider = createWechatPayProvider(options('certificate', fake.url));
      await expect(provider.createQr(order)).rejects.toThrow(/answer rejected/);
    }
    const fake = await fakeWechatPay('certificate');
    fake.answer(200, { ...paidTransaction });
    const provider = createWechatPayProvider(options('certificate', fake.url));
    // The fake signs with its clock; ours is ten minutes ahead.
    const realNow = nowMs;
    const skewed = createWechatPayProvider({
      ...options('certificate', fake.url),
      now: () => realNow + 600_000,
    });
    await expect(skewed.query('VW20261122000001')).rejects.toThrow(/300 s/);
    fake.answer(200, { ...paidTransaction });
    await expect(provider.query('VW20261122000001')).resolves.toMatchObject({ state: 'paid' });
  });

  it('refuses a query answer about another merchant’s trade', async () => {
    const fake = await fakeWechatPay('certificate');
    fake.answer(200, { ...paidTransaction, mchid: '1900000999' });
    const provider = createWechatPayProvider(options('certificate', fake.url));
    await expect(provider.query('VW20261122000001')).rejects.toThrow(ProviderError);
  });

  it('closes an order; closing a closed one succeeds; a paid one is an error', async () => {
    const fake = await fakeWechatPay('public-key');
    fake.answer(204);
    fake.answer(400, { code: 'ORDER_CLOSED', message: '订单已关闭' });
    fake.answer(400, { code: 'ORDERPAID', message: '订单已支付' });
    const provider = createWechatPayProvider(options('public-key', fake.url));
    await provider.close('VW20261122000001');
    await provider.close('VW20261122000001');
    const error = await provider.close('VW20261122000001').catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('ORDERPAID');
    expect(fake.received[0]).toMatchObject({
      method: 'POST',
      url: '/v3/pay/transactions/out-trade-no/VW20261122000001/close',
    });
    expect(JSON.parse(fake.received[0].body)).toEqual({ mchid: MCHID });
  });

  it('refunds by transaction with out_refund_no; failed refunds are errors', async () => {
    const fake = await fakeWechatPay('certificate');
    fake.answer(200, { refund_id: '50000000382019052709732678859', status: 'PROCESSING' });
    fake.answer(200, { refund_id: '50000000382019052709732678859', status: 'ABNORMAL' });
    fake.answer(403, { code: 'NOT_ENOUGH', message: '基本账户余额不足' });
    const provider = createWechatPayProvider(options('certificate', fake.url));
    const refund = {
      orderId: 'VW20261122000001',
      transactionId: '4200002421202611227102519265',
      refundId: 'RF20261122000001',
      amountFen: 2990,
      totalFen: 2990,
      reason: '重复支付退款',
    };
    await provider.refund(refund);
    expect(fake.received[0].url).toBe('/v3/refund/domestic/refunds');
    expect(JSON.parse(fake.received[0].body)).toEqual({
      transaction_id: '4200002421202611227102519265',
      out_refund_no: 'RF20261122000001',
      reason: '重复支付退款',
      amount: { refund: 2990, total: 2990, currency: 'CNY' },
    });
    await expect(provider.refund(refund)).rejects.toThrow(/ABNORMAL/);
    const error = await provider.refund(refund).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('NOT_ENOUGH');
  });

  it('answers ProviderError when WeChat Pay cannot be reached', async () => {
    const provider = createWechatPayProvider(options('certificate', 'http://127.0.0.1:9'));
    await expect(provider.createQr(order)).rejects.toThrow(ProviderError);
  });
});

describe('loadWechatPayOptions', () => {
  const env = (extra: Record<string, string>) =>
    loadConfig({
      PAYMENT_WECHAT_PROVIDER: 'wechatpay',
      WECHATPAY_APPID: APPID,
      WECHATPAY_MCHID: MCHID,
      WECHATPAY_MERCHANT_SERIAL_NO: MERCHANT_SERIAL,
      WECHATPAY_APIV3_KEY: APIV3_KEY,
      ...extra,
    });

  it('reads the key files and certificates, and the provider works with them', async () => {
    const certs = path.join(dir, 'certs');
    const loaded = loadWechatPayOptions(
      env({
        WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: path.join(dir, 'apiclient_key.pem'),
        WECHATPAY_PLATFORM_CERTS_DIR: certs,
        WECHATPAY_PUBLIC_KEY_FILE: path.join(dir, 'pub_key.pem'),
        WECHATPAY_PUBLIC_KEY_ID: PUB_KEY_ID,
      }),
    );
    expect(loaded).toMatchObject({ appId: APPID, mchId: MCHID, baseUrl: 'https://api.mch.weixin.qq.com' });
    expect(loaded.platformCertificates).toHaveLength(1);
    const provider = createWechatPayProvider({ ...loaded, now });
    for (const mode of ['certificate', 'public-key'] as const)
      await expect(provider.verifyNotify(notification(mode, paidTransaction))).resolves.toBeTruthy();
  });

  it('fails naming the variable when a file is missing or wrong', () => {
    expect(() =>
      loadWechatPayOptions(
        env({
          WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: path.join(dir, 'missing.pem'),
          WECHATPAY_PUBLIC_KEY_FILE: path.join(dir, 'pub_key.pem'),
          WECHATPAY_PUBLIC_KEY_ID: PUB_KEY_ID,
        }),
      ),
    ).toThrow(/WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: cannot read/);
    expect(() =>
      loadWechatPayOptions(
        env({
          WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: path.join(dir, 'not-a-key.pem'),
          WECHATPAY_PUBLIC_KEY_FILE: path.join(dir, 'pub_key.pem'),
          WECHATPAY_PUBLIC_KEY_ID: PUB_KEY_ID,
        }),
      ),
    ).toThrow(/WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: .* is not a PEM private key/);
    const empty = path.join(dir, 'empty-certs');
    mkdirSync(empty, { recursive: true });
    expect(() =>
      loadWechatPayOptions(
        env({
          WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: path.join(dir, 'apiclient_key.pem'),
          WECHATPAY_PLATFORM_CERTS_DIR: empty,
        }),
      ),
    ).toThrow(/WECHATPAY_PLATFORM_CERTS_DIR: .* holds no/);
  });

  it('is refused by the config without a way to verify callbacks', () => {
    expect(() => env({ WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: 'k.pem' })).toThrow(/WECHATPAY_PUBLIC_KEY_FILE/);
    expect(() =>
      env({
        WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: 'k.pem',
        WECHATPAY_PUBLIC_KEY_FILE: 'p.pem',
        WECHATPAY_PUBLIC_KEY_ID: '0119000001',
      }),
    ).toThrow(/WECHATPAY_PUBLIC_KEY_ID: must start with PUB_KEY_ID_/);
  });
});
