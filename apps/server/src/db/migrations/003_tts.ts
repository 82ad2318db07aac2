import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The voice catalogue: built-in personas (owner_id null) and, later, users' own voices.
  await db.schema
    .createTable('voices')
    .addColumn('voice_id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text')
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('engine_params', 'text', (c) => c.notNull())
    .addColumn('model_ids', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('age', 'text', (c) => c.notNull())
    .addColumn('accent', 'text', (c) => c.notNull())
    .addColumn('style', 'text', (c) => c.notNull())
    .addColumn('use_case', 'text', (c) => c.notNull())
    .addColumn('preview_text', 'text', (c) => c.notNull())
    .addColumn('preview_key', 'text')
    .addColumn('required_level', 'integer', (c) => c.notNull())
    .addColumn('is_disabled', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('voice_favorites')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('voice_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('voice_favorites_pk', ['user_id', 'voice_id'])
    .execute();

  await db.schema
    .createTable('pronunciation_entries')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('word', 'text', (c) => c.notNull())
    .addColumn('pinyin', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pronunciation_entries_pk', ['user_id', 'word'])
    .execute();

  // One row per synthesis the user sees in the history panel (tool 'tts' here; other tools later).
  await db.schema
    .createTable('tts_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('tool', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('text_md5', 'text', (c) => c.notNull())
    .addColumn('voice_id', 'text', (c) => c.notNull())
    .addColumn('voice_name', 'text', (c) => c.notNull())
    .addColumn('model_id', 'text', (c) => c.notNull())
    .addColumn('speed', 'double precision', (c) => c.notNull())
    .addColumn('pitch', 'integer', (c) => c.notNull())
    .addColumn('volume', 'double precision', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('characters', 'integer', (c) => c.notNull())
    .addColumn('credits', 'integer', (c) => c.notNull())
    .addColumn('cache_key', 'text', (c) => c.notNull())
    .addColumn('options_key', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('hold_key', 'text')
    .addColumn('task_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('progress', 'double precision', (c) => c.notNull())
    .addColumn('sentences_total', 'integer', (c) => c.notNull())
    .addColumn('sentences_done', 'integer', (c) => c.notNull())
    .addColumn('failure_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'double precision', (c) => c.notNull())
    .addColumn('is_stale', 'integer', (c) => c.notNull())
    .addColumn('audio_key', 'text')
    .addColumn('audio_size', 'integer', (c) => c.notNull())
    .addColumn('srt_key', 'text')
    .addColumn('srt_size', 'integer', (c) => c.notNull())
    .addColumn('wav_key', 'text')
    .addColumn('wav_size', 'integer', (c) => c.notNull())
    .addColumn('sentences', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tts_history_user')
    .on('tts_history')
    .columns(['user_id', 'tool', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('tts_history_cache')
    .on('tts_history')
    .columns(['user_id', 'cache_key'])
    .execute();

  // Finished sentences of a long synthesis: what a resumed job skips. Removed when the task ends.
  await db.schema
    .createTable('tts_sentences')
    .addColumn('history_id', 'text', (c) => c.notNull())
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('audio_key', 'text', (c) => c.notNull())
    .addColumn('sample_rate', 'integer', (c) => c.notNull())
    .addColumn('samples', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('tts_sentences_pk', ['history_id', 'idx'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['tts_sentences', 'tts_history', 'pronunciation_entries', 'voice_favorites', 'voices'])
    await db.schema.dropTable(t).ifExists().execute();
}
