import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scratchRoot } from '../src/media/scratch.ts';
import { uploadsDir } from '../src/modules/uploads/tus.ts';
import { call, createTestServer, signIn, type TestServer, taskRow } from './harness.ts';
import { makeMediaFixtures } from './media-fixtures.ts';
import { tusClient } from './tus-client.ts';

let fx: ReturnType<typeof makeMediaFixtures>;
beforeAll(() => {
  fx = makeMediaFixtures();
});
afterAll(() => rmSync(fx.dir, { recursive: true, force: true }));

let server: TestServer;
let base: string;
beforeEach(async () => {
  server = await createTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await server.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const filesIn = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name))
    : [];
const storedObjects = () => filesIn(path.join(server.config.filesDir, 'media'));

async function complete(token: string, body: unknown) {
  return call(server.app, 'POST', '/v1/media/complete_upload', { token, body });
}

async function user(phone: string) {
  const { secure_tokens, user_info } = await signIn(server.app, phone);
  return {
    token: secure_tokens.access_token,
    uid: user_info.uid,
    tus: tusClient(base, secure_tokens.access_token),
  };
}

describe('tus uploads', () => {
  it('resumes after a broken connection and registers the asset with probe, sha256, peaks and thumbnail', async () => {
    const a = await user('13900000301');
    const bytes = readFileSync(fx.file('clip.mp4'));
    const { status, location } = await a.tus.create(bytes.length, '我的视频.mp4');
    expect(status).toBe(201);
    expect(location).toMatch(new RegExp(`^/v1/uploads/tus/${a.uid}-[0-9a-f]{32}$`));
    const id = location.split('/').pop()!;
    const onDisk = () =>
      existsSync(path.join(uploadsDir(server.ctx), id))
        ? statSync(path.join(uploadsDir(server.ctx), id)).size
        : 0;

    // First third in one PATCH.
    const third = Math.floor(bytes.length / 3);
    expect(await a.tus.patch(location, 0, bytes.subarray(0, third))).toEqual({ status: 204, offset: third });

    // The next PATCH breaks after some bytes reached the server.
    const cutAt = Math.floor((bytes.length - third) / 2);
    await a.tus.brokenPatch(
      location,
      third,
      bytes.subarray(third),
      cutAt,
      async () => onDisk() >= third + cutAt,
    );

    // HEAD tells where to go on (it may briefly answer while the broken request is being closed).
    let head = await a.tus.head(location);
    for (let i = 0; i < 200 && (head.status !== 200 || head.offset !== onDisk()); i++)
      head = await a.tus.head(location);
    expect(head.status).toBe(200);
    expect(head.length).toBe(bytes.length);
    expect(head.offset).toBeGreaterThanOrEqual(third + cutAt);
    expect(head.offset).toBeLessThan(bytes.length);

    expect(await a.tus.patch(location, head.offset, bytes.subarray(head.offset))).toEqual({
      status: 204,
      offset: bytes.length,
    });

    const res = await complete(a.token, { tus_upload: `${base}${location}` });
    expect(res.body.code).toBe(0);
    const asset = res.body.data.asset;
    expect(asset).toMatchObject({
      name: '我的视频.mp4',
      kind: 'video',
      mime: 'video/mp4',
      size: bytes.length,
      width: 320,
      height: 240,
      has_audio: true,
      has_video: true,
      sha256: sha256(bytes),
      status: 'ready',
    });
    expect(asset.duration_ms).toBeGreaterThan(3900);
    expect(asset.duration_ms).toBeLessThan(4200);

    // The stored file is the uploaded bytes; the thumbnail is a JPEG.
    const file = await server.app.inject({ method: 'GET', url: asset.url });
    expect(sha256(file.rawPayload)).toBe(sha256(bytes));
    const thumb = await server.app.inject({ method: 'GET', url: asset.thumbnail_url });
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const peaks = await call(server.app, 'GET', `/v1/media/peaks?asset_id=${asset.asset_id}`, {
      token: a.token,
    });
    expect(peaks.body.data.buckets_per_second).toBe(100);
    expect(peaks.body.data.peaks.length).toBeGreaterThan(780);
    expect(Math.max(...peaks.body.data.peaks)).toBeGreaterThan(0.1);

    // The tus files are gone; the asset's three objects are in storage; no scratch left.
    expect(filesIn(uploadsDir(server.ctx))).toEqual([]);
    expect(
      storedObjects()
        .map((f) => path.basename(f))
        .sort(),
    ).toEqual(['peaks.json', 'source.mp4', 'thumb.jpg']);
    expect(filesIn(scratchRoot(server.ctx))).toEqual([]);

    // Completing the same upload again (a retry whose answer was lost) answers the same asset and
    // registers nothing new; another user completing it finds nothing.
    expect((await complete(a.token, { tus_upload: location })).body.data.asset.asset_id).toBe(asset.asset_id);
    const b = await user('13900000399');
    expect((await complete(b.token, { tus_upload: location })).body.data.detail[0].type).toBe(
      'err_not_found',
    );

    const got = await call(server.app, 'GET', `/v1/media/get?asset_id=${asset.asset_id}`, { token: a.token });
    expect(got.body.data.asset.sha256).toBe(asset.sha256);
    const list = await call(server.app, 'GET', '/v1/media/list?kind=video', { token: a.token });
    expect(list.body.data.total).toBe(1);
  });

  it('uploads with the official tus client (tus-js-client) and keeps to the protocol', async () => {
    const a = await user('13900000307');
    const bytes = readFileSync(fx.file('clip.mp4'));
    const { Upload } = await import('tus-js-client');
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new Upload(bytes, {
        endpoint: `${base}/v1/uploads/tus`,
        headers: { authorization: `Bearer ${a.token}` },
        metadata: { filename: 'client.mp4', filetype: 'video/mp4' },
        chunkSize: 100_000,
        retryDelays: [],
        onError: reject,
        onSuccess: () => resolve(upload.url!),
      });
      upload.start();
    });
    const res = await complete(a.token, { tus_upload: url });
    expect(res.body.data.asset).toMatchObject({ name: 'client.mp4', sha256: sha256(bytes) });

    // Protocol answers of PATCH: offset conflict, body past Upload-Length, missing version, bad type.
    const { location } = await a.tus.create(10, 'p.bin');
    expect((await a.tus.patch(location, 5, Buffer.alloc(5))).status).toBe(409);
    expect((await a.tus.patch(location, 0, Buffer.alloc(11))).status).toBe(413);
    expect((await a.tus.head(location)).offset).toBe(0);
    const noVersion = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${a.token}`,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: 'x',
    });
    expect(noVersion.status).toBe(412);
    const badType = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${a.token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'text/plain',
      },
      body: 'x',
    });
    expect(badType.status).toBe(415);
    expect(await a.tus.patch(location, 0, Buffer.alloc(10))).toEqual({ status: 204, offset: 10 });
    // Nobody can read uploads back through tus.
    expect(
      (await fetch(`${base}${location}`, { headers: { authorization: `Bearer ${a.token}` } })).status,
    ).toBe(404);
  });

  it('registers speech audio (MP3 and WAV) with peaks and no thumbnail', async () => {
    const a = await user('13900000302');
    for (const [name, mime] of [
      ['speech.mp3', 'audio/mpeg'],
      ['speech.wav', 'audio/wav'],
    ]) {
      const bytes = readFileSync(fx.file(name));
      const res = await complete(a.token, { tus_upload: await a.tus.upload(bytes, name) });
      expect(res.body.data.asset).toMatchObject({
        kind: 'audio',
        mime,
        has_video: false,
        thumbnail_url: '',
        width: null,
      });
      const peaks = await call(
        server.app,
        'GET',
        `/v1/media/peaks?asset_id=${res.body.data.asset.asset_id}`,
        {
          token: a.token,
        },
      );
      expect(peaks.body.data.peaks.length).toBeGreaterThan(100);
    }
  });

  it('refuses empty, truncated, fake and hostile files and leaves nothing behind', async () => {
    const a = await user('13900000303');
    const cases: Array<[string, string]> = [
      ['empty.mp4', 'err_file_empty'],
      ['truncated.mp4', 'err_file_not_supported'],
      ['fake.mp4', 'err_file_not_supported'],
      ['text.mp3', 'err_file_not_supported'],
      ['playlist.m3u8', 'err_file_not_supported'],
      ['list.ffconcat', 'err_file_not_supported'],
      ['zip.mp4', 'err_file_not_supported'],
      ['huge.avi', 'err_file_not_supported'],
    ];
    for (const [name, error] of cases) {
      const location = await a.tus.upload(readFileSync(fx.file(name)), name);
      const res = await complete(a.token, { tus_upload: location });
      expect({ name, type: res.body.data?.detail?.[0]?.type }).toEqual({ name, type: error });
    }
    expect(await server.ctx.db.selectFrom('media_assets').selectAll().execute()).toEqual([]);
    expect(storedObjects()).toEqual([]);
    expect(filesIn(uploadsDir(server.ctx))).toEqual([]);
    expect(filesIn(scratchRoot(server.ctx))).toEqual([]);
  });

  it('applies the plan limits: size at creation, duration and resolution at completion', async () => {
    const a = await user('13900000304');
    // Free plan: 200 MB.
    expect((await a.tus.create(201 * 1024 * 1024, 'big.mp4')).status).toBe(413);
    const ticket = await call(server.app, 'POST', '/v1/misc/generate_obs_temporary_credentials', {
      token: a.token,
      body: { name: 'big.mp4', size: 201 * 1024 * 1024 },
    });
    expect(ticket.body.data.detail[0].type).toBe('err_file_too_large');
    const ok = await call(server.app, 'POST', '/v1/misc/generate_obs_temporary_credentials', {
      token: a.token,
      body: { name: 'a.mp4', size: 1000 },
    });
    expect(ok.body.data).toEqual({
      provider: 'tus',
      endpoint: '/v1/uploads/tus',
      max_size: 200 * 1024 * 1024,
      chunk_size: 64 * 1024 * 1024,
    });

    const { execFileSync } = await import('node:child_process');
    const long = fx.file('long.mp3');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=8000:cl=mono',
      '-t',
      '660',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '8k',
      long,
    ]);
    const wide = fx.file('wide.mp4');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'color=size=2560x1440:rate=1',
      '-t',
      '1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      wide,
    ]);
    const tooLong = await complete(a.token, {
      tus_upload: await a.tus.upload(readFileSync(long), 'long.mp3'),
    });
    expect(tooLong.body.data.detail[0].type).toBe('err_media_too_long');
    const tooWide = await complete(a.token, {
      tus_upload: await a.tus.upload(readFileSync(wide), 'wide.mp4'),
    });
    expect(tooWide.body.data.detail[0].type).toBe('err_media_resolution_too_high');
    expect(storedObjects()).toEqual([]);
    expect(filesIn(uploadsDir(server.ctx))).toEqual([]);
  });

  it('scopes uploads and assets to their owner', async () => {
    const a = await user('13900000305');
    const b = await user('13900000306');
    const bytes = readFileSync(fx.file('speech.mp3'));

    // Unauthenticated: refused before tus.
    const anon = await fetch(`${base}/v1/uploads/tus`, {
      method: 'POST',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' },
    });
    expect(anon.status).toBe(401);

    const { location } = await a.tus.create(bytes.length, 'a.mp3');
    expect((await b.tus.head(location)).status).toBe(404);
    expect((await b.tus.patch(location, 0, bytes)).status).toBe(404);
    expect(await b.tus.remove(location)).toBe(404);
    expect((await a.tus.head(location)).offset).toBe(0);
    await a.tus.patch(location, 0, bytes);
    expect((await complete(b.token, { tus_upload: location })).body.data.detail[0].type).toBe(
      'err_not_found',
    );

    const asset = (await complete(a.token, { tus_upload: location })).body.data.asset;
    for (const url of [
      `/v1/media/get?asset_id=${asset.asset_id}`,
      `/v1/media/peaks?asset_id=${asset.asset_id}`,
    ]) {
      expect((await call(server.app, 'GET', url, { token: b.token })).body.data.detail[0].type).toBe(
        'err_not_found',
      );
    }
    const del = await call(server.app, 'DELETE', '/v1/media/delete', {
      token: b.token,
      body: { asset_id: asset.asset_id },
    });
    expect(del.body.data.detail[0].type).toBe('err_not_found');
    expect((await call(server.app, 'GET', '/v1/media/list', { token: b.token })).body.data.total).toBe(0);

    // The owner may terminate their own unfinished upload.
    const other = await a.tus.create(100, 'x.mp3');
    expect(await a.tus.remove(other.location)).toBe(204);

    // Deleting: refused while a task names the asset, then removes the row and the files.
    await server.ctx.db
      .insertInto('tasks')
      .values(
        taskRow(a.uid, server.clock.now(), {
          id: 'task_1',
          input_asset_ids: JSON.stringify([asset.asset_id]),
        }),
      )
      .execute();
    const refused = await call(server.app, 'DELETE', '/v1/media/delete', {
      token: a.token,
      body: { asset_id: asset.asset_id },
    });
    expect(refused.body.data.detail[0].type).toBe('err_invalid_param');
    await server.ctx.db.deleteFrom('tasks').execute();
    const deleted = await call(server.app, 'DELETE', '/v1/media/delete', {
      token: a.token,
      body: { asset_id: asset.asset_id },
    });
    expect(deleted.body.data).toEqual({ deleted: 1 });
    expect(storedObjects()).toEqual([]);
  });
});
