import { type Insertable, sql } from 'kysely';
import type { Db, DbKind } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared.ts';
import type { CreditAccount, CreditHold, CreditLedgerTable, CreditLot } from '../../db/schema.ts';

export async function findAccount(db: Db, userId: string): Promise<CreditAccount | undefined> {
  return db.selectFrom('credit_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

const selectAccount = preparedQuery((db, v: { userId: string }) =>
  db.selectFrom('credit_accounts').selectAll().where('user_id', '=', v.userId),
);
const selectAccountForUpdate = preparedQuery((db, v: { userId: string }) =>
  db.selectFrom('credit_accounts').selectAll().where('user_id', '=', v.userId).forUpdate(),
);

/** Locks the user's account row (PostgreSQL) for the transaction, creating a free-plan row the first time. */
export async function lockAccount(tx: Db, kind: DbKind, userId: string, now: number): Promise<CreditAccount> {
  // On SQLite the transaction holds the write lock already (BEGIN IMMEDIATE): a plain read.
  const select = () => (kind === 'postgres' ? selectAccountForUpdate : selectAccount).first(tx, { userId });
  const existing = await select();
  if (existing) return existing;
  await tx
    .insertInto('credit_accounts')
    .values({
      user_id: userId,
      level: 100,
      is_annual: 0,
      anchor_at: null,
      expires_at: null,
      period_count: 0,
      period_unit: 'month',
      membership_id: null,
      issued_periods: 0,
      previous: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return (await select())!;
}

export async function updateAccount(tx: Db, userId: string, update: Partial<CreditAccount>): Promise<void> {
  await tx.updateTable('credit_accounts').set(update).where('user_id', '=', userId).execute();
}

const selectLotsWithCredits = preparedQuery((db, v: { userId: string }) =>
  db.selectFrom('credit_lots').selectAll().where('user_id', '=', v.userId).where('remaining', '>', 0),
);

const sourceRank = (source: CreditLot['source']) =>
  source === 'membership' ? 1 : source === 'topup' ? 2 : 0;

/** Spend order: earliest expiry first, then gift-like → membership → top-up, then oldest. */
export function bySpendOrder(a: CreditLot, b: CreditLot): number {
  return (
    a.expires_at - b.expires_at ||
    sourceRank(a.source) - sourceRank(b.source) ||
    a.created_at - b.created_at ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Every lot of the user with credits left, in spend order (the catch-up splits off the expired ones).
 * Sorted here: a user has a handful of such lots, and SQLite's sorter costs more than the lookup.
 */
export async function findLotsWithCredits(tx: Db, userId: string): Promise<CreditLot[]> {
  return (await selectLotsWithCredits.rows(tx, { userId })).sort(bySpendOrder);
}

export async function findLotByGrantKey(tx: Db, grantKey: string): Promise<CreditLot | undefined> {
  return tx.selectFrom('credit_lots').selectAll().where('grant_key', '=', grantKey).executeTakeFirst();
}

export async function insertLot(tx: Db, lot: CreditLot): Promise<void> {
  await tx.insertInto('credit_lots').values(lot).execute();
}

const updateLotRemaining = preparedQuery((db, v: { lotId: string; delta: number; floor: number }) =>
  db
    .updateTable('credit_lots')
    .set((eb) => ({ remaining: eb('remaining', '+', v.delta) }))
    .where('id', '=', v.lotId)
    .where('remaining', '>=', v.floor),
);

/** Adds `delta` to a lot's remaining credits; refuses (false) to take it below zero. */
export async function changeLotRemaining(tx: Db, lotId: string, delta: number): Promise<boolean> {
  const result = await updateLotRemaining.execute(tx, { lotId, delta, floor: -delta });
  return Number(result.numAffectedRows) === 1;
}

type LedgerRow = Insertable<CreditLedgerTable>;
const LEDGER_COLUMNS = ['id', 'user_id', 'lot_id', 'kind', 'delta', 'hold_id', 'created_at'] as const;
const HOLD_LOT_COLUMNS = ['hold_id', 'lot_id', 'amount', 'seq'] as const;

/**
 * Multi-row inserts prepared per row count (a hold draws one or a few lots); `columns` lists every
 * column so each row binds the same placeholders.
 */
function preparedInsert<T extends 'credit_ledger' | 'credit_hold_lots'>(
  table: T,
  columns: readonly string[],
) {
  const byCount = new Map<number, ReturnType<typeof preparedQuery<Record<string, unknown>, unknown>>>();
  return (tx: Db, rows: ReadonlyArray<Record<string, unknown>>) => {
    let query = byCount.get(rows.length);
    if (!query) {
      const count = rows.length;
      query = preparedQuery((db, v: Record<string, unknown>) =>
        db
          .insertInto(table)
          .values(
            Array.from({ length: count }, (_, i) =>
              Object.fromEntries(columns.map((c) => [c, v[`${c}_${i}`]])),
            ) as never,
          ),
      );
      byCount.set(count, query);
    }
    const values: Record<string, unknown> = {};
    rows.forEach((row, i) => {
      for (const c of columns) values[`${c}_${i}`] = row[c];
    });
    return query.execute(tx, values);
  };
}
const insertLedgerRows = preparedInsert('credit_ledger', LEDGER_COLUMNS);
const insertHoldLotRows = preparedInsert('credit_hold_lots', HOLD_LOT_COLUMNS);

export async function insertLedger(tx: Db, rows: LedgerRow[]): Promise<void> {
  if (rows.length) await insertLedgerRows(tx, rows as unknown as Array<Record<string, unknown>>);
}

const selectHoldByKey = preparedQuery((db, v: { holdKey: string }) =>
  db.selectFrom('credit_holds').selectAll().where('hold_key', '=', v.holdKey),
);

export async function findHoldByKey(tx: Db, holdKey: string): Promise<CreditHold | undefined> {
  return selectHoldByKey.first(tx, { holdKey });
}

const insertHoldIfNew = preparedQuery((db, v: CreditHold) =>
  db
    .insertInto('credit_holds')
    .values({
      id: v.id,
      user_id: v.user_id,
      hold_key: v.hold_key,
      tool: v.tool,
      task_id: v.task_id,
      task_name: v.task_name,
      amount: v.amount,
      captured: v.captured,
      status: v.status,
      created_at: v.created_at,
      settled_at: v.settled_at,
    })
    .onConflict((oc) => oc.column('hold_key').doNothing()),
);

/** Inserts a hold unless one with its key exists (false): the key check and the insert in one statement. */
export async function insertHold(tx: Db, hold: CreditHold): Promise<boolean> {
  const result = await insertHoldIfNew.execute(tx, hold);
  return Number(result.numAffectedRows) === 1;
}

/** A hold with the lots it drew, last drawn first (what a settlement gives back first). */
export interface HoldWithLots {
  hold: CreditHold;
  lots: Array<{ lot_id: string; amount: number; seq: number; expires_at: number }>;
}

const selectHoldLots = preparedQuery((db, v: { holdId: string }) =>
  db
    .selectFrom('credit_hold_lots as hl')
    .select(['hl.lot_id', 'hl.amount', 'hl.seq'])
    // A subquery rather than a join: it keeps SQLite from scanning every lot to find the few drawn.
    .select((eb) =>
      eb
        .selectFrom('credit_lots as l')
        .select('l.expires_at')
        .whereRef('l.id', '=', 'hl.lot_id')
        .as('expires_at'),
    )
    .where('hl.hold_id', '=', v.holdId),
);

/**
 * The lots a hold drew, last drawn first. What a hold drew and when those lots expire never change
 * after the hold is written.
 */
export async function findHoldLots(tx: Db, holdId: string): Promise<HoldWithLots['lots']> {
  const rows = await selectHoldLots.rows(tx, { holdId });
  return rows.map((r) => ({ ...r, expires_at: Number(r.expires_at) })).sort((a, b) => b.seq - a.seq);
}

const settleHeld = preparedQuery(
  (db, v: { holdKey: string; status: 'captured' | 'released'; captured: number; settledAt: number }) =>
    db
      .updateTable('credit_holds')
      .set({ status: v.status, captured: v.captured, settled_at: v.settledAt })
      .where('hold_key', '=', v.holdKey)
      .where('status', '=', 'held'),
);

/** Settles an open hold by its key; false when it was settled already (compare-and-set). */
export async function settleHold(
  tx: Db,
  holdKey: string,
  update: { status: 'captured' | 'released'; captured: number; settled_at: number },
): Promise<boolean> {
  const result = await settleHeld.execute(tx, {
    holdKey,
    status: update.status,
    captured: update.captured,
    settledAt: update.settled_at,
  });
  return Number(result.numAffectedRows) === 1;
}

export async function insertHoldLots(
  tx: Db,
  rows: Array<{ hold_id: string; lot_id: string; amount: number; seq: number }>,
): Promise<void> {
  if (rows.length) await insertHoldLotRows(tx, rows);
}

export async function sumLedger(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), sql<number>`0`).as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function sumHeld(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('credit_holds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('total'))
    .where('user_id', '=', userId)
    .where('status', '=', 'held')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Accounts whose issuance or expiry may be due: the sweep job's work list. */
export async function findUsersWithDueWork(db: Db, now: number): Promise<string[]> {
  const withDueLots = await db
    .selectFrom('credit_lots')
    .select('user_id')
    .distinct()
    .where('remaining', '>', 0)
    .where('expires_at', '<=', now)
    .execute();
  const paid = await db.selectFrom('credit_accounts').select('user_id').where('level', '>', 100).execute();
  return [...new Set([...withDueLots, ...paid].map((r) => r.user_id))];
}
