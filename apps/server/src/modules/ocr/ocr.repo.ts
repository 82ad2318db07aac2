import type { Db } from '../../db/database.ts';

/** One of the owner's assets by its exact name (the demo sample is found again this way). */
export async function findAssetIdByName(db: Db, ownerId: string, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('media_assets')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.id;
}
