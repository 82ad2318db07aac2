import type { Kysely } from 'kysely';

/** Audiobooks: which made a work's speaker attribution ('规则' or '语言模型 · <model>'). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('audiobook_works')
    .addColumn('attribution', 'text', (c) => c.notNull().defaultTo('规则'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audiobook_works').dropColumn('attribution').execute();
}
