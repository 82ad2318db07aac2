import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { sha256Hex } from '../../ids.ts';
import {
  deleteFilesOf,
  deleteOwnedFile,
  type FilesContext,
  getOwnedFile,
  signedFileUrl,
  storeFile,
} from './files.service.ts';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000dIHDR-and-some-pixels'),
]);
const SRT = Buffer.from('1\n00:00:01,000 --> 00:00:02,000\n你好\n');
const image = { allowed: ['image'] as const, maxBytes: 1024 * 1024, prefix: 'avatars' };

let server: TestServer;
let ctx: FilesContext;
beforeEach(async () => {
  server = await createTestServer();
  ctx = server.ctx;
});
afterEach(async () => {
  await server.close();
});

/** Every regular file in the storage folder and every row: what a failed upload must not leave. */
async function leftovers() {
  const entries = await readdir(server.config.filesDir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  const rows = await ctx.db.selectFrom('files').select('key').execute();
  return { files, rows };
}
const nothingLeft = { files: [], rows: [] };

describe('storeFile', () => {
  it('stores an image under the owner with its size, hash and sniffed type', async () => {
    const file = await storeFile(ctx, 'usr_a', {
      ...image,
      bytes: PNG,
      originalName: 'C:\\photos\\头像.png',
    });
    expect(file.key).toMatch(/^avatars\/usr_a\/file_[0-9a-f]{32}\.png$/);
    expect(file).toMatchObject({
      owner_id: 'usr_a',
      content_type: 'image/png',
      size: PNG.length,
      sha256: sha256Hex(PNG),
      original_name: '头像.png',
    });
    expect(await getOwnedFile(ctx, 'usr_a', file.key)).toEqual(file);
    expect((await buffer(await ctx.storage.read(file.key))).equals(PNG)).toBe(true);
    expect(await ctx.storage.stat(file.key)).toMatchObject({ size: PNG.length, contentType: 'image/png' });
  });

  it('takes the type from the bytes, not from the name or the declared type', async () => {
    const renamed = storeFile(ctx, 'usr_a', {
      ...image,
      bytes: Buffer.from('just some notes, not a picture'),
      originalName: 'photo.png',
      declaredType: 'image/png',
    });
    await expect(renamed).rejects.toMatchObject({ code: 422, detailType: 'err_file_not_supported' });
    expect(await leftovers()).toEqual(nothingLeft);

    const subtitle = await storeFile(ctx, 'usr_a', {
      bytes: SRT,
      originalName: 'subs.txt',
      allowed: ['subtitle'],
      maxBytes: 1000,
      prefix: 'subtitles',
    });
    expect(subtitle).toMatchObject({ content_type: 'application/x-subrip; charset=utf-8' });
    expect(subtitle.key).toMatch(/\.srt$/);
  });

  it('lets the declared type choose between audio and video for a container that can be both', async () => {
    const webm = Buffer.concat([
      Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x84]),
      Buffer.from('webm-opus'),
    ]);
    const input = {
      bytes: webm,
      originalName: 'rec.webm',
      allowed: ['video', 'audio'] as const,
      maxBytes: 1000,
    };
    expect((await storeFile(ctx, 'usr_a', { ...input, prefix: 'a' })).content_type).toBe('video/webm');
    const audio = await storeFile(ctx, 'usr_a', {
      ...input,
      prefix: 'a',
      declaredType: 'audio/webm;codecs=opus',
    });
    expect(audio.content_type).toBe('audio/webm');
  });

  it('refuses empty files and files over the limit, from a buffer or a stream, leaving nothing', async () => {
    await expect(
      storeFile(ctx, 'usr_a', { ...image, bytes: Buffer.alloc(0), originalName: 'x.png' }),
    ).rejects.toMatchObject({
      detailType: 'err_file_empty',
    });
    const big = { ...image, maxBytes: 100_000, originalName: 'big.png' };
    const bytes = Buffer.concat([PNG, Buffer.alloc(100_000)]);
    await expect(storeFile(ctx, 'usr_a', { ...big, bytes })).rejects.toMatchObject({
      detailType: 'err_file_too_large',
    });

    // Well past the sniffed head, so the limit trips while the object is being written.
    let pulled = 0;
    const stream = Readable.from(
      (function* () {
        yield PNG;
        for (; pulled < 1000; pulled++) yield Buffer.alloc(16 * 1024);
      })(),
    );
    await expect(storeFile(ctx, 'usr_a', { ...big, maxBytes: 200_000, bytes: stream })).rejects.toMatchObject(
      {
        detailType: 'err_file_too_large',
      },
    );
    expect(pulled).toBeLessThan(20);
    expect(stream.destroyed).toBe(true);
    expect(await leftovers()).toEqual(nothingLeft);

    const exact = await storeFile(ctx, 'usr_a', { ...big, bytes: PNG, maxBytes: PNG.length });
    expect(exact.size).toBe(PNG.length);
  });

  it('refuses text that stops being UTF-8 after the sniffed head, leaving nothing', async () => {
    const stream = Readable.from([Buffer.from('a'.repeat(100_000)), Buffer.from([0xc4, 0xe3, 0x0a])]);
    const input = {
      bytes: stream,
      originalName: 'notes.txt',
      allowed: ['text'] as const,
      maxBytes: 1e6,
      prefix: 't',
    };
    await expect(storeFile(ctx, 'usr_a', input)).rejects.toMatchObject({
      detailType: 'err_file_not_supported',
    });
    expect(await leftovers()).toEqual(nothingLeft);
  });

  it('removes the stored object when the row cannot be written', async () => {
    const db = new Proxy(ctx.db, {
      get(target, prop) {
        if (prop === 'insertInto') {
          return () => {
            throw new Error('database unavailable');
          };
        }
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(
      storeFile({ ...ctx, db }, 'usr_a', { ...image, bytes: PNG, originalName: 'a.png' }),
    ).rejects.toThrow('database unavailable');
    expect(await leftovers()).toEqual(nothingLeft);
  });
});

describe('owner scoping', () => {
  it('another user can neither read, sign nor delete a file', async () => {
    const file = await storeFile(ctx, 'usr_a', { ...image, bytes: PNG, originalName: 'a.png' });
    const notFound = { code: 422, detailType: 'err_not_found' };
    await expect(getOwnedFile(ctx, 'usr_b', file.key)).rejects.toMatchObject(notFound);
    await expect(signedFileUrl(ctx, 'usr_b', file.key, { expiresInSeconds: 60 })).rejects.toMatchObject(
      notFound,
    );
    await expect(deleteOwnedFile(ctx, 'usr_b', file.key)).rejects.toMatchObject(notFound);
    expect(await ctx.storage.stat(file.key)).not.toBeNull();
    expect(await getOwnedFile(ctx, 'usr_a', file.key)).toEqual(file);

    expect(await signedFileUrl(ctx, 'usr_a', file.key, { expiresInSeconds: 60 })).toContain(
      `/files/${file.key}?`,
    );
    await deleteOwnedFile(ctx, 'usr_a', file.key);
    await expect(getOwnedFile(ctx, 'usr_a', file.key)).rejects.toMatchObject(notFound);
    expect(await ctx.storage.stat(file.key)).toBeNull();
  });

  it('deleteFilesOf removes every file of one owner and nobody else’s', async () => {
    for (let i = 0; i < 3; i++)
      await storeFile(ctx, 'usr_a', { ...image, bytes: PNG, originalName: `${i}.png` });
    const kept = await storeFile(ctx, 'usr_b', { ...image, bytes: PNG, originalName: 'b.png' });
    expect(await deleteFilesOf(ctx, 'usr_a')).toBe(3);
    const { files, rows } = await leftovers();
    expect(rows).toEqual([{ key: kept.key }]);
    expect(files.filter((f) => !f.includes(`${path.sep}.meta${path.sep}`))).toEqual([
      path.join(server.config.filesDir, kept.key),
    ]);
  });
});
