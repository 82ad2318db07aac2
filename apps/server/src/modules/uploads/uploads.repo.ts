import type { Db } from '../../db/database.ts';
import type { MediaAssetRow } from '../../db/schema.ts';

export interface MediaUploadsTable {
  id: string;
  owner_id: string;
  storage_key: string;
  provider_upload_id: string;
  name: string;
  size: number;
  content_type: string;
  created_at: number;
  /** A completion in progress holds the upload until then (ms); null when nobody is completing it. */
  claimed_until: number | null;
}
export type MediaUploadRow = MediaUploadsTable;

declare module '../../db/schema.ts' {
  interface Database {
    media_uploads: MediaUploadsTable;
  }
}

export async function insertAsset(db: Db, row: MediaAssetRow): Promise<void> {
  await db.insertInto('media_assets').values(row).execute();
}

export async function findAssetOfOwner(
  db: Db,
  ownerId: string,
  id: string,
): Promise<MediaAssetRow | undefined> {
  return db
    .selectFrom('media_assets')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The asset an upload was completed into, if it was. */
export async function findAssetOfUpload(
  db: Db,
  ownerId: string,
  uploadRef: string,
): Promise<MediaAssetRow | undefined> {
  return db
    .selectFrom('media_assets')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('upload_ref', '=', uploadRef)
    .executeTakeFirst();
}

export async function findAssetsOfOwner(
  db: Db,
  ownerId: string,
  opts: { kind?: MediaAssetRow['kind']; offset: number; limit: number },
): Promise<{ total: number; rows: MediaAssetRow[] }> {
  let q = db.selectFrom('media_assets').where('owner_id', '=', ownerId);
  if (opts.kind) q = q.where('kind', '=', opts.kind);
  const [{ n }] = await q.select((eb) => eb.fn.countAll<number>().as('n')).execute();
  const rows = await q
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(opts.offset)
    .limit(opts.limit)
    .execute();
  return { total: Number(n), rows };
}

export async function deleteAssetOfOwner(db: Db, ownerId: string, id: string): Promise<number> {
  const res = await db
    .deleteFrom('media_assets')
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Whether a task or an editor project of the owner still names the asset. */
export async function isAssetInUse(db: Db, ownerId: string, id: string): Promise<boolean> {
  const task = await db
    .selectFrom('tasks')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('input_asset_ids', 'like', `%"${id}"%`)
    .limit(1)
    .executeTakeFirst();
  if (task) return true;
  const project = await db
    .selectFrom('projects')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('source_asset_id', '=', id)
    .limit(1)
    .executeTakeFirst();
  return Boolean(project);
}

/** Sweep: which of these asset ids still have a row. */
export async function existingAssetIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('media_assets').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function existingTasks(db: Db, ids: string[]): Promise<Map<string, { status: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('tasks').select(['id', 'status']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, { status: r.status }]));
}

export async function insertUpload(db: Db, row: MediaUploadRow): Promise<void> {
  await db.insertInto('media_uploads').values(row).execute();
}

/** Takes the upload for one completion unless another holds it; true when this one got it. */
export async function claimUpload(db: Db, id: string, now: number, until: number): Promise<boolean> {
  const res = await db
    .updateTable('media_uploads')
    .set({ claimed_until: until })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Extends the claim of the completion at work, or (null) gives the upload back for a retry. */
export async function setUploadClaim(db: Db, id: string, until: number | null): Promise<void> {
  await db.updateTable('media_uploads').set({ claimed_until: until }).where('id', '=', id).execute();
}

export async function findUploadOfOwner(
  db: Db,
  ownerId: string,
  id: string,
): Promise<MediaUploadRow | undefined> {
  return db
    .selectFrom('media_uploads')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteUpload(db: Db, id: string): Promise<void> {
  await db.deleteFrom('media_uploads').where('id', '=', id).execute();
}

export async function findUploadsOlderThan(db: Db, before: number): Promise<MediaUploadRow[]> {
  return db.selectFrom('media_uploads').selectAll().where('created_at', '<', before).limit(500).execute();
}

export async function existingUploadKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('media_uploads')
    .select('storage_key')
    .where('storage_key', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.storage_key));
}
