import { ErrorCode } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { CreditAccount, CreditHold, CreditLot } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { newId, newOrderedId } from '../../ids.ts';
import {
  changeLotRemaining,
  findHoldByKey,
  findHoldLots,
  findLotByGrantKey,
  findLotsWithCredits,
  type HoldWithLots,
  insertHold,
  insertHoldLots,
  insertLedger,
  insertLot,
  lockAccount,
  settleHold,
  sumHeld,
  sumLedger,
} from './credits.repo.ts';
import { issueDuePeriods } from './membership.rules.ts';

type Ctx = Pick<AppContext, 'db' | 'dbKind' | 'clock'>;
type LedgerKind = 'grant' | 'hold' | 'release' | 'expire';

/** The pieces of a transaction on one user's credits: the locked account and the time it runs at. */
export interface AccountTx {
  tx: Db;
  account: CreditAccount;
  now: number;
  /** Lots that can be spent now, in spend order (after the catch-up). */
  spendable: CreditLot[];
}

/**
 * Runs `work` on a user's credits in one transaction, after catching up what is due: periods of a
 * plan whose time has come are issued, the plan is ended when it expired, lots past their expiry
 * are written off. Running the catch-up twice finds nothing left to do.
 */
export async function withCreditAccount<T>(
  ctx: Ctx,
  userId: string,
  work: (a: AccountTx) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, ctx.dbKind, async (tx) => {
    const now = ctx.clock.now();
    const locked = await lockAccount(tx, ctx.dbKind, userId, now);
    const account = await issueDuePeriods(tx, locked, now, grantLot);
    const spendable = [];
    for (const lot of await findLotsWithCredits(tx, userId)) {
      if (lot.expires_at <= now) await expireLot(tx, lot, now);
      else if (lot.effective_at <= now) spendable.push(lot);
    }
    return work({ tx, account, now, spendable });
  });
}

function ledgerRow(
  userId: string,
  lotId: string,
  kind: LedgerKind,
  delta: number,
  holdId: string | null,
  now: number,
) {
  return {
    id: newOrderedId('led'),
    user_id: userId,
    lot_id: lotId,
    kind,
    delta,
    hold_id: holdId,
    created_at: now,
  };
}

export interface GrantInput {
  userId: string;
  source: CreditLot['source'];
  amount: number;
  /** Defaults to now; issuance passes the start of the period it issues. */
  effectiveAt?: number;
  expiresAt: number;
  /** Idempotency: a second grant with the same key returns the first lot. */
  grantKey: string;
  remark: string;
}

/** Adds a lot inside an account transaction (issuance, purchases, redeem codes). */
export async function grantLot(tx: Db, input: GrantInput, now: number): Promise<CreditLot> {
  const existing = await findLotByGrantKey(tx, input.grantKey);
  if (existing) return existing;
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw AppError.named('err_invalid_param');
  const lot: CreditLot = {
    id: newId('lot'),
    user_id: input.userId,
    source: input.source,
    amount: input.amount,
    remaining: input.amount,
    effective_at: input.effectiveAt ?? now,
    expires_at: input.expiresAt,
    created_at: now,
    grant_key: input.grantKey,
    remark: input.remark,
  };
  await insertLot(tx, lot);
  await insertLedger(tx, [ledgerRow(input.userId, lot.id, 'grant', lot.amount, null, now)]);
  return lot;
}

export async function grantCredits(ctx: Ctx, input: GrantInput): Promise<CreditLot> {
  return withCreditAccount(ctx, input.userId, ({ tx, now }) => grantLot(tx, input, now));
}

/** Writes off what is left of an expired lot; credits held by running tasks are not in `remaining`. */
async function expireLot(tx: Db, lot: CreditLot, now: number): Promise<void> {
  if (await changeLotRemaining(tx, lot.id, -lot.remaining)) {
    await insertLedger(tx, [ledgerRow(lot.user_id, lot.id, 'expire', -lot.remaining, null, now)]);
  }
}

export interface HoldInput {
  userId: string;
  /** Idempotency: the same key returns the same hold. */
  holdKey: string;
  amount: number;
  tool: string;
  taskId: string;
  taskName: string;
}

/**
 * Reserves credits for a task, drawing lots in spend order. Not enough → code 1010 and nothing
 * written. Held credits leave the balance at once and come back only through release.
 */
export async function holdCredits(ctx: Ctx, input: HoldInput): Promise<CreditHold> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw AppError.named('err_invalid_param');
  return withCreditAccount(ctx, input.userId, async ({ tx, now, spendable: lots }) => {
    // The same key again returns the first hold (checked where the key decides the outcome, so
    // the usual path costs no extra read: the insert itself skips a known key).
    const existingHold = async () => {
      const existing = await findHoldByKey(tx, input.holdKey);
      if (existing && existing.user_id !== input.userId) throw AppError.named('err_invalid_param');
      return existing;
    };
    if (lots.reduce((sum, lot) => sum + lot.remaining, 0) < input.amount) {
      const existing = await existingHold();
      if (existing) return existing;
      throw AppError.code(ErrorCode.InsufficientBalance);
    }
    const hold: CreditHold = {
      id: newOrderedId('hold'),
      user_id: input.userId,
      hold_key: input.holdKey,
      tool: input.tool,
      task_id: input.taskId,
      task_name: input.taskName,
      amount: input.amount,
      captured: null,
      status: 'held',
      created_at: now,
      settled_at: null,
    };
    if (!(await insertHold(tx, hold))) return (await existingHold())!;
    const drawn: Array<{ hold_id: string; lot_id: string; amount: number; seq: number }> = [];
    let need = input.amount;
    for (const lot of lots) {
      if (need === 0) break;
      const take = Math.min(lot.remaining, need);
      if (!(await changeLotRemaining(tx, lot.id, -take)))
        throw new Error(`lot ${lot.id} changed under a lock`);
      drawn.push({ hold_id: hold.id, lot_id: lot.id, amount: take, seq: drawn.length });
      need -= take;
    }
    await insertHoldLots(tx, drawn);
    await insertLedger(
      tx,
      drawn.map((d) => ledgerRow(input.userId, d.lot_id, 'hold', -d.amount, hold.id, now)),
    );
    return hold;
  });
}

/**
 * Gives `amount` of a hold back to the lots it came from, last drawn first. Credits returned to a
 * lot that expired meanwhile are written off at once (expiry never took them while they were held):
 * the ledger records both, the lot's remaining credits stay as they are.
 */
async function giveBack(
  tx: Db,
  hold: CreditHold,
  lots: HoldWithLots['lots'],
  amount: number,
  now: number,
): Promise<void> {
  let left = amount;
  const rows = [];
  for (const drawn of lots) {
    if (left === 0) break;
    const back = Math.min(drawn.amount, left);
    left -= back;
    rows.push(ledgerRow(hold.user_id, drawn.lot_id, 'release', back, hold.id, now));
    if (drawn.expires_at <= now) {
      rows.push(ledgerRow(hold.user_id, drawn.lot_id, 'expire', -back, hold.id, now));
    } else if (!(await changeLotRemaining(tx, drawn.lot_id, back))) {
      throw new Error(`lot ${drawn.lot_id} is missing`);
    }
  }
  await insertLedger(tx, rows);
}

async function settle(
  ctx: Ctx,
  holdKey: string,
  outcome: (hold: CreditHold) => { status: 'captured' | 'released'; captured: number },
): Promise<CreditHold> {
  // Read, checks and settlement in one transaction; the read takes no lock (PostgreSQL locks the
  // account next; the compare-and-set settles a hold once), so it may as well sit inside.
  return inTransaction(ctx.db, ctx.dbKind, async (tx) => {
    const hold = await findHoldByKey(tx, holdKey);
    if (!hold) throw AppError.named('err_not_found');
    if (hold.status !== 'held') return hold; // settled before: idempotent
    const result = outcome(hold);
    const now = ctx.clock.now();
    // Settling changes only what the hold drew. PostgreSQL: the account lock orders it with the
    // user's other credit transactions; SQLite's transaction holds the write lock already.
    if (ctx.dbKind === 'postgres') await lockAccount(tx, ctx.dbKind, hold.user_id, now);
    if (!(await settleHold(tx, holdKey, { ...result, settled_at: now }))) {
      return (await findHoldByKey(tx, holdKey))!; // another call settled it first
    }
    if (result.captured < hold.amount) {
      await giveBack(tx, hold, await findHoldLots(tx, hold.id), hold.amount - result.captured, now);
    }
    return { ...hold, ...result, settled_at: now };
  });
}

/** Spends `amount` (≤ the hold) of a hold on success and gives the rest back. Idempotent. */
export async function captureCredits(ctx: Ctx, holdKey: string, amount?: number): Promise<CreditHold> {
  return settle(ctx, holdKey, (hold) => {
    const captured = amount ?? hold.amount;
    if (!Number.isInteger(captured) || captured < 0 || captured > hold.amount) {
      throw AppError.named('err_invalid_param', '结算积分不能超过预扣积分');
    }
    return { status: 'captured', captured };
  });
}

/** Gives a whole hold back (task failed; failure codes 1/3/4/5 refund). Idempotent. */
export async function releaseCredits(ctx: Ctx, holdKey: string): Promise<CreditHold> {
  return settle(ctx, holdKey, () => ({ status: 'released', captured: 0 }));
}

/** Hold and capture at once, for work that is done the moment it is paid for. */
export async function spendCredits(ctx: Ctx, input: HoldInput): Promise<CreditHold> {
  await holdCredits(ctx, input);
  return captureCredits(ctx, input.holdKey);
}

/** Balance = the sum of the ledger; `held` is what running tasks have reserved. */
export async function getBalance(ctx: Ctx, userId: string): Promise<{ balance: number; held: number }> {
  return withCreditAccount(ctx, userId, async ({ tx }) => ({
    balance: await sumLedger(tx, userId),
    held: await sumHeld(tx, userId),
  }));
}
