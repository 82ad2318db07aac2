import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The catalogue; seeded once, edited with `npm run admin -- products …`.
  await db.schema
    .createTable('products')
    .addColumn('product_id', 'text', (c) => c.primaryKey())
    .addColumn('product_type', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('months', 'integer', (c) => c.notNull())
    .addColumn('recharge_credit', 'integer', (c) => c.notNull())
    .addColumn('is_free_package', 'integer', (c) => c.notNull())
    .addColumn('after_charge', 'integer', (c) => c.notNull())
    .addColumn('is_annual', 'integer', (c) => c.notNull())
    .addColumn('channel_details', 'text', (c) => c.notNull())
    .addColumn('is_disabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // Orders: a state machine whose transitions are compare-and-set updates on `status`.
  await db.schema
    .createTable('payment_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    /** The product as it was sold (title, type, level, months, credits), so later edits change nothing. */
    .addColumn('product', 'text', (c) => c.notNull())
    .addColumn('pay_channel', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('amount_fen', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('code_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('transaction_id', 'text')
    .addColumn('failure', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_orders_user')
    .on('payment_orders')
    .columns(['user_id', 'product_id', 'status'])
    .execute();
  await db.schema.createIndex('payment_orders_status').on('payment_orders').columns(['status']).execute();

  // Every payment a provider reported, once each: the first fulfils its order, any other is refunded.
  await db.schema
    .createTable('payment_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('amount_fen', 'integer', (c) => c.notNull())
    .addColumn('paid_at', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('seen_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('refunded_at', 'bigint')
    .addColumn('refund_error', 'text')
    .addUniqueConstraint('payment_attempts_tx', ['provider', 'transaction_id'])
    .execute();
  await db.schema
    .createIndex('payment_attempts_order')
    .on('payment_attempts')
    .columns(['order_id'])
    .execute();

  // The sandbox provider's own books: what a real provider would keep on its side.
  await db.schema
    .createTable('sandbox_trades')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount_fen', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('transaction_id', 'text')
    .addColumn('paid_at', 'bigint')
    .addColumn('payments', 'integer', (c) => c.notNull())
    .addColumn('refunded_fen', 'integer', (c) => c.notNull())
    /** Refund ids already carried out, space-separated: a retried refund is done once. */
    .addColumn('refund_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sandbox_trades', 'payment_attempts', 'payment_orders', 'products']) {
    await db.schema.dropTable(table).execute();
  }
}
