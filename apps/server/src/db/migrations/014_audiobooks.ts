import type { Kysely } from 'kysely';

/**
 * Audiobooks (issue 19): a work imported from a book file, its chapters, paragraphs (segments with
 * speakers, their audio and takes) and characters (casting).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audiobook_works')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('narrator', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('cover_key', 'text')
    .addColumn('cover_mime', 'text')
    .addColumn('source_name', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('encoding', 'text')
    .addColumn('narrator_voice_id', 'text', (c) => c.notNull())
    /** 'acx' | 'online' */
    .addColumn('loudness', 'text', (c) => c.notNull())
    /** The latest synthesis or export task. */
    .addColumn('task_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audiobook_works_owner')
    .on('audiobook_works')
    .columns(['owner_id', 'updated_at'])
    .execute();

  await db.schema
    .createTable('audiobook_chapters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('work_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('selected', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audiobook_chapters_work')
    .on('audiobook_chapters')
    .columns(['work_id', 'seq'])
    .execute();

  await db.schema
    .createTable('audiobook_paragraphs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('work_id', 'text', (c) => c.notNull())
    .addColumn('chapter_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** JSON array of {kind, text, speaker}. */
    .addColumn('segments', 'text', (c) => c.notNull())
    /** A voice for the whole paragraph, over the casting. */
    .addColumn('voice_id', 'text')
    .addColumn('pause_before_ms', 'integer', (c) => c.notNull())
    .addColumn('pause_after_ms', 'integer', (c) => c.notNull())
    .addColumn('text_rev', 'integer', (c) => c.notNull())
    .addColumn('audio_key', 'text')
    .addColumn('audio_rev', 'integer', (c) => c.notNull())
    .addColumn('stale', 'integer', (c) => c.notNull())
    .addColumn('locked', 'integer', (c) => c.notNull())
    /** JSON array of {key, rev, duration_ms, created_at, engine}. */
    .addColumn('takes', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    /** '' | 'passed' | 'flagged' (automatic check with speech to text). */
    .addColumn('check_status', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audiobook_paragraphs_chapter')
    .on('audiobook_paragraphs')
    .columns(['chapter_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('audiobook_paragraphs_work')
    .on('audiobook_paragraphs')
    .column('work_id')
    .execute();

  await db.schema
    .createTable('audiobook_characters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('work_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('lines', 'integer', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    .addColumn('voice_id', 'text')
    .execute();
  await db.schema
    .createIndex('audiobook_characters_work')
    .on('audiobook_characters')
    .column('work_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['audiobook_characters', 'audiobook_paragraphs', 'audiobook_chapters', 'audiobook_works']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
