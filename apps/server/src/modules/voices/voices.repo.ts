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
