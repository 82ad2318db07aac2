import type { Kysely } from 'kysely';

/**
 * Video translation (issue 18): each user's translation preferences and glossary (one row, reused by
 * every project), and the voice each speaker name got (the same name keeps its voice across projects).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('translation_profiles')
    .addColumn('owner_id', 'text', (c) => c.primaryKey())
    /** JSON {style, audience, tone, instructions}. */
    .addColumn('preferences', 'text', (c) => c.notNull())
    /** JSON [{term, translation|null}]. */
    .addColumn('glossary', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('speaker_voices')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('voice_id', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('speaker_voices_pk', ['owner_id', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('speaker_voices').execute();
  await db.schema.dropTable('translation_profiles').execute();
}
