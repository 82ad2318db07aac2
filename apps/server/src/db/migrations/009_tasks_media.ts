import { type Kysely, PostgresAdapter } from 'kysely';

/** The spine of the media tools (design §9): tasks and their stages, media assets, editor projects. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The user-facing record of every long job; jobs rows are only the queue's mechanics.
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull())
    .addColumn('error_code', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('pause_point', 'text')
    .addColumn('credits_estimated', 'integer', (c) => c.notNull())
    .addColumn('credits_held', 'integer', (c) => c.notNull())
    .addColumn('credits_captured', 'integer', (c) => c.notNull())
    .addColumn('hold_key', 'text')
    .addColumn('api_key_id', 'text')
    /** JSON: the tool's parameters. */
    .addColumn('input', 'text', (c) => c.notNull())
    /** JSON array of media asset ids. */
    .addColumn('input_asset_ids', 'text', (c) => c.notNull())
    /** JSON array of {name, kind, format, size, key}. */
    .addColumn('outputs', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_owner_tool')
    .on('tasks')
    .columns(['owner_id', 'tool', 'created_at'])
    .execute();
  await db.schema.createIndex('tasks_project').on('tasks').column('project_id').execute();

  // One row per stage of a task: what it produced (storage keys + JSON) before the next began.
  await db.schema
    .createTable('task_stages')
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('result', 'text')
    /** JSON array of storage keys the stage wrote (removed with the task). */
    .addColumn('artifacts', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addPrimaryKeyConstraint('task_stages_pk', ['task_id', 'name'])
    .execute();

  // Finished items inside a stage (sentence, segment, frame chunk): a resumed stage skips them.
  await db.schema
    .createTable('task_items')
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('task_items_pk', ['task_id', 'stage', 'item'])
    .execute();

  // One event per change, numbered: the SSE stream's ids (resumable with Last-Event-ID).
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('task_events')
    .addColumn('seq', isPostgres ? 'bigserial' : 'integer', (c) =>
      isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_events_owner').on('task_events').columns(['owner_id', 'seq']).execute();

  await db.schema
    .createTable('media_assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('has_audio', 'integer', (c) => c.notNull())
    .addColumn('has_video', 'integer', (c) => c.notNull())
    /** JSON: the ffprobe summary (format, streams) the limits were checked on. */
    .addColumn('probe', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('peaks_key', 'text')
    .addColumn('thumbnail_key', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('media_assets_owner')
    .on('media_assets')
    .columns(['owner_id', 'created_at'])
    .execute();

  // Editor projects: one document saved whole, with a version for optimistic concurrency.
  await db.schema
    .createTable('projects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('source_asset_id', 'text')
    .addColumn('task_id', 'text')
    .addColumn('engine_label', 'text', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('projects_owner_tool')
    .on('projects')
    .columns(['owner_id', 'tool', 'created_at'])
    .execute();

  // Per-account feature switches set by an operator; absent means the plan's default.
  await db.schema
    .createTable('user_features')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('feature', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_features_pk', ['user_id', 'feature'])
    .execute();
}
