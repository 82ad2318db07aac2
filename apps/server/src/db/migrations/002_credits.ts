import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('plans')
    .addColumn('level', 'integer', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('monthly_credits', 'integer', (c) => c.notNull())
    .addColumn('features', 'text', (c) => c.notNull())
    .execute();

  // One row per user that ever had a membership; also the row spends lock on PostgreSQL.
  await db.schema
    .createTable('credit_accounts')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('is_annual', 'integer', (c) => c.notNull())
    .addColumn('anchor_at', 'bigint')
    .addColumn('expires_at', 'bigint')
    .addColumn('period_count', 'integer', (c) => c.notNull())
    .addColumn('period_unit', 'text', (c) => c.notNull())
    .addColumn('membership_id', 'text')
    .addColumn('issued_periods', 'integer', (c) => c.notNull())
    .addColumn('previous', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('credit_lots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('remaining', 'integer', (c) => c.notNull())
    .addColumn('effective_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('grant_key', 'text', (c) => c.notNull().unique())
    .addColumn('remark', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('credit_lots_user')
    .on('credit_lots')
    .columns(['user_id', 'expires_at'])
    .execute();

  await db.schema
    .createTable('credit_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('hold_key', 'text', (c) => c.notNull().unique())
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('task_name', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('captured', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('credit_holds_user')
    .on('credit_holds')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('credit_hold_lots')
    .addColumn('hold_id', 'text', (c) => c.notNull())
    .addColumn('lot_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('credit_hold_lots_pk', ['hold_id', 'lot_id'])
    .execute();

  // Append-only: every change of a user's spendable balance; balance = SUM(delta).
  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('lot_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('hold_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('credit_ledger_user')
    .on('credit_ledger')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('redeem_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('level', 'integer')
    .addColumn('is_annual', 'integer', (c) => c.notNull())
    .addColumn('months', 'integer')
    .addColumn('days', 'integer')
    .addColumn('credits', 'integer')
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('voided_at', 'bigint')
    .execute();

  await db.schema
    .createTable('redeem_codes')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull())
    .addColumn('used_by', 'text')
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('redeem_codes_batch').on('redeem_codes').column('batch_id').execute();

  await db.schema
    .createTable('redeem_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('succeeded', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('redeem_attempts_user')
    .on('redeem_attempts')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('credit_exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('start_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint', (c) => c.notNull())
    .addColumn('file_key', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('credit_exports_user')
    .on('credit_exports')
    .columns(['user_id', 'created_at'])
    .execute();
}
