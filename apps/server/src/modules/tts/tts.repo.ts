import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { TtsHistoryRow, TtsHistoryTable } from '../../db/schema.ts';

export async function insertHistory(db: Db, row: Insertable<TtsHistoryTable>): Promise<void> {
  await db.insertInto('tts_history').values(row).execute();
}

export async function updateHistory(db: Db, id: string, update: Updateable<TtsHistoryTable>): Promise<void> {
  await db.updateTable('tts_history').set(update).where('id', '=', id).execute();
}

/** Jobs know only the id (they run for the owner recorded on the row). */
export async function findHistoryById(db: Db, id: string): Promise<TtsHistoryRow | undefined> {
  return db.selectFrom('tts_history').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findHistoryOfOwner(
  db: Db,
  userId: string,
  id: string,
): Promise<TtsHistoryRow | undefined> {
  return db
    .selectFrom('tts_history')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function findHistoryByTask(
  db: Db,
  userId: string,
  taskId: string,
): Promise<TtsHistoryRow | undefined> {
  return db
    .selectFrom('tts_history')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('task_id', '=', taskId), eb('id', '=', taskId)]))
    .executeTakeFirst();
}

/** A finished synthesis of the same output for this user (the cache). */
export async function findCachedHistory(
  db: Db,
  userId: string,
  cacheKey: string,
  optionsKey: string,
): Promise<Pick<TtsHistoryRow, 'id' | 'task_id' | 'audio_key' | 'format' | 'characters'> | undefined> {
  return (
    db
      .selectFrom('tts_history')
      // Only what a cache answer sends: the row's text and sentences can be large.
      .select(['id', 'task_id', 'audio_key', 'format', 'characters'])
      .where('user_id', '=', userId)
      .where('cache_key', '=', cacheKey)
      .where('options_key', '=', optionsKey)
      .where('status', '=', 'succeeded')
      .where('is_stale', '=', 0)
      .where('audio_key', 'is not', null)
      .orderBy('updated_at', 'desc')
      .executeTakeFirst()
  );
}

export async function findHistoryPage(
  db: Db,
  userId: string,
  tool: string,
  page: number,
  pageSize: number,
): Promise<{ total: number; rows: TtsHistoryRow[] }> {
  const base = db.selectFrom('tts_history').where('user_id', '=', userId).where('tool', '=', tool);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { total: Number(n), rows };
}

/** The owner's row holding this stored file (audio, subtitles or a WAV copy). */
export async function findHistoryByFile(
  db: Db,
  userId: string,
  key: string,
): Promise<TtsHistoryRow | undefined> {
  return db
    .selectFrom('tts_history')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('audio_key', '=', key), eb('srt_key', '=', key), eb('wav_key', '=', key)]))
    .executeTakeFirst();
}

export async function findAllHistoryOfOwner(db: Db, userId: string): Promise<TtsHistoryRow[]> {
  return db.selectFrom('tts_history').selectAll().where('user_id', '=', userId).execute();
}

export async function deleteHistoryRows(db: Db, userId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const res = await db
    .deleteFrom('tts_history')
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export async function findFinishedSentences(db: Db, historyId: string) {
  return db
    .selectFrom('tts_sentences')
    .selectAll()
    .where('history_id', '=', historyId)
    .orderBy('idx')
    .execute();
}

export async function insertFinishedSentence(
  db: Db,
  row: {
    history_id: string;
    idx: number;
    audio_key: string;
    sample_rate: number;
    samples: number;
    created_at: number;
  },
): Promise<void> {
  await db
    .insertInto('tts_sentences')
    .values(row)
    .onConflict((oc) => oc.columns(['history_id', 'idx']).doNothing())
    .execute();
}

export async function deleteFinishedSentences(db: Db, historyId: string): Promise<void> {
  await db.deleteFrom('tts_sentences').where('history_id', '=', historyId).execute();
}
