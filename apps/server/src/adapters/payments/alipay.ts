import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { AlipaySdk, type AlipaySdkCommonResult } from 'alipay-sdk';
import { type Config, ConfigError } from '../../config.ts';
import { readConfigFile, resolveConfigPath } from './config-files.ts';
import {
  NotifyRejected,
  type NotifyReply,
  type NotifyRequest,
  type PaymentProvider,
  ProviderError,
  type ProviderOrder,
  type ProviderTradeState,
  type RefundRequest,
  type VerifiedNotice,
} from './payments.ts';

/**
 * Alipay face-to-face QR payment (alipay.trade.precreate) through the official `alipay-sdk`, in
 * public-key mode: requests are RSA2-signed with the application private key, answers and
 * asynchronous notifications are verified with the Alipay public key.
 */

export interface AlipayOptions {
  appId: string;
  /** Application private key: PEM (PKCS#1 or PKCS#8) or the bare base64 the Alipay key tool prints. */
  privateKey: string;
  /** The Alipay public key (not the application public key): PEM or bare base64. */
  alipayPublicKey: string;
  /** The merchant's Alipay user id (2088…); when set, notifications for other sellers are refused. */
  sellerId?: string;
  /** `https://openapi.alipay.com/gateway.do`; tests point it at a local server. */
  gateway: string;
  now?: () => number;
  timeoutMs?: number;
}

const SUCCESS_CODE = '10000';

/** Reads a key in any of the shapes Alipay's tools produce (PEM or bare base64 DER). */
function parseKey(text: string, kind: 'private' | 'public'): KeyObject {
  const trimmed = text.trim();
  const create = kind === 'private' ? createPrivateKey : createPublicKey;
  if (trimmed.startsWith('-----BEGIN')) return create(trimmed);
  const der = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64');
  if (kind === 'public') return createPublicKey({ key: der, format: 'der', type: 'spki' });
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
  }
}

/** Whole fen to Alipay's yuan string with two decimals, without floating point. */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new Error(`invalid amount ${fen} fen`);
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

/** Alipay's yuan string ("88", "88.8", "88.88") to whole fen; null when it is not an amount. */
export function yuanToFen(yuan: unknown): number | null {
  if (typeof yuan !== 'string') return null;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(yuan.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** `yyyy-MM-dd HH:mm:ss` in Beijing time, Alipay's timestamp format. */
export function beijingDateTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000 + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Alipay's Beijing-time `yyyy-MM-dd HH:mm:ss` to Unix ms; NaN when malformed. */
function parseBeijing(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)) return Number.NaN;
  return Date.parse(`${value.replace(' ', 'T')}+08:00`);
}

/** A gateway answer that is not a success, as the error to throw. */
const failure = (method: string, result: AlipaySdkCommonResult) =>
  new ProviderError(
    `Alipay ${method} refused: ${result.code} ${result.msg ?? ''} ${result.sub_code ?? ''} ${result.sub_msg ?? ''}`.trim(),
    result.sub_code ?? result.code,
  );

/** A trade's state from its trade_status and fields (a query's answer or a notification); paidAt NaN: now. */
function tradeState(
  status: unknown,
  fields: { trade_no?: unknown; total_amount?: unknown; paidAt: number },
  now: () => number,
): ProviderTradeState {
  switch (status) {
    case 'WAIT_BUYER_PAY':
      // The buyer has scanned the code; the trade exists and waits for the payment.
      return { state: 'pending', paying: true };
    case 'TRADE_SUCCESS':
    case 'TRADE_FINISHED': {
      const amountFen = yuanToFen(fields.total_amount);
      if (typeof fields.trade_no !== 'string' || !fields.trade_no || amountFen === null)
        throw new ProviderError(`Alipay reported ${status} without trade_no or total_amount`);
      const paidAt = Number.isNaN(fields.paidAt) ? now() : fields.paidAt;
      return { state: 'paid', transactionId: fields.trade_no, amountFen, paidAt };
    }
    case 'TRADE_CLOSED':
      return { state: 'closed' };
    default:
      throw new ProviderError(`Alipay reported an unknown trade_status ${String(status)}`);
  }
}

export function createAlipayProvider(options: AlipayOptions): PaymentProvider {
  const now = options.now ?? Date.now;
  // Normalise both keys to PEM so the SDK's own key formatting cannot misread them.
  const privateKey = parseKey(options.privateKey, 'private').export({ type: 'pkcs8', format: 'pem' });
  const alipayPublicKey = parseKey(options.alipayPublicKey, 'public').export({ type: 'spki', format: 'pem' });
  const sdk = new AlipaySdk({
    appId: options.appId,
    privateKey: privateKey.toString(),
    keyType: 'PKCS8',
    alipayPublicKey: alipayPublicKey.toString(),
    gateway: options.gateway,
    signType: 'RSA2',
    camelcase: false,
    timeout: options.timeoutMs ?? 10_000,
  });

  /** One gateway call; answers are signature-checked by the SDK. Returns the `…_response` object. */
  async function exec(
    method: string,
    bizContent: Record<string, unknown>,
    extra: Record<string, string> = {},
  ): Promise<AlipaySdkCommonResult> {
    try {
      // Our own timestamp (Beijing time from our clock): the SDK's would use the host's time zone.
      return await sdk.exec(
        method,
        { bizContent, timestamp: beijingDateTime(now()), ...extra },
        { validateSign: true },
      );
    } catch (err) {
      throw new ProviderError(`Alipay ${method} failed: ${(err as Error).message}`);
    }
  }

  return {
    name: 'alipay',

    async createQr(order: ProviderOrder) {
      const minutes = Math.max(1, Math.ceil((order.expiresAt - now()) / 60_000));
      const result = await exec(
        'alipay.trade.precreate',
        {
          out_trade_no: order.orderId,
          total_amount: fenToYuan(order.amountFen),
          subject: order.description.slice(0, 256),
          // time_expire wins when both are given; timeout_express is the relative fallback.
          time_expire: beijingDateTime(order.expiresAt),
          timeout_express: `${minutes}m`,
        },
        { notify_url: order.notifyUrl },
      );
      if (result.code !== SUCCESS_CODE) throw failure('alipay.trade.precreate', result);
      if (typeof result.qr_code !== 'string' || !result.qr_code)
        throw new ProviderError('Alipay precreated the trade without a qr_code');
      return { codeUrl: result.qr_code };
    },

    async query(orderId: string) {
      const result = await exec('alipay.trade.query', { out_trade_no: orderId });
      // Precreated trades exist at Alipay only once the buyer scans the code.
      if (result.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'pending', paying: false };
      if (result.code !== SUCCESS_CODE) throw failure('alipay.trade.query', result);
      if (result.out_trade_no !== orderId)
        throw new ProviderError(`Alipay answered the query for ${orderId} about another trade`);
      return tradeState(
        result.trade_status,
        {
          trade_no: result.trade_no,
          total_amount: result.total_amount,
          paidAt: parseBeijing(result.send_pay_date),
        },
        now,
      );
    },

    async close(orderId: string) {
      const result = await exec('alipay.trade.close', { out_trade_no: orderId });
      // Not created yet (never scanned) means nobody can pay it any more either.
      if (result.code === SUCCESS_CODE || result.sub_code === 'ACQ.TRADE_NOT_EXIST') return;
      throw failure('alipay.trade.close', result);
    },

    async refund(refund: RefundRequest) {
      const result = await exec('alipay.trade.refund', {
        out_trade_no: refund.orderId,
        trade_no: refund.transactionId,
        refund_amount: fenToYuan(refund.amountFen),
        out_request_no: refund.refundId,
        refund_reason: refund.reason.slice(0, 256),
      });
      if (result.code !== SUCCESS_CODE) throw failure('alipay.trade.refund', result);
    },

    async verifyNotify(notify: NotifyRequest): Promise<VerifiedNotice> {
      // application/x-www-form-urlencoded; values are decoded exactly once here.
      const params = Object.fromEntries(new URLSearchParams(notify.rawBody.toString('utf8')));
      if (!params.sign) throw new NotifyRejected('notification without sign');
      if (params.sign_type && params.sign_type !== 'RSA2')
        throw new NotifyRejected(`unsupported sign_type ${params.sign_type}`);
      let valid: boolean;
      try {
        // V2: the values are already decoded, so the SDK must not decode them again.
        valid = sdk.checkNotifySignV2(params);
      } catch {
        valid = false;
      }
      if (!valid) throw new NotifyRejected('signature does not match');
      if (params.app_id !== options.appId) throw new NotifyRejected(`app_id ${params.app_id} is not ours`);
      if (options.sellerId && params.seller_id !== options.sellerId)
        throw new NotifyRejected(`seller_id ${params.seller_id} is not ours`);
      if (!params.out_trade_no) throw new NotifyRejected('notification without out_trade_no');
      // Refund notices (partial: TRADE_SUCCESS, full: TRADE_CLOSED) carry refund fields.
      if (params.refund_fee || params.out_biz_no || params.gmt_refund)
        return { orderId: params.out_trade_no, trade: null };
      try {
        const trade = tradeState(
          params.trade_status,
          {
            trade_no: params.trade_no,
            total_amount: params.total_amount,
            paidAt: parseBeijing(params.gmt_payment),
          },
          now,
        );
        return { orderId: params.out_trade_no, trade };
      } catch (err) {
        throw new NotifyRejected((err as Error).message);
      }
    },

    ackReply(): NotifyReply {
      return { status: 200, contentType: 'text/plain', body: 'success' };
    },

    nackReply(): NotifyReply {
      // Anything but `success` makes Alipay retry the notification later.
      return { status: 400, contentType: 'text/plain', body: 'fail' };
    },
  };
}

function readKeyFile(variable: string, file: string, kind: 'private' | 'public'): string {
  const text = readConfigFile(variable, file);
  try {
    parseKey(text, kind);
  } catch (err) {
    throw new ConfigError(
      `${variable}: ${resolveConfigPath(file)} is not an RSA ${kind} key (${(err as Error).message})`,
    );
  }
  return text;
}

/** Reads the key files named by the ALIPAY_* variables; a bad file fails naming its variable. */
export function loadAlipayOptions(config: Config): AlipayOptions {
  const need = (variable: 'ALIPAY_APP_ID' | 'ALIPAY_PRIVATE_KEY_FILE' | 'ALIPAY_PUBLIC_KEY_FILE') => {
    const value = config[variable];
    if (!value) throw new ConfigError(`${variable} is required when PAYMENT_ALIPAY_PROVIDER=alipay`);
    return value;
  };
  return {
    appId: need('ALIPAY_APP_ID'),
    privateKey: readKeyFile('ALIPAY_PRIVATE_KEY_FILE', need('ALIPAY_PRIVATE_KEY_FILE'), 'private'),
    alipayPublicKey: readKeyFile('ALIPAY_PUBLIC_KEY_FILE', need('ALIPAY_PUBLIC_KEY_FILE'), 'public'),
    sellerId: config.ALIPAY_SELLER_ID,
    gateway: config.ALIPAY_GATEWAY,
  };
}
