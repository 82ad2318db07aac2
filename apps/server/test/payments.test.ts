import { createHmac, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OrderStatus } from '@vw/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxProvider } from '../src/adapters/payments/sandbox.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { getTenantBonus, grantMembership } from '../src/modules/credits/membership.service.ts';
import { editProduct } from '../src/modules/payments/catalogue.ts';
import { reconcilePayments } from '../src/modules/payments/orders.service.ts';
import { call, createTestServer, signIn, type TestServer } from './harness.ts';

const SECRET = 'test-secret-test-secret-test-secret-0123';

let server: TestServer;
let sandbox: SandboxProvider;
let token: string;
let uid: string;

beforeEach(async () => {
  server = await createTestServer({ JWT_SECRET: SECRET, PAYMENT_ORDER_TTL: '300' });
  sandbox = server.ctx.payments.sandbox!;
  const session = await signIn(server.app, '13900000001');
  token = session.secure_tokens.access_token;
  uid = session.user_info.uid;
});
afterEach(async () => {
  await server.close();
});

const createOrder = (productId: string, channel = 'WECHAT', as = token) =>
  call(server.app, 'POST', '/v1/pay/create_order', {
    token: as,
    body: { pay_channel: channel, product_id: productId, country_code: 'CN', return_url: '' },
  });
const getOrder = async (orderId: string) => {
  const res = await call(server.app, 'GET', `/v1/pay/get_order?buss_orderid=${orderId}`, { token });
  return res.body;
};
const notify = (notice: { headers: Record<string, string | undefined>; rawBody: Buffer }) =>
  server.app.inject({
    method: 'POST',
    url: '/v1/pay/notify/sandbox',
    headers: notice.headers as Record<string, string>,
    payload: notice.rawBody,
  });
/** A callback signed the way the sandbox signs them, with any body (to test what verification checks). */
const signedNotice = (body: object, timestamp = Math.floor(server.clock.now() / 1000)) => {
  const raw = JSON.stringify(body);
  const signature = createHmac('sha256', `${SECRET}:payments-sandbox`)
    .update(`${timestamp}\n${raw}\n`)
    .digest('hex');
  return {
    rawBody: Buffer.from(raw),
    headers: {
      'content-type': 'application/json',
      'x-sandbox-timestamp': String(timestamp),
      'x-sandbox-signature': signature,
    },
  };
};
const orderRow = (id: string) =>
  server.ctx.db.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const attempts = (id: string) =>
  server.ctx.db.selectFrom('payment_attempts').selectAll().where('order_id', '=', id).execute();
const membershipLots = () =>
  server.ctx.db
    .selectFrom('credit_lots')
    .selectAll()
    .where('user_id', '=', uid)
    .where('source', '=', 'membership')
    .execute();

async function buy(productId: string, channel = 'WECHAT') {
  const created = await createOrder(productId, channel);
  expect(created.body.code).toBe(0);
  const orderId: string = created.body.data.buss_orderid;
  expect((await notify(await sandbox.pay(orderId))).statusCode).toBe(200);
  return orderId;
}

describe('catalogue', () => {
  it('lists member plans by level and credit packs by price, and hides disabled products', async () => {
    const members = await call(server.app, 'GET', '/v1/app/products?type=0', { token });
    const levels = members.body.data.product_list.map((p: { level: number }) => p.level);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect(members.body.data.product_list.every((p: { product_type: number }) => p.product_type === 0)).toBe(
      true,
    );

    const credits = await call(server.app, 'GET', '/v1/app/products?type=1', { token });
    const prices = credits.body.data.product_list.map(
      (p: { channel_details: { discount_price: number }[] }) => p.channel_details[0].discount_price,
    );
    expect(prices.length).toBeGreaterThanOrEqual(3);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));

    await editProduct(server.ctx.db, 'credit_1000', { disabled: true, pay: 9 }, server.clock.now());
    const after = await call(server.app, 'GET', '/v1/app/products?type=-1', { token });
    const ids = after.body.data.product_list.map((p: { product_id: string }) => p.product_id);
    expect(ids).not.toContain('credit_1000');
    expect(ids).toContain('member_300_month');
  });
});

describe('orders', () => {
  it('creates an order whose QR opens the sandbox pay page, and offers it again rather than a second one', async () => {
    const first = await createOrder('member_300_month');
    expect(first.body.code).toBe(0);
    const { buss_orderid, code_url, pay_out_time } = first.body.data;
    expect(code_url).toMatch(new RegExp(`^http://127.0.0.1:8787/pay/sandbox/${buss_orderid}\\?t=`));
    expect(pay_out_time).toBe(Math.floor(server.clock.now() / 1000) + 300);
    expect((await orderRow(buss_orderid)).amount_fen).toBe(9900);

    const again = await createOrder('member_300_month');
    expect(again.body.data.buss_orderid).toBe(buss_orderid);

    const page = await server.app.inject({
      method: 'GET',
      url: new URL(code_url).pathname + new URL(code_url).search,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('¥99.00');
    expect(page.body).toContain('确认支付');
    const forged = await server.app.inject({ method: 'GET', url: `/pay/sandbox/${buss_orderid}?t=forged` });
    expect(forged.statusCode).toBe(404);

    // Switching channel closes the WeChat order and opens an Alipay one.
    const alipay = await createOrder('member_300_month', 'ALIPAY');
    expect(alipay.body.data.buss_orderid).not.toBe(buss_orderid);
    expect((await orderRow(buss_orderid)).status).toBe(OrderStatus.Closed);
    expect((await getOrder(buss_orderid)).data.order_info.status).toBe(OrderStatus.Closed);
  });

  it('pays through the sandbox page: the plan, its credits and status 200', async () => {
    const created = await createOrder('member_300_month');
    const { buss_orderid, code_url } = created.body.data;
    const url = new URL(code_url);
    const paid = await server.app.inject({
      method: 'POST',
      url: `${url.pathname}/pay${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(paid.statusCode).toBe(303);
    const order = await getOrder(buss_orderid);
    expect(order.data.order_info.status).toBe(OrderStatus.Paid);
    expect(order.data.order_info.amount).toBe(99);
    const bonus = await getTenantBonus(server.ctx, uid);
    expect(bonus.level).toBe(300);
    expect(bonus.credit_balance).toBe(8000);
  });

  it('fulfils once when ten callbacks, polls and the reconciliation job all see the payment at once', async () => {
    const created = await createOrder('member_300_month');
    const orderId = created.body.data.buss_orderid;
    const notice = await sandbox.pay(orderId);
    server.clock.advance(30_000);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => notify(notice)),
      getOrder(orderId),
      getOrder(orderId),
      reconcilePayments(server.ctx),
    ]);
    for (const r of results.slice(0, 10)) expect((r as { statusCode: number }).statusCode).toBe(200);
    expect((await orderRow(orderId)).status).toBe(OrderStatus.Paid);
    expect(await attempts(orderId)).toHaveLength(1);
    expect(await membershipLots()).toHaveLength(1);
    expect((await getBalance(server.ctx, uid)).balance).toBe(8000);
    const account = await server.ctx.db
      .selectFrom('credit_accounts')
      .selectAll()
      .where('user_id', '=', uid)
      .executeTakeFirstOrThrow();
    expect(account.period_count).toBe(1);
  });

  it('refunds a second payment of the same order and reports 403', async () => {
    const orderId = await buy('member_300_month');
    const second = await sandbox.pay(orderId);
    await Promise.all([notify(second), notify(second), reconcilePayments(server.ctx)]);
    expect((await getOrder(orderId)).data.order_info.status).toBe(OrderStatus.PaidTwice);
    const rows = await attempts(orderId);
    expect(rows.map((a) => a.outcome).sort()).toEqual(['fulfilled', 'refunded']);
    const trade = await sandbox.findTrade(orderId);
    expect(trade?.payments).toBe(2);
    expect(trade?.refunded_fen).toBe(9900);
    expect(await membershipLots()).toHaveLength(1);
  });

  it('rejects callbacks with a tampered body, a stale timestamp or a wrong amount', async () => {
    const created = await createOrder('member_200_month');
    const orderId = created.body.data.buss_orderid;
    const good = {
      order_id: orderId,
      trade_state: 'SUCCESS',
      transaction_id: 'T1',
      amount_fen: 3900,
      paid_at: 1,
    };

    const tampered = signedNotice(good);
    tampered.rawBody = Buffer.from(JSON.stringify({ ...good, amount_fen: 1 }));
    const r1 = await notify(tampered);
    expect(r1.statusCode).toBe(400);
    expect(r1.json()).toMatchObject({ code: 'FAIL' });

    const stale = signedNotice(good, Math.floor(server.clock.now() / 1000) - 301);
    expect((await notify(stale)).statusCode).toBe(400);

    const wrongAmount = signedNotice({ ...good, amount_fen: 100 });
    expect((await notify(wrongAmount)).statusCode).toBe(200);
    expect((await orderRow(orderId)).status).toBe(OrderStatus.Pending);
    expect((await attempts(orderId)).map((a) => a.outcome)).toEqual(['rejected']);
    expect((await getTenantBonus(server.ctx, uid)).level).toBe(100);

    const valid = signedNotice({ ...good, transaction_id: 'T2' });
    expect((await notify(valid)).statusCode).toBe(200);
    expect((await orderRow(orderId)).status).toBe(OrderStatus.Paid);
  });

  it('closes an expired order after asking the provider, and the page no longer takes payment', async () => {
    const created = await createOrder('member_200_month');
    const orderId = created.body.data.buss_orderid;
    server.clock.advance(301_000);
    expect((await getOrder(orderId)).data.order_info.status).toBe(OrderStatus.Closed);
    await expect(sandbox.pay(orderId)).rejects.toThrow('订单已关闭');
    // A new order for the same product is a fresh one.
    const next = await createOrder('member_200_month');
    expect(next.body.data.buss_orderid).not.toBe(orderId);
  });

  it('marks a declined payment as failed (400)', async () => {
    const created = await createOrder('member_200_month', 'ALIPAY');
    const orderId = created.body.data.buss_orderid;
    await notify(await sandbox.decline(orderId));
    expect((await getOrder(orderId)).data.order_info.status).toBe(OrderStatus.Failed);
  });

  it('answers 2001 when the open order turns out to be paid already', async () => {
    const created = await createOrder('member_200_month');
    const orderId = created.body.data.buss_orderid;
    await sandbox.pay(orderId); // paid, but the callback never arrives
    const res = await createOrder('member_200_month', 'ALIPAY');
    expect(res.body.code).toBe(2001);
    expect((await orderRow(orderId)).status).toBe(OrderStatus.Paid);
    expect((await getTenantBonus(server.ctx, uid)).level).toBe(200);
  });

  it('applies the purchase rules: credit packs need a plan, no lower plans, no monthly plans for annual members', async () => {
    const pack = await createOrder('credit_5000');
    expect(pack.body.code).toBe(422);
    expect(pack.body.data.detail[0].type).toBe('err_credit_pack_needs_membership');

    await buy('member_300_year');
    expect((await createOrder('member_200_month')).body.code).toBe(2000);
    const monthly = await createOrder('member_300_month');
    expect(monthly.body.data.detail[0].type).toBe('err_annual_member_monthly_plan');
    expect((await createOrder('member_400_year')).body.code).toBe(0);

    const free = await createOrder('member_100');
    expect(free.body.data.detail[0].type).toBe('err_product_not_found');
  });

  it('grants a credit pack as a top-up lot valid for two years', async () => {
    await buy('member_200_month');
    const before = (await getBalance(server.ctx, uid)).balance;
    await buy('credit_5000', 'ALIPAY');
    expect((await getBalance(server.ctx, uid)).balance).toBe(before + 5000);
    const lot = await server.ctx.db
      .selectFrom('credit_lots')
      .selectAll()
      .where('user_id', '=', uid)
      .where('source', '=', 'topup')
      .executeTakeFirstOrThrow();
    const years = (lot.expires_at - lot.effective_at) / (365 * 24 * 3600_000);
    expect(years).toBeGreaterThan(1.99);
    expect(years).toBeLessThan(2.01);
  });

  it('refunds a payment it can no longer fulfil (the plan rose meanwhile)', async () => {
    const created = await createOrder('member_200_month');
    const orderId = created.body.data.buss_orderid;
    await grantMembership(server.ctx, { userId: uid, level: 400, isAnnual: false, months: 1 });
    await notify(await sandbox.pay(orderId));
    expect((await getOrder(orderId)).data.order_info.status).toBe(OrderStatus.Failed);
    expect((await attempts(orderId)).map((a) => a.outcome)).toEqual(['refunded']);
    expect((await sandbox.findTrade(orderId))?.refunded_fen).toBe(3900);
    expect((await getTenantBonus(server.ctx, uid)).level).toBe(400);
  });

  it('keeps orders private to their buyer', async () => {
    const created = await createOrder('member_200_month');
    const other = await signIn(server.app, '13900000002');
    const res = await call(
      server.app,
      'GET',
      `/v1/pay/get_order?buss_orderid=${created.body.data.buss_orderid}`,
      {
        token: other.secure_tokens.access_token,
      },
    );
    expect(res.body.data.detail[0].type).toBe('err_order_not_found');
  });
});

describe('configuration', () => {
  it('builds the WeChat Pay and Alipay providers from their key files, and names a missing file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vw-pay-keys-'));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(path.join(dir, 'private.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(path.join(dir, 'public.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
    const env = {
      JWT_SECRET: SECRET,
      PAYMENT_WECHAT_PROVIDER: 'wechatpay',
      WECHATPAY_APPID: 'wx0000000000000000',
      WECHATPAY_MCHID: '1900000001',
      WECHATPAY_MERCHANT_SERIAL_NO: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
      WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: path.join(dir, 'private.pem'),
      WECHATPAY_APIV3_KEY: 'a'.repeat(32),
      WECHATPAY_PUBLIC_KEY_FILE: path.join(dir, 'public.pem'),
      WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0000000000000000000000000001',
      PAYMENT_ALIPAY_PROVIDER: 'alipay',
      ALIPAY_APP_ID: '2021000000000000',
      ALIPAY_PRIVATE_KEY_FILE: path.join(dir, 'private.pem'),
      ALIPAY_PUBLIC_KEY_FILE: path.join(dir, 'public.pem'),
    };
    try {
      const live = await createTestServer(env);
      try {
        expect(live.ctx.payments.forChannel('WECHAT')?.name).toBe('wechatpay');
        expect(live.ctx.payments.forChannel('ALIPAY')?.name).toBe('alipay');
        expect(live.ctx.payments.sandbox).toBeNull();
      } finally {
        await live.close();
      }
      await expect(
        createTestServer({ ...env, WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: path.join(dir, 'missing.pem') }),
      ).rejects.toThrow(/WECHATPAY_MERCHANT_PRIVATE_KEY_FILE/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses the sandbox in production and says what to configure', async () => {
    const prod = await createTestServer({
      NODE_ENV: 'production',
      JWT_SECRET: SECRET,
      VERIFICATION_CODES_TO_LOG: 'true',
    });
    try {
      expect(prod.ctx.payments.forChannel('WECHAT')).toBeNull();
      expect(prod.ctx.payments.problems.join()).toMatch(/PAYMENT_WECHAT_PROVIDER=wechatpay/);
    } finally {
      await prod.close();
    }
  });
});
