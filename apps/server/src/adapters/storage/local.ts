import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey, type ObjectStorage } from './storage.ts';

export interface LocalStorage extends ObjectStorage {
  readonly kind: 'local';
  /** True when the query of a URL made by `signedUrl` for this key is genuine and not expired. */
  verifySignedUrl(key: string, query: { exp?: string; sig?: string; name?: string }): boolean;
  /** Where the object's bytes are on disk (ffmpeg reads them in place). */
  localPath(key: string): string;
}

export function isLocalStorage(storage: ObjectStorage): storage is LocalStorage {
  return storage.kind === 'local' && 'verifySignedUrl' in storage;
}

/**
 * Makes a file at `target` by having `fill` write it under `tmpDir` first and renaming it into
 * place (same filesystem, so atomic); a failure leaves nothing behind.
 */
async function placeAtomically(tmpDir: string, target: string, fill: (tmp: string) => Promise<void>) {
  await mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, randomUUID());
  try {
    await fill(tmp);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tmp, target);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    // Another filesystem: copy, then drop the original.
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

/** The files under `dir/rel`, as keys relative to `dir`; a missing folder has none. */
async function* walkFiles(
  dir: string,
  rel: string,
): AsyncGenerator<{ key: string; size: number; modifiedAt: number }> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(path.join(dir, rel), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const key = `${rel}/${entry.name}`;
    if (entry.isDirectory()) yield* walkFiles(dir, key);
    else if (entry.isFile()) {
      const info = await stat(path.join(dir, key)).catch(() => null);
      if (info) yield { key, size: info.size, modifiedAt: info.mtimeMs };
    }
  }
}

/**
 * Objects as files under `dir`; the content type sits in a small JSON file under `dir/.meta`.
 * Every write goes to `dir/.tmp` first and is renamed into place (same filesystem, so atomic):
 * a reader never sees half a file and a failed write leaves nothing under its key.
 */
export function createLocalStorage(options: {
  dir: string;
  publicUrl: string;
  secret: string;
  now?: () => number;
}): LocalStorage {
  const { dir, publicUrl } = options;
  const now = options.now ?? Date.now;
  // A key of its own, so a URL signature can never double as a token signature or vice versa.
  const signingKey = createHmac('sha256', options.secret).update('voice-workbench/files-url').digest();
  const tmpDir = path.join(dir, '.tmp');

  const dataPath = (key: string) => {
    assertValidKey(key);
    return path.join(dir, key);
  };
  const metaPath = (key: string) => path.join(dir, '.meta', `${key}.json`);
  const sign = (key: string, exp: number, name?: string) =>
    createHmac('sha256', signingKey)
      .update(`${key}\n${exp}\n${name ?? ''}`)
      .digest('base64url');

  const writeAtomically = (target: string, body: Buffer | Readable) =>
    placeAtomically(tmpDir, target, async (tmp) => {
      // flush: the data reaches the disk before the rename makes it visible.
      if (Buffer.isBuffer(body)) await writeFile(tmp, body, { flush: true });
      else await pipeline(body, createWriteStream(tmp, { flush: true }));
    });

  return {
    kind: 'local',

    async put(key, body, contentType) {
      const file = dataPath(key);
      await writeAtomically(file, body);
      // After the data: a crash in between only costs the content type, which stat reports as null.
      await writeAtomically(metaPath(key), Buffer.from(JSON.stringify({ contentType })));
      return { size: (await stat(file)).size };
    },

    async putFile(key, file, contentType, options) {
      const target = dataPath(key);
      await placeAtomically(tmpDir, target, (tmp) =>
        options?.move ? moveFile(file, tmp) : copyFile(file, tmp),
      );
      await writeAtomically(metaPath(key), Buffer.from(JSON.stringify({ contentType })));
      return { size: (await stat(target)).size };
    },

    async *list(prefix) {
      // Walks the folder of the prefix; the backend's own `.tmp`/`.meta` folders are not objects.
      const base = prefix.replace(/\/+$/, '');
      assertValidKey(base);
      yield* walkFiles(dir, base);
    },

    async read(key, range) {
      // Opening first turns a missing key into a rejected promise rather than a later stream error.
      const handle = await open(dataPath(key), 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async stat(key) {
      try {
        const { size, mtimeMs } = await stat(dataPath(key));
        const meta = await readFile(metaPath(key), 'utf8').catch(() => null);
        const contentType = meta
          ? ((JSON.parse(meta) as { contentType?: string }).contentType ?? null)
          : null;
        return { size, contentType, etag: `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"` };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async remove(key) {
      await rm(dataPath(key), { force: true });
      await rm(metaPath(key), { force: true });
    },

    async signedUrl(key, { expiresInSeconds, downloadName }) {
      assertValidKey(key);
      const exp = Math.floor(now() / 1000) + expiresInSeconds;
      const query = new URLSearchParams({ exp: String(exp), sig: sign(key, exp, downloadName) });
      if (downloadName !== undefined) query.set('name', downloadName);
      return `${publicUrl}/files/${key}?${query}`;
    },

    localPath(key) {
      return dataPath(key);
    },

    verifySignedUrl(key, query) {
      if (!query.exp || !/^\d{1,12}$/.test(query.exp) || !query.sig) return false;
      const exp = Number(query.exp);
      if (exp * 1000 <= now()) return false;
      try {
        assertValidKey(key);
      } catch {
        return false;
      }
      const expected = Buffer.from(sign(key, exp, query.name));
      const given = Buffer.from(query.sig);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    async close() {},
  };
}
