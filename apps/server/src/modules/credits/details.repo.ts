import type { Db } from '../../db/database.ts';

export interface Range {
  startMs?: number;
  endMs?: number;
}

export async function findLotsPage(
  db: Db,
  userId: string,
  filter: Range & { source?: string; page: number; pageSize: number },
) {
  let q = db.selectFrom('credit_lots').where('user_id', '=', userId);
  if (filter.startMs !== undefined) q = q.where('created_at', '>=', filter.startMs);
  if (filter.endMs !== undefined) q = q.where('created_at', '<', filter.endMs);
  if (filter.source) q = q.where('source', '=', filter.source as never);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize)
    .execute();
  return { total: Number(total.n), rows };
}

export async function findActiveLots(db: Db, userId: string, now: number) {
  return db
    .selectFrom('credit_lots')
    .selectAll()
    .where('user_id', '=', userId)
    .where('remaining', '>', 0)
    .where('expires_at', '>', now)
    .orderBy('expires_at')
    .execute();
}

export async function findHoldsPage(
  db: Db,
  userId: string,
  filter: Range & { tool?: string; page: number; pageSize: number },
) {
  let q = db.selectFrom('credit_holds').where('user_id', '=', userId);
  if (filter.startMs !== undefined) q = q.where('created_at', '>=', filter.startMs);
  if (filter.endMs !== undefined) q = q.where('created_at', '<', filter.endMs);
  if (filter.tool) q = q.where('tool', '=', filter.tool);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize)
    .execute();
  return { total: Number(total.n), rows };
}

/** Every captured consumption in a range, oldest first (usage chart, export). */
export async function findCapturedHolds(db: Db, userId: string, range: Range & { tool?: string }) {
  let q = db
    .selectFrom('credit_holds')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'captured')
    .where('captured', '>', 0);
  if (range.startMs !== undefined) q = q.where('created_at', '>=', range.startMs);
  if (range.endMs !== undefined) q = q.where('created_at', '<', range.endMs);
  if (range.tool) q = q.where('tool', '=', range.tool);
  return q.orderBy('created_at').execute();
}

export async function findDrawsOfHolds(db: Db, holdIds: string[]) {
  if (holdIds.length === 0) return [];
  return db
    .selectFrom('credit_hold_lots')
    .innerJoin('credit_lots', 'credit_lots.id', 'credit_hold_lots.lot_id')
    .select([
      'credit_hold_lots.hold_id',
      'credit_hold_lots.lot_id',
      'credit_hold_lots.amount',
      'credit_hold_lots.seq',
      'credit_lots.source',
    ])
    .where('credit_hold_lots.hold_id', 'in', holdIds)
    .orderBy('credit_hold_lots.seq')
    .execute();
}
