import type { Kysely } from 'kysely';

/**
 * Task events carry the task as it was (JSON of the tasks row): the SSE stream replays them after a
 * reconnect, including a task's `task.deleted` after its row is gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('task_events').addColumn('task', 'text').execute();
}
