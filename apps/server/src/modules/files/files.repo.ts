import type { Db } from '../../db/database.ts';
import type { StoredFile } from '../../db/schema.ts';

export async function insertFile(db: Db, file: StoredFile): Promise<void> {
  await db.insertInto('files').values(file).execute();
}

export async function findFileOfOwner(db: Db, ownerId: string, key: string): Promise<StoredFile | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function findFileKeysOfOwner(db: Db, ownerId: string): Promise<string[]> {
  const rows = await db.selectFrom('files').select('key').where('owner_id', '=', ownerId).execute();
  return rows.map((r) => r.key);
}

export async function deleteFileOfOwner(db: Db, ownerId: string, key: string): Promise<void> {
  await db.deleteFrom('files').where('owner_id', '=', ownerId).where('key', '=', key).execute();
}
