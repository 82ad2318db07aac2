/**
 * The payment provider port. One implementation per provider (sandbox, wechatpay, alipay); the
 * orders service picks one per channel from the config and never sees provider formats.
 * Amounts are integers in fen (CNY cents). Our order id is the provider's out_trade_no.
 */

export type PaymentProviderName = 'sandbox' | 'wechatpay' | 'alipay';

export interface ProviderOrder {
  orderId: string;
  description: string;
  amountFen: number;
  /** Unix ms after which the provider must refuse payment. */
  expiresAt: number;
  notifyUrl: string;
}

/** What the provider says about one order's trade. */
export type ProviderTradeState =
  | { state: 'pending'; paying: boolean }
  | { state: 'paid'; transactionId: string; amountFen: number; paidAt: number }
  | { state: 'closed' }
  | { state: 'failed'; reason: string };

export interface RefundRequest {
  orderId: string;
  transactionId: string;
  /** Idempotency: the provider's out_refund_no / out_request_no. */
  refundId: string;
  amountFen: number;
  totalFen: number;
  reason: string;
}

/** A notify callback as it arrived: headers (lower-case names) and the exact bytes of the body. */
export interface NotifyRequest {
  headers: Record<string, string | undefined>;
  rawBody: Buffer;
}

/** A verified callback. `trade` is null for events that do not change a payment (e.g. refund notices). */
export interface VerifiedNotice {
  orderId: string;
  trade: ProviderTradeState | null;
}

export interface NotifyReply {
  status: number;
  contentType: string;
  body: string;
}

/** Raised when a callback fails verification (signature, timestamp, serial, merchant, decryption). */
export class NotifyRejected extends Error {}

/** Raised when the provider answers an API call with an error; `providerCode` is its own code. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly providerCode?: string,
  ) {
    super(message);
  }
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Creates the trade and returns what the QR code encodes. */
  createQr(order: ProviderOrder): Promise<{ codeUrl: string }>;
  query(orderId: string): Promise<ProviderTradeState>;
  /** Closes an unpaid trade; closing an already closed trade succeeds. */
  close(orderId: string): Promise<void>;
  refund(request: RefundRequest): Promise<void>;
  /** Verifies a callback (throws NotifyRejected) and reads it; merchant fields are checked here. */
  verifyNotify(request: NotifyRequest): Promise<VerifiedNotice>;
  /** The reply the provider expects for an accepted or a rejected callback. */
  ackReply(): NotifyReply;
  nackReply(reason: string): NotifyReply;
}
