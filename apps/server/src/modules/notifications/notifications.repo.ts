import type { Db } from '../../db/database.ts';
import '../onboarding/onboarding.schema.ts';

export async function upsertSubscription(
  db: Db,
  row: { endpoint: string; user_id: string; p256dh: string; auth: string; created_at: number },
): Promise<void> {
  // A browser that signs in as someone else takes its endpoint along.
  await db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({ user_id: row.user_id, p256dh: row.p256dh, auth: row.auth }),
    )
    .execute();
}

export async function deleteSubscription(db: Db, userId: string, endpoint: string): Promise<void> {
  await db
    .deleteFrom('push_subscriptions')
    .where('endpoint', '=', endpoint)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteEndpoint(db: Db, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).execute();
}

export async function findSubscriptionsOfUser(db: Db, userId: string) {
  return db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();
}

/** Account cancellation: no browser hears from this account again. */
export async function deleteSubscriptionsOfUser(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('user_id', '=', userId).execute();
}
