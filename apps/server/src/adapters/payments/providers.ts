import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { PayChannel, PaymentProvider, PaymentProviderName } from './payments.ts';
import { SandboxProvider } from './sandbox.ts';

/** The provider of each channel, chosen by the config; a channel without one is unavailable. */
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
  const pick = (name: PaymentProviderName): PaymentProvider | null => (name === 'sandbox' ? sandbox : null);
  const channels: Record<PayChannel, PaymentProvider | null> = {
    WECHAT: pick(config.PAYMENT_WECHAT_PROVIDER),
    ALIPAY: pick(config.PAYMENT_ALIPAY_PROVIDER),
  };
  const all = [channels.WECHAT, channels.ALIPAY].filter((p): p is PaymentProvider => p !== null);
  return {
    forChannel: (channel) => channels[channel],
    byName: (name) => all.find((p) => p.name === name) ?? null,
    sandbox,
    problems,
  };
}
