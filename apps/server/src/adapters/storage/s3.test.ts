import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Storage } from './s3.ts';
import type { ObjectStorage } from './storage.ts';

// A real S3 protocol server (s3rver) on a random loopback port: the adapter speaks real S3.
describe('S3 storage', () => {
  let dir: string;
  let server: S3rver;
  let storage: ObjectStorage;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'vw-s3rver-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'vw-test' }],
    });
    const { port } = await server.run();
    storage = createS3Storage({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      bucket: 'vw-test',
      // s3rver's built-in account.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
  });
  afterAll(async () => {
    await storage.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts, stats, reads ranges and removes', async () => {
    const body = Buffer.from('0123456789abcdef');
    expect(await storage.put('u/1/a.bin', body, 'application/octet-stream')).toEqual({ size: 16 });
    const info = await storage.stat('u/1/a.bin');
    expect(info).toMatchObject({ size: 16, contentType: 'application/octet-stream' });
    expect(info?.etag).toMatch(/^"[0-9a-f]{32}"$/);

    expect(await text(await storage.read('u/1/a.bin'))).toBe('0123456789abcdef');
    expect(await text(await storage.read('u/1/a.bin', { start: 10, end: 12 }))).toBe('abc');
    expect(await text(await storage.read('u/1/a.bin', { start: 14 }))).toBe('ef');

    await storage.remove('u/1/a.bin');
    expect(await storage.stat('u/1/a.bin')).toBeNull();
    await storage.remove('u/1/a.bin');
  });

  it('uploads a stream of unknown length', async () => {
    const chunks = Array.from({ length: 50 }, (_, i) => Buffer.alloc(10_000, i));
    expect(await storage.put('u/1/stream.bin', Readable.from(chunks), 'audio/wav')).toEqual({
      size: 500_000,
    });
    expect((await buffer(await storage.read('u/1/stream.bin'))).equals(Buffer.concat(chunks))).toBe(true);
    expect((await storage.stat('u/1/stream.bin'))?.contentType).toBe('audio/wav');
  });

  it('stores nothing when the body stream fails', async () => {
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('client went away');
    }
    await expect(storage.put('u/1/broken.bin', Readable.from(failing()), 'audio/wav')).rejects.toThrow(
      'client went away',
    );
    expect(await storage.stat('u/1/broken.bin')).toBeNull();
  });

  it('presigns URLs that a plain HTTP client can fetch, with ranges and the download name', async () => {
    await storage.put('u/2/voice.mp3', Buffer.from('ID3-not-really-audio'), 'audio/mpeg');
    const url = await storage.signedUrl('u/2/voice.mp3', {
      expiresInSeconds: 300,
      downloadName: '我的录音.mp3',
    });
    // s3rver does not check SigV4 signatures, so only the expiry the bucket will enforce is checked here.
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('300');

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''%E6%88%91%E7%9A%84%E5%BD%95%E9%9F%B3.mp3",
    );
    expect(await res.text()).toBe('ID3-not-really-audio');

    const part = await fetch(url, { headers: { range: 'bytes=4-6' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('not');
  });
});
