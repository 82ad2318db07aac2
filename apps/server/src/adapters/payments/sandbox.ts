import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { SandboxTrade } from '../../db/schema.ts';
import {
  NotifyRejected,
  type NotifyRequest,
  type PaymentProvider,
  ProviderError,
  type ProviderOrder,
  type ProviderTradeState,
} from './payments.ts';

const NOTIFY_WINDOW_MS = 300_000;

export interface SandboxOptions {
  db: Db;
  now: () => number;
  /** Where the pay page lives; a phone on the same network opens it from the QR code. */
  publicUrl: string;
  /** Signs pay-page links and notify callbacks. */
  key: string;
}

/**
 * The default provider: a pay page on this server stands in for the buyer's wallet, and a table
 * stands in for the provider's books. It answers queries, closes and refunds like a real provider
 * and reports payments through the same verified notify path.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;

  constructor(private readonly options: SandboxOptions) {}

  /** The token in a pay-page link: only whoever was shown the QR code can pay or decline. */
  pageToken(orderId: string): string {
    return this.sign(`page:${orderId}`).slice(0, 24);
  }

  checkPageToken(orderId: string, token: string): boolean {
    return safeEqual(this.pageToken(orderId), token);
  }

  async createQr(order: ProviderOrder): Promise<{ codeUrl: string }> {
    await this.options.db
      .insertInto('sandbox_trades')
      .values({
        order_id: order.orderId,
        description: order.description,
        amount_fen: order.amountFen,
        state: 'NOTPAY',
        expires_at: order.expiresAt,
        transaction_id: null,
        paid_at: null,
        payments: 0,
        refunded_fen: 0,
        refund_ids: '',
        created_at: this.options.now(),
      })
      .onConflict((oc) => oc.column('order_id').doNothing())
      .execute();
    const url = `${this.options.publicUrl}/pay/sandbox/${order.orderId}?t=${this.pageToken(order.orderId)}`;
    return { codeUrl: url };
  }

  async findTrade(orderId: string): Promise<SandboxTrade | undefined> {
    return this.options.db
      .selectFrom('sandbox_trades')
      .selectAll()
      .where('order_id', '=', orderId)
      .executeTakeFirst();
  }

  async query(orderId: string): Promise<ProviderTradeState> {
    const trade = await this.findTrade(orderId);
    if (!trade) throw new ProviderError('订单不存在', 'ORDER_NOT_EXIST');
    return tradeState(trade);
  }

  async close(orderId: string): Promise<void> {
    const trade = await this.findTrade(orderId);
    if (!trade || trade.state === 'CLOSED') return;
    if (trade.state === 'SUCCESS') throw new ProviderError('订单已支付', 'ORDERPAID');
    await this.setState(trade, { state: 'CLOSED' });
  }

  /** Refunds once per refund id, like a provider's out_refund_no. */
  async refund(request: { orderId: string; refundId: string; amountFen: number }): Promise<void> {
    const trade = await this.findTrade(request.orderId);
    if (trade?.state !== 'SUCCESS') throw new ProviderError('订单未支付', 'TRADE_NOT_PAID');
    if (trade.refund_ids.split(' ').includes(request.refundId)) return;
    if (trade.refunded_fen + request.amountFen > trade.amount_fen * trade.payments) {
      throw new ProviderError('退款金额超过已支付金额', 'REFUND_AMOUNT_EXCEEDED');
    }
    const result = await this.options.db
      .updateTable('sandbox_trades')
      .set({
        refunded_fen: trade.refunded_fen + request.amountFen,
        refund_ids: `${trade.refund_ids} ${request.refundId}`.trim(),
      })
      .where('order_id', '=', request.orderId)
      .where('refund_ids', '=', trade.refund_ids)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1)
      throw new ProviderError('退款处理中，请稍后重试', 'FREQUENCY_LIMITED');
  }

  /**
   * The buyer pays on the sandbox page. Paying an already paid trade is a second payment (what a
   * buyer paying twice looks like to us). Returns the signed callback to deliver.
   */
  async pay(orderId: string): Promise<NotifyRequest> {
    const trade = await this.findTrade(orderId);
    if (!trade) throw new ProviderError('订单不存在', 'ORDER_NOT_EXIST');
    const now = this.options.now();
    if (trade.state === 'CLOSED' || trade.state === 'PAYERROR')
      throw new ProviderError('订单已关闭', 'ORDER_CLOSED');
    if (trade.state === 'NOTPAY' && now >= trade.expires_at)
      throw new ProviderError('二维码已过期', 'ORDER_EXPIRED');
    const transactionId = `SBX${now}${randomBytes(6).toString('hex')}`;
    const updated = await this.setState(trade, {
      state: 'SUCCESS',
      payments: trade.payments + 1,
      // The trade reports its first payment; later ones reach us only through their callbacks.
      transaction_id: trade.transaction_id ?? transactionId,
      paid_at: trade.paid_at ?? now,
    });
    if (!updated) throw new ProviderError('订单状态已变化，请刷新页面', 'CONFLICT');
    return this.notice({
      order_id: orderId,
      trade_state: 'SUCCESS',
      transaction_id: transactionId,
      amount_fen: trade.amount_fen,
      paid_at: now,
    });
  }

  /** The buyer declines on the sandbox page. */
  async decline(orderId: string): Promise<NotifyRequest> {
    const trade = await this.findTrade(orderId);
    if (trade?.state !== 'NOTPAY') throw new ProviderError('订单已关闭或已支付', 'ORDER_CLOSED');
    if (!(await this.setState(trade, { state: 'PAYERROR' }))) {
      throw new ProviderError('订单状态已变化，请刷新页面', 'CONFLICT');
    }
    return this.notice({ order_id: orderId, trade_state: 'PAYERROR' });
  }

  async verifyNotify(request: NotifyRequest): Promise<{ orderId: string; trade: ProviderTradeState | null }> {
    const timestamp = Number(request.headers['x-sandbox-timestamp']);
    const signature = request.headers['x-sandbox-signature'] ?? '';
    if (!Number.isFinite(timestamp) || Math.abs(this.options.now() - timestamp * 1000) > NOTIFY_WINDOW_MS) {
      throw new NotifyRejected('timestamp outside ±300 s');
    }
    if (!safeEqual(this.sign(`${timestamp}\n${request.rawBody.toString('utf8')}\n`), signature)) {
      throw new NotifyRejected('bad signature');
    }
    const body = JSON.parse(request.rawBody.toString('utf8')) as NoticeBody;
    if (body.trade_state === 'SUCCESS') {
      return {
        orderId: body.order_id,
        trade: {
          state: 'paid',
          transactionId: body.transaction_id ?? '',
          amountFen: body.amount_fen ?? 0,
          paidAt: body.paid_at ?? 0,
        },
      };
    }
    return { orderId: body.order_id, trade: { state: 'failed', reason: '买家拒绝支付' } };
  }

  ackReply() {
    return { status: 200, contentType: 'application/json', body: '{"code":"SUCCESS"}' };
  }

  nackReply(reason: string) {
    return {
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ code: 'FAIL', message: reason }),
    };
  }

  private notice(body: NoticeBody): NotifyRequest {
    const rawBody = JSON.stringify(body);
    const timestamp = Math.floor(this.options.now() / 1000);
    return {
      rawBody: Buffer.from(rawBody),
      headers: {
        'content-type': 'application/json',
        'x-sandbox-timestamp': String(timestamp),
        'x-sandbox-signature': this.sign(`${timestamp}\n${rawBody}\n`),
      },
    };
  }

  /** Compare-and-set on the trade as it was read, so two taps on the page count once each. */
  private async setState(from: SandboxTrade, set: Partial<SandboxTrade>): Promise<boolean> {
    const result = await this.options.db
      .updateTable('sandbox_trades')
      .set(set)
      .where('order_id', '=', from.order_id)
      .where('state', '=', from.state)
      .where('payments', '=', from.payments)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  private sign(value: string): string {
    return createHmac('sha256', this.options.key).update(value).digest('hex');
  }
}

interface NoticeBody {
  order_id: string;
  trade_state: 'SUCCESS' | 'PAYERROR';
  transaction_id?: string;
  amount_fen?: number;
  paid_at?: number;
}

function tradeState(trade: SandboxTrade): ProviderTradeState {
  switch (trade.state) {
    case 'SUCCESS':
      return {
        state: 'paid',
        transactionId: trade.transaction_id ?? '',
        amountFen: trade.amount_fen,
        paidAt: trade.paid_at ?? 0,
      };
    case 'CLOSED':
      return { state: 'closed' };
    case 'PAYERROR':
      return { state: 'failed', reason: '买家拒绝支付' };
    default:
      return { state: 'pending', paying: false };
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
