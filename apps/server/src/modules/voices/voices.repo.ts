import { VoiceStatus } from '@vw/contract';
import type { Db } from '../../db/database.ts';
import type { VoiceRow } from '../../db/schema.ts';

/** Built-in voices plus the user's own, by status (empty list: any status). */
export async function findVoicesFor(db: Db, userId: string, statuses: number[]): Promise<VoiceRow[]> {
  let q = db
    .selectFrom('voices')
    .selectAll()
    .where((eb) => eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', userId)]));
  if (statuses.length) q = q.where('status', 'in', statuses);
  return q.orderBy('sort').orderBy('voice_id').execute();
}

/** A voice the user may see: built-in or their own. */
export async function findVoiceFor(db: Db, userId: string, voiceId: string): Promise<VoiceRow | undefined> {
  return db
    .selectFrom('voices')
    .selectAll()
    .where('voice_id', '=', voiceId)
    .where((eb) => eb.or([eb('owner_id', 'is', null), eb('owner_id', '=', userId)]))
    .executeTakeFirst();
}

export async function findVoicesWithoutPreview(db: Db): Promise<VoiceRow[]> {
  return db.selectFrom('voices').selectAll().where('preview_key', 'is', null).orderBy('sort').execute();
}

export async function setVoicePreview(db: Db, voiceId: string, key: string, now: number): Promise<void> {
  await db
    .updateTable('voices')
    .set({ preview_key: key, updated_at: now })
    .where('voice_id', '=', voiceId)
    .execute();
}

export async function findFavoriteIds(db: Db, userId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('voice_favorites')
    .select('voice_id')
    .where('user_id', '=', userId)
    .execute();
  return new Set(rows.map((r) => r.voice_id));
}

export async function addFavorite(db: Db, userId: string, voiceId: string, now: number): Promise<void> {
  await db
    .insertInto('voice_favorites')
    .values({ user_id: userId, voice_id: voiceId, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'voice_id']).doNothing())
    .execute();
}

export async function removeFavorite(db: Db, userId: string, voiceId: string): Promise<void> {
  await db
    .deleteFrom('voice_favorites')
    .where('user_id', '=', userId)
    .where('voice_id', '=', voiceId)
    .execute();
}

/** Adds voices not in the library yet; rows that exist are left as they are (from any process at once). */
export async function insertVoices(db: Db, rows: VoiceRow[]): Promise<void> {
  // In slices: PostgreSQL takes at most 65 535 parameters per statement (a model may have hundreds of speakers).
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('voices')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) => oc.column('voice_id').doNothing())
      .execute();
  }
}

/** Enables again the built-in voices among `ids` that were disabled with `reason` (not the operator's). */
export async function enableNeuralVoices(db: Db, ids: string[], reason: number, now: number): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('voices')
      .set({ is_disabled: 0, updated_at: now })
      .where('voice_id', 'in', ids.slice(i, i + 500))
      .where('owner_id', 'is', null)
      .where('is_disabled', '=', reason)
      .execute();
  }
}

/** Disables, with `reason`, the enabled built-in voices whose id starts with `prefix` and is not in `keep`. */
export async function disableNeuralVoicesExcept(
  db: Db,
  prefix: string,
  keep: string[],
  reason: number,
  now: number,
): Promise<void> {
  const keepSet = new Set(keep);
  const enabled = await db
    .selectFrom('voices')
    .select('voice_id')
    .where('voice_id', 'like', `${prefix}%`)
    .where('owner_id', 'is', null)
    .where('is_disabled', '=', 0)
    .execute();
  const gone = enabled.map((r) => r.voice_id).filter((id) => !keepSet.has(id));
  for (let i = 0; i < gone.length; i += 500) {
    await db
      .updateTable('voices')
      .set({ is_disabled: reason, updated_at: now })
      .where('voice_id', 'in', gone.slice(i, i + 500))
      .where('is_disabled', '=', 0)
      .execute();
  }
}

/** Enabled, published built-in voices whose id starts with `prefix`, in library order. */
export async function findEnabledBuiltinVoices(db: Db, prefix: string): Promise<VoiceRow[]> {
  return db
    .selectFrom('voices')
    .selectAll()
    .where('voice_id', 'like', `${prefix}%`)
    .where('owner_id', 'is', null)
    .where('is_disabled', '=', 0)
    .where('status', '=', VoiceStatus.Published)
    .orderBy('sort')
    .orderBy('voice_id')
    .execute();
}
