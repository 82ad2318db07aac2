/**
 * s3rver, made to keep S3's read-after-write promise. Its filesystem store answers a PUT or a
 * multipart completion when the bytes have been read, before they are written: a HEAD right after
 * sees a short or empty object (under load the fault run saw `err_file_empty`), and a store stopped
 * mid-write leaves a torn one. Here the object is written to a side file, flushed, and renamed into
 * place before the answer, as S3 makes an object appear whole or not at all.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

interface S3rverObject {
  bucket: string;
  key: string;
  content: Buffer | NodeJS.ReadableStream;
  metadata: Record<string, string>;
}
interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
}

const require = createRequire(import.meta.url);
const store: { prototype: FilesystemStore } = require('s3rver/lib/stores/filesystem.js');

store.prototype.putObject = async function putObject(this: FilesystemStore, object: S3rverObject) {
  const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
  const partial = `${objectPath}.${randomBytes(6).toString('hex')}.partial`;
  await mkdir(path.dirname(objectPath), { recursive: true });
  const md5 = createHash('md5');
  let size = 0;
  const content = Buffer.isBuffer(object.content) ? [object.content] : object.content;
  try {
    await pipeline(
      content,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          md5.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      }),
      createWriteStream(partial),
    );
    const digest = md5.digest('hex');
    await rename(partial, objectPath);
    await this.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  } finally {
    await rm(partial, { force: true });
  }
};
