import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  type OrderInfo,
  OrderStatus,
  type PayChannel,
  ProductType,
  type paymentsCalls,
} from '@vw/contract';
import type { z } from 'zod';
import {
  NotifyRejected,
  type NotifyReply,
  type NotifyRequest,
  type PaymentProvider,
  ProviderError,
  type ProviderTradeState,
} from '../../adapters/payments/payments.ts';
import type { AppContext } from '../../context.ts';
import type { PaymentAttempt, PaymentOrder } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { addMonthsClamped } from '../credits/calendar.ts';
import { type AccountTx, grantLot, withCreditAccount } from '../credits/ledger.service.ts';
import { isPaid } from '../credits/membership.rules.ts';
import { applyMembership } from '../credits/membership.service.ts';
import { findProduct, priceFen } from './catalogue.ts';
import {
  findOpenOrders,
  findOrder,
  findOrdersToReconcile,
  findPendingRefunds,
  insertAttemptOnce,
  insertOrder,
  OPEN_STATUSES,
  setAttemptOutcome,
  setOrderCodeUrl,
  setRefundError,
  touchOrder,
  transitionOrder,
} from './orders.repo.ts';

type CreateOrderBody = z.output<NonNullable<(typeof paymentsCalls.createOrder)['body']>>;
type SeenBy = 'notify' | 'poll' | 'reconcile';

/** Top-up packs are valid for two years from purchase (spec §1). */
const TOP_UP_VALID_MONTHS = 24;
/** An open order is offered again only if the buyer still has this long to pay it. */
const REUSE_MIN_REMAINING_MS = 60_000;
/** Polls ask the provider at most this often per order; callbacks and the job fill the gaps. */
const POLL_QUERY_MIN_MS = 1_000;

/** What was sold, frozen on the order so later catalogue edits change nothing. */
interface SoldProduct {
  title: string;
  product_type: number;
  level: number;
  months: number;
  is_annual: number;
  recharge_credit: number;
}

const soldProduct = (order: PaymentOrder) => JSON.parse(order.product) as SoldProduct;

/** Out-trade numbers: 32 characters at most, letters and digits (WeChat and Alipay both accept). */
function newOrderId(now: number): string {
  const stamp = new Date(now + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `VW${stamp}${randomBytes(5).toString('hex').toUpperCase()}`;
}

export function toOrderInfo(order: PaymentOrder): OrderInfo {
  return {
    buss_orderid: order.id,
    product_id: order.product_id,
    pay_channel: order.pay_channel as PayChannel,
    amount: order.amount_fen / 100,
    status: order.status,
    pay_out_time: Math.floor(order.expires_at / 1000),
    paid_time: order.paid_at === null ? null : Math.floor(order.paid_at / 1000),
  };
}

function toCreatedOrder(order: PaymentOrder) {
  return {
    buss_orderid: order.id,
    pay_channel: order.pay_channel as PayChannel,
    code_url: order.code_url ?? '',
    pay_out_time: Math.floor(order.expires_at / 1000),
  };
}

function providerFor(ctx: AppContext, order: PaymentOrder): PaymentProvider {
  const provider = ctx.payments.byName(order.provider);
  if (!provider) throw AppError.named('err_payment_channel_unavailable');
  return provider;
}

/** The purchase rules (spec §5); checked under the account lock with the plan caught up. */
function checkPurchase({ account, now }: AccountTx, product: SoldProduct): void {
  const member = isPaid(account, now);
  if (product.product_type === ProductType.Credit) {
    if (!member) throw AppError.named('err_credit_pack_needs_membership');
    return;
  }
  if (!member) return;
  if (product.level < account.level) throw AppError.code(ErrorCode.PlanBelowCurrentLevel);
  if (account.is_annual && !product.is_annual) throw AppError.named('err_annual_member_monthly_plan');
}

/**
 * POST /v1/pay/create_order. An open order for the same product in the same channel is offered
 * again (continue paying it); one in the other channel is closed first, unless the provider says
 * it was paid (2001) or is being paid right now (2003).
 */
export async function createOrder(ctx: AppContext, userId: string, body: CreateOrderBody) {
  const product = await findProduct(ctx.db, body.product_id);
  const amountFen = product ? priceFen(product) : null;
  if (!product || product.is_disabled || product.is_free_package || !amountFen) {
    throw AppError.named('err_product_not_found');
  }
  const provider = ctx.payments.forChannel(body.pay_channel);
  if (!provider) throw AppError.named('err_payment_channel_unavailable');

  for (const open of await findOpenOrders(ctx.db, userId, product.product_id)) {
    const reusable =
      open.pay_channel === body.pay_channel &&
      open.code_url &&
      open.amount_fen === amountFen &&
      open.expires_at - ctx.clock.now() > REUSE_MIN_REMAINING_MS;
    if (reusable) return toCreatedOrder(open);
    const settled = await refreshOrder(ctx, open, 'poll', { closeIfUnpaid: true });
    if (settled.status === OrderStatus.Paid) throw AppError.code(ErrorCode.OrderAlreadyPaid);
    if (OPEN_STATUSES.includes(settled.status as 100)) throw AppError.code(ErrorCode.UnpaidOrderExists);
  }

  const sold: SoldProduct = {
    title: product.title,
    product_type: product.product_type,
    level: product.level,
    months: product.months,
    is_annual: product.is_annual,
    recharge_credit: product.recharge_credit,
  };
  const order = await withCreditAccount(ctx, userId, async (a) => {
    checkPurchase(a, sold);
    const row: PaymentOrder = {
      id: newOrderId(a.now),
      user_id: userId,
      product_id: product.product_id,
      product: JSON.stringify(sold),
      pay_channel: body.pay_channel,
      provider: provider.name,
      amount_fen: amountFen,
      status: OrderStatus.Pending,
      code_url: null,
      created_at: a.now,
      expires_at: a.now + ctx.config.PAYMENT_ORDER_TTL * 1000,
      paid_at: null,
      transaction_id: null,
      failure: null,
      updated_at: a.now,
    };
    await insertOrder(a.tx, row);
    return row;
  });

  try {
    const { codeUrl } = await provider.createQr({
      orderId: order.id,
      description: `声音工作台-${sold.title}`,
      amountFen,
      expiresAt: order.expires_at,
      notifyUrl: `${ctx.config.publicUrl}/v1/pay/notify/${provider.name}`,
    });
    await setOrderCodeUrl(ctx.db, order.id, codeUrl, ctx.clock.now());
    return toCreatedOrder({ ...order, code_url: codeUrl });
  } catch (err) {
    ctx.log.error(
      { err, orderId: order.id, provider: provider.name },
      'payment provider refused to create the order',
    );
    await transitionOrder(ctx.db, order.id, OPEN_STATUSES, {
      status: OrderStatus.Closed,
      failure: `create failed: ${(err as Error).message}`.slice(0, 500),
      updated_at: ctx.clock.now(),
    });
    throw AppError.named('err_payment_provider_failed');
  }
}

/** GET /v1/pay/get_order: the client's poll, which also asks the provider (it may see the payment first). */
export async function pollOrder(ctx: AppContext, userId: string, orderId: string) {
  const order = await findOrder(ctx.db, orderId);
  if (!order || order.user_id !== userId) throw AppError.named('err_order_not_found');
  const fresh =
    OPEN_STATUSES.includes(order.status as 100) && ctx.clock.now() - order.updated_at >= POLL_QUERY_MIN_MS
      ? await refreshOrder(ctx, order, 'poll', { closeIfUnpaid: false })
      : order;
  return { order_info: toOrderInfo(fresh) };
}

/**
 * Asks the provider about an open order and applies the answer. An expired unpaid order is closed
 * (after the query, so a payment made at the last moment is not lost); `closeIfUnpaid` closes it
 * even before it expires (the buyer switched channel).
 */
export async function refreshOrder(
  ctx: AppContext,
  order: PaymentOrder,
  seenBy: SeenBy,
  { closeIfUnpaid }: { closeIfUnpaid: boolean },
): Promise<PaymentOrder> {
  const provider = providerFor(ctx, order);
  let trade: ProviderTradeState;
  try {
    trade = await provider.query(order.id);
  } catch (err) {
    if (!(err instanceof ProviderError && isUnknownTrade(err))) {
      ctx.log.warn({ err, orderId: order.id }, 'payment query failed; the order stays as it is');
      return order;
    }
    trade = { state: 'closed' };
  }
  await applyTrade(ctx, order, trade, seenBy);
  const current = (await findOrder(ctx.db, order.id)) ?? order;
  const expired = ctx.clock.now() >= current.expires_at;
  if (OPEN_STATUSES.includes(current.status as 100) && (expired || closeIfUnpaid)) {
    if (trade.state === 'pending' && trade.paying && !expired) return current;
    try {
      await provider.close(order.id);
    } catch (err) {
      // Paid between the query and the close: the next query fulfils it.
      ctx.log.warn({ err, orderId: order.id }, 'closing the order at the provider failed');
      return current;
    }
    await transitionOrder(ctx.db, order.id, OPEN_STATUSES, {
      status: OrderStatus.Closed,
      failure: expired ? 'expired' : 'closed: replaced by a new order',
      updated_at: ctx.clock.now(),
    });
    return (await findOrder(ctx.db, order.id)) ?? current;
  }
  return current;
}

function isUnknownTrade(err: ProviderError): boolean {
  return ['ORDER_NOT_EXIST', 'ORDERNOTEXIST', 'ACQ.TRADE_NOT_EXIST'].includes(err.providerCode ?? '');
}

/** Applies what the provider said about an order, whoever heard it first. */
export async function applyTrade(
  ctx: AppContext,
  order: PaymentOrder,
  trade: ProviderTradeState,
  seenBy: SeenBy,
): Promise<void> {
  const now = ctx.clock.now();
  switch (trade.state) {
    case 'paid':
      await applyPayment(ctx, order, trade, seenBy);
      return;
    case 'pending':
      if (trade.paying) {
        await transitionOrder(ctx.db, order.id, [OrderStatus.Pending], {
          status: OrderStatus.Paying,
          updated_at: now,
        });
      } else {
        await touchOrder(ctx.db, order.id, now);
      }
      return;
    case 'closed':
      await transitionOrder(ctx.db, order.id, OPEN_STATUSES, {
        status: OrderStatus.Closed,
        failure: 'closed at the provider',
        updated_at: now,
      });
      return;
    case 'failed':
      await transitionOrder(ctx.db, order.id, OPEN_STATUSES, {
        status: OrderStatus.Failed,
        failure: trade.reason.slice(0, 500),
        updated_at: now,
      });
      return;
  }
}

/**
 * One payment, applied exactly once: under the buyer's account lock the payment is recorded by its
 * transaction id (a repeat changes nothing), the first payment of the order grants the product,
 * and any further payment is marked for refund (status 403). A payment whose amount differs from
 * the order's is recorded and left to the operator, never fulfilled.
 */
async function applyPayment(
  ctx: AppContext,
  order: PaymentOrder,
  trade: Extract<ProviderTradeState, { state: 'paid' }>,
  seenBy: SeenBy,
): Promise<void> {
  const attempt = await withCreditAccount(ctx, order.user_id, async (a) => {
    const row: PaymentAttempt = {
      id: newId('pay'),
      order_id: order.id,
      provider: order.provider,
      transaction_id: trade.transactionId,
      amount_fen: trade.amountFen,
      paid_at: trade.paidAt || a.now,
      outcome: 'fulfilled',
      seen_by: seenBy,
      created_at: a.now,
      refunded_at: null,
      refund_error: null,
    };
    if (trade.amountFen !== order.amount_fen) {
      row.outcome = 'rejected';
      if (await insertAttemptOnce(a.tx, row)) {
        ctx.log.error(
          { orderId: order.id, paid: trade.amountFen, due: order.amount_fen },
          'payment amount differs from the order; not fulfilled',
        );
      }
      return null;
    }
    const current = await findOrder(a.tx, order.id);
    if (!current) return null;
    const alreadyPaid = current.status === OrderStatus.Paid || current.status === OrderStatus.PaidTwice;
    if (alreadyPaid) {
      if (current.transaction_id === trade.transactionId) return null;
      row.outcome = 'refund_pending';
      if (!(await insertAttemptOnce(a.tx, row))) return null;
      await transitionOrder(a.tx, order.id, [OrderStatus.Paid], {
        status: OrderStatus.PaidTwice,
        updated_at: a.now,
      });
      return row;
    }
    if (!(await insertAttemptOnce(a.tx, row))) return null;
    try {
      await fulfil(a, current);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // The buyer's plan changed after ordering (e.g. a higher plan redeemed): give the money back.
      row.outcome = 'refund_pending';
      await setAttemptOutcome(a.tx, row.id, 'fulfilled', { outcome: 'refund_pending' });
      await transitionOrder(a.tx, order.id, [current.status], {
        status: OrderStatus.Failed,
        failure: `not fulfilled (${err.message}); refunded`,
        updated_at: a.now,
      });
      return row;
    }
    await transitionOrder(a.tx, order.id, [current.status], {
      status: OrderStatus.Paid,
      paid_at: row.paid_at,
      transaction_id: trade.transactionId,
      updated_at: a.now,
    });
    return null;
  });
  if (attempt) await refundAttempt(ctx, attempt);
}

/** Grants what the order sold, inside the account transaction. */
async function fulfil(a: AccountTx, order: PaymentOrder): Promise<void> {
  const sold = soldProduct(order);
  if (sold.product_type === ProductType.Credit) {
    await grantLot(
      a.tx,
      {
        userId: order.user_id,
        source: 'topup',
        amount: sold.recharge_credit,
        expiresAt: addMonthsClamped(a.now, TOP_UP_VALID_MONTHS),
        grantKey: `order:${order.id}`,
        remark: sold.title,
      },
      a.now,
    );
    return;
  }
  await applyMembership(a, {
    userId: order.user_id,
    level: sold.level,
    isAnnual: sold.is_annual === 1,
    months: sold.months,
  });
}

/** Refunds one payment through its provider; a failure is kept and retried by the reconciliation job. */
async function refundAttempt(ctx: AppContext, attempt: PaymentAttempt): Promise<void> {
  const order = await findOrder(ctx.db, attempt.order_id);
  if (!order) return;
  try {
    await providerFor(ctx, order).refund({
      orderId: order.id,
      transactionId: attempt.transaction_id,
      refundId: attempt.id,
      amountFen: attempt.amount_fen,
      totalFen: attempt.amount_fen,
      reason: order.status === OrderStatus.PaidTwice ? '重复支付自动退款' : '订单无法履约，自动退款',
    });
    await setAttemptOutcome(ctx.db, attempt.id, 'refund_pending', {
      outcome: 'refunded',
      refunded_at: ctx.clock.now(),
      refund_error: null,
    });
  } catch (err) {
    ctx.log.error(
      { err, attemptId: attempt.id, orderId: order.id },
      'refund failed; the reconciliation job retries it',
    );
    await setRefundError(ctx.db, attempt.id, String((err as Error).message).slice(0, 500));
  }
}

/**
 * A provider callback: verified (signature, time, merchant), then applied like a poll. Answers the
 * provider's own success or failure reply; an unexpected error asks it to call again.
 */
export async function receiveNotify(
  ctx: AppContext,
  providerName: string,
  request: NotifyRequest,
): Promise<NotifyReply | null> {
  const provider = ctx.payments.byName(providerName);
  if (!provider) return null;
  let notice: Awaited<ReturnType<PaymentProvider['verifyNotify']>>;
  try {
    notice = await provider.verifyNotify(request);
  } catch (err) {
    ctx.log.warn({ err, provider: providerName }, 'payment callback rejected');
    return provider.nackReply(err instanceof NotifyRejected ? err.message : 'invalid callback');
  }
  const order = await findOrder(ctx.db, notice.orderId);
  if (!order || order.provider !== provider.name) {
    ctx.log.warn(
      { orderId: notice.orderId, provider: providerName },
      'payment callback for an unknown order',
    );
    return provider.ackReply();
  }
  try {
    if (notice.trade) await applyTrade(ctx, order, notice.trade, 'notify');
    return provider.ackReply();
  } catch (err) {
    ctx.log.error(
      { err, orderId: order.id },
      'payment callback could not be applied; the provider will retry',
    );
    return provider.nackReply('temporarily unavailable');
  }
}

/**
 * The reconciliation job: asks the providers about open orders whose callback may be lost, closes
 * expired ones (query first) and retries refunds that failed.
 */
export async function reconcilePayments(ctx: AppContext): Promise<{ orders: number; refunds: number }> {
  const orders = await findOrdersToReconcile(ctx.db, ctx.clock.now() - 20_000, 200);
  for (const order of orders) {
    await refreshOrder(ctx, order, 'reconcile', { closeIfUnpaid: false });
  }
  const refunds = await findPendingRefunds(ctx.db, 100);
  for (const attempt of refunds) await refundAttempt(ctx, attempt);
  return { orders: orders.length, refunds: refunds.length };
}
