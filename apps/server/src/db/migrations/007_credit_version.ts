import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // PostgreSQL: bumped by every write to a user's credits, so a hold planned from a read without
  // a lock is written only if nothing changed since (see holdCredits).
  await db.schema
    .alterTable('credit_accounts')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
