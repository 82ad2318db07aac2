import { mkdtempSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage, type LocalStorage } from './local.ts';

/** Every regular file under a folder, so a test can prove nothing was left behind. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('local storage', () => {
  let dir: string;
  let now: number;
  let storage: LocalStorage;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'vw-local-'));
    now = 1_700_000_000_000;
    storage = createLocalStorage({
      dir,
      publicUrl: 'http://files.test',
      secret: 'local-test-secret',
      now: () => now,
    });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('puts, reads whole and ranged, stats and removes', async () => {
    expect(await storage.put('a/b/hello.txt', Buffer.from('hello world'), 'text/plain')).toEqual({
      size: 11,
    });
    expect(await text(await storage.read('a/b/hello.txt'))).toBe('hello world');
    expect(await text(await storage.read('a/b/hello.txt', { start: 6 }))).toBe('world');
    expect(await text(await storage.read('a/b/hello.txt', { start: 0, end: 4 }))).toBe('hello');
    const info = await storage.stat('a/b/hello.txt');
    expect(info).toMatchObject({ size: 11, contentType: 'text/plain' });
    expect(info?.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);

    await storage.remove('a/b/hello.txt');
    expect(await storage.stat('a/b/hello.txt')).toBeNull();
    await expect(storage.read('a/b/hello.txt')).rejects.toThrow(/ENOENT/);
    await storage.remove('a/b/hello.txt');
  });

  it('streams a body to disk', async () => {
    const body = Readable.from([Buffer.from('one '), Buffer.from('two '), Buffer.from('three')]);
    expect(await storage.put('s/x.txt', body, 'text/plain')).toEqual({ size: 13 });
    expect(await text(await storage.read('s/x.txt'))).toBe('one two three');
  });

  it('leaves nothing behind when the body stream fails', async () => {
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('client went away');
    }
    await expect(
      storage.put('f/x.bin', Readable.from(failing()), 'application/octet-stream'),
    ).rejects.toThrow('client went away');
    expect(await storage.stat('f/x.bin')).toBeNull();
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('refuses keys that could escape the folder or clash with its own files', async () => {
    for (const key of [
      '../x',
      'a/../../x',
      '/etc/passwd',
      'a//b',
      '.meta/a',
      'a/.tmp',
      'a b',
      'a\\b',
      'a/',
      '',
    ]) {
      await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
    }
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('signs URLs that verify only for the same key, name and time window', async () => {
    const url = new URL(
      await storage.signedUrl('u/1/f.mp3', { expiresInSeconds: 600, downloadName: '我的 录音.mp3' }),
    );
    expect(url.origin + url.pathname).toBe('http://files.test/files/u/1/f.mp3');
    const query = Object.fromEntries(url.searchParams) as { exp: string; sig: string; name: string };
    expect(query.exp).toBe(String(1_700_000_000 + 600));
    expect(query.name).toBe('我的 录音.mp3');
    expect(query.sig).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect(storage.verifySignedUrl('u/1/f.mp3', query)).toBe(true);
    expect(storage.verifySignedUrl('u/2/f.mp3', query)).toBe(false);
    expect(storage.verifySignedUrl('u/1/f.mp3', { ...query, name: 'other.mp3' })).toBe(false);
    expect(storage.verifySignedUrl('u/1/f.mp3', { ...query, exp: String(Number(query.exp) + 1) })).toBe(
      false,
    );
    const flipped = (query.sig[0] === 'A' ? 'B' : 'A') + query.sig.slice(1);
    expect(storage.verifySignedUrl('u/1/f.mp3', { ...query, sig: flipped })).toBe(false);
    expect(storage.verifySignedUrl('u/1/f.mp3', { exp: query.exp })).toBe(false);
    expect(storage.verifySignedUrl('../f.mp3', query)).toBe(false);

    now += 600_000;
    expect(storage.verifySignedUrl('u/1/f.mp3', query)).toBe(false);
  });

  it('signs with the given secret only', async () => {
    const url = new URL(await storage.signedUrl('k/x.png', { expiresInSeconds: 60 }));
    const other = createLocalStorage({
      dir,
      publicUrl: 'http://files.test',
      secret: 'another-secret',
      now: () => now,
    });
    const query = Object.fromEntries(url.searchParams);
    expect(url.searchParams.has('name')).toBe(false);
    expect(storage.verifySignedUrl('k/x.png', query)).toBe(true);
    expect(other.verifySignedUrl('k/x.png', query)).toBe(false);
  });
});
