import type { Kysely } from 'kysely';

/**
 * When the running stage's run began: the time left is estimated from that stage's own pace (a stage
 * after quick ones — a render after skipped or cached stages — would otherwise promise seconds).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('stage_started_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('stage_started_at').execute();
}
