import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isLocalStorage } from '../adapters/storage/local.ts';
import type { AppContext } from '../context.ts';

/**
 * A path ffmpeg can read for a stored object. Local storage: the object's own file (read in place,
 * never copied). S3: downloaded (streamed) into `scratchDir`, which the caller removes.
 */
export async function localPathOf(
  ctx: Pick<AppContext, 'storage'>,
  storageKey: string,
  scratchDir: string,
): Promise<string> {
  if (isLocalStorage(ctx.storage)) return ctx.storage.localPath(storageKey);
  const target = path.join(scratchDir, `src-${path.basename(storageKey)}`);
  try {
    await pipeline(await ctx.storage.read(storageKey), createWriteStream(target));
  } catch (error) {
    await rm(target, { force: true });
    throw error;
  }
  return target;
}
