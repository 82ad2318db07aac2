import type { Kysely } from 'kysely';

/**
 * The upload an asset was completed from (tus id or S3 upload id), so completing the same upload again
 * (a retry whose first answer was lost) returns that asset instead of "not found".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media_assets').addColumn('upload_ref', 'text').execute();
  await db.schema
    .createIndex('media_assets_upload_ref')
    .on('media_assets')
    .columns(['owner_id', 'upload_ref'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('media_assets_upload_ref').execute();
  await db.schema.alterTable('media_assets').dropColumn('upload_ref').execute();
}
