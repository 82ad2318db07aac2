import type { Kysely } from 'kysely';

/**
 * Video translation: finished line translations by `translationCacheKey` (text, languages, preferences,
 * relevant glossary, model), per owner, so re-running or resuming costs no model requests.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('translation_cache')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_cache_pk', ['owner_id', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('translation_cache').execute();
}
