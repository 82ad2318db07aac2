import type { Kysely } from 'kysely';

/**
 * Completing an S3 upload claims its row until this time instead of deleting it first: a completion cut
 * short by an unreachable store or a killed process leaves the upload for the client's retry to finish.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media_uploads').addColumn('claimed_until', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media_uploads').dropColumn('claimed_until').execute();
}
