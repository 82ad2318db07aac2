import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  type KeyObject,
  randomBytes,
  X509Certificate,
} from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
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
 * WeChat Pay API v3, Native payment (the QR encodes `code_url`). Only node:crypto and fetch:
 * requests are signed with the merchant key, answers and callbacks are verified with the platform
 * certificates or the WeChat Pay public key, callback resources are AES-256-GCM encrypted.
 */

export interface WechatPayOptions {
  appId: string;
  mchId: string;
  /** Serial number of the merchant API certificate (goes into every Authorization header). */
  merchantSerialNo: string;
  /** The merchant API private key (apiclient_key.pem), PEM. */
  merchantPrivateKey: string;
  /** The 32-character APIv3 key that encrypts callback resources. */
  apiV3Key: string;
  /** Platform certificates (PEM); each is used for the serial written in it. */
  platformCertificates?: string[];
  /** The WeChat Pay public key (PEM) with its id `PUB_KEY_ID_…`. */
  publicKey?: { id: string; pem: string };
  /** `https://api.mch.weixin.qq.com`; tests point it at a local server. */
  baseUrl: string;
  now?: () => number;
  timeoutMs?: number;
}

/** Callbacks and answers whose timestamp is further than this from now are refused (replay window). */
const MAX_SKEW_SECONDS = 300;
const AUTH_SCHEMA = 'WECHATPAY2-SHA256-RSA2048';
const USER_AGENT = 'voice-workbench-wechatpay/1.0 (node)';

/** Serials are hex; compare them without case or leading zeros. */
function serialKey(serial: string): string {
  return serial.startsWith('PUB_KEY_ID_') ? serial : serial.toUpperCase().replace(/^0+/, '');
}

/** `yyyy-MM-ddTHH:mm:ss+08:00`, the RFC 3339 form WeChat Pay wants for time_expire. */
export function beijingRfc3339(ms: number): string {
  const local = new Date(Math.floor(ms / 1000) * 1000 + 8 * 3600_000);
  return `${local.toISOString().slice(0, 19)}+08:00`;
}

/** Cuts a string to at most `max` UTF-8 bytes without splitting a character (WeChat Pay counts bytes). */
export function truncateUtf8(text: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char, 'utf8');
    if (bytes > max) break;
    out += char;
  }
  return out;
}

/** The verification keys by serial: platform certificates and/or the public key. */
function verificationKeys(options: WechatPayOptions): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const pem of options.platformCertificates ?? []) {
    const cert = new X509Certificate(pem);
    keys.set(serialKey(cert.serialNumber), cert.publicKey);
  }
  if (options.publicKey) {
    if (!options.publicKey.id.startsWith('PUB_KEY_ID_'))
      throw new Error(`WeChat Pay public key id must start with PUB_KEY_ID_ (got ${options.publicKey.id})`);
    keys.set(options.publicKey.id, createPublicKey(options.publicKey.pem));
  }
  if (keys.size === 0) throw new Error('WeChat Pay needs platform certificates or the WeChat Pay public key');
  return keys;
}

/** Maps a transaction's trade_state (query answer or callback resource) to the port's states. */
function tradeState(tx: WechatTransaction): ProviderTradeState {
  switch (tx.trade_state) {
    // REFUND: the trade was paid and (part of) it has since been refunded — the payment did happen.
    case 'SUCCESS':
    case 'REFUND': {
      const paidAt = Date.parse(tx.success_time ?? '');
      if (!tx.transaction_id || typeof tx.amount?.total !== 'number' || Number.isNaN(paidAt))
        throw new ProviderError(`WeChat Pay reported ${tx.trade_state} without transaction details`);
      return { state: 'paid', transactionId: tx.transaction_id, amountFen: tx.amount.total, paidAt };
    }
    case 'NOTPAY':
      return { state: 'pending', paying: false };
    case 'USERPAYING':
      return { state: 'pending', paying: true };
    case 'CLOSED':
    case 'REVOKED':
      return { state: 'closed' };
    case 'PAYERROR':
      return { state: 'failed', reason: tx.trade_state_desc || 'PAYERROR' };
    default:
      throw new ProviderError(`WeChat Pay reported an unknown trade_state ${tx.trade_state}`);
  }
}

interface WechatTransaction {
  appid?: string;
  mchid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  trade_state_desc?: string;
  success_time?: string;
  amount?: { total?: number };
}

interface NotifyEnvelope {
  event_type?: string;
  resource_type?: string;
  resource?: {
    algorithm?: string;
    ciphertext?: string;
    nonce?: string;
    associated_data?: string;
    original_type?: string;
  };
}

/** SHA256withRSA over `timestamp\nnonce\nbody\n` with the key the serial names. */
function verifySignature(
  keys: Map<string, KeyObject>,
  nowMs: number,
  headers: Record<string, string | undefined>,
  body: string,
  fail: (reason: string) => Error,
) {
  const signature = headers['wechatpay-signature'];
  const timestamp = headers['wechatpay-timestamp'];
  const nonce = headers['wechatpay-nonce'];
  const serial = headers['wechatpay-serial'];
  if (!signature || !timestamp || !nonce || !serial) throw fail('missing Wechatpay-* signature headers');
  if (!/^\d+$/.test(timestamp)) throw fail('malformed Wechatpay-Timestamp');
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > MAX_SKEW_SECONDS)
    throw fail('Wechatpay-Timestamp is more than 300 s away from now');
  const key = keys.get(serialKey(serial));
  if (!key) throw fail(`unknown Wechatpay-Serial ${serial}`);
  const ok = createVerify('RSA-SHA256')
    .update(`${timestamp}\n${nonce}\n${body}\n`, 'utf8')
    .verify(key, signature, 'base64');
  if (!ok) throw fail('signature does not match');
}

/** A callback's AES-256-GCM resource, decrypted with the APIv3 key and parsed. */
function decryptResource(apiV3Key: Buffer, resource: NonNullable<NotifyEnvelope['resource']>): unknown {
  if (resource.algorithm !== 'AEAD_AES_256_GCM')
    throw new NotifyRejected(`unsupported resource algorithm ${resource.algorithm}`);
  if (!resource.ciphertext || !resource.nonce) throw new NotifyRejected('resource without ciphertext');
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length <= 16) throw new NotifyRejected('resource ciphertext too short');
  try {
    const decipher = createDecipheriv('aes-256-gcm', apiV3Key, Buffer.from(resource.nonce, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - 16));
    decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
    const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
    return JSON.parse(plain.toString('utf8'));
  } catch {
    throw new NotifyRejected('resource decryption failed (wrong APIv3 key or altered resource)');
  }
}

/** An error answer (status not 2xx) as the ProviderError to throw, with WeChat Pay's code when it gave one. */
function refusal(call: string, status: number, text: string): ProviderError {
  let code: string | undefined;
  let message = text.slice(0, 200);
  try {
    const parsed = JSON.parse(text) as { code?: string; message?: string };
    code = parsed.code;
    message = parsed.message ?? message;
  } catch {}
  return new ProviderError(`WeChat Pay refused ${call}: ${status} ${message}`, code);
}

/** The Authorization header of a request: SHA256withRSA over `method\npath`, time, a nonce and the body. */
function signRequest(
  options: Pick<WechatPayOptions, 'mchId' | 'merchantSerialNo'>,
  privateKey: KeyObject,
  nowMs: number,
  call: string,
  body: string,
): string {
  const timestamp = String(Math.floor(nowMs / 1000));
  const nonce = randomBytes(16).toString('hex').toUpperCase();
  const signature = createSign('RSA-SHA256')
    .update(`${call}\n${timestamp}\n${nonce}\n${body}\n`, 'utf8')
    .sign(privateKey, 'base64');
  return (
    `${AUTH_SCHEMA} mchid="${options.mchId}",nonce_str="${nonce}",` +
    `signature="${signature}",timestamp="${timestamp}",serial_no="${options.merchantSerialNo}"`
  );
}

export function createWechatPayProvider(options: WechatPayOptions): PaymentProvider {
  const now = options.now ?? Date.now;
  const privateKey = createPrivateKey(options.merchantPrivateKey);
  const keys = verificationKeys(options);
  const apiV3Key = Buffer.from(options.apiV3Key, 'utf8');
  if (apiV3Key.length !== 32) throw new Error('The WeChat Pay APIv3 key must be 32 bytes');
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function request(method: 'GET' | 'POST', pathAndQuery: string, payload?: unknown) {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const authorization = signRequest(options, privateKey, now(), `${method}\n${pathAndQuery}`, body);
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${pathAndQuery}`, {
        method,
        headers: {
          accept: 'application/json',
          'user-agent': USER_AGENT,
          authorization,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: payload === undefined ? undefined : body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new ProviderError(`WeChat Pay is unreachable: ${(err as Error).message}`);
    }
    const text = await response.text();
    // Error answers are not always signed; they only ever lead to a failure here.
    if (!response.ok) throw refusal(`${method} ${pathAndQuery}`, response.status, text);
    verifySignature(
      keys,
      now(),
      Object.fromEntries(response.headers),
      text,
      (reason) => new ProviderError(`WeChat Pay answer rejected: ${reason}`),
    );
    if (!text) return {};
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw new ProviderError(`WeChat Pay answered ${method} ${pathAndQuery} with invalid JSON`);
    }
  }

  const tradePath = (orderId: string) => `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderId)}`;

  return {
    name: 'wechatpay',

    async createQr(order: ProviderOrder) {
      const answer = await request('POST', '/v3/pay/transactions/native', {
        appid: options.appId,
        mchid: options.mchId,
        description: truncateUtf8(order.description, 127),
        out_trade_no: order.orderId,
        time_expire: beijingRfc3339(order.expiresAt),
        notify_url: order.notifyUrl,
        amount: { total: order.amountFen, currency: 'CNY' },
      });
      if (typeof answer.code_url !== 'string' || !answer.code_url)
        throw new ProviderError('WeChat Pay created the order without a code_url');
      return { codeUrl: answer.code_url };
    },

    async query(orderId: string) {
      let tx: WechatTransaction;
      try {
        tx = await request('GET', `${tradePath(orderId)}?mchid=${encodeURIComponent(options.mchId)}`);
      } catch (err) {
        // Never created there (creation failed on the way): nothing can be paid; expiry closes it.
        if (err instanceof ProviderError && err.providerCode === 'ORDER_NOT_EXIST')
          return { state: 'pending', paying: false };
        throw err;
      }
      if (tx.out_trade_no !== orderId || tx.mchid !== options.mchId)
        throw new ProviderError(`WeChat Pay answered the query for ${orderId} about another trade`);
      return tradeState(tx);
    },

    async close(orderId: string) {
      try {
        await request('POST', `${tradePath(orderId)}/close`, { mchid: options.mchId });
      } catch (err) {
        // Closing twice is fine (the port's promise); a trade that never existed cannot be paid either.
        if (
          err instanceof ProviderError &&
          (err.providerCode === 'ORDER_CLOSED' || err.providerCode === 'ORDER_NOT_EXIST')
        )
          return;
        throw err;
      }
    },

    async refund(refund: RefundRequest) {
      const answer = await request('POST', '/v3/refund/domestic/refunds', {
        transaction_id: refund.transactionId,
        out_refund_no: refund.refundId,
        reason: truncateUtf8(refund.reason, 80),
        amount: { refund: refund.amountFen, total: refund.totalFen, currency: 'CNY' },
      });
      // PROCESSING is accepted: the refund is under way and out_refund_no makes retries safe.
      if (answer.status === 'CLOSED' || answer.status === 'ABNORMAL')
        throw new ProviderError(
          `WeChat Pay refund ${refund.refundId} is ${answer.status}`,
          String(answer.status),
        );
    },

    async verifyNotify(notify: NotifyRequest): Promise<VerifiedNotice> {
      const body = notify.rawBody.toString('utf8');
      verifySignature(keys, now(), notify.headers, body, (reason) => new NotifyRejected(reason));
      let envelope: NotifyEnvelope;
      try {
        envelope = JSON.parse(body) as NotifyEnvelope;
      } catch {
        throw new NotifyRejected('body is not JSON');
      }
      if (!envelope.resource) throw new NotifyRejected('callback without resource');
      const resource = decryptResource(apiV3Key, envelope.resource) as WechatTransaction;
      if (resource.mchid !== options.mchId) throw new NotifyRejected(`mchid ${resource.mchid} is not ours`);
      if (!resource.out_trade_no) throw new NotifyRejected('resource without out_trade_no');
      const event = envelope.event_type ?? '';
      // Refund results: ours are tracked by the refund call itself; they do not change a payment.
      if (event.startsWith('REFUND.')) return { orderId: resource.out_trade_no, trade: null };
      if (!event.startsWith('TRANSACTION.')) throw new NotifyRejected(`unexpected event_type ${event}`);
      if (resource.appid !== options.appId) throw new NotifyRejected(`appid ${resource.appid} is not ours`);
      try {
        return { orderId: resource.out_trade_no, trade: tradeState(resource) };
      } catch (err) {
        throw new NotifyRejected((err as Error).message);
      }
    },

    ackReply(): NotifyReply {
      return { status: 200, contentType: 'application/json', body: JSON.stringify({ code: 'SUCCESS' }) };
    },

    nackReply(reason: string): NotifyReply {
      // Any non-2xx makes WeChat Pay retry the callback later.
      return {
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'FAIL', message: reason }),
      };
    },
  };
}

function required(config: Config, variable: keyof Config): string {
  const value = config[variable];
  if (typeof value !== 'string' || !value)
    throw new ConfigError(`${String(variable)} is required when PAYMENT_WECHAT_PROVIDER=wechatpay`);
  return value;
}

/** Reads the key files named by the WECHATPAY_* variables; a bad file fails naming its variable. */
export function loadWechatPayOptions(config: Config): WechatPayOptions {
  const keyFile = required(config, 'WECHATPAY_MERCHANT_PRIVATE_KEY_FILE');
  const merchantPrivateKey = readConfigFile('WECHATPAY_MERCHANT_PRIVATE_KEY_FILE', keyFile);
  try {
    createPrivateKey(merchantPrivateKey);
  } catch (err) {
    throw new ConfigError(
      `WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: ${resolveConfigPath(keyFile)} is not a PEM private key (${(err as Error).message})`,
    );
  }

  let platformCertificates: string[] | undefined;
  if (config.WECHATPAY_PLATFORM_CERTS_DIR) {
    const dir = resolveConfigPath(config.WECHATPAY_PLATFORM_CERTS_DIR);
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => /\.(pem|crt|cer)$/i.test(name));
    } catch (err) {
      throw new ConfigError(`WECHATPAY_PLATFORM_CERTS_DIR: cannot read ${dir} (${(err as Error).message})`);
    }
    if (names.length === 0)
      throw new ConfigError(`WECHATPAY_PLATFORM_CERTS_DIR: ${dir} holds no .pem/.crt/.cer certificate`);
    platformCertificates = names.sort().map((name) => {
      const pem = readConfigFile('WECHATPAY_PLATFORM_CERTS_DIR', path.join(dir, name));
      try {
        new X509Certificate(pem);
      } catch (err) {
        throw new ConfigError(
          `WECHATPAY_PLATFORM_CERTS_DIR: ${name} is not an X.509 certificate (${(err as Error).message})`,
        );
      }
      return pem;
    });
  }

  let publicKey: WechatPayOptions['publicKey'];
  if (config.WECHATPAY_PUBLIC_KEY_FILE) {
    const pem = readConfigFile('WECHATPAY_PUBLIC_KEY_FILE', config.WECHATPAY_PUBLIC_KEY_FILE);
    try {
      createPublicKey(pem);
    } catch (err) {
      throw new ConfigError(
        `WECHATPAY_PUBLIC_KEY_FILE: ${resolveConfigPath(config.WECHATPAY_PUBLIC_KEY_FILE)} is not a PEM public key (${(err as Error).message})`,
      );
    }
    publicKey = { id: required(config, 'WECHATPAY_PUBLIC_KEY_ID'), pem };
  }
  if (!platformCertificates && !publicKey)
    throw new ConfigError(
      'WECHATPAY_PLATFORM_CERTS_DIR or WECHATPAY_PUBLIC_KEY_FILE (with WECHATPAY_PUBLIC_KEY_ID) is required when PAYMENT_WECHAT_PROVIDER=wechatpay',
    );

  return {
    appId: required(config, 'WECHATPAY_APPID'),
    mchId: required(config, 'WECHATPAY_MCHID'),
    merchantSerialNo: required(config, 'WECHATPAY_MERCHANT_SERIAL_NO'),
    merchantPrivateKey,
    apiV3Key: required(config, 'WECHATPAY_APIV3_KEY'),
    platformCertificates,
    publicKey,
    baseUrl: config.WECHATPAY_BASE_URL,
  };
}
