import type { Kysely } from 'kysely';
import { DEFAULT_QUESTIONNAIRE } from '../../modules/onboarding/questionnaire.seed.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The persona questionnaire: one row per question, its options as JSON (the operator replaces it whole).
  await db.schema
    .createTable('questionnaire_questions')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('question_content', 'text', (c) => c.notNull())
    .addColumn('select_type', 'integer', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // One answer per user: the primary key makes the reward grantable once.
  await db.schema
    .createTable('questionnaire_responses')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('answers', 'text', (c) => c.notNull())
    .addColumn('trial_granted', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('analytics_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** YYYY-MM-DD in China Standard Time, the product's business day */
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    /** the signed-in user's uid; empty for visitors */
    .addColumn('uid', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('props', 'text', (c) => c.notNull())
    .addColumn('client_time', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('analytics_events_day')
    .on('analytics_events')
    .columns(['day', 'event'])
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('endpoint', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute();

  // Keys the server makes for itself on first start (VAPID); shared by every process through the database.
  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  const now = Date.now();
  await (db as Kysely<Record<string, Record<string, unknown>>>)
    .insertInto('questionnaire_questions')
    .values(
      DEFAULT_QUESTIONNAIRE.map((q, position) => ({
        id: q.id,
        position,
        question_content: q.question_content,
        select_type: q.select_type,
        options: JSON.stringify(q.question_options),
        updated_at: now,
      })),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'app_secrets',
    'push_subscriptions',
    'analytics_events',
    'questionnaire_responses',
    'questionnaire_questions',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
