import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.ts';

type Ctx = Pick<AppContext, 'config'>;

/** DATA_DIR/scratch: working files of tasks and uploads, never served, swept when unused. */
export function scratchRoot(ctx: Ctx): string {
  return path.join(ctx.config.dataDir, 'scratch');
}

/** Names are ids we make (task ids, `upload-…`): a narrow alphabet keeps them inside the root. */
function scratchPath(ctx: Ctx, name: string): string {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(name)) throw new Error(`invalid scratch name ${JSON.stringify(name)}`);
  return path.join(scratchRoot(ctx), name);
}

/** The scratch folder of a task (DATA_DIR/scratch/<task id>), created if missing. */
export async function createScratchDir(ctx: Ctx, name: string): Promise<string> {
  const dir = scratchPath(ctx, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

export async function removeScratchDir(ctx: Ctx, name: string): Promise<void> {
  await rm(scratchPath(ctx, name), { recursive: true, force: true });
}

/** Runs `fn` in a fresh scratch folder that is removed afterwards, whatever happens. */
export async function withScratchDir<T>(ctx: Ctx, name: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await createScratchDir(ctx, name);
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function listScratchDirs(ctx: Ctx): Promise<string[]> {
  try {
    return (await readdir(scratchRoot(ctx), { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
