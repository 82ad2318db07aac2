import type { Readable } from 'node:stream';

/**
 * The storage port: bytes by key, local folder by default, S3-compatible when configured.
 * Knows nothing of owners; the files module scopes every key to its owner.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer | Readable, contentType: string): Promise<{ size: number }>;
  /** A byte range is inclusive, like HTTP Range (resumable downloads). */
  read(key: string, range?: { start: number; end?: number }): Promise<Readable>;
  stat(key: string): Promise<{ size: number; contentType: string | null } | null>;
  remove(key: string): Promise<void>;
  /** A URL that serves the object without a session until it expires. */
  signedUrl(key: string, options: { expiresInSeconds: number; downloadName?: string }): Promise<string>;
  close(): Promise<void>;
}
