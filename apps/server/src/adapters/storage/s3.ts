import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition } from './content-disposition.ts';
import { assertValidKey, type ObjectStorage } from './storage.ts';

export interface S3StorageOptions {
  /** Unset for AWS itself; the URL of MinIO, R2, OSS and the like otherwise. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** S3's own limit for presigned URLs. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export function createS3Storage(options: S3StorageOptions): ObjectStorage {
  const { bucket } = options;
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    // The default CRC trailers (aws-chunked uploads) are not understood by many S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

  async function putBuffer(key: string, body: Buffer, contentType: string) {
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.length,
      }),
    );
    return { size: body.length };
  }

  return {
    kind: 's3',

    async put(key, body, contentType) {
      assertValidKey(key);
      if (Buffer.isBuffer(body)) return putBuffer(key, body, contentType);
      // PutObject needs the length up front; spooling to a temp file keeps large uploads out of memory,
      // and a body stream that fails never reaches the bucket at all.
      const dir = await mkdtemp(path.join(tmpdir(), 'vw-s3-'));
      try {
        const file = path.join(dir, 'body');
        await pipeline(body, createWriteStream(file));
        const { size } = await stat(file);
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: createReadStream(file),
            ContentType: contentType,
            ContentLength: size,
          }),
        );
        return { size };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async read(key, range) {
      const res = await client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      );
      // In Node the SDK's body is an http.IncomingMessage, i.e. a Readable.
      return res.Body as Readable;
    },

    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return {
          size: head.ContentLength ?? 0,
          contentType: head.ContentType ?? null,
          etag: head.ETag ?? '',
        };
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
          return null;
        throw error;
      }
    },

    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async signedUrl(key, { expiresInSeconds, downloadName }) {
      assertValidKey(key);
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ResponseContentDisposition:
          downloadName === undefined ? undefined : contentDisposition('attachment', downloadName),
      });
      return getSignedUrl(client, command, { expiresIn: Math.min(expiresInSeconds, MAX_PRESIGN_SECONDS) });
    },

    async close() {
      client.destroy();
    },
  };
}
