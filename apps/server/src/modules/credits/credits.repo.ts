import { sql } from 'kysely';
import type { Db, DbKind } from '../../db/database.ts';
import type { CreditAccount, CreditHold, CreditLot } from '../../db/schema.ts';

// Spend order: earliest expiry first, then gift-like → membership → top-up, then oldest.
const SOURCE_RANK = sql<number>`case source when 'membership' then 1 when 'topup' then 2 else 0 end`;

export async function findAccount(db: Db, userId: string): Promise<CreditAccount | undefined> {
  return db.selectFrom('credit_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Locks the user's account row (PostgreSQL) for the transaction, creating a free-plan row the first time. */
export async function lockAccount(tx: Db, kind: DbKind, userId: string, now: number): Promise<CreditAccount> {
  const select = () => {
    const query = tx.selectFrom('credit_accounts').selectAll().where('user_id', '=', userId);
    return (kind === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  };
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

/** Every lot of the user with credits left, in spend order (the catch-up splits off the expired ones). */
export async function findLotsWithCredits(tx: Db, userId: string): Promise<CreditLot[]> {
  return tx
    .selectFrom('credit_lots')
    .selectAll()
    .where('user_id', '=', userId)
    .where('remaining', '>', 0)
    .orderBy('expires_at')
    .orderBy(SOURCE_RANK)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findLotByGrantKey(tx: Db, grantKey: string): Promise<CreditLot | undefined> {
  return tx.selectFrom('credit_lots').selectAll().where('grant_key', '=', grantKey).executeTakeFirst();
}

export async function insertLot(tx: Db, lot: CreditLot): Promise<void> {
  await tx.insertInto('credit_lots').values(lot).execute();
}

/** Adds `delta` to a lot's remaining credits; refuses (false) to take it below zero. */
export async function changeLotRemaining(tx: Db, lotId: string, delta: number): Promise<boolean> {
  const result = await tx
    .updateTable('credit_lots')
    .set((eb) => ({ remaining: eb('remaining', '+', delta) }))
    .where('id', '=', lotId)
    .where('remaining', '>=', -delta)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertLedger(
  tx: Db,
  rows: Array<{
    id: string;
    user_id: string;
    lot_id: string;
    kind: 'grant' | 'hold' | 'release' | 'expire';
    delta: number;
    hold_id: string | null;
    created_at: number;
    api_key_id?: string | null;
  }>,
): Promise<void> {
  if (rows.length) await tx.insertInto('credit_ledger').values(rows).execute();
}

export async function findHoldByKey(tx: Db, holdKey: string): Promise<CreditHold | undefined> {
  return tx.selectFrom('credit_holds').selectAll().where('hold_key', '=', holdKey).executeTakeFirst();
}

export async function insertHold(tx: Db, hold: CreditHold): Promise<void> {
  await tx.insertInto('credit_holds').values(hold).execute();
}

/** Settles an open hold by its key; undefined when it was settled already (compare-and-set). */
export async function settleHold(
  tx: Db,
  holdKey: string,
  update: { status: 'captured' | 'released'; captured: number; settled_at: number },
): Promise<CreditHold | undefined> {
  return tx
    .updateTable('credit_holds')
    .set(update)
    .where('hold_key', '=', holdKey)
    .where('status', '=', 'held')
    .returningAll()
    .executeTakeFirst();
}

export async function insertHoldLots(
  tx: Db,
  rows: Array<{ hold_id: string; lot_id: string; amount: number; seq: number }>,
): Promise<void> {
  if (rows.length) await tx.insertInto('credit_hold_lots').values(rows).execute();
}

export async function findHoldLots(tx: Db, holdId: string) {
  return tx
    .selectFrom('credit_hold_lots')
    .innerJoin('credit_lots', 'credit_lots.id', 'credit_hold_lots.lot_id')
    .select([
      'credit_hold_lots.lot_id',
      'credit_hold_lots.amount',
      'credit_hold_lots.seq',
      'credit_lots.expires_at',
      'credit_lots.source',
    ])
    .where('credit_hold_lots.hold_id', '=', holdId)
    .orderBy('credit_hold_lots.seq', 'desc')
    .execute();
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

/** What an API key has spent or holds now: captured amounts plus open holds. */
export async function sumSpentByApiKey(db: Db, apiKeyId: string): Promise<number> {
  const row = await db
    .selectFrom('credit_holds')
    .select(
      sql<number>`coalesce(sum(case when status = 'held' then amount when status = 'captured' then captured else 0 end), 0)`.as(
        'total',
      ),
    )
    .where('api_key_id', '=', apiKeyId)
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
