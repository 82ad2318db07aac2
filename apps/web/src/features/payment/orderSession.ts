import {
  ALIPAY_EXTRA_LOADING_MS,
  ORDER_FAILURE_STATUSES,
  ORDER_POLL_MS,
  ORDER_REQUEST_DEBOUNCE_MS,
  ORDER_SUCCESS_STATUSES,
  OrderStatus,
  type PayChannel,
} from '@vw/contract/constants/payments.ts';

export interface CreatedOrder {
  buss_orderid: string;
  pay_channel: PayChannel;
  code_url: string;
  /** Unix seconds. */
  pay_out_time: number;
}

export interface OrderApi {
  create(productId: string, channel: PayChannel): Promise<CreatedOrder>;
  /** order_info.status */
  status(orderId: string): Promise<number>;
}

export type OrderView =
  | { phase: 'idle' }
  | { phase: 'loading' }
  | { phase: 'qr'; order: CreatedOrder; secondsLeft: number; overlay: boolean }
  | { phase: 'expired'; order: CreatedOrder };

export type OrderOutcome =
  | { kind: 'success' }
  | { kind: 'failure' }
  | { kind: 'duplicate' }
  | { kind: 'create_failed'; error: unknown };

export interface OrderListener {
  onView(view: OrderView): void;
  onOutcome(outcome: OrderOutcome): void;
}

/**
 * One payment dialog's order (spec §4): request (debounced 500 ms, leading only), QR, polling every
 * 1.5 s, a countdown against pay_out_time and the expired state. `clear()` drops the order and
 * every timer; an answer that arrives after it is ignored.
 */
export class OrderSession {
  private generation = 0;
  private timers: ReturnType<typeof setInterval>[] = [];
  private lastRequest = { at: Number.NEGATIVE_INFINITY, key: '' };
  private polling = false;

  constructor(
    private readonly api: OrderApi,
    private readonly listener: OrderListener,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asks for an order; a repeat for the same product and channel within 500 ms is dropped. */
  request(productId: string, channel: PayChannel): void {
    const key = `${productId}:${channel}`;
    const at = this.now();
    const repeat = key === this.lastRequest.key && at - this.lastRequest.at < ORDER_REQUEST_DEBOUNCE_MS;
    this.lastRequest = { at, key };
    if (repeat) return;
    this.clear();
    const gen = this.generation;
    this.listener.onView({ phase: 'loading' });
    this.api.create(productId, channel).then(
      (order) => gen === this.generation && this.show(order, gen),
      (error) => gen === this.generation && this.listener.onOutcome({ kind: 'create_failed', error }),
    );
  }

  /** Stops everything and forgets the order (channel change, new selection, close). */
  clear(): void {
    this.generation++;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.polling = false;
    this.listener.onView({ phase: 'idle' });
  }

  /** Forgets the debounce too, so the next request always goes out (the dialog was closed). */
  reset(): void {
    this.clear();
    this.lastRequest = { at: Number.NEGATIVE_INFINITY, key: '' };
  }

  private secondsLeft(order: CreatedOrder): number {
    return Math.max(0, Math.ceil(order.pay_out_time - this.now() / 1000));
  }

  private show(order: CreatedOrder, gen: number): void {
    const overlay = order.pay_channel === 'ALIPAY';
    let view: OrderView = { phase: 'qr', order, secondsLeft: this.secondsLeft(order), overlay };
    this.listener.onView(view);
    if (overlay) {
      // Alipay's page takes a moment longer to be payable: keep the loading overlay 1.5 s more.
      const t = setTimeout(() => {
        if (gen !== this.generation || view.phase !== 'qr') return;
        view = { ...view, overlay: false };
        this.listener.onView(view);
      }, ALIPAY_EXTRA_LOADING_MS);
      this.timers.push(t as unknown as ReturnType<typeof setInterval>);
    }
    const tick = () => {
      if (gen !== this.generation || view.phase !== 'qr') return;
      const secondsLeft = this.secondsLeft(order);
      if (secondsLeft <= 0) {
        this.stopTimers();
        view = { phase: 'expired', order };
      } else {
        view = { ...view, secondsLeft };
      }
      this.listener.onView(view);
    };
    const poll = async () => {
      if (gen !== this.generation || this.polling) return;
      this.polling = true;
      try {
        const status = await this.api.status(order.buss_orderid);
        if (gen !== this.generation) return;
        const outcome = outcomeOf(status);
        if (outcome) {
          this.stopTimers();
          this.listener.onOutcome(outcome);
        }
      } catch {
        // A failed poll is retried on the next tick.
      } finally {
        this.polling = false;
      }
    };
    this.timers.push(
      setInterval(tick, 1000),
      setInterval(() => void poll(), ORDER_POLL_MS),
    );
  }

  private stopTimers(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }
}

/** The client's reading of order_info.status (spec §4); null means keep waiting. */
export function outcomeOf(status: number): OrderOutcome | null {
  if (ORDER_SUCCESS_STATUSES.includes(status)) return { kind: 'success' };
  if (status === OrderStatus.PaidTwice) return { kind: 'duplicate' };
  if (ORDER_FAILURE_STATUSES.includes(status)) return { kind: 'failure' };
  return null;
}
