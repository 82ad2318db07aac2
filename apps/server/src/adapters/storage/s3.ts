import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentDisposition } from './content-disposition.ts';
import { assertValidKey, type MultipartUploads, type ObjectStorage, UploadRefusedError } from './storage.ts';

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
/** The HTTP status the store answered, when it answered at all. */
const httpStatusOf = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

function s3Multipart(client: S3Client, bucket: string): MultipartUploads {
  return {
    async create(key, contentType) {
      assertValidKey(key);
      const res = await client.send(
        new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: contentType }),
      );
      if (!res.UploadId) throw new Error('S3 returned no upload id');
      return res.UploadId;
    },
    presignPart(key, uploadId, partNumber, expiresInSeconds) {
      const command = new UploadPartCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        PartNumber: partNumber,
      });
      return getSignedUrl(client, command, { expiresIn: Math.min(expiresInSeconds, MAX_PRESIGN_SECONDS) });
    },
    async complete(key, uploadId, parts) {
      try {
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: {
              Parts: [...parts]
                .sort((a, b) => a.partNumber - b.partNumber)
                .map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })),
            },
          }),
        );
      } catch (error) {
        const status = httpStatusOf(error);
        if (status !== undefined && status >= 400 && status < 500)
          throw new UploadRefusedError((error as Error).message);
        throw error;
      }
    },
    async abort(key, uploadId) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    },
  };
}

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

  async function putFile(key: string, file: string, contentType: string) {
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
        return await putFile(key, file, contentType);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async putFile(key, file, contentType, options) {
      assertValidKey(key);
      const stored = await putFile(key, file, contentType);
      if (options?.move) await rm(file, { force: true });
      return stored;
    },

    async *list(prefix) {
      const base = `${prefix.replace(/\/+$/, '')}/`;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: base, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) {
          if (o.Key) yield { key: o.Key, size: o.Size ?? 0, modifiedAt: o.LastModified?.getTime() ?? 0 };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },

    multipart: s3Multipart(client, bucket),

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
        if (httpStatusOf(error) === 404) return null;
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
