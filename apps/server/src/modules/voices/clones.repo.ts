import type { Db } from '../../db/database.ts';
import type { VoiceCloneRow, VoicesTable } from '../../db/schema.ts';

export async function insertClone(db: Db, row: VoiceCloneRow): Promise<void> {
  await db.insertInto('voice_clones').values(row).execute();
}

export async function findCloneOfOwner(
  db: Db,
  ownerId: string,
  id: string,
): Promise<VoiceCloneRow | undefined> {
  return db
    .selectFrom('voice_clones')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

export async function findClone(db: Db, id: string): Promise<VoiceCloneRow | undefined> {
  return db.selectFrom('voice_clones').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findClonesOfOwner(db: Db, ownerId: string): Promise<VoiceCloneRow[]> {
  return db
    .selectFrom('voice_clones')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Clones that hold a slot of the plan's quota: every one of that kind that did not fail. */
export async function countClonesOfKind(
  db: Db,
  ownerId: string,
  kind: 'fast' | 'professional',
): Promise<number> {
  const row = await db
    .selectFrom('voice_clones')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('kind', '=', kind)
    .where('status', '!=', 'failed')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function updateClone(
  db: Db,
  id: string,
  patch: Partial<Omit<VoiceCloneRow, 'id' | 'owner_id' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('voice_clones').set(patch).where('id', '=', id).execute();
}

export async function deleteCloneRow(db: Db, ownerId: string, id: string): Promise<number> {
  const r = await db
    .deleteFrom('voice_clones')
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The speakable voice of a clone (a row of the user's own voices). */
export async function upsertCloneVoice(db: Db, row: VoicesTable): Promise<void> {
  await db
    .insertInto('voices')
    .values(row)
    .onConflict((oc) =>
      oc.column('voice_id').doUpdateSet({
        engine: row.engine,
        engine_params: row.engine_params,
        model_ids: row.model_ids,
        name: row.name,
        description: row.description,
        gender: row.gender,
        status: row.status,
        preview_key: row.preview_key,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function renameCloneVoice(db: Db, ownerId: string, id: string, name: string, now: number) {
  await db
    .updateTable('voices')
    .set({ name, updated_at: now })
    .where('voice_id', '=', id)
    .where('owner_id', '=', ownerId)
    .execute();
}

export async function deleteCloneVoice(db: Db, ownerId: string, id: string): Promise<void> {
  await db.deleteFrom('voice_favorites').where('voice_id', '=', id).where('user_id', '=', ownerId).execute();
  await db.deleteFrom('voices').where('voice_id', '=', id).where('owner_id', '=', ownerId).execute();
}

/** Cached syntheses with a clone's old candidate must not answer for the new one. */
export async function markSynthesesStale(db: Db, ownerId: string, voiceId: string): Promise<void> {
  await db
    .updateTable('tts_history')
    .set({ is_stale: 1 })
    .where('user_id', '=', ownerId)
    .where('voice_id', '=', voiceId)
    .execute();
}
