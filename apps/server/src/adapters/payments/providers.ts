import type { PayChannel } from '@vw/contract';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { createAlipayProvider, loadAlipayOptions } from './alipay.ts';
import type { PaymentProvider } from './payments.ts';
import { SandboxProvider } from './sandbox.ts';
import { createWechatPayProvider, loadWechatPayOptions } from './wechatpay.ts';

/**
 * The provider of each channel, chosen by the config; a channel without one is unavailable.
 * Unreadable key files stop start-up with a ConfigError naming the variable.
 */
export interface PaymentProviders {
  forChannel(channel: PayChannel): PaymentProvider | null;
  byName(name: string): PaymentProvider | null;
  /** Present when some channel runs on the sandbox (its pay page needs it). */
  sandbox: SandboxProvider | null;
  /** Why a channel is unavailable, for the log and the operator. */
  problems: string[];
}

export function createPaymentProviders(options: {
  config: Config;
  db: Db;
  now: () => number;
  signingSecret: string;
}): PaymentProviders {
  const { config } = options;
  const problems: string[] = [];
  const sandboxAllowed = !config.isProduction || config.PAYMENT_SANDBOX_IN_PRODUCTION;
  const wantsSandbox =
    config.PAYMENT_WECHAT_PROVIDER === 'sandbox' || config.PAYMENT_ALIPAY_PROVIDER === 'sandbox';
  const sandbox =
    wantsSandbox && sandboxAllowed
      ? new SandboxProvider({
          db: options.db,
          now: options.now,
          publicUrl: config.publicUrl,
          key: `${options.signingSecret}:payments-sandbox`,
        })
      : null;
  if (wantsSandbox && !sandboxAllowed) {
    problems.push(
      'sandbox payments are off in production: set PAYMENT_WECHAT_PROVIDER=wechatpay / PAYMENT_ALIPAY_PROVIDER=alipay with their variables (or PAYMENT_SANDBOX_IN_PRODUCTION=true for a staging site)',
    );
  }
  const now = options.now;
  const channels: Record<PayChannel, PaymentProvider | null> = {
    WECHAT:
      config.PAYMENT_WECHAT_PROVIDER === 'wechatpay'
        ? createWechatPayProvider({ ...loadWechatPayOptions(config), now })
        : sandbox,
    ALIPAY:
      config.PAYMENT_ALIPAY_PROVIDER === 'alipay'
        ? createAlipayProvider({ ...loadAlipayOptions(config), now })
        : sandbox,
  };
  const all = [channels.WECHAT, channels.ALIPAY].filter((p): p is PaymentProvider => p !== null);
  return {
    forChannel: (channel) => channels[channel],
    byName: (name) => all.find((p) => p.name === name) ?? null,
    sandbox,
    problems,
  };
}
