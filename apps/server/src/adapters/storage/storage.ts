import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import { createLocalStorage } from './local.ts';
import { createS3Storage } from './s3.ts';

/**
 * The storage port: bytes by key, local folder by default, S3-compatible when configured.
 * Knows nothing of owners; the files module scopes every key to its owner.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** All or nothing: a failed put (including a failing body stream) leaves no object behind. */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<{ size: number }>;
  /**
   * A file on this machine into storage without reading it into memory. With `move` the local
   * backend renames it into place (same filesystem: no copy); the file is gone afterwards either way
   * when `move` is set.
   */
  putFile(
    key: string,
    file: string,
    contentType: string,
    options?: { move?: boolean },
  ): Promise<{ size: number }>;
  /** Every object under a prefix (for sweeps); order unspecified. */
  list(prefix: string): AsyncIterable<{ key: string; size: number; modifiedAt: number }>;
  /** Multipart uploads straight from the browser (S3 only). */
  readonly multipart?: MultipartUploads;
  /** A byte range is inclusive, like HTTP Range (resumable downloads). */
  read(key: string, range?: { start: number; end?: number }): Promise<Readable>;
  /** The etag changes whenever the bytes do; HTTP uses it to resume a download safely (If-Range). */
  stat(key: string): Promise<{ size: number; contentType: string | null; etag: string } | null>;
  /** Removing a missing key is not an error, so an interrupted delete can simply be retried. */
  remove(key: string): Promise<void>;
  /** A URL that serves the object without a session until it expires. */
  signedUrl(key: string, options: { expiresInSeconds: number; downloadName?: string }): Promise<string>;
  close(): Promise<void>;
}

/** Presigned multipart uploads: the browser PUTs parts to the bucket, the server completes them. */
export interface MultipartUploads {
  create(key: string, contentType: string): Promise<string>;
  presignPart(key: string, uploadId: string, partNumber: number, expiresInSeconds: number): Promise<string>;
  /** Throws UploadRefusedError when the store refuses the parts; any other error may pass on a retry. */
  complete(key: string, uploadId: string, parts: { partNumber: number; etag: string }[]): Promise<void>;
  abort(key: string, uploadId: string): Promise<void>;
}

/** The store answered that these parts do not make the upload (a missing part, a wrong ETag). */
export class UploadRefusedError extends Error {}

/**
 * Keys become file paths on the local backend, so they are held to a narrow alphabet; a segment may
 * not start with a dot, which rules out `..` and keeps the backend's own `.tmp`/`.meta` folders apart.
 */
export function assertValidKey(key: string): void {
  const ok =
    key.length > 0 &&
    key.length <= 512 &&
    /^[A-Za-z0-9/_.-]+$/.test(key) &&
    key.split('/').every((segment) => segment.length > 0 && !segment.startsWith('.'));
  if (!ok) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}

/** The configured backend: S3 when S3_BUCKET is set, otherwise the data folder. */
export function createStorage(config: Config, secret: string, now: () => number = Date.now): ObjectStorage {
  if (config.storage.kind === 's3') {
    return createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  // Relative links: the server that serves the page serves the file, whatever address the browser used.
  return createLocalStorage({ dir: config.filesDir, publicUrl: '', secret, now });
}
