import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseModelRegistry, REGISTRY_FILE } from '../models.ts';
import { InstallError } from './download.ts';

/** Progress of installations, for other processes (/readyz, `admin engines list`). */
export const INSTALL_STATE_FILE = 'install-state.json';

export type ModelInstallState =
  | 'queued'
  | 'downloading'
  | 'verifying'
  | 'unpacking'
  | 'installed'
  | 'failed'
  | 'offline';

export interface ModelProgress {
  state: ModelInstallState;
  bytesDone: number;
  bytesTotal: number;
  bytesPerSecond: number;
  secondsLeft: number | null;
  /** Why it failed or stopped (operator English). */
  error?: string;
  /** false: at least one download had no published digest, so it was recorded, not checked. */
  verified?: boolean;
}

export interface InstallState {
  updatedAt: string;
  /** The process writing it: a reader whose writer is gone shows a stopped installation as such. */
  pid?: number;
  models: Record<string, ModelProgress>;
  /**
   * sha256 of downloads without a published digest, by release path, recorded at their first
   * download: later downloads and `verify` are checked against it.
   */
  digests?: Record<string, string>;
  /** Models the operator removed: installations of the default set leave them out until named again. */
  removed?: string[];
}

const ACTIVE: readonly ModelInstallState[] = ['queued', 'downloading', 'verifying', 'unpacking'];

/** Writes a JSON file so that a reader sees the old or the new text, never half of one. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`);
  await rename(tmp, file);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The install state of a models folder (empty when none was written). An installation whose process
 * is gone reads as failed ("interrupted"), not as downloading for ever.
 */
export async function readInstallState(modelsDir: string): Promise<InstallState> {
  const text = await readFile(join(modelsDir, INSTALL_STATE_FILE), 'utf8').catch(() => undefined);
  let state: InstallState = { updatedAt: new Date(0).toISOString(), models: {} };
  try {
    if (text) state = { ...state, ...JSON.parse(text) };
  } catch {
    // A broken file is rewritten by the next installation.
  }
  if (state.pid && state.pid !== process.pid && !alive(state.pid)) {
    for (const [id, m] of Object.entries(state.models)) {
      if (ACTIVE.includes(m.state)) {
        state.models[id] = {
          ...m,
          state: 'failed',
          bytesPerSecond: 0,
          secondsLeft: null,
          error: 'interrupted (the installing process stopped); the next installation resumes it',
        };
      }
    }
  }
  return state;
}

/**
 * Keeps the install state in memory and writes it: at once when a model changes state, at most about
 * once a second for progress. Writes never overlap; `flush()` waits for the last one.
 */
export function createStateWriter(modelsDir: string, initial: InstallState, everyMs = 1000) {
  const file = join(modelsDir, INSTALL_STATE_FILE);
  const state: InstallState = { ...initial, pid: process.pid, models: { ...initial.models } };
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = 0;
  let dirty = false;

  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    dirty = false;
    lastWrite = Date.now();
    const snapshot = { ...state, updatedAt: new Date().toISOString() };
    chain = chain.then(() => writeJsonAtomic(file, snapshot)).catch(() => {});
  };
  const schedule = () => {
    dirty = true;
    if (timer) return;
    const wait = Math.max(0, everyMs - (Date.now() - lastWrite));
    if (wait === 0) return write();
    timer = setTimeout(write, wait);
    timer.unref();
  };

  return {
    state,
    set(id: string, patch: Partial<ModelProgress>) {
      const before: ModelProgress | undefined = state.models[id];
      const fresh: ModelProgress = {
        state: 'queued',
        bytesDone: 0,
        bytesTotal: 0,
        bytesPerSecond: 0,
        secondsLeft: null,
      };
      const next: ModelProgress = { ...(before ?? fresh), ...patch };
      if (patch.state && patch.state !== 'failed' && patch.state !== 'offline') delete next.error;
      state.models[id] = next;
      if (!before || (patch.state && patch.state !== before.state)) write();
      else schedule();
    },
    /** Named again and installed: back in the default set. */
    restore(id: string) {
      if (!state.removed?.includes(id)) return;
      state.removed = state.removed.filter((r) => r !== id);
      write();
    },
    recordDigest(path: string, sha256: string) {
      state.digests = { ...state.digests, [path]: sha256 };
      schedule();
    },
    async flush() {
      if (dirty || timer) write();
      await chain;
    },
  };
}

export type StateWriter = ReturnType<typeof createStateWriter>;

/** models.json as written (entries kept as they are), or no entries when there is none yet. */
export async function readRegistryEntries(modelsDir: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(modelsDir, REGISTRY_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return [];
  let json: { models?: unknown };
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InstallError(
      'invalid',
      `${join(modelsDir, REGISTRY_FILE)} is not valid JSON: fix or delete it`,
      {
        cause: err,
      },
    );
  }
  parseModelRegistry(json);
  return json.models as Array<Record<string, unknown>>;
}

/** Replaces models.json with these entries, validated first and written atomically. */
export async function writeRegistryEntries(
  modelsDir: string,
  entries: Array<Record<string, unknown>>,
): Promise<void> {
  parseModelRegistry({ models: entries });
  await writeJsonAtomic(join(modelsDir, REGISTRY_FILE), { models: entries });
}
