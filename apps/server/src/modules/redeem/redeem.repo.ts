import type { Db } from '../../db/database.ts';
import type { RedeemBatchesTable } from '../../db/schema.ts';

export async function findCodeWithBatch(db: Db, code: string) {
  return db
    .selectFrom('redeem_codes')
    .innerJoin('redeem_batches', 'redeem_batches.id', 'redeem_codes.batch_id')
    .selectAll('redeem_codes')
    .select([
      'redeem_batches.kind',
      'redeem_batches.level',
      'redeem_batches.is_annual',
      'redeem_batches.months',
      'redeem_batches.days',
      'redeem_batches.credits',
      'redeem_batches.expires_at',
      'redeem_batches.voided_at',
    ])
    .where('redeem_codes.code', '=', code)
    .executeTakeFirst();
}

/** Marks a code used by `userId`; false when someone used it first (compare-and-set). */
export async function claimCode(db: Db, code: string, userId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redeem_codes')
    .set({ used_by: userId, used_at: now })
    .where('code', '=', code)
    .where('used_by', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countFailures(db: Db, userId: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('redeem_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('succeeded', '=', 0)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertAttempt(
  db: Db,
  row: { id: string; user_id: string; succeeded: number; created_at: number },
) {
  await db.insertInto('redeem_attempts').values(row).execute();
}

/** Writes a batch and its codes; run it in a transaction so none is half-written. */
export async function insertBatch(
  db: Db,
  batch: Omit<RedeemBatchesTable, 'voided_at'>,
  codes: string[],
): Promise<void> {
  await db
    .insertInto('redeem_batches')
    .values({ ...batch, voided_at: null })
    .execute();
  for (let i = 0; i < codes.length; i += 500) {
    await db
      .insertInto('redeem_codes')
      .values(
        codes.slice(i, i + 500).map((code) => ({ code, batch_id: batch.id, used_by: null, used_at: null })),
      )
      .execute();
  }
}

export async function findBatches(db: Db) {
  return db
    .selectFrom('redeem_batches')
    .leftJoin('redeem_codes', 'redeem_codes.batch_id', 'redeem_batches.id')
    .selectAll('redeem_batches')
    .select((eb) => eb.fn.count<number>('redeem_codes.used_by').as('used'))
    .groupBy('redeem_batches.id')
    .orderBy('redeem_batches.created_at', 'desc')
    .execute();
}

export async function findCodesOfBatch(db: Db, batchId: string) {
  return db.selectFrom('redeem_codes').selectAll().where('batch_id', '=', batchId).orderBy('code').execute();
}

export async function voidBatch(db: Db, batchId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('redeem_batches')
    .set({ voided_at: now })
    .where('id', '=', batchId)
    .where('voided_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
