import { randomInt } from 'node:crypto';
import { codeMessages, ErrorCode, REDEEM_CODE_LENGTH, type RedeemResult } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { DAY_MS } from '../credits/calendar.ts';
import { grantLot, withCreditAccount } from '../credits/ledger.service.ts';
import { applyMembership } from '../credits/membership.service.ts';
import { getPlan } from '../credits/plans.ts';
import {
  claimCode,
  countFailures,
  findBatches,
  findCodesOfBatch,
  findCodeWithBatch,
  insertAttempt,
  insertBatch,
  voidBatch,
} from './redeem.repo.ts';

/** Five failed attempts within 30 minutes lock redeeming for the rest of that half hour (code 5003). */
export const REDEEM_LOCK = { failures: 5, windowMs: 30 * 60_000 };
/** Credits from a code last as long as a top-up pack. */
const REDEEMED_CREDITS_TTL_MS = 2 * 365 * DAY_MS;
// No 0/O, 1/I/L: codes are typed by hand.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function normalizeCode(input: string): string {
  return input.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

function fail(code: number, message?: string): never {
  throw AppError.code(code, message ?? codeMessages[code]);
}

/**
 * Redeems a code for the signed-in user (spec §8 redeem codes). The claim and what it grants are one
 * transaction: a refused grant (2000, 2004) leaves the code unused; a code is used at most once.
 */
export async function redeemCode(ctx: AppContext, userId: string, input: string): Promise<RedeemResult> {
  const now = ctx.clock.now();
  if ((await countFailures(ctx.db, userId, now - REDEEM_LOCK.windowMs)) >= REDEEM_LOCK.failures) {
    fail(ErrorCode.RedeemTooFrequent);
  }
  try {
    const result = await withCreditAccount(ctx, userId, async (account) => {
      const code = normalizeCode(input);
      const row = code.length === REDEEM_CODE_LENGTH ? await findCodeWithBatch(account.tx, code) : undefined;
      if (!row || row.voided_at !== null) fail(ErrorCode.RedeemCodeInvalid);
      if (row.used_by !== null) fail(ErrorCode.RedeemCodeUsed);
      if (row.expires_at <= account.now) fail(ErrorCode.RedeemCodeExpired);
      if (!(await claimCode(account.tx, code, userId, account.now))) fail(ErrorCode.RedeemCodeUsed);

      if (row.kind === 'credits') {
        const lot = await grantLot(
          account.tx,
          {
            userId,
            source: 'redeem',
            amount: row.credits!,
            expiresAt: account.now + REDEEMED_CREDITS_TTL_MS,
            grantKey: `redeem:${code}`,
            remark: `兑换码 ${code.slice(0, 4)}…`,
          },
          account.now,
        );
        return { package_name: `${row.credits} 积分`, expire_time: Math.floor(lot.expires_at / 1000) };
      }
      const plan = await getPlan(account.tx, row.level!);
      const membership = await applyMembership(account, {
        userId,
        level: row.level!,
        isAnnual: row.is_annual === 1,
        months: row.months ?? undefined,
        days: row.days ?? undefined,
      }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === ErrorCode.PlanBelowCurrentLevel) {
          fail(ErrorCode.PlanBelowCurrentLevel, '您已是会员用户，暂不支持兑换低版本套餐');
        }
        throw error;
      });
      return {
        package_name: `${plan.title}${row.is_annual ? '年度' : ''}会员套餐`,
        expire_time: Math.floor(membership.expires_at! / 1000),
      };
    });
    await insertAttempt(ctx.db, { id: newId('ra'), user_id: userId, succeeded: 1, created_at: now });
    return result;
  } catch (error) {
    if (
      error instanceof AppError &&
      error.code >= ErrorCode.RedeemCodeInvalid &&
      error.code <= ErrorCode.RedeemCodeExpired
    ) {
      await insertAttempt(ctx.db, { id: newId('ra'), user_id: userId, succeeded: 0, created_at: now });
    }
    throw error;
  }
}

export interface BatchSpec {
  kind: 'plan' | 'credits';
  level?: number;
  isAnnual?: boolean;
  months?: number;
  days?: number;
  credits?: number;
  count: number;
  /** How long the codes can be redeemed. */
  validDays: number;
  note?: string;
}

/** Creates a batch of fresh codes (operator command); returns the batch id and its codes. */
export async function createRedeemBatch(
  ctx: AppContext,
  spec: BatchSpec,
): Promise<{ batchId: string; codes: string[] }> {
  if (!Number.isInteger(spec.count) || spec.count < 1 || spec.count > 100_000)
    throw new Error('count must be 1..100000');
  if (spec.kind === 'plan') {
    if (!spec.level || spec.level <= 100) throw new Error('a plan package needs --level above 100');
    if (!spec.months === !spec.days) throw new Error('a plan package needs either --months or --days');
  } else if (!spec.credits || spec.credits <= 0) {
    throw new Error('a credits package needs --credits');
  }
  const codes = new Set<string>();
  while (codes.size < spec.count) {
    codes.add(
      Array.from({ length: REDEEM_CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
    );
  }
  const now = ctx.clock.now();
  const batchId = newId('rb');
  const batch = {
    id: batchId,
    kind: spec.kind,
    level: spec.level ?? null,
    is_annual: spec.isAnnual ? 1 : 0,
    months: spec.months ?? null,
    days: spec.days ?? null,
    credits: spec.credits ?? null,
    count: spec.count,
    expires_at: now + spec.validDays * DAY_MS,
    note: spec.note ?? '',
    created_at: now,
  };
  await inTransaction(ctx.db, ctx.dbKind, (tx) => insertBatch(tx, batch, [...codes]));
  return { batchId, codes: [...codes] };
}

export const listRedeemBatches = (ctx: AppContext) => findBatches(ctx.db);
export const listRedeemCodes = (ctx: AppContext, batchId: string) => findCodesOfBatch(ctx.db, batchId);
export const voidRedeemBatch = (ctx: AppContext, batchId: string) =>
  voidBatch(ctx.db, batchId, ctx.clock.now());
