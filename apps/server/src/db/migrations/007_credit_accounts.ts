import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('credit_accounts')
    // PostgreSQL: bumped by every write to a user's credits, so a hold planned from a read without
    // a lock is written only if nothing changed since (see holdCredits).
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // When the plan next has work (a period to issue, or its end): the credit sweep's work list.
  await db.schema.alterTable('credit_accounts').addColumn('due_at', 'bigint').execute();
  // Paid accounts from before: due now, so the first sweep or credit operation writes the real time.
  await sql`update credit_accounts set due_at = 0 where level > 100`.execute(db);
  await db.schema.createIndex('credit_accounts_due').on('credit_accounts').column('due_at').execute();
}
