import { WEBHOOK_DELIVERIES_KEPT } from '@vw/contract';
import type { Db } from '../../db/database.ts';
import type { WebhookDeliveryRow } from '../../db/schema.ts';

/** Queries on webhook deliveries; every owner-facing one is scoped by user_id. */

/**
 * Records a delivery and trims its endpoint's log to the newest WEBHOOK_DELIVERIES_KEPT. Deliveries still
 * pending are never trimmed (a burst of events while the receiver is down must still be delivered);
 * they fall out at a later insert once finished. Trimming here keeps the bound without a sweep, at
 * the cost of one delete over at most a few hundred index entries per recorded delivery.
 */
export async function insertDelivery(db: Db, row: WebhookDeliveryRow): Promise<void> {
  await db.insertInto('webhook_deliveries').values(row).execute();
  await db
    .deleteFrom('webhook_deliveries')
    .where('endpoint_id', '=', row.endpoint_id)
    .where('status', '!=', 'pending')
    .where('id', 'not in', (eb) =>
      eb
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', row.endpoint_id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(WEBHOOK_DELIVERIES_KEPT),
    )
    .execute();
}

/** One page of an endpoint's deliveries, newest first. */
export async function findDeliveryPage(
  db: Db,
  userId: string,
  endpointId: string,
  page: number,
  pageSize: number,
): Promise<{ total: number; rows: WebhookDeliveryRow[] }> {
  const base = db
    .selectFrom('webhook_deliveries')
    .where('endpoint_id', '=', endpointId)
    .where('user_id', '=', userId);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { total: Number(n), rows };
}

export async function findDeliveryForOwner(
  db: Db,
  userId: string,
  id: string,
): Promise<WebhookDeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Account cancellation: the user's endpoints (addresses they gave) and their deliveries go. */
export async function deleteWebhooksOfUser(db: Db, userId: string): Promise<void> {
  await db
    .deleteFrom('webhook_deliveries')
    .where('endpoint_id', 'in', db.selectFrom('webhook_endpoints').select('id').where('user_id', '=', userId))
    .execute();
  await db.deleteFrom('webhook_endpoints').where('user_id', '=', userId).execute();
}
