import { sql } from 'kysely';
import type { Db, DbKind } from './database.ts';

/**
 * Runs `work` in one transaction that writers cannot interleave with: on SQLite `BEGIN IMMEDIATE`
 * takes the write lock up front (so two read-then-write transactions never race); on PostgreSQL a
 * normal transaction, in which callers lock the rows they change (SELECT … FOR UPDATE).
 * Never nest: on SQLite the inner call would wait for the connection the outer one holds.
 */
export async function inTransaction<T>(db: Db, kind: DbKind, work: (tx: Db) => Promise<T>): Promise<T> {
  if (kind === 'postgres') return db.transaction().execute(work);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn);
      throw error;
    }
  });
}
