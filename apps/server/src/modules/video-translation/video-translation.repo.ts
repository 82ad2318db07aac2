import type { Db } from '../../db/database.ts';

/** Tables of migrations 016 and 017 (video translation), added to the database type. */
export interface TranslationProfilesTable {
  owner_id: string;
  /** JSON {style, audience, tone, instructions}. */
  preferences: string;
  /** JSON [{term, translation|null}]. */
  glossary: string;
  updated_at: number;
}
export interface SpeakerVoicesTable {
  owner_id: string;
  name: string;
  voice_id: string;
  updated_at: number;
}
export interface TranslationCacheTable {
  owner_id: string;
  key: string;
  text: string;
  created_at: number;
}

declare module '../../db/schema.ts' {
  interface Database {
    translation_profiles: TranslationProfilesTable;
    speaker_voices: SpeakerVoicesTable;
    translation_cache: TranslationCacheTable;
  }
}

export function findProfile(db: Db, ownerId: string) {
  return db.selectFrom('translation_profiles').selectAll().where('owner_id', '=', ownerId).executeTakeFirst();
}

/** Writes one part of the profile (preferences or glossary), creating the row with defaults. */
export async function saveProfile(
  db: Db,
  ownerId: string,
  part: { preferences: string } | { glossary: string },
  defaults: { preferences: string; glossary: string },
  now: number,
): Promise<void> {
  await db
    .insertInto('translation_profiles')
    .values({ owner_id: ownerId, ...defaults, ...part, updated_at: now })
    .onConflict((oc) => oc.column('owner_id').doUpdateSet({ ...part, updated_at: now }))
    .execute();
}

export async function findSpeakerVoices(db: Db, ownerId: string): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('speaker_voices')
    .select(['name', 'voice_id'])
    .where('owner_id', '=', ownerId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.voice_id]));
}

export async function saveSpeakerVoices(
  db: Db,
  ownerId: string,
  voices: Record<string, string>,
  now: number,
) {
  for (const [name, voiceId] of Object.entries(voices)) {
    if (!name.trim() || !voiceId) continue;
    await db
      .insertInto('speaker_voices')
      .values({ owner_id: ownerId, name, voice_id: voiceId, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['owner_id', 'name']).doUpdateSet({ voice_id: voiceId, updated_at: now }),
      )
      .execute();
  }
}

export async function cacheGet(db: Db, ownerId: string, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('translation_cache')
    .select('text')
    .where('owner_id', '=', ownerId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.text;
}

export async function cacheSet(db: Db, ownerId: string, key: string, text: string, now: number) {
  await db
    .insertInto('translation_cache')
    .values({ owner_id: ownerId, key, text, created_at: now })
    .onConflict((oc) => oc.columns(['owner_id', 'key']).doUpdateSet({ text, created_at: now }))
    .execute();
}

/** The project's task waiting at a review pause (a line action may have run since), newest first. */
export function findPausedTask(db: Db, ownerId: string, projectId: string) {
  return db
    .selectFrom('tasks')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('project_id', '=', projectId)
    .where('status', '=', 'paused')
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}
