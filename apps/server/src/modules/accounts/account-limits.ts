import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { getSetting } from '../settings/settings.service.ts';

const WINDOW_MS = 60_000;

/** What an account may do only so many times a minute (runtime setting `account_rate_limits`). */
export type AccountAction = 'tasks' | 'uploads' | 'webhook_tests';

/**
 * Counts one `action` of the account and refuses it (429 with Retry-After) past the minute's limit.
 * The routes' limits count per client address, which one account can spread over many addresses
 * (an IPv6 /64 alone has millions); this one follows the account wherever it calls from.
 */
export async function limitAccount(
  ctx: Pick<AppContext, 'db' | 'accountLimits'>,
  userId: string,
  action: AccountAction,
): Promise<void> {
  const perMinute = (await getSetting(ctx, 'account_rate_limits'))[action];
  const window = await ctx.accountLimits.hit(`${action}:${userId}`, perMinute, WINDOW_MS);
  if (!window.allowed) throw AppError.tooManyRequests(window.resetMs / 1000);
}
