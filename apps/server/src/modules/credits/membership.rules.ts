import { FREE_LEVEL } from '@vw/contract';
import type { Db } from '../../db/database.ts';
import type { CreditAccount, CreditLot } from '../../db/schema.ts';
import { addMonthsClamped, DAY_MS } from './calendar.ts';
import { updateAccount } from './credits.repo.ts';
import type { GrantInput } from './ledger.service.ts';
import { getPlan } from './plans.ts';

/** Start of period `index` of a plan (month periods from the anchor, clamped; day plans have one). */
export function periodStart(account: CreditAccount, index: number): number {
  return account.period_unit === 'month' ? addMonthsClamped(account.anchor_at!, index) : account.anchor_at!;
}

export function planEnd(account: Pick<CreditAccount, 'anchor_at' | 'period_unit' | 'period_count'>): number {
  return account.period_unit === 'month'
    ? addMonthsClamped(account.anchor_at!, account.period_count)
    : account.anchor_at! + account.period_count * DAY_MS;
}

function periodsOf(account: CreditAccount): number {
  return account.period_unit === 'month' ? account.period_count : 1;
}

/** The `previous` entry an account keeps of the plan it leaves (shown as the previous plan). */
export function previousPlanEntry(account: CreditAccount, title: string): string {
  return JSON.stringify({
    level: account.level,
    title,
    expires_at: account.expires_at,
    is_annual: account.is_annual,
  });
}

export function isPaid(account: CreditAccount, now: number): boolean {
  return account.level > FREE_LEVEL && account.expires_at !== null && account.expires_at > now;
}

/** When issueDuePeriods next has work: the start of the next period to issue, or the plan's end. */
export function nextDueAt(account: CreditAccount): number | null {
  if (account.level <= FREE_LEVEL || account.anchor_at === null || account.expires_at === null) return null;
  const issued = account.issued_periods;
  return issued < periodsOf(account)
    ? Math.min(periodStart(account, issued), account.expires_at)
    : account.expires_at;
}

/** Whether issueDuePeriods has work: a period whose start has come, or a plan that has expired. */
export function hasDuePeriods(account: CreditAccount, now: number): boolean {
  const due = nextDueAt(account);
  return due !== null && due <= now;
}

/** Writes an account changed inside its credit transaction, with the time it is next due. */
export async function saveAccount(tx: Db, account: CreditAccount, now: number): Promise<CreditAccount> {
  const saved = { ...account, due_at: nextDueAt(account), updated_at: now };
  await updateAccount(tx, account.user_id, saved);
  return saved;
}

/**
 * Issues every period of the plan whose start has come (each exactly once: the lot's grant key
 * names the membership and the period), then ends a plan that has expired. Monthly credits expire
 * at the end of their period; a day plan's credits (a trial) are prorated and last the plan.
 */
export async function issueDuePeriods(
  tx: Db,
  account: CreditAccount,
  now: number,
  grant: (tx: Db, input: GrantInput, now: number) => Promise<CreditLot>,
): Promise<CreditAccount> {
  // Nothing due (the usual case on every credit operation): no plan read, no write (but a due time
  // not written yet, from an account older than it, is).
  const due = nextDueAt(account);
  if (due === null || due > now) return account.due_at === due ? account : saveAccount(tx, account, now);
  const anchorAt = account.anchor_at!;
  const expiresAt = account.expires_at!;
  let issued = account.issued_periods;
  const plan = await getPlan(tx, account.level);
  while (issued < periodsOf(account) && periodStart(account, issued) <= now) {
    const start = periodStart(account, issued);
    const end =
      account.period_unit === 'month'
        ? Math.min(addMonthsClamped(anchorAt, issued + 1), expiresAt)
        : expiresAt;
    const amount =
      account.period_unit === 'month'
        ? plan.monthly_credits
        : Math.round((plan.monthly_credits * account.period_count) / 30);
    if (amount > 0) {
      await grant(
        tx,
        {
          userId: account.user_id,
          source: 'membership',
          amount,
          effectiveAt: start,
          expiresAt: end,
          grantKey: `membership:${account.membership_id}:${issued}`,
          remark: `${plan.title}第 ${issued + 1} 期积分`,
        },
        now,
      );
    }
    issued += 1;
  }
  let next = { ...account, issued_periods: issued };
  if (expiresAt <= now) {
    // The plan ended: back to the free plan, keeping it as the previous entry.
    next = {
      ...next,
      level: FREE_LEVEL,
      is_annual: 0,
      anchor_at: null,
      expires_at: null,
      period_count: 0,
      membership_id: null,
      issued_periods: 0,
      previous: previousPlanEntry(account, plan.title),
    };
  }
  return saveAccount(tx, next, now);
}
