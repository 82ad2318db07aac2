import type { Kysely } from 'kysely';

/**
 * Speech that checks itself (issue 32 item 4): the figures of the check per job (JSON: ran, checked,
 * regenerated, flagged, mean_cer, ms) on the task, and on a TTS history item (streamed ones have no task).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('self_check', 'text').execute();
  await db.schema.alterTable('tts_history').addColumn('self_check', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('self_check').execute();
  await db.schema.alterTable('tts_history').dropColumn('self_check').execute();
}
