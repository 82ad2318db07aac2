import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRow } from '../src/db/schema.ts';
import { sweepMedia } from '../src/media/gc.ts';
import { scratchRoot } from '../src/media/scratch.ts';
import { uploadsDir } from '../src/modules/uploads/tus.ts';
import { createTestServer, type TestServer, taskRow } from './harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await createTestServer();
});
afterEach(async () => {
  await server.close();
});

const HOUR = 3600_000;
/** Sets a file's or folder's modification time `ms` into the past (real time, as the sweep reads it). */
const age = (p: string, ms: number) => {
  const t = new Date(Date.now() - ms);
  utimesSync(p, t, t);
};

const task = (id: string, status: TaskRow['status']) => taskRow('u_1', server.clock.now(), { id, status });

describe('media sweep', () => {
  it('removes orphans past the grace period and keeps what a row refers to', async () => {
    const { ctx, config } = server;
    const put = async (key: string, old = true) => {
      await ctx.storage.put(key, Buffer.from('x'), 'application/octet-stream');
      if (old) age(path.join(config.filesDir, key), 2 * HOUR);
    };
    await put('media/u_1/ma_keep/source.mp3');
    await put('media/u_1/ma_keep/peaks.json');
    await put('media/u_1/ma_orphan/source.mp3');
    await put('media/u_1/ma_inflight/source.mp3', false);
    await put('tasks/task_live/out.srt');
    await put('tasks/task_gone/out.srt');
    await put('avatars/u_1/file_1.png'); // not a media prefix: never touched
    const now = ctx.clock.now();
    await ctx.db
      .insertInto('media_assets')
      .values({
        id: 'ma_keep',
        owner_id: 'u_1',
        name: 'a.mp3',
        kind: 'audio',
        mime: 'audio/mpeg',
        size: 1,
        duration_ms: 1,
        width: null,
        height: null,
        has_audio: 1,
        has_video: 0,
        probe: '{}',
        sha256: '',
        storage_key: 'media/u_1/ma_keep/source.mp3',
        peaks_key: 'media/u_1/ma_keep/peaks.json',
        thumbnail_key: null,
        status: 'ready',
        created_at: now,
      })
      .execute();
    await ctx.db
      .insertInto('tasks')
      .values([task('task_live', 'running'), task('task_done', 'succeeded')])
      .execute();

    const scratch = (name: string, ms: number) => {
      const dir = path.join(scratchRoot(ctx), name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'work.wav'), 'x');
      age(dir, ms);
      return dir;
    };
    const live = scratch('task_live', 2 * HOUR);
    const done = scratch('task_done', 2 * HOUR);
    const missing = scratch('task_missing', 2 * HOUR);
    const staleTemp = scratch('upload-abc', 7 * HOUR);
    const freshTemp = scratch('upload-def', 0);

    mkdirSync(uploadsDir(ctx), { recursive: true });
    const tus = (id: string, createdAgo: number) => {
      writeFileSync(path.join(uploadsDir(ctx), id), 'partial');
      writeFileSync(
        path.join(uploadsDir(ctx), `${id}.json`),
        JSON.stringify({ id, size: 100, creation_date: new Date(Date.now() - createdAgo).toISOString() }),
      );
    };
    tus(`u_${'a'.repeat(32)}-${'1'.repeat(32)}`, 25 * HOUR);
    tus(`u_${'a'.repeat(32)}-${'2'.repeat(32)}`, HOUR);

    expect(await sweepMedia(ctx)).toEqual({ scratch: 3, objects: 2, tusUploads: 1, s3Uploads: 0 });

    const stored = async (key: string) => (await ctx.storage.stat(key)) !== null;
    expect(await stored('media/u_1/ma_keep/source.mp3')).toBe(true);
    expect(await stored('media/u_1/ma_keep/peaks.json')).toBe(true);
    expect(await stored('media/u_1/ma_orphan/source.mp3')).toBe(false);
    expect(await stored('media/u_1/ma_inflight/source.mp3')).toBe(true);
    expect(await stored('tasks/task_live/out.srt')).toBe(true);
    expect(await stored('tasks/task_gone/out.srt')).toBe(false);
    expect(await stored('avatars/u_1/file_1.png')).toBe(true);
    expect([live, done, missing, staleTemp, freshTemp].map(existsSync)).toEqual([
      true,
      false,
      false,
      false,
      true,
    ]);
    expect(existsSync(path.join(uploadsDir(ctx), `u_${'a'.repeat(32)}-${'1'.repeat(32)}.json`))).toBe(false);
    expect(existsSync(path.join(uploadsDir(ctx), `u_${'a'.repeat(32)}-${'2'.repeat(32)}`))).toBe(true);

    // A second run finds nothing more.
    expect(await sweepMedia(ctx)).toEqual({ scratch: 0, objects: 0, tusUploads: 0, s3Uploads: 0 });
  });
});
