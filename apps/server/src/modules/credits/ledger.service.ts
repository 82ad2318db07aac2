import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/database.ts';
import type { CreditAccount, CreditHold, CreditLot } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../errors.ts';
import { newId, newOrderedId } from '../../ids.ts';
import type { TaskFinished } from '../../tasks/finished.ts';
import { creditMemory } from './credits.memory.ts';
import {
  bySpendOrder,
  changeLotRemaining,
  findHoldByKey,
  findHoldLots,
  findHoldToSettle,
  findLotByGrantKey,
  findLotsWithCredits,
  type HoldWithLots,
  insertHoldDrawing,
  insertLedger,
  insertLot,
  lockAccount,
  type PlannedHold,
  readBalanceState,
  readCreditState,
  settleHoldGivingBack,
  sumHeld,
  sumLedger,
  sumSpentByApiKey,
} from './credits.repo.ts';
import { findActiveLots } from './details.repo.ts';
import { hasDuePeriods, issueDuePeriods } from './membership.rules.ts';

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
  // The transaction changes the account's version: what this process remembers of it is stale.
  creditMemory(ctx.db).forget(userId);
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
  apiKeyId: string | null = null,
) {
  return {
    id: newOrderedId('led'),
    user_id: userId,
    lot_id: lotId,
    kind,
    delta,
    hold_id: holdId,
    created_at: now,
    api_key_id: apiKeyId,
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
  /** The API key that spends (public API): recorded on the hold and its ledger rows, its limit checked. */
  apiKey?: { id: string; creditLimit: number | null };
  /**
   * For a hold owned by a live process rather than durable work (a stream): the process and the
   * lease's end, written with the hold so no crash can leave it unleased. See hold-leases.ts.
   */
  lease?: { owner: string; until: number };
}

/**
 * Reserves credits for a task, drawing lots in spend order. Not enough → code 1010 and nothing
 * written. Held credits leave the balance at once and come back only through release.
 */
export async function holdCredits(ctx: Ctx, input: HoldInput): Promise<CreditHold> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw AppError.named('err_invalid_param');
  if (ctx.dbKind === 'postgres' && input.apiKey?.creditLimit == null) {
    const hold = await holdWithoutLock(ctx, input);
    if (hold) return hold;
  }
  const result = await withCreditAccount(ctx, input.userId, async ({ tx, account, now, spendable }) => {
    // The same key again returns the first hold (checked where the key decides the outcome, so
    // the usual path costs no extra read: the insert itself skips a known key).
    const existingHold = async () => {
      const existing = await findHoldByKey(tx, input.holdKey);
      if (existing && existing.user_id !== input.userId) throw AppError.named('err_invalid_param');
      return existing;
    };
    const planned = planHold(input, spendable, now);
    if (!planned) {
      const existing = await existingHold();
      if (existing) return existing;
      const available = spendable.reduce((sum, lot) => sum + lot.remaining, 0);
      throw AppError.insufficientBalance(input.amount, available);
    }
    // Under the account lock, so concurrent calls on one key cannot together pass its limit.
    if (input.apiKey?.creditLimit != null) {
      const spent = await sumSpentByApiKey(tx, input.apiKey.id);
      if (spent + input.amount > input.apiKey.creditLimit) {
        const existing = await existingHold();
        if (existing) return existing;
        throw AppError.named('err_apikey_credit_limit');
      }
    }
    const write = await insertHoldDrawing(tx, ctx.dbKind, planned, account.version);
    if (write === 'key-exists') return (await existingHold())!;
    if (write === 'account-changed') throw new Error(`account ${input.userId} changed under its lock`);
    return planned;
  });
  // Only once committed: a hold of a rolled-back transaction must not be remembered.
  return 'draws' in result ? creditMemory(ctx.db).held(result) : result;
}

/**
 * PostgreSQL's usual hold in one or two round trips instead of a five-statement transaction: take
 * the account's state (remembered from this process's last write, or read), plan the draws, and
 * write them in one statement that checks the account's version (every write to a user's credits
 * bumps it, so an unchanged version means the plan is still right). Undefined when the locked path
 * must decide: catch-up work is due, the credits do not cover the hold, the key is taken, or the
 * account kept changing.
 */
async function holdWithoutLock(ctx: Ctx, input: HoldInput): Promise<CreditHold | undefined> {
  const memory = creditMemory(ctx.db);
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = ctx.clock.now();
    const state =
      (attempt === 0 && memory.account(input.userId)) || (await readCreditState(ctx.db, input.userId, now));
    if (!state) return;
    const withCredits = state.lots.filter((lot) => lot.remaining > 0);
    if (hasDuePeriods(state.account, now) || withCredits.some((lot) => lot.expires_at <= now)) return;
    const spendable = withCredits.filter((lot) => lot.effective_at <= now).sort(bySpendOrder);
    const planned = planHold(input, spendable, now);
    if (!planned) return;
    const write = await insertHoldDrawing(ctx.db, ctx.dbKind, planned, state.account.version);
    if (write === 'written') return memory.held(planned, state);
    if (write === 'key-exists') return;
  }
}

/** The hold, its draws (spend order) and ledger rows; undefined when the lots do not cover it. */
function planHold(input: HoldInput, spendable: CreditLot[], now: number): PlannedHold | undefined {
  if (spendable.reduce((sum, lot) => sum + lot.remaining, 0) < input.amount) return undefined;
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
    api_key_id: input.apiKey?.id ?? null,
    lease_owner: input.lease?.owner ?? null,
    lease_until: input.lease?.until ?? null,
  };
  const draws: PlannedHold['draws'] = [];
  let need = input.amount;
  for (const lot of spendable) {
    if (need === 0) break;
    const take = Math.min(lot.remaining, need);
    draws.push({ lot_id: lot.id, amount: take, seq: draws.length, expires_at: lot.expires_at });
    need -= take;
  }
  const ledger = draws.map((d) =>
    ledgerRow(input.userId, d.lot_id, 'hold', -d.amount, hold.id, now, hold.api_key_id),
  );
  return { hold, draws, ledger };
}

/**
 * What giving `amount` of a hold back means: credits go back to the lots they came from, last
 * drawn first. Credits returned to a lot that expired meanwhile are written off at once (expiry
 * never took them while they were held): the ledger records both, that lot's credits stay as they are.
 */
function giveBack(hold: CreditHold, lots: HoldWithLots['lots'], amount: number, now: number) {
  let left = amount;
  const back: Array<{ lot_id: string; amount: number }> = [];
  const ledger = [];
  for (const drawn of lots) {
    if (left === 0) break;
    const amount = Math.min(drawn.amount, left);
    left -= amount;
    ledger.push(ledgerRow(hold.user_id, drawn.lot_id, 'release', amount, hold.id, now, hold.api_key_id));
    if (drawn.expires_at <= now) {
      ledger.push(ledgerRow(hold.user_id, drawn.lot_id, 'expire', -amount, hold.id, now, hold.api_key_id));
    } else {
      back.push({ lot_id: drawn.lot_id, amount });
    }
  }
  return { back, ledger };
}

async function settle(
  ctx: Ctx,
  holdKey: string,
  outcome: (hold: CreditHold) => { status: 'captured' | 'released'; captured: number },
): Promise<CreditHold> {
  // PostgreSQL settles in one atomic statement (see settleHoldGivingBack), after a plain read: a
  // transaction would only add round trips. SQLite: one (group-committed) transaction.
  if (ctx.dbKind === 'postgres') return settleWith(ctx, ctx.db, holdKey, outcome);
  return inTransaction(ctx.db, ctx.dbKind, (tx) => settleWith(ctx, tx, holdKey, outcome));
}

async function settleWith(
  ctx: Ctx,
  db: Db,
  holdKey: string,
  outcome: (hold: CreditHold) => { status: 'captured' | 'released'; captured: number },
): Promise<CreditHold> {
  const memory = creditMemory(ctx.db);
  const found = memory.takeOpenHold(holdKey) ?? (await findHoldToSettle(db, ctx.dbKind, holdKey));
  if (!found) throw AppError.named('err_not_found');
  const { hold } = found;
  if (hold.status !== 'held') return hold; // settled before: idempotent
  const result = outcome(hold);
  const now = ctx.clock.now();
  // What goes back depends only on the hold and what it drew, which never change; the settlement
  // below is a compare-and-set on the hold's status, so a concurrent settlement wins or loses whole.
  const { back, ledger } =
    result.captured < hold.amount
      ? giveBack(hold, found.lots ?? (await findHoldLots(db, hold.id)), hold.amount - result.captured, now)
      : { back: [], ledger: [] };
  const update = { ...result, settled_at: now };
  const { settled, version } = await settleHoldGivingBack(
    db,
    ctx.dbKind,
    hold.user_id,
    holdKey,
    update,
    back,
    ledger,
  );
  memory.settled(hold.user_id, version, settled ? back : []);
  if (!settled) {
    const first = (await findHoldByKey(db, holdKey))!; // another call settled it first
    if (first.status === 'held') throw new Error(`hold ${holdKey} could not be settled`);
    return first;
  }
  return { ...hold, ...update };
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

/** Task-finished listener: a task's hold is captured (what success spends) or released. */
export async function settleTaskCredits({ app, task }: TaskFinished): Promise<void> {
  if (!task.hold_key) return;
  try {
    if (task.status === 'succeeded') await captureCredits(app, task.hold_key, task.credits_captured);
    else await releaseCredits(app, task.hold_key);
  } catch (err) {
    app.log.error({ err, taskId: task.id }, 'could not settle the credits of a task');
  }
}

/** Hold and capture at once, for work that is done the moment it is paid for. */
export async function spendCredits(ctx: Ctx, input: HoldInput): Promise<CreditHold> {
  await holdCredits(ctx, input);
  return captureCredits(ctx, input.holdKey);
}

/** Balance = the sum of the ledger; `held` is what running tasks have reserved. */
export async function getBalance(ctx: Ctx, userId: string): Promise<{ balance: number; held: number }> {
  const { balance, held } = await getCreditSummary(ctx, userId);
  return { balance, held };
}

/**
 * Balance, credits held, and the lots with credits not yet expired (soonest to expire first). On
 * PostgreSQL one statement without a lock answers when nothing is due (no period to issue, no lot
 * to expire): a read then costs one round trip instead of a locked transaction of six. Otherwise,
 * and on SQLite, the account is brought up to date under its lock first.
 */
export async function getCreditSummary(
  ctx: Ctx,
  userId: string,
): Promise<{ balance: number; held: number; lots: CreditLot[] }> {
  const now = ctx.clock.now();
  const state = ctx.dbKind === 'postgres' ? await readBalanceState(ctx.db, userId) : undefined;
  if (state && !hasDuePeriods(state.account, now) && state.lots.every((lot) => lot.expires_at > now)) {
    // Ledger and lots agree (balance = sum of entries = sum of lots' remaining credits).
    return {
      balance: state.lots.reduce((sum, lot) => sum + lot.remaining, 0),
      held: state.held,
      lots: state.lots.sort((a, b) => a.expires_at - b.expires_at),
    };
  }
  const { balance, held } = await withCreditAccount(ctx, userId, async ({ tx }) => ({
    balance: await sumLedger(tx, userId),
    held: await sumHeld(tx, userId),
  }));
  return { balance, held, lots: await findActiveLots(ctx.db, userId, now) };
}
