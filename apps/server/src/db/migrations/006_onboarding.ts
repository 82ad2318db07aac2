import type { Kysely } from 'kysely';

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
      FIRST_QUESTIONNAIRE.map((q, position) => ({
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

/**
 * The questionnaire a fresh install starts with, frozen here: later edits are the operator's
 * (`npm run admin -- questionnaire set FILE`) or a new migration's, never a change to this one.
 * Option ids are unique across the whole questionnaire; icons are served by the web app.
 */
const FIRST_QUESTIONNAIRE = [
  {
    id: 1,
    question_content: '您的身份是？',
    select_type: 1,
    question_options: [
      { id: 101, content: '自媒体创作者', icon: '/workbench/survey/creator.svg' },
      { id: 102, content: '短视频与影视后期从业者', icon: '/workbench/survey/film.svg' },
      { id: 103, content: '教育培训', icon: '/workbench/survey/education.svg' },
      { id: 104, content: '企业市场与营销', icon: '/workbench/survey/business.svg' },
      { id: 105, content: '开发者', icon: '/workbench/survey/developer.svg' },
      { id: 106, content: '其他', icon: '/workbench/survey/other.svg' },
    ],
  },
  {
    id: 2,
    question_content: '您主要想用声音工作台做什么？',
    select_type: 2,
    question_options: [
      { id: 201, content: '文字转语音配音' },
      { id: 202, content: '视频翻译' },
      { id: 203, content: '声音克隆' },
      { id: 204, content: '有声书制作' },
      { id: 205, content: '字幕识别与擦除' },
      { id: 206, content: '其他' },
    ],
  },
  {
    id: 3,
    question_content: '您是从哪里了解到我们的？',
    select_type: 1,
    question_options: [
      { id: 301, content: '搜索引擎' },
      { id: 302, content: '小红书' },
      { id: 303, content: '哔哩哔哩' },
      { id: 304, content: '微信或朋友推荐' },
      { id: 305, content: '其他' },
    ],
  },
];

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
