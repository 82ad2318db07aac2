import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../bench/load/s3rver-atomic.ts';
import { call, createTestServer, signIn, type TestServer } from './harness.ts';
import { makeMediaFixtures } from './media-fixtures.ts';

// A real S3 protocol server (s3rver): the browser's part PUTs go to presigned URLs, as in production.
let s3dir: string;
let s3: S3rver;
let server: TestServer;
let fx: ReturnType<typeof makeMediaFixtures>;

beforeAll(async () => {
  fx = makeMediaFixtures();
  // 9.5 MB of stereo WAV: two parts of 8 MB.
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=300:sample_rate=44100',
    '-ac',
    '2',
    '-t',
    '56',
    '-c:a',
    'pcm_s16le',
    fx.file('long.wav'),
  ]);
  s3dir = mkdtempSync(path.join(tmpdir(), 'vw-s3rver-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3dir,
    configureBuckets: [{ name: 'vw-media' }],
  });
  const { port } = await s3.run();
  server = await createTestServer({
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: 'vw-media',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  });
});
afterAll(async () => {
  await server.close();
  await s3.close();
  rmSync(s3dir, { recursive: true, force: true });
  rmSync(fx.dir, { recursive: true, force: true });
});

const keysUnder = async (prefix: string) => {
  const keys: string[] = [];
  for await (const o of server.ctx.storage.list(prefix)) keys.push(o.key);
  return keys.sort();
};

async function uploadToS3(token: string, bytes: Buffer, name: string) {
  const ticket = await call(server.app, 'POST', '/v1/misc/generate_obs_temporary_credentials', {
    token,
    body: { name, size: bytes.length, content_type: 'audio/wav' },
  });
  expect(ticket.body.data.provider).toBe('s3');
  const { upload_id, part_size, parts } = ticket.body.data as {
    upload_id: string;
    part_size: number;
    parts: { part_number: number; url: string }[];
  };
  const done: { part_number: number; etag: string }[] = [];
  for (const part of parts) {
    const slice = bytes.subarray((part.part_number - 1) * part_size, part.part_number * part_size);
    const res = await fetch(part.url, { method: 'PUT', body: new Uint8Array(slice) });
    expect(res.status).toBe(200);
    done.push({ part_number: part.part_number, etag: res.headers.get('etag') ?? '' });
  }
  return { upload_id, parts: done, count: parts.length };
}

describe('uploads straight to S3 (presigned multipart)', () => {
  it('ends in an asset stored in the bucket, with nothing left in staging', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000501');
    const token = secure_tokens.access_token;
    const bytes = readFileSync(fx.file('long.wav'));
    const { upload_id, parts, count } = await uploadToS3(token, bytes, '长音频.wav');
    expect(count).toBe(2);
    expect(await keysUnder('uploads')).toHaveLength(0); // parts are not an object until completed

    // Another user cannot complete it.
    const other = await signIn(server.app, '13900000502');
    const stolen = await call(server.app, 'POST', '/v1/media/complete_upload', {
      token: other.secure_tokens.access_token,
      body: { upload_id, parts },
    });
    expect(stolen.body.data.detail[0].type).toBe('err_not_found');

    const res = await call(server.app, 'POST', '/v1/media/complete_upload', {
      token,
      body: { upload_id, parts },
    });
    expect(res.body.code).toBe(0);
    const asset = res.body.data.asset;
    expect(asset).toMatchObject({
      name: '长音频.wav',
      kind: 'audio',
      mime: 'audio/wav',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      status: 'ready',
    });
    expect(asset.duration_ms).toBeGreaterThan(55_000);
    const file = await fetch(asset.url);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    const peaks = await call(server.app, 'GET', `/v1/media/peaks?asset_id=${asset.asset_id}`, { token });
    expect(peaks.body.data.peaks.length).toBeGreaterThan(10_000);
    expect(await keysUnder('uploads')).toEqual([]);
    expect(await keysUnder('media')).toHaveLength(2); // source + peaks
    expect(await server.ctx.db.selectFrom('media_uploads').selectAll().execute()).toEqual([]);

    // A retry whose first answer was lost gets the same asset; nothing new is stored.
    const again = await call(server.app, 'POST', '/v1/media/complete_upload', {
      token,
      body: { upload_id, parts },
    });
    expect(again.body.data.asset.asset_id).toBe(asset.asset_id);
    expect(await keysUnder('media')).toHaveLength(2);
  });

  it('keeps an upload whose completion the store cut short, and the retry completes it', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000504');
    const token = secure_tokens.access_token;
    const bytes = readFileSync(fx.file('long.wav'));
    const { upload_id, parts } = await uploadToS3(token, bytes, '断线.wav');
    // The store drops the connection while the server reads the completed object back.
    const storage = server.ctx.storage;
    const read = storage.read.bind(storage);
    storage.read = async () => {
      storage.read = read;
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    };
    const cut = await call(server.app, 'POST', '/v1/media/complete_upload', {
      token,
      body: { upload_id, parts },
    });
    expect(storage.read).toBe(read);
    expect(cut.status).toBe(500);
    // Nothing lost: the upload row is there, unclaimed, with its completed object staged.
    const rows = await server.ctx.db.selectFrom('media_uploads').selectAll().execute();
    expect(rows).toEqual([expect.objectContaining({ id: upload_id, claimed_until: null })]);
    expect(await keysUnder('uploads')).toEqual([rows[0].storage_key]);

    // The client's retry (same parts: the multipart upload is already complete) makes the asset.
    const retry = await call(server.app, 'POST', '/v1/media/complete_upload', {
      token,
      body: { upload_id, parts },
    });
    expect(retry.body.code).toBe(0);
    expect(retry.body.data.asset).toMatchObject({
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect(await keysUnder('uploads')).toEqual([]);
    expect(await server.ctx.db.selectFrom('media_uploads').selectAll().execute()).toEqual([]);
  });

  it('answers two completions at once with the same asset, stored once', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000505');
    const token = secure_tokens.access_token;
    const bytes = readFileSync(fx.file('long.wav'));
    const { upload_id, parts } = await uploadToS3(token, bytes, '重试.wav');
    const before = (await keysUnder('media')).length;
    const [a, b] = await Promise.all(
      [0, 1].map(() =>
        call(server.app, 'POST', '/v1/media/complete_upload', { token, body: { upload_id, parts } }),
      ),
    );
    expect([a.body.code, b.body.code]).toEqual([0, 0]);
    expect(b.body.data.asset.asset_id).toBe(a.body.data.asset.asset_id);
    expect((await keysUnder('media')).length).toBe(before + 2); // source + peaks
  });

  it('refuses a hostile file and removes it from the bucket', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000503');
    const token = secure_tokens.access_token;
    const before = await keysUnder('media');
    for (const name of ['playlist.m3u8', 'zip.mp4']) {
      const { upload_id, parts } = await uploadToS3(token, readFileSync(fx.file(name)), name);
      const res = await call(server.app, 'POST', '/v1/media/complete_upload', {
        token,
        body: { upload_id, parts },
      });
      expect(res.body.data.detail[0].type).toBe('err_file_not_supported');
    }
    expect(await keysUnder('uploads')).toEqual([]);
    expect(await keysUnder('media')).toEqual(before);
  });
});
