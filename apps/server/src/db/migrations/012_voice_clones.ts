import type { Kysely } from 'kysely';

/**
 * Cloned voices (issue 16). The speakable voice itself is a row of `voices` with the same id and the
 * owner set (so every voice picker and TTS find it); this row keeps what made it: kind, status, the
 * engine and its honest label, the measured profile, the sample and reference clips (storage keys),
 * the candidates, and the consent record. JSON columns are text on both databases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('voice_clones')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** fast | professional */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** queued | training | ready | failed */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    /** clone engine id ('standard', 'gpt-sovits', 'cosyvoice', 'sherpa-zipvoice'…) and its label */
    .addColumn('engine', 'text', (c) => c.notNull())
    .addColumn('engine_label', 'text', (c) => c.notNull())
    /** JSON {median_hz, p10_hz, p90_hz, rate, gender} */
    .addColumn('profile', 'text', (c) => c.notNull())
    /** JSON [{key, name, duration_ms, fixed: string[]}] */
    .addColumn('samples', 'text', (c) => c.notNull())
    /** JSON [{key, source, start_ms, end_ms, duration_ms, score, text}] */
    .addColumn('reference_clips', 'text', (c) => c.notNull())
    /** JSON [{engine, label, reference, voice, note, files, preview_key}] */
    .addColumn('candidates', 'text', (c) => c.notNull())
    .addColumn('chosen', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON {accepted_at, account, sentence, audio_key, recognised_text, similarity} */
    .addColumn('consent', 'text', (c) => c.notNull())
    /** The last sample check report (JSON). */
    .addColumn('check_report', 'text')
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('error', 'text')
    /** The trainer's job id (professional clone through a trainer). */
    .addColumn('trainer_job', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('voice_clones_owner')
    .on('voice_clones')
    .columns(['owner_id', 'created_at'])
    .execute();
}
