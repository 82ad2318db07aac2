import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { createS3Storage } from '../../adapters/storage/s3.ts';
import { registerFileRoutes } from './files.routes.ts';
import { signedFileUrl, storeFile } from './files.service.ts';

// A PNG signature followed by more than one read chunk (64 KiB) of bytes.
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  randomBytes(200_000),
]);

describe('GET /files/*', () => {
  let server: TestServer;
  let key: string;
  beforeEach(async () => {
    server = await createTestServer();
    const file = await storeFile(server.ctx, 'usr_a', {
      bytes: PNG,
      originalName: 'a.png',
      allowed: ['image'],
      maxBytes: 1e6,
      prefix: 'avatars',
    });
    key = file.key;
  });
  afterEach(async () => {
    await server.close();
  });

  /** The path and query of a signed URL, as the browser would request it. */
  async function signedPath(options: { downloadName?: string } = {}) {
    const url = new URL(
      await signedFileUrl(server.ctx, 'usr_a', key, {
        expiresInSeconds: 600,
        downloadName: options.downloadName,
      }),
      'http://localhost',
    );
    return url.pathname + url.search;
  }
  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: 'GET', url, headers });

  it('serves the whole file with its type, name, validator and caching headers', async () => {
    const res = await get(await signedPath({ downloadName: '我的头像 (1).png' }));
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(PNG.length),
      'accept-ranges': 'bytes',
      'cache-control': 'private, max-age=600',
      'x-content-type-options': 'nosniff',
      'content-disposition': `attachment; filename="____ (1).png"; filename*=UTF-8''%E6%88%91%E7%9A%84%E5%A4%B4%E5%83%8F%20%281%29.png`,
    });
    expect(res.headers.etag).toBeTruthy();
    expect((await get(await signedPath())).headers['content-disposition']).toBe('inline');
  });

  it('answers byte ranges with 206 and exactly those bytes, so downloads resume', async () => {
    const url = await signedPath();
    const mid = await get(url, { range: 'bytes=65530-65545' });
    expect(mid.statusCode).toBe(206);
    expect(mid.rawPayload.equals(PNG.subarray(65530, 65546))).toBe(true);
    expect(mid.headers['content-range']).toBe(`bytes 65530-65545/${PNG.length}`);
    expect(mid.headers['content-length']).toBe('16');

    const rest = await get(url, { range: 'bytes=150000-' });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(PNG.subarray(150000))).toBe(true);

    const tail = await get(url, { range: 'bytes=-10' });
    expect(tail.rawPayload.equals(PNG.subarray(-10))).toBe(true);
    expect(tail.headers['content-range']).toBe(`bytes ${PNG.length - 10}-${PNG.length - 1}/${PNG.length}`);

    const beyond = await get(url, { range: `bytes=${PNG.length}-` });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${PNG.length}`);

    // Several ranges or a malformed header: the whole file, which is always a correct answer.
    expect((await get(url, { range: 'bytes=0-1,5-6' })).statusCode).toBe(200);
    expect((await get(url, { range: 'bytes=9-3' })).statusCode).toBe(200);
  });

  it('resumes only while the copy is the same (If-Range) and revalidates with If-None-Match', async () => {
    const url = await signedPath();
    const { etag } = (await get(url)).headers as { etag: string };
    expect((await get(url, { range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
    const stale = await get(url, { range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(PNG.length);
    expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('answers HEAD with the headers only', async () => {
    const res = await server.app.inject({ method: 'HEAD', url: await signedPath() });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(PNG.length));
    expect(res.rawPayload.length).toBe(0);
  });

  it('refuses tampered, expired and borrowed signatures with 403', async () => {
    const url = await signedPath({ downloadName: 'a.png' });
    const refused = { code: 403, msg: '链接已失效', data: null };
    const check = async (target: string) => {
      const res = await get(target);
      expect(res.statusCode, target).toBe(403);
      expect(res.json()).toEqual(refused);
    };
    await check(url.replace(/sig=([^&])/, (_, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`));
    await check(url.replace('name=a.png', 'name=b.png'));
    await check(url.replace(/&sig=[^&]+/, ''));
    await check(url.replace(key, key.replace('usr_a', 'usr_b')));
    await check(url.replace(/\?.*$/, ''));
    await check(`/files/avatars%2F..%2F..%2Fsecrets.json${url.slice(url.indexOf('?'))}`);

    expect((await get(url)).statusCode).toBe(200);
    server.clock.advance(600_000);
    await check(url);
  });

  it('says not found when a signed file has been deleted since', async () => {
    const url = await signedPath();
    await server.ctx.storage.remove(key);
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, data: null });
  });
});

it('is not registered for S3, whose presigned URLs go straight to the bucket', async () => {
  const app = Fastify();
  const storage = createS3Storage({
    region: 'us-east-1',
    bucket: 'b',
    accessKeyId: 'k',
    secretAccessKey: 's',
    forcePathStyle: true,
  });
  // No route, so nothing reads the database.
  registerFileRoutes(app, { storage, clock: { now: () => Date.now() }, db: null as never });
  await app.ready();
  expect(app.hasRoute({ method: 'GET', url: '/files/*' })).toBe(false);
  await app.close();
  await storage.close();
});
