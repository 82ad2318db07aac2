import { OrderStatus } from '@vw/contract';
import type { Db } from '../../db/database.ts';
import type { PaymentAttempt, PaymentOrder } from '../../db/schema.ts';

/** Orders a payment can still arrive for without surprise. */
export const OPEN_STATUSES = [OrderStatus.Pending, OrderStatus.Paying];

export async function insertOrder(db: Db, order: PaymentOrder): Promise<void> {
  await db.insertInto('payment_orders').values(order).execute();
}

export async function findOrder(db: Db, orderId: string): Promise<PaymentOrder | undefined> {
  return db.selectFrom('payment_orders').selectAll().where('id', '=', orderId).executeTakeFirst();
}

export async function findOpenOrders(db: Db, userId: string, productId: string): Promise<PaymentOrder[]> {
  return db
    .selectFrom('payment_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('product_id', '=', productId)
    .where('status', 'in', OPEN_STATUSES)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Open orders old enough that a callback may have been missed, oldest first. */
export async function findOrdersToReconcile(
  db: Db,
  createdBefore: number,
  limit: number,
): Promise<PaymentOrder[]> {
  return db
    .selectFrom('payment_orders')
    .selectAll()
    .where('status', 'in', OPEN_STATUSES)
    .where('created_at', '<', createdBefore)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Compare-and-set: moves the order only if it is still in one of `from`; true when it moved. */
export async function transitionOrder(
  db: Db,
  orderId: string,
  from: readonly number[],
  set: Partial<PaymentOrder> & { status: number; updated_at: number },
): Promise<boolean> {
  const result = await db
    .updateTable('payment_orders')
    .set(set)
    .where('id', '=', orderId)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setOrderCodeUrl(db: Db, orderId: string, codeUrl: string, now: number): Promise<void> {
  await db
    .updateTable('payment_orders')
    .set({ code_url: codeUrl, updated_at: now })
    .where('id', '=', orderId)
    .execute();
}

/** Marks an order as just asked about (the poll's rate limit reads `updated_at`). */
export async function touchOrder(db: Db, orderId: string, now: number): Promise<void> {
  await db.updateTable('payment_orders').set({ updated_at: now }).where('id', '=', orderId).execute();
}

/** Records a provider's payment once; false when this transaction was already recorded. */
export async function insertAttemptOnce(db: Db, attempt: PaymentAttempt): Promise<boolean> {
  const result = await db
    .insertInto('payment_attempts')
    .values(attempt)
    .onConflict((oc) => oc.columns(['provider', 'transaction_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function setAttemptOutcome(
  db: Db,
  attemptId: string,
  from: string,
  set: Partial<PaymentAttempt> & { outcome: string },
): Promise<boolean> {
  const result = await db
    .updateTable('payment_attempts')
    .set(set)
    .where('id', '=', attemptId)
    .where('outcome', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Keeps why a refund failed; the attempt stays refund_pending for the reconciliation job. */
export async function setRefundError(db: Db, attemptId: string, error: string): Promise<void> {
  await db.updateTable('payment_attempts').set({ refund_error: error }).where('id', '=', attemptId).execute();
}

export async function findPendingRefunds(db: Db, limit: number): Promise<PaymentAttempt[]> {
  return db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('outcome', '=', 'refund_pending')
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export async function findOrders(db: Db, filter: { userId?: string; status?: number; limit: number }) {
  let query = db.selectFrom('payment_orders').selectAll();
  if (filter.userId) query = query.where('user_id', '=', filter.userId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query.orderBy('created_at', 'desc').limit(filter.limit).execute();
}
