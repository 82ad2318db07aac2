import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AnalyticsEventsTable } from '../onboarding/onboarding.schema.ts';

export async function insertEvents(db: Db, rows: AnalyticsEventsTable[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('analytics_events').values(rows).execute();
}

/** Per day: distinct signed-in users, distinct visitor devices, events. */
export async function findDailyActivity(db: Db, fromDay: string) {
  return db
    .selectFrom('analytics_events')
    .select([
      'day',
      sql<number>`count(distinct case when uid <> '' then uid end)`.as('users'),
      sql<number>`count(distinct case when uid = '' then device_id end)`.as('visitors'),
      (eb) => eb.fn.countAll<number>().as('events'),
    ])
    .where('day', '>=', fromDay)
    .groupBy('day')
    .orderBy('day', 'desc')
    .execute();
}

export async function findTopEvents(db: Db, fromDay: string, limit: number) {
  return db
    .selectFrom('analytics_events')
    .select(['event', (eb) => eb.fn.countAll<number>().as('n')])
    .where('day', '>=', fromDay)
    .groupBy('event')
    .orderBy('n', 'desc')
    .orderBy('event')
    .limit(limit)
    .execute();
}
