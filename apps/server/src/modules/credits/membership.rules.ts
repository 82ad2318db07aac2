import { FREE_LEVEL } from '@vw/contract';
import type { Db } from '../../db/database.ts';
import type { CreditAccount, CreditLot } from '../../db/schema.ts';
import { getSetting } from '../settings/settings.service.ts';
import { addMonthsClamped, businessMonth, DAY_MS, nextMonthStart } from './calendar.ts';
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

/**
 * Whether the free plan's credits of this month are still to issue. Issued lazily, by the first
 * credit operation or read of the month (not by the sweep: dormant free accounts get nothing).
 */
export function freeCreditsDue(account: CreditAccount, now: number): boolean {
  return account.level <= FREE_LEVEL && account.free_month !== businessMonth(now);
}

/**
 * Whether issueDuePeriods has work: a period whose start has come, a plan that has expired, or the
 * free plan's month not issued yet.
 */
export function hasDuePeriods(account: CreditAccount, now: number): boolean {
  const due = nextDueAt(account);
  return (due !== null && due <= now) || freeCreditsDue(account, now);
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
  const planDue = due !== null && due <= now;
  if (!planDue && !freeCreditsDue(account, now)) {
    return account.due_at === due ? account : saveAccount(tx, account, now);
  }
  let next = planDue ? await issuePlanPeriods(tx, account, now, grant) : account;
  // After a plan ended, too: the free plan's credits of the month start at once.
  if (freeCreditsDue(next, now)) next = await issueFreeMonth(tx, next, now, grant);
  return saveAccount(tx, next, now);
}

/**
 * The free plan's credits of the current month (runtime setting free_monthly_credits), so a new
 * user can try every tool a little; they expire when the month ends. The grant key names the user
 * and the month, so never twice; the month is recorded even when the setting is 0.
 */
async function issueFreeMonth(
  tx: Db,
  account: CreditAccount,
  now: number,
  grant: (tx: Db, input: GrantInput, now: number) => Promise<CreditLot>,
): Promise<CreditAccount> {
  const month = businessMonth(now);
  const amount = await getSetting({ db: tx }, 'free_monthly_credits');
  if (amount > 0) {
    await grant(
      tx,
      {
        userId: account.user_id,
        source: 'membership',
        amount,
        expiresAt: nextMonthStart(now),
        grantKey: `free:${account.user_id}:${month}`,
        remark: `免费版 ${month} 月积分`,
      },
      now,
    );
  }
  return { ...account, free_month: month };
}

/** Issues the due periods of a paid plan and ends it when it expired (the account is not saved). */
async function issuePlanPeriods(
  tx: Db,
  account: CreditAccount,
  now: number,
  grant: (tx: Db, input: GrantInput, now: number) => Promise<CreditLot>,
): Promise<CreditAccount> {
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
  return next;
}
