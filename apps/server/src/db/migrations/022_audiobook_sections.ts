import type { Kysely } from 'kysely';

/**
 * Audiobook chapters: what each section is ('chapter', or front/back matter — 'preface', 'afterword',
 * 'notes'), so the work page can mark the sections a listener may leave out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('audiobook_chapters')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('chapter'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audiobook_chapters').dropColumn('kind').execute();
}
