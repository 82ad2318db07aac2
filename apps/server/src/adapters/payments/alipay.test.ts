import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import {
  type AlipayOptions,
  beijingDateTime,
  createAlipayProvider,
  fenToYuan,
  loadAlipayOptions,
  yuanToFen,
} from './alipay.ts';
import { NotifyRejected, ProviderError } from './payments.ts';

const keyPair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

const APP_ID = '2021000148600001';
const SELLER_ID = '2088721000000001';
const app = keyPair();
const alipay = keyPair();
const stranger = keyPair();

const NOW = Date.parse('2026-11-22T08:00:00Z');
const now = () => NOW;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});
const dir = mkdtempSync(path.join(tmpdir(), 'alipay-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function options(
  gateway = 'http://127.0.0.1:9/gateway.do',
  extra: Partial<AlipayOptions> = {},
): AlipayOptions {
  return {
    appId: APP_ID,
    privateKey: app.privateKey,
    alipayPublicKey: alipay.publicKey,
    sellerId: SELLER_ID,
    gateway,
    now,
    ...extra,
  };
}

/** Alipay's RSA2 content: `k=v` pairs sorted by key, joined by `&`, values as they are. */
function signContent(params: Record<string, string>) {
  return Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

interface Call {
  params: Record<string, string>;
  biz: Record<string, unknown>;
}

/**
 * A local Alipay gateway: verifies our RSA2 request signature with the application public key, then
 * answers what the test queued as `{<method>_response: …, sign}` signed with the Alipay key.
 */
async function fakeAlipay(signWith: string = alipay.privateKey) {
  const calls: Call[] = [];
  const answers: object[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const url = new URL(req.url!, 'http://gateway');
    const params = {
      ...Object.fromEntries(url.searchParams),
      ...Object.fromEntries(new URLSearchParams(body)),
    };
    const { sign, ...unsigned } = params;
    const responseKey = `${(params.method ?? 'error').replaceAll('.', '_')}_response`;
    const valid =
      url.pathname === '/gateway.do' &&
      params.app_id === APP_ID &&
      params.sign_type === 'RSA2' &&
      Boolean(sign) &&
      createVerify('RSA-SHA256').update(signContent(unsigned)).verify(app.publicKey, sign, 'base64');
    calls.push({ params, biz: params.biz_content ? JSON.parse(params.biz_content) : {} });
    const payload = valid
      ? (answers.shift() ?? {
          code: '20000',
          msg: 'Service Currently Unavailable',
          sub_code: 'isp.unknow-error',
        })
      : { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' };
    const inner = JSON.stringify(payload);
    const signature = createSign('RSA-SHA256').update(inner).sign(signWith, 'base64');
    res.writeHead(200, { 'content-type': 'text/html;charset=utf-8' });
    res.end(`{"${responseKey}":${inner},"sign":"${signature}"}`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`,
    calls,
    answer(payload: object) {
      answers.push(payload);
    },
  };
}

const order = {
  orderId: 'VW20261122000002',
  description: '声音工作台 基础版 月度会员',
  amountFen: 1990,
  expiresAt: NOW + 600_000,
  notifyUrl: 'https://voice.example.com/v1/pay/notify/alipay',
};
const ok = { code: '10000', msg: 'Success' };

describe('Alipay API calls', () => {
  it('precreates a trade with notify_url and expiry and returns the qr_code', async () => {
    const fake = await fakeAlipay();
    fake.answer({ ...ok, out_trade_no: order.orderId, qr_code: 'https://qr.alipay.com/bax08431ktcm' });
    const provider = createAlipayProvider(options(fake.url));
    await expect(provider.createQr(order)).resolves.toEqual({
      codeUrl: 'https://qr.alipay.com/bax08431ktcm',
    });
    const [call] = fake.calls;
    expect(call.params).toMatchObject({
      method: 'alipay.trade.precreate',
      app_id: APP_ID,
      charset: 'utf-8',
      version: '1.0',
      notify_url: 'https://voice.example.com/v1/pay/notify/alipay',
      // Our clock, Beijing time.
      timestamp: '2026-11-22 16:00:00',
    });
    expect(call.biz).toEqual({
      out_trade_no: 'VW20261122000002',
      total_amount: '19.90',
      subject: '声音工作台 基础版 月度会员',
      time_expire: '2026-11-22 16:10:00',
      timeout_express: '10m',
    });
  });

  it('is refused when our request signature is wrong (the fake checks it like Alipay)', async () => {
    const fake = await fakeAlipay();
    const provider = createAlipayProvider(options(fake.url, { privateKey: stranger.privateKey }));
    const error = await provider.createQr(order).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('isv.invalid-signature');
  });

  it('refuses an answer not signed by Alipay', async () => {
    const fake = await fakeAlipay(stranger.privateKey);
    fake.answer({ ...ok, out_trade_no: order.orderId, qr_code: 'https://qr.alipay.com/forged' });
    const provider = createAlipayProvider(options(fake.url));
    await expect(provider.createQr(order)).rejects.toThrow(ProviderError);
  });

  it.each([
    ['WAIT_BUYER_PAY', { state: 'pending', paying: true }],
    [
      'TRADE_SUCCESS',
      {
        state: 'paid',
        transactionId: '2026112222001446881400000001',
        amountFen: 1990,
        paidAt: Date.parse('2026-11-22T08:01:02Z'),
      },
    ],
    [
      'TRADE_FINISHED',
      {
        state: 'paid',
        transactionId: '2026112222001446881400000001',
        amountFen: 1990,
        paidAt: Date.parse('2026-11-22T08:01:02Z'),
      },
    ],
    ['TRADE_CLOSED', { state: 'closed' }],
  ])('maps trade_status %s', async (status, expected) => {
    const fake = await fakeAlipay();
    fake.answer({
      ...ok,
      out_trade_no: order.orderId,
      trade_no: '2026112222001446881400000001',
      trade_status: status,
      total_amount: '19.90',
      send_pay_date: '2026-11-22 16:01:02',
    });
    const provider = createAlipayProvider(options(fake.url));
    await expect(provider.query(order.orderId)).resolves.toEqual(expected);
    expect(fake.calls[0].params.method).toBe('alipay.trade.query');
    expect(fake.calls[0].biz).toEqual({ out_trade_no: order.orderId });
  });

  it('reads a trade nobody has scanned yet as pending; other errors are ProviderError', async () => {
    const fake = await fakeAlipay();
    fake.answer({
      code: '40004',
      msg: 'Business Failed',
      sub_code: 'ACQ.TRADE_NOT_EXIST',
      sub_msg: '交易不存在',
    });
    fake.answer({ code: '20000', msg: 'Service Currently Unavailable', sub_code: 'ACQ.SYSTEM_ERROR' });
    const provider = createAlipayProvider(options(fake.url));
    await expect(provider.query(order.orderId)).resolves.toEqual({ state: 'pending', paying: false });
    const error = await provider.query(order.orderId).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('ACQ.SYSTEM_ERROR');
  });

  it('closes a trade; a trade that does not exist counts as closed; a paid one is an error', async () => {
    const fake = await fakeAlipay();
    fake.answer({ ...ok, out_trade_no: order.orderId });
    fake.answer({
      code: '40004',
      msg: 'Business Failed',
      sub_code: 'ACQ.TRADE_NOT_EXIST',
      sub_msg: '交易不存在',
    });
    fake.answer({
      code: '40004',
      msg: 'Business Failed',
      sub_code: 'ACQ.TRADE_STATUS_ERROR',
      sub_msg: '交易状态不合法',
    });
    const provider = createAlipayProvider(options(fake.url));
    await provider.close(order.orderId);
    await provider.close(order.orderId);
    const error = await provider.close(order.orderId).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('ACQ.TRADE_STATUS_ERROR');
    expect(fake.calls[0].params.method).toBe('alipay.trade.close');
    expect(fake.calls[0].biz).toEqual({ out_trade_no: order.orderId });
  });

  it('refunds with out_request_no; a refused refund is an error', async () => {
    const fake = await fakeAlipay();
    fake.answer({ ...ok, out_trade_no: order.orderId, fund_change: 'Y', refund_fee: '19.90' });
    fake.answer({ code: '40004', msg: 'Business Failed', sub_code: 'ACQ.SELLER_BALANCE_NOT_ENOUGH' });
    const provider = createAlipayProvider(options(fake.url));
    const refund = {
      orderId: order.orderId,
      transactionId: '2026112222001446881400000001',
      refundId: 'RF20261122000002',
      amountFen: 1990,
      totalFen: 1990,
      reason: '重复支付退款',
    };
    await provider.refund(refund);
    expect(fake.calls[0].params.method).toBe('alipay.trade.refund');
    expect(fake.calls[0].biz).toEqual({
      out_trade_no: order.orderId,
      trade_no: '2026112222001446881400000001',
      refund_amount: '19.90',
      out_request_no: 'RF20261122000002',
      refund_reason: '重复支付退款',
    });
    const error = await provider.refund(refund).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.providerCode).toBe('ACQ.SELLER_BALANCE_NOT_ENOUGH');
  });

  it('answers ProviderError when Alipay cannot be reached', async () => {
    const provider = createAlipayProvider(options('http://127.0.0.1:9/gateway.do'));
    await expect(provider.query(order.orderId)).rejects.toThrow(ProviderError);
  });

  it('accepts keys as the Alipay key tool prints them (bare base64, PKCS#1)', async () => {
    const bare = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const pkcs1 = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    const fake = await fakeAlipay();
    fake.answer({ ...ok, out_trade_no: order.orderId, qr_code: 'https://qr.alipay.com/bax1' });
    const provider = createAlipayProvider(
      options(fake.url, { privateKey: bare(app.privateKey), alipayPublicKey: bare(alipay.publicKey) }),
    );
    await expect(provider.createQr(order)).resolves.toEqual({ codeUrl: 'https://qr.alipay.com/bax1' });
    // A PKCS#1 key signs too (the fake then rejects it: it is not the registered application key).
    const other = createAlipayProvider(options(fake.url, { privateKey: bare(pkcs1.privateKey) }));
    await expect(other.createQr(order)).rejects.toThrow(/invalid-signature/);
  });

  it('converts amounts without floating point', () => {
    expect(fenToYuan(1)).toBe('0.01');
    expect(fenToYuan(1990)).toBe('19.90');
    expect(fenToYuan(123456789)).toBe('1234567.89');
    expect(yuanToFen('19.9')).toBe(1990);
    expect(yuanToFen('0.07')).toBe(7);
    expect(yuanToFen('100')).toBe(10000);
    expect(yuanToFen('1.005')).toBeNull();
    expect(yuanToFen('-1')).toBeNull();
    expect(beijingDateTime(Date.parse('2026-12-31T16:30:05Z'))).toBe('2027-01-01 00:30:05');
  });
});

/** An asynchronous notification as Alipay posts it: RSA2 over the sorted params without sign and sign_type. */
function notification(params: Record<string, string>, key = alipay.privateKey) {
  const sign = createSign('RSA-SHA256').update(signContent(params)).sign(key, 'base64');
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    rawBody: Buffer.from(new URLSearchParams({ ...params, sign, sign_type: 'RSA2' }).toString()),
  };
}

const paid = {
  notify_time: '2026-11-22 16:01:03',
  notify_type: 'trade_status_sync',
  notify_id: 'ac05099524730693a8b330c5ecf72da9786',
  charset: 'utf-8',
  version: '1.0',
  auth_app_id: APP_ID,
  app_id: APP_ID,
  seller_id: SELLER_ID,
  buyer_id: '2088102122524333',
  out_trade_no: 'VW20261122000002',
  trade_no: '2026112222001446881400000001',
  trade_status: 'TRADE_SUCCESS',
  total_amount: '19.90',
  receipt_amount: '19.90',
  subject: '声音工作台 基础版 100%+ 会员 & 积分',
  gmt_create: '2026-11-22 16:00:30',
  gmt_payment: '2026-11-22 16:01:02',
  fund_bill_list: '[{"amount":"19.90","fundChannel":"ALIPAYACCOUNT"}]',
};

describe('Alipay notify verification', () => {
  it('accepts a genuine payment notification (values with %, + and & survive)', async () => {
    const provider = createAlipayProvider(options());
    await expect(provider.verifyNotify(notification(paid))).resolves.toEqual({
      orderId: 'VW20261122000002',
      trade: {
        state: 'paid',
        transactionId: '2026112222001446881400000001',
        amountFen: 1990,
        paidAt: Date.parse('2026-11-22T08:01:02Z'),
      },
    });
  });

  it('rejects a tampered parameter', async () => {
    const provider = createAlipayProvider(options());
    const genuine = notification(paid);
    const tampered = {
      ...genuine,
      rawBody: Buffer.from(genuine.rawBody.toString().replace('total_amount=19.90', 'total_amount=0.01')),
    };
    expect(tampered.rawBody.toString()).toContain('total_amount=0.01');
    await expect(provider.verifyNotify(tampered)).rejects.toThrow(/signature does not match/);
    await expect(provider.verifyNotify(notification(paid, stranger.privateKey))).rejects.toThrow(
      NotifyRejected,
    );
    const unsigned = { ...genuine, rawBody: Buffer.from(new URLSearchParams(paid).toString()) };
    await expect(provider.verifyNotify(unsigned)).rejects.toThrow(/without sign/);
  });

  it('rejects another app_id or another seller, even correctly signed', async () => {
    const provider = createAlipayProvider(options());
    await expect(
      provider.verifyNotify(notification({ ...paid, app_id: '2021000000000009' })),
    ).rejects.toThrow(/app_id 2021000000000009 is not ours/);
    await expect(
      provider.verifyNotify(notification({ ...paid, seller_id: '2088000000000009' })),
    ).rejects.toThrow(/seller_id 2088000000000009 is not ours/);
    // Without a configured seller id only the app is checked.
    const noSeller = createAlipayProvider(options(undefined, { sellerId: undefined }));
    await expect(
      noSeller.verifyNotify(notification({ ...paid, seller_id: '2088000000000009' })),
    ).resolves.toMatchObject({ orderId: 'VW20261122000002' });
  });

  it('reads closed trades and refund notices', async () => {
    const provider = createAlipayProvider(options());
    await expect(
      provider.verifyNotify(notification({ ...paid, trade_status: 'TRADE_CLOSED' })),
    ).resolves.toEqual({
      orderId: 'VW20261122000002',
      trade: { state: 'closed' },
    });
    const refunded = {
      ...paid,
      out_biz_no: 'RF20261122000002',
      refund_fee: '19.90',
      gmt_refund: '2026-11-22 16:05:00.123',
      trade_status: 'TRADE_CLOSED',
    };
    await expect(provider.verifyNotify(notification(refunded))).resolves.toEqual({
      orderId: 'VW20261122000002',
      trade: null,
    });
  });

  it('replies the way Alipay expects', () => {
    const provider = createAlipayProvider(options());
    expect(provider.ackReply()).toEqual({ status: 200, contentType: 'text/plain', body: 'success' });
    expect(provider.nackReply('bad signature').body).toBe('fail');
  });
});

describe('loadAlipayOptions', () => {
  const env = (extra: Record<string, string>) =>
    loadConfig({ PAYMENT_ALIPAY_PROVIDER: 'alipay', ALIPAY_APP_ID: APP_ID, ...extra });

  it('reads the key files', async () => {
    writeFileSync(path.join(dir, 'app_private.txt'), app.privateKey);
    writeFileSync(path.join(dir, 'alipay_public.txt'), alipay.publicKey);
    const loaded = loadAlipayOptions(
      env({
        ALIPAY_PRIVATE_KEY_FILE: path.join(dir, 'app_private.txt'),
        ALIPAY_PUBLIC_KEY_FILE: path.join(dir, 'alipay_public.txt'),
        ALIPAY_SELLER_ID: SELLER_ID,
      }),
    );
    expect(loaded).toMatchObject({
      appId: APP_ID,
      sellerId: SELLER_ID,
      gateway: 'https://openapi.alipay.com/gateway.do',
    });
    const provider = createAlipayProvider({ ...loaded, now });
    await expect(provider.verifyNotify(notification(paid))).resolves.toMatchObject({
      orderId: paid.out_trade_no,
    });
  });

  it('fails naming the variable when a file is missing or not a key', () => {
    writeFileSync(path.join(dir, 'junk.txt'), 'not a key');
    expect(() =>
      loadAlipayOptions(
        env({ ALIPAY_PRIVATE_KEY_FILE: path.join(dir, 'missing.txt'), ALIPAY_PUBLIC_KEY_FILE: 'x' }),
      ),
    ).toThrow(/ALIPAY_PRIVATE_KEY_FILE: cannot read/);
    writeFileSync(path.join(dir, 'app_private.txt'), app.privateKey);
    expect(() =>
      loadAlipayOptions(
        env({
          ALIPAY_PRIVATE_KEY_FILE: path.join(dir, 'app_private.txt'),
          ALIPAY_PUBLIC_KEY_FILE: path.join(dir, 'junk.txt'),
        }),
      ),
    ).toThrow(/ALIPAY_PUBLIC_KEY_FILE: .* is not an RSA public key/);
    expect(() => env({})).toThrow(/ALIPAY_PRIVATE_KEY_FILE: required when PAYMENT_ALIPAY_PROVIDER=alipay/);
  });
});
