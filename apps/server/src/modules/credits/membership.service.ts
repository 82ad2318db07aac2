import { CreditType, ErrorCode, FREE_LEVEL, type TenantBonusWithPrevious } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import type { CreditAccount } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { sumHeld, sumLedger, sumMembershipRemaining } from './credits.repo.ts';
import { type AccountTx, grantLot, withCreditAccount } from './ledger.service.ts';
import { isPaid, issueDuePeriods, planEnd, previousPlanEntry, saveAccount } from './membership.rules.ts';
import { getPlan } from './plans.ts';

type Ctx = Pick<AppContext, 'db' | 'dbKind' | 'clock'>;

export interface MembershipGrant {
  userId: string;
  level: number;
  isAnnual: boolean;
  /** Length of the plan: months (monthly/annual plans) or days (trials). */
  months?: number;
  days?: number;
}

/**
 * The membership rules every way in shares (purchase, redeem code, trial, operator):
 * a lower level than the current paid plan → 2000; an annual member taking a monthly plan → 2004;
 * the same plan extends it; a higher plan (or none in force) starts a new one from now.
 * Runs inside the caller's account transaction.
 */
export async function applyMembership(
  { tx: db, account, now }: AccountTx,
  grant: MembershipGrant,
): Promise<CreditAccount> {
  const unit = grant.days ? 'day' : 'month';
  const count = grant.days ?? grant.months ?? 0;
  if (!Number.isInteger(count) || count <= 0 || grant.level <= FREE_LEVEL)
    throw AppError.named('err_invalid_param');

  let next: CreditAccount;
  if (isPaid(account, now)) {
    if (grant.level < account.level) throw AppError.code(ErrorCode.PlanBelowCurrentLevel);
    if (account.is_annual && !grant.isAnnual && unit === 'month') {
      throw AppError.code(ErrorCode.AnnualMemberCannotBuyMonthly);
    }
    if (grant.level === account.level && unit === account.period_unit && unit === 'month') {
      // Same plan: more periods on the same anchor, so issuance dates stay on the anchor's day.
      next = {
        ...account,
        period_count: account.period_count + count,
        is_annual: grant.isAnnual ? 1 : account.is_annual,
      };
      next.expires_at = planEnd(next);
      return saveAccount(db, next, now);
    }
  }
  const previousPlan = isPaid(account, now) ? await getPlan(db, account.level) : null;
  next = {
    ...account,
    level: grant.level,
    is_annual: grant.isAnnual ? 1 : 0,
    anchor_at: now,
    period_unit: unit,
    period_count: count,
    membership_id: newId('mem'),
    issued_periods: 0,
    expires_at: null,
    previous: previousPlan ? previousPlanEntry(account, previousPlan.title) : account.previous,
  };
  next.expires_at = planEnd(next);
  return issueDuePeriods(db, await saveAccount(db, next, now), now, grantLot);
}

export async function grantMembership(ctx: Ctx, grant: MembershipGrant): Promise<CreditAccount> {
  return withCreditAccount(ctx, grant.userId, (a) => applyMembership(a, grant));
}

/** The tenant bonus of spec §3, with the previous plan and held credits. */
export async function getTenantBonus(ctx: Ctx, userId: string): Promise<TenantBonusWithPrevious> {
  return withCreditAccount(ctx, userId, async ({ tx, account, now }) => {
    const paid = isPaid(account, now);
    const plan = await getPlan(tx, paid ? account.level : FREE_LEVEL);
    const planLeft = await sumMembershipRemaining(tx, userId, account.membership_id);
    const previous = account.previous
      ? (JSON.parse(account.previous) as Record<string, number | string>)
      : null;
    return {
      level: paid ? account.level : FREE_LEVEL,
      credit_type: !paid
        ? CreditType.Free
        : planLeft > 0
          ? CreditType.PlanCredits
          : CreditType.PlanCreditsExhausted,
      title: plan.title,
      expired_time: paid ? Math.floor(account.expires_at! / 1000) : 0,
      credit_balance: await sumLedger(tx, userId),
      is_free_package: paid ? 0 : 1,
      is_annual_package: paid ? account.is_annual : 0,
      previous: previous
        ? {
            level: Number(previous.level),
            title: String(previous.title),
            expired_time: Math.floor(Number(previous.expires_at) / 1000),
            is_annual_package: Number(previous.is_annual),
          }
        : null,
      held_credits: await sumHeld(tx, userId),
    };
  });
}
