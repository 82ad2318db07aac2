import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FINISHED_TASK_STATUSES, type TaskStatus } from '@vw/contract';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { defineJob } from '../jobs/index.ts';
import { uploadsDir } from '../modules/uploads/tus.ts';
import {
  deleteUpload,
  existingAssetIds,
  existingTasks,
  existingUploadKeys,
  findUploadsOlderThan,
} from '../modules/uploads/uploads.repo.ts';
import { listScratchDirs, scratchRoot } from './scratch.ts';

/**
 * Storage prefixes the sweep owns: `media/<owner>/<asset id>/…` (asset files), `tasks/<task id>/…`
 * (task artifacts) and `uploads/<owner>/<upload id>` (S3 multipart staging).
 */
export const MEDIA_PREFIXES = ['media', 'tasks', 'uploads'] as const;

/** Objects and task scratch folders younger than this may belong to work in flight. */
export const SWEEP_GRACE_MS = 60 * 60_000;
/** Temporary scratch folders (`upload-…`, `asset-…`, `wav-…`: any name with a dash). */
const TEMP_SCRATCH_MS = 6 * 3600_000;
/** Unfinished resumable uploads are kept this long for the browser to resume. */
export const UPLOAD_KEEP_MS = 24 * 3600_000;
const BATCH = 200;

export interface SweepReport {
  scratch: number;
  objects: number;
  tusUploads: number;
  s3Uploads: number;
}

/**
 * Removes what nothing refers to: scratch folders of finished or missing tasks and stale temporary
 * ones, storage objects under MEDIA_PREFIXES without their media_assets / tasks / media_uploads row,
 * resumable uploads nobody finished within a day. Only things older than a grace period are touched,
 * so an upload being registered right now (objects written before its row) is safe.
 */
export async function sweepMedia(ctx: AppContext): Promise<SweepReport> {
  const now = ctx.clock.now();
  const report: SweepReport = { scratch: 0, objects: 0, tusUploads: 0, s3Uploads: 0 };
  report.scratch = await sweepScratch(ctx, now);
  report.s3Uploads = await sweepS3Uploads(ctx, now);
  report.objects = await sweepObjects(ctx, now);
  report.tusUploads = await sweepTus(ctx, now);
  return report;
}

async function sweepScratch(ctx: AppContext, now: number): Promise<number> {
  const root = scratchRoot(ctx);
  let removed = 0;
  const names = await listScratchDirs(ctx);
  for (let i = 0; i < names.length; i += BATCH) {
    const batch = names.slice(i, i + BATCH);
    // Task ids have no dash; temporary folders always do.
    const tasks = await existingTasks(
      ctx.db,
      batch.filter((n) => !n.includes('-')),
    );
    for (const name of batch) {
      const dir = path.join(root, name);
      const info = await stat(dir).catch(() => null);
      if (!info) continue;
      const age = now - info.mtimeMs;
      let stale: boolean;
      if (name.includes('-')) stale = age > TEMP_SCRATCH_MS;
      else {
        const task = tasks.get(name);
        const finished = !task || FINISHED_TASK_STATUSES.includes(task.status as TaskStatus);
        stale = finished && age > SWEEP_GRACE_MS;
      }
      if (stale) {
        await rm(dir, { recursive: true, force: true });
        removed++;
      }
    }
  }
  return removed;
}

async function sweepS3Uploads(ctx: AppContext, now: number): Promise<number> {
  const old = await findUploadsOlderThan(ctx.db, now - UPLOAD_KEEP_MS);
  for (const upload of old) {
    await ctx.storage.multipart?.abort(upload.storage_key, upload.provider_upload_id).catch(() => {});
    await ctx.storage.remove(upload.storage_key).catch(() => {});
    await deleteUpload(ctx.db, upload.id);
  }
  return old.length;
}

async function sweepObjects(ctx: AppContext, now: number): Promise<number> {
  let removed = 0;
  for (const prefix of MEDIA_PREFIXES) {
    let batch: Array<{ key: string; modifiedAt: number }> = [];
    const flush = async () => {
      const old = batch.filter((o) => now - o.modifiedAt > SWEEP_GRACE_MS);
      batch = [];
      if (old.length === 0) return;
      const owner = (key: string) => key.split('/')[prefix === 'tasks' ? 1 : 2] ?? '';
      let alive: (key: string) => boolean;
      if (prefix === 'media') {
        const ids = await existingAssetIds(ctx.db, [...new Set(old.map((o) => owner(o.key)))]);
        alive = (key) => ids.has(owner(key));
      } else if (prefix === 'tasks') {
        const ids = await existingTasks(ctx.db, [...new Set(old.map((o) => owner(o.key)))]);
        alive = (key) => ids.has(owner(key));
      } else {
        const keys = await existingUploadKeys(
          ctx.db,
          old.map((o) => o.key),
        );
        alive = (key) => keys.has(key);
      }
      for (const o of old) {
        if (alive(o.key)) continue;
        await ctx.storage.remove(o.key);
        removed++;
      }
    };
    for await (const object of ctx.storage.list(prefix)) {
      batch.push(object);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  }
  return removed;
}

async function sweepTus(ctx: AppContext, now: number): Promise<number> {
  const dir = uploadsDir(ctx);
  const names = await readdir(dir).catch(() => [] as string[]);
  const present = new Set(names);
  let removed = 0;
  for (const name of names) {
    if (name.endsWith('.json')) {
      const id = name.slice(0, -5);
      const meta = await readFile(path.join(dir, name), 'utf8')
        .then((t) => JSON.parse(t) as { creation_date?: string })
        .catch(() => null);
      const created = meta?.creation_date
        ? Date.parse(meta.creation_date)
        : (await stat(path.join(dir, name))).mtimeMs;
      if (now - created > UPLOAD_KEEP_MS) {
        await rm(path.join(dir, id), { force: true });
        await rm(path.join(dir, name), { force: true });
        removed++;
      }
    } else if (!present.has(`${name}.json`)) {
      // Bytes without their tus record (a crash between the two removals): nobody can resume them.
      const info = await stat(path.join(dir, name)).catch(() => null);
      if (info?.isFile() && now - info.mtimeMs > SWEEP_GRACE_MS) {
        await rm(path.join(dir, name), { force: true });
        removed++;
      }
    }
  }
  return removed;
}

export const MEDIA_SWEEP_EVERY_MS = 30 * 60_000;

export const mediaSweepJob = defineJob({
  name: 'media.sweep',
  payload: z.object({}),
  maxAttempts: 2,
  handler: async (_payload, job) => sweepMedia(job.app),
});
