import type { Product, TenantBonus } from '@vw/contract';
import { clientMessages } from '@vw/contract/errors.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, describeEnvelopeError, networkDisplay } from '@/lib/http/errors.ts';
import {
  type CreatedOrder,
  type OrderOutcome,
  OrderSession,
  type OrderView,
  outcomeOf,
} from './orderSession.ts';
import {
  type Buyer,
  buyerOf,
  createFailedMessage,
  defaultCreditSelection,
  defaultMemberSelection,
  disabledReason,
  openingFor,
  PaymentDialogType,
  showTopLevelTip,
} from './paymentRules.ts';

const detail = (price: number) => [
  { country_code: 'CN', title: '', price, discount_price: price, currency: 'CNY', desc: '{}' },
];
const member = (level: number, annual = false, free = false): Product => ({
  product_id: `m${level}${annual ? 'y' : 'm'}`,
  product_type: 0,
  title: `L${level}`,
  level,
  recharge_credit: 0,
  is_free_package: free ? 1 : 0,
  after_charge: 0,
  is_annual: annual ? 1 : 0,
  channel_details: detail(level),
});
const pack = (credits: number, price: number): Product => ({
  product_id: `c${credits}`,
  product_type: 1,
  title: `${credits}`,
  level: 0,
  recharge_credit: credits,
  is_free_package: 0,
  after_charge: 0,
  is_annual: 0,
  channel_details: detail(price),
});
const catalogue = [
  member(100, false, true),
  member(400),
  member(200),
  member(300),
  member(200, true),
  member(300, true),
  member(400, true),
  pack(5000, 48),
  pack(1000, 10),
  pack(20000, 180),
];
const free: Buyer = { level: 100, hasMembership: false, isAnnual: false };
const basic: Buyer = { level: 200, hasMembership: true, isAnnual: false };
const proAnnual: Buyer = { level: 300, hasMembership: true, isAnnual: true };
const topMonthly = buyerOf(
  { level: 400, is_free_package: 0, is_annual_package: 0 } as TenantBonus,
  catalogue,
) satisfies Buyer;
const topAnnual: Buyer = { level: 400, hasMembership: true, isAnnual: true, topLevel: 400 };

describe('payment dialog rules', () => {
  it('disables lower plans, monthly plans for annual members and packs without a membership, with their tips', () => {
    expect(disabledReason(member(200), basic)).toBeNull();
    expect(disabledReason(member(300), basic)).toBeNull();
    expect(disabledReason(member(200, true), { ...basic, level: 300 })).toBe(clientMessages.noLowerPlan);
    expect(disabledReason(member(400), proAnnual)).toBe(clientMessages.annualMemberNoMonthly);
    expect(disabledReason(member(400, true), proAnnual)).toBeNull();
    expect(disabledReason(pack(1000, 10), free)).toBe(clientMessages.creditNeedsMembership);
    expect(disabledReason(pack(1000, 10), basic)).toBeNull();
  });

  it('selects the lowest plan at or above the level on the member tab (none for annual members)', () => {
    expect(defaultMemberSelection(catalogue, free)?.product_id).toBe('m200m');
    expect(defaultMemberSelection(catalogue, { ...basic, level: 300 })?.product_id).toBe('m300m');
    expect(defaultMemberSelection(catalogue, proAnnual)).toBeNull();
  });

  it('selects the smallest pack on the credit tab only with a membership', () => {
    expect(defaultCreditSelection(catalogue, basic)?.product_id).toBe('c1000');
    expect(defaultCreditSelection(catalogue, free)).toBeNull();
  });

  it('opens in each of the four modes', () => {
    expect(openingFor({ mode: 'credit' }, catalogue, basic)).toMatchObject({
      type: PaymentDialogType.Multi,
      tab: 1,
      selected: { product_id: 'c1000' },
    });
    // A credit opening without a membership lands on the member tab with nothing selected.
    expect(openingFor({ mode: 'credit' }, catalogue, free)).toMatchObject({ tab: 0, selected: null });
    expect(openingFor({ mode: 'next_level' }, catalogue, basic).selected?.product_id).toBe('m300m');
    expect(openingFor({ mode: 'next_level' }, catalogue, proAnnual).selected?.product_id).toBe('m400y');
    expect(openingFor({ mode: 'level_300' }, catalogue, free).selected?.product_id).toBe('m300m');
    // A top-level member cannot buy the top plan again: nothing to select.
    expect(openingFor({ mode: 'level_300' }, catalogue, topMonthly).selected).toBeNull();
    const single = openingFor({ mode: 'product', productId: 'c5000' }, catalogue, basic);
    expect(single).toMatchObject({ type: PaymentDialogType.Single, tab: 1, fixed: { product_id: 'c5000' } });
  });

  it('makes no plan selectable for a top-level member, and says so whatever is selected or how it opened', () => {
    expect(topMonthly).toMatchObject({ level: 400, hasMembership: true, topLevel: 400 });
    for (const buyer of [topMonthly, topAnnual]) {
      expect(disabledReason(member(400), buyer)).not.toBeNull();
      expect(disabledReason(member(400, true), buyer)).toBe(clientMessages.topPlanAlready);
      expect(defaultMemberSelection(catalogue, buyer)).toBeNull();
      expect(showTopLevelTip(catalogue, buyer)).toBe(true);
      for (const mode of ['next_level', 'level_300', 'credit'] as const) {
        const opening = openingFor({ mode }, catalogue, buyer);
        if (opening.tab === 0) expect(opening.selected).toBeNull();
      }
    }
    expect(showTopLevelTip(catalogue, proAnnual)).toBe(false);
    expect(showTopLevelTip(catalogue, { ...basic, topLevel: 400 })).toBe(false);
    expect(showTopLevelTip(catalogue, free)).toBe(false);
  });

  it('a failed order creation shows the server message, a known code, or 网络异常稍后重试', () => {
    const failed = (code: number, serverMessage?: string) =>
      new ApiError({
        kind: 'business',
        code,
        display: describeEnvelopeError(code, serverMessage, null),
        serverMessage,
      });
    expect(createFailedMessage(failed(9999))).toBe('网络异常稍后重试');
    expect(createFailedMessage(failed(9999, '渠道维护中'))).toBe('渠道维护中');
    expect(createFailedMessage(failed(2003))).toBe('检测到未支付订单，请继续支付');
    expect(createFailedMessage(new ApiError({ kind: 'network', display: networkDisplay() }))).toBe(
      '网络异常稍后重试',
    );
    expect(createFailedMessage(new Error('boom'))).toBe('网络异常稍后重试');
  });
});

describe('order session', () => {
  const order = (id: string, channel: 'WECHAT' | 'ALIPAY', ttlSeconds = 60): CreatedOrder => ({
    buss_orderid: id,
    pay_channel: channel,
    code_url: `http://pay/${id}`,
    pay_out_time: Math.floor(Date.now() / 1000) + ttlSeconds,
  });
  let views: OrderView[];
  let outcomes: OrderOutcome[];
  let statuses: number[];
  const api = { create: vi.fn(), status: vi.fn() };
  const listener = {
    onView: (v: OrderView) => views.push(v),
    onOutcome: (o: OrderOutcome) => outcomes.push(o),
  };

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-11-22T08:00:00Z') });
    views = [];
    outcomes = [];
    statuses = [];
    api.create.mockReset();
    api.status.mockReset();
    api.status.mockImplementation(async () => statuses.shift() ?? 100);
  });
  afterEach(() => vi.useRealTimers());
  const last = () => views[views.length - 1];

  it('reads 200/300 as success, 102/400 as failure, 403 as paid twice, the rest as waiting', () => {
    expect(outcomeOf(200)).toEqual({ kind: 'success' });
    expect(outcomeOf(300)).toEqual({ kind: 'success' });
    expect(outcomeOf(102)).toEqual({ kind: 'failure' });
    expect(outcomeOf(400)).toEqual({ kind: 'failure' });
    expect(outcomeOf(403)).toEqual({ kind: 'duplicate' });
    expect(outcomeOf(100)).toBeNull();
    expect(outcomeOf(101)).toBeNull();
  });

  it('requests once per 500 ms for the same target, polls every 1.5 s and reports success', async () => {
    api.create.mockResolvedValue(order('A', 'WECHAT'));
    const session = new OrderSession(api, listener);
    session.request('p1', 'WECHAT');
    session.request('p1', 'WECHAT');
    await vi.advanceTimersByTimeAsync(0);
    expect(api.create).toHaveBeenCalledTimes(1);
    expect(last()).toMatchObject({ phase: 'qr', secondsLeft: 60, overlay: false });
    statuses = [100, 101, 200];
    await vi.advanceTimersByTimeAsync(1500);
    expect(api.status).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3000);
    expect(outcomes).toEqual([{ kind: 'success' }]);
    await vi.advanceTimersByTimeAsync(6000);
    expect(api.status).toHaveBeenCalledTimes(3); // polling stopped
  });

  it('counts down and shows the expired state; refresh requests a new order', async () => {
    api.create.mockResolvedValueOnce(order('A', 'WECHAT', 3)).mockResolvedValueOnce(order('B', 'WECHAT', 60));
    const session = new OrderSession(api, listener);
    session.request('p1', 'WECHAT');
    await vi.advanceTimersByTimeAsync(1000);
    expect(last()).toMatchObject({ phase: 'qr', secondsLeft: 2 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(last()).toMatchObject({ phase: 'expired', order: { buss_orderid: 'A' } });
    const polls = api.status.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(api.status.mock.calls.length).toBe(polls);
    session.request('p1', 'WECHAT');
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ phase: 'qr', order: { buss_orderid: 'B' } });
  });

  it('keeps the Alipay loading overlay 1.5 s longer', async () => {
    api.create.mockResolvedValue(order('A', 'ALIPAY'));
    const session = new OrderSession(api, listener);
    session.request('p1', 'ALIPAY');
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toMatchObject({ phase: 'qr', overlay: true });
    await vi.advanceTimersByTimeAsync(1500);
    expect(last()).toMatchObject({ phase: 'qr', overlay: false });
  });

  it('ignores a late answer after clear (channel changed or dialog closed)', async () => {
    let resolve: (o: CreatedOrder) => void = () => {};
    api.create.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    const session = new OrderSession(api, listener);
    session.request('p1', 'WECHAT');
    session.clear();
    resolve(order('A', 'WECHAT'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(last()).toEqual({ phase: 'idle' });
    expect(api.status).not.toHaveBeenCalled();
  });

  it('reports a creation failure', async () => {
    api.create.mockRejectedValue(new Error('boom'));
    const session = new OrderSession(api, listener);
    session.request('p1', 'WECHAT');
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes[0]).toMatchObject({ kind: 'create_failed' });
  });
});
