import { type Insertable, sql } from 'kysely';
import type { Db, DbKind } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared.ts';
import type { CreditAccount, CreditHold, CreditLedgerTable, CreditLot } from '../../db/schema.ts';

const selectAccount = preparedQuery((db, v: { userId: string }) =>
  db.selectFrom('credit_accounts').selectAll().where('user_id', '=', v.userId),
);
const bumpAccountVersion = preparedQuery((db, v: { userId: string }) =>
  db
    .updateTable('credit_accounts')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('user_id', '=', v.userId)
    .returningAll(),
);

/**
 * Locks the user's account row for the transaction, creating a free-plan row the first time.
 * PostgreSQL: by bumping its version (see holdCredits). SQLite: the transaction holds the write
 * lock already (BEGIN IMMEDIATE), a plain read.
 */
export async function lockAccount(tx: Db, kind: DbKind, userId: string, now: number): Promise<CreditAccount> {
  const lock = () => (kind === 'postgres' ? bumpAccountVersion : selectAccount).first(tx, { userId });
  const existing = await lock();
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
      version: 0,
      due_at: null,
      free_month: null,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return (await lock())!;
}

const selectCreditState = preparedQuery(
  (_db, v: { userId: string; now: number }) =>
    sql<CreditAccount & { lots: CreditLot[] }>`
    select a.*, coalesce((select json_agg(l) from credit_lots l
      where l.user_id = a.user_id and (l.remaining > 0 or l.expires_at > ${v.now})), '[]'::json) as lots
    from credit_accounts a where a.user_id = ${v.userId}`,
);

/** A user's account with every lot that has credits or has not expired, as of one moment (its version). */
export interface CreditState {
  account: CreditAccount;
  lots: CreditLot[];
}

/** PostgreSQL, without a lock. Undefined when the account does not exist yet. */
export async function readCreditState(db: Db, userId: string, now: number): Promise<CreditState | undefined> {
  const row = await selectCreditState.first(db, { userId, now });
  if (!row) return undefined;
  const { lots, ...account } = row;
  return { account, lots };
}

const selectBalanceState = preparedQuery(
  (_db, v: { userId: string }) =>
    sql<CreditAccount & { lots: CreditLot[]; held: string }>`
    select a.*,
      coalesce((select json_agg(l) from credit_lots l where l.user_id = a.user_id and l.remaining > 0), '[]'::json) as lots,
      (select coalesce(sum(h.amount), 0) from credit_holds h where h.user_id = a.user_id and h.status = 'held') as held
    from credit_accounts a where a.user_id = ${v.userId}`,
);

/**
 * PostgreSQL, without a lock: the account, its lots with credits and what its open holds keep, as of
 * one statement. Undefined when the account does not exist yet.
 */
export async function readBalanceState(
  db: Db,
  userId: string,
): Promise<{ account: CreditAccount; lots: CreditLot[]; held: number } | undefined> {
  const row = await selectBalanceState.first(db, { userId });
  if (!row) return undefined;
  const { lots, held, ...account } = row;
  return { account, lots, held: Number(held) };
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
const LEDGER_COLUMNS = [
  'id',
  'user_id',
  'lot_id',
  'kind',
  'delta',
  'hold_id',
  'created_at',
  'api_key_id',
] as const;
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
      api_key_id: v.api_key_id,
      lease_owner: v.lease_owner,
      lease_until: v.lease_until,
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

/** Credits left in the lots a membership issued (its grant keys name it). */
export async function sumMembershipRemaining(
  db: Db,
  userId: string,
  membershipId: string | null,
): Promise<number> {
  const row = await db
    .selectFrom('credit_lots')
    .select((eb) => eb.fn.sum<number>('remaining').as('left'))
    .where('user_id', '=', userId)
    .where('grant_key', 'like', `membership:${membershipId ?? '-'}:%`)
    .executeTakeFirstOrThrow();
  return Number(row.left ?? 0);
}

/** What a set of holds costs: captured amounts plus open holds (a released hold costs nothing). */
export const holdsSpent = sql<number>`coalesce(sum(case when status = 'held' then amount when status = 'captured' then captured else 0 end), 0)`;

/** What an API key has spent or holds now. */
export async function sumSpentByApiKey(db: Db, apiKeyId: string): Promise<number> {
  const row = await db
    .selectFrom('credit_holds')
    .select(holdsSpent.as('total'))
    .where('api_key_id', '=', apiKeyId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Accounts with catch-up work due: a plan period to issue or a plan's end, or an expired lot with credits. */
export async function findUsersWithDueWork(db: Db, now: number): Promise<string[]> {
  const withDuePlans = await db
    .selectFrom('credit_accounts')
    .select('user_id')
    .where('due_at', '<=', now)
    .execute();
  const withExpiredLots = await db
    .selectFrom('credit_lots')
    .select('user_id')
    .distinct()
    .where('remaining', '>', 0)
    .where('expires_at', '<=', now)
    .execute();
  return [...new Set([...withDuePlans, ...withExpiredLots].map((r) => r.user_id))];
}

// Writes of a hold and of a settlement ------------------------------------------------------------
// SQLite runs them as a few prepared statements inside its (group-committed) transaction; on
// PostgreSQL every statement is a network round trip, so each step is one statement there.

/** A hold about to be written: what it draws from which lot (in spend order) and its ledger rows. */
export interface PlannedHold {
  hold: CreditHold;
  draws: HoldWithLots['lots'];
  ledger: LedgerRow[];
}

/** The ledger rows as parallel arrays, for PostgreSQL's unnest(). */
function ledgerArrays(rows: LedgerRow[]) {
  return {
    ids: rows.map((r) => r.id),
    users: rows.map((r) => r.user_id),
    lots: rows.map((r) => r.lot_id),
    kinds: rows.map((r) => r.kind),
    deltas: rows.map((r) => r.delta),
    holds: rows.map((r) => r.hold_id ?? null),
    times: rows.map((r) => r.created_at),
    keys: rows.map((r) => r.api_key_id ?? null),
  };
}
type LedgerArrays = ReturnType<typeof ledgerArrays>;
const LEDGER_FROM_ARRAYS = (v: LedgerArrays) => sql`
  select * from unnest(${v.ids}::text[], ${v.users}::text[], ${v.lots}::text[], ${v.kinds}::text[],
    ${v.deltas}::integer[], ${v.holds}::text[], ${v.times}::bigint[], ${v.keys}::text[])
    as r(id, user_id, lot_id, kind, delta, hold_id, created_at, api_key_id)`;

const insertHoldDrawingPg = preparedQuery(
  (
    _db,
    v: CreditHold &
      LedgerArrays & { version: number; drawLots: string[]; drawAmounts: number[]; drawSeqs: number[] },
  ) =>
    sql<{ current: number; inserted: number; drawn: number }>`
      with a as (
        update credit_accounts set version = version + 1
        where user_id = ${v.user_id} and version = ${v.version}
        returning 1
      ),
      h as (
        insert into credit_holds (id, user_id, hold_key, tool, task_id, task_name, amount, captured,
          status, created_at, settled_at, api_key_id, lease_owner, lease_until)
        select ${v.id}, ${v.user_id}, ${v.hold_key}, ${v.tool}, ${v.task_id}, ${v.task_name},
          ${v.amount}, ${v.captured}, ${v.status}, ${v.created_at}, ${v.settled_at}, ${v.api_key_id},
          ${v.lease_owner}, ${v.lease_until}::bigint
        where exists (select 1 from a)
        on conflict (hold_key) do nothing
        returning id
      ),
      d as (
        select * from unnest(${v.drawLots}::text[], ${v.drawAmounts}::integer[], ${v.drawSeqs}::integer[])
          as d(lot_id, amount, seq)
      ),
      u as (
        update credit_lots set remaining = credit_lots.remaining - d.amount
        from d where credit_lots.id = d.lot_id and credit_lots.remaining >= d.amount
          and exists (select 1 from h)
        returning credit_lots.id
      ),
      hl as (
        insert into credit_hold_lots (hold_id, lot_id, amount, seq)
        select h.id, d.lot_id, d.amount, d.seq from h, d
      ),
      led as (
        insert into credit_ledger (id, user_id, lot_id, kind, delta, hold_id, created_at, api_key_id)
        select * from (${LEDGER_FROM_ARRAYS(v)}) r where exists (select 1 from h)
      )
      select (select count(*) from a)::integer as current, (select count(*) from h)::integer as inserted,
        (select count(*) from u)::integer as drawn`,
);

/** What writing a hold came to; nothing is written unless it is `written`. */
export type HoldWrite = 'written' | 'key-exists' | 'account-changed';

/**
 * Writes a new hold, draws its credits from the lots and records the ledger rows, unless a hold
 * with its key exists. PostgreSQL also compares the account's version with the one the draws were
 * planned from and bumps it (one statement, atomic by itself); inside a credit transaction that is
 * the version it locked. SQLite: call it inside a credit transaction.
 */
export async function insertHoldDrawing(
  tx: Db,
  kind: DbKind,
  { hold, draws, ledger }: PlannedHold,
  version: number,
): Promise<HoldWrite> {
  if (kind === 'postgres') {
    const [row] = await insertHoldDrawingPg.rows(tx, {
      ...hold,
      ...ledgerArrays(ledger),
      version,
      drawLots: draws.map((d) => d.lot_id),
      drawAmounts: draws.map((d) => d.amount),
      drawSeqs: draws.map((d) => d.seq),
    });
    if (row.current === 0) return 'account-changed';
    if (row.inserted === 0) return 'key-exists';
    // The version vouches for the lots: every change to them bumps it.
    if (row.drawn !== draws.length)
      throw new Error(`hold ${hold.id}: a lot changed behind its account version`);
    return 'written';
  }
  if (!(await insertHold(tx, hold))) return 'key-exists';
  for (const d of draws) {
    if (!(await changeLotRemaining(tx, d.lot_id, -d.amount)))
      throw new Error(`lot ${d.lot_id} changed under a lock`);
  }
  await insertHoldLots(
    tx,
    draws.map((d) => ({ hold_id: hold.id, lot_id: d.lot_id, amount: d.amount, seq: d.seq })),
  );
  await insertLedger(tx, ledger);
  return 'written';
}

const selectHoldWithLotsPg = preparedQuery((db, v: { holdKey: string }) =>
  db
    .selectFrom('credit_holds as h')
    .leftJoin('credit_hold_lots as hl', 'hl.hold_id', 'h.id')
    .leftJoin('credit_lots as l', 'l.id', 'hl.lot_id')
    .select([
      'h.id',
      'h.user_id',
      'h.hold_key',
      'h.tool',
      'h.task_id',
      'h.task_name',
      'h.amount',
      'h.captured',
      'h.status',
      'h.created_at',
      'h.settled_at',
      'h.api_key_id',
      'h.lease_owner',
      'h.lease_until',
      'hl.lot_id',
      'hl.amount as lot_amount',
      'hl.seq',
      'l.expires_at as lot_expires_at',
    ])
    .where('h.hold_key', '=', v.holdKey),
);

/**
 * A hold to settle, by key. PostgreSQL: with the lots it drew in the same round trip (they never
 * change after the hold is written). SQLite: the drawn lots are read only when credits go back
 * (`lots` undefined).
 */
export async function findHoldToSettle(
  tx: Db,
  kind: DbKind,
  holdKey: string,
): Promise<{ hold: CreditHold; lots?: HoldWithLots['lots'] } | undefined> {
  if (kind !== 'postgres') {
    const hold = await findHoldByKey(tx, holdKey);
    return hold && { hold };
  }
  const rows = await selectHoldWithLotsPg.rows(tx, { holdKey });
  if (rows.length === 0) return undefined;
  const r = rows[0];
  const hold: CreditHold = {
    id: r.id,
    user_id: r.user_id,
    hold_key: r.hold_key,
    tool: r.tool,
    task_id: r.task_id,
    task_name: r.task_name,
    amount: r.amount,
    captured: r.captured,
    status: r.status,
    created_at: r.created_at,
    settled_at: r.settled_at,
    api_key_id: r.api_key_id,
    lease_owner: r.lease_owner,
    lease_until: r.lease_until === null ? null : Number(r.lease_until),
  };
  const lots = rows
    .filter((row) => row.lot_id !== null)
    .map((row) => ({
      lot_id: row.lot_id!,
      amount: row.lot_amount!,
      seq: row.seq!,
      expires_at: Number(row.lot_expires_at),
    }))
    .sort((a, b) => b.seq - a.seq);
  return { hold, lots };
}

const settleGivingBackPg = preparedQuery(
  (
    _db,
    v: LedgerArrays & {
      userId: string;
      holdKey: string;
      status: 'captured' | 'released';
      captured: number;
      settledAt: number;
      backLots: string[];
      backAmounts: number[];
    },
  ) =>
    sql<{ settled: number; version: number }>`
      with a as (
        update credit_accounts set version = version + 1 where user_id = ${v.userId} returning version
      ),
      s as (
        update credit_holds set status = ${v.status}, captured = ${v.captured}, settled_at = ${v.settledAt}
        where hold_key = ${v.holdKey} and status = 'held' and exists (select 1 from a)
        returning id
      ),
      d as (
        select * from unnest(${v.backLots}::text[], ${v.backAmounts}::integer[]) as d(lot_id, amount)
      ),
      u as (
        update credit_lots set remaining = credit_lots.remaining + d.amount
        from d where credit_lots.id = d.lot_id and exists (select 1 from s)
        returning credit_lots.id
      ),
      led as (
        insert into credit_ledger (id, user_id, lot_id, kind, delta, hold_id, created_at, api_key_id)
        select * from (${LEDGER_FROM_ARRAYS(v)}) r where exists (select 1 from s)
      )
      select (select count(*) from s)::integer as settled, (select version from a) as version`,
);

/**
 * Settles an open hold (compare-and-set on its status), gives credits back to the lots in `back`
 * and records the ledger rows. Not settled, with nothing written, when it was settled already.
 * On PostgreSQL this is one statement, atomic by itself (no transaction needed): it first locks
 * the owner's account row and bumps its version (returned), like every credit transaction of the
 * user, then settles and gives back. SQLite: call it inside a transaction.
 */
export async function settleHoldGivingBack(
  tx: Db,
  kind: DbKind,
  userId: string,
  holdKey: string,
  update: { status: 'captured' | 'released'; captured: number; settled_at: number },
  back: Array<{ lot_id: string; amount: number }>,
  ledger: LedgerRow[],
): Promise<{ settled: boolean; version: number | null }> {
  if (kind === 'postgres') {
    const [row] = await settleGivingBackPg.rows(tx, {
      ...ledgerArrays(ledger),
      userId,
      holdKey,
      status: update.status,
      captured: update.captured,
      settledAt: update.settled_at,
      backLots: back.map((b) => b.lot_id),
      backAmounts: back.map((b) => b.amount),
    });
    // Lots are never deleted, so every credit given back found its lot.
    return { settled: row.settled === 1, version: row.version };
  }
  if (!(await settleHold(tx, holdKey, update))) return { settled: false, version: null };
  for (const b of back) {
    if (!(await changeLotRemaining(tx, b.lot_id, b.amount))) throw new Error(`lot ${b.lot_id} is missing`);
  }
  await insertLedger(tx, ledger);
  return { settled: true, version: null };
}

// Leased holds (hold-leases.ts) ------------------------------------------------------------------

export async function renewHoldLease(db: Db, holdKey: string, until: number): Promise<void> {
  await db
    .updateTable('credit_holds')
    .set({ lease_until: until })
    .where('hold_key', '=', holdKey)
    .where('status', '=', 'held')
    .execute();
}

/** Open holds whose lease ran out, oldest first (the partial index credit_holds_lease finds them). */
export async function findExpiredLeaseHolds(db: Db, now: number, limit: number): Promise<CreditHold[]> {
  return db
    .selectFrom('credit_holds')
    .selectAll()
    .where('lease_until', '<', now)
    .where('status', '=', 'held')
    .orderBy('lease_until')
    .limit(limit)
    .execute();
}

/** Durable work (a job) took the hold over: it is no longer leased, the job settles it. */
export async function clearHoldLease(db: Db, holdKey: string): Promise<void> {
  await db
    .updateTable('credit_holds')
    .set({ lease_owner: null, lease_until: null })
    .where('hold_key', '=', holdKey)
    .where('status', '=', 'held')
    .execute();
}
