/**
 * Plain payment constants, free of zod so the web bundle imports them directly
 * (`@vw/contract/constants/payments.ts`); the calls in calls/payments.ts build on them.
 */

export const ProductType = { Member: 0, Credit: 1 } as const;
/** `type` of GET /v1/app/products: members 0, credit packs 1, all -1. */
export const ProductListType = { Member: 0, Credit: 1, All: -1 } as const;

export const PayChannel = { Wechat: 'WECHAT', Alipay: 'ALIPAY' } as const;
export type PayChannel = (typeof PayChannel)[keyof typeof PayChannel];
export const payChannelNames: Record<PayChannel, string> = { WECHAT: '微信', ALIPAY: '支付宝' };

/** The only channel detail the client uses. */
export const PAY_COUNTRY_CODE = 'CN';

/**
 * order_info.status. The client reads 200/300 as success, 102/400 as failure, 403 as paid twice,
 * anything else as "keep waiting" (spec §4).
 */
export const OrderStatus = {
  /** Created; waiting for the buyer to pay. */
  Pending: 100,
  /** The buyer scanned the code and is paying (WeChat USERPAYING). */
  Paying: 101,
  /** Closed unpaid: expired, replaced by an order in another channel, or closed by the operator. */
  Closed: 102,
  /** Paid; the membership or the credits have been granted. */
  Paid: 200,
  /** Payment failed (declined at the provider), or the payment was refunded because it could no longer be fulfilled. */
  Failed: 400,
  /** Paid and granted once; a second payment for the same order arrived and is refunded. */
  PaidTwice: 403,
} as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** The client also reads 300 as success (spec §4); this server answers 200 for every paid order. */
export const ORDER_SUCCESS_STATUSES: readonly number[] = [OrderStatus.Paid, 300];
export const ORDER_FAILURE_STATUSES: readonly number[] = [OrderStatus.Closed, OrderStatus.Failed];

/** Client timing (spec §9). */
export const ORDER_POLL_MS = 1500;
export const ORDER_REQUEST_DEBOUNCE_MS = 500;
export const ALIPAY_EXTRA_LOADING_MS = 1500;
export const PAY_QR_WIDTH = 180;
