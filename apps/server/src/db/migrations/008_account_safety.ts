import { type Kysely, sql } from 'kysely';

/**
 * Issue 14: refusals with a reason, password attempt limits, leases on holds of live streams, and
 * the free plan's monthly credits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Why an operator refused the account (type 1) and when; cleared when the refusal is lifted.
  await db.schema.alterTable('users').addColumn('refused_reason', 'text').execute();
  await db.schema.alterTable('users').addColumn('refused_at', 'bigint').execute();
  // Wrong passwords in a row (reset by a right one, a code sign-in or a reset) and the earliest
  // time the next try is heard; from PASSWORD_LOCK_AFTER on, only a code or a reset unlocks.
  await db.schema
    .alterTable('users')
    .addColumn('password_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('users').addColumn('password_retry_at', 'bigint').execute();
  // A hold owned by a live process (a stream) names the process and how long it is vouched for;
  // the lease sweep releases it when the lease runs out. Null for holds owned by durable work.
  await db.schema.alterTable('credit_holds').addColumn('lease_owner', 'text').execute();
  await db.schema.alterTable('credit_holds').addColumn('lease_until', 'bigint').execute();
  // The month (YYYY-MM, China time) whose free-plan credits were issued (free_monthly_credits).
  await db.schema.alterTable('credit_accounts').addColumn('free_month', 'text').execute();
  // Partial: holds without a lease (most of them) never enter it, so the hot path pays nothing.
  await sql`create index credit_holds_lease on credit_holds (lease_until) where lease_until is not null`.execute(
    db,
  );
}
