import type { Kysely } from 'kysely';

/**
 * Multipart uploads straight to S3 in flight (media slice): the presigned parts name only the bucket
 * key, so the owner, the file and the provider's upload id are kept here until the upload completes
 * or the sweep aborts it. tus uploads keep the same facts in their own `.json` next to the bytes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('provider_upload_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_uploads_created').on('media_uploads').column('created_at').execute();
}
