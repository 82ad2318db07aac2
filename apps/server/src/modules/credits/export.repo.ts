import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { CreditExportsTable } from '../../db/schema.ts';

export async function findExport(db: Db, exportId: string) {
  return db.selectFrom('credit_exports').selectAll().where('id', '=', exportId).executeTakeFirstOrThrow();
}

export async function findLatestExport(db: Db, userId: string) {
  return db
    .selectFrom('credit_exports')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertExport(db: Db, row: Insertable<CreditExportsTable>): Promise<void> {
  await db.insertInto('credit_exports').values(row).execute();
}

export async function updateExport(
  db: Db,
  exportId: string,
  set: { job_id: string } | { file_key: string },
): Promise<void> {
  await db.updateTable('credit_exports').set(set).where('id', '=', exportId).execute();
}
