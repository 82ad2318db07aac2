import { statfs as fsStatfs, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { EngineError } from '../../errors.ts';
import { runTool } from '../../process/tool.ts';
import { checkModelFiles, modelFiles, parseModelRegistry, type SherpaModel } from '../models.ts';
import {
  type DownloadProgress,
  download,
  InstallError,
  type InstallErrorKind,
  sha256File,
} from './download.ts';
import {
  createStateWriter,
  INSTALL_STATE_FILE,
  type InstallState,
  type ModelProgress,
  readInstallState,
  readRegistryEntries,
  type StateWriter,
  writeJsonAtomic,
  writeRegistryEntries,
} from './state.ts';

/** One file of a model as published upstream (the catalogue's ModelDownload). */
export interface InstallDownload {
  /** Path under the base URL (release tag + asset name), or a whole URL for a file published elsewhere. */
  path: string;
  /** true: a .tar.bz2 (or .zip) unpacked into the models folder; false: saved under its own name at the top. */
  unpack: boolean;
  /** Exact length, or an upper bound when `bytesExact` is false (disk check and progress only). */
  bytes: number;
  bytesExact?: boolean;
  sha256: string | null;
}

/** What the installer reads of a catalogue entry. */
export interface InstallableEntry {
  /** The models.json entry, as written. */
  model: { id: string } & Record<string, unknown>;
  downloads: readonly InstallDownload[];
  /** Disk space the unpacked model takes. */
  installedBytes: number;
}

export type InstallEvent =
  | { type: 'offline'; reason: string }
  | { type: 'no-space'; neededBytes: number; availableBytes: number }
  | { type: 'busy'; pid: number }
  | { type: 'queued'; ids: string[]; bytes: number }
  | { type: 'already'; id: string }
  | { type: 'state'; id: string; state: 'downloading' | 'verifying' | 'unpacking' }
  | ({ type: 'progress'; id: string } & DownloadProgress)
  | { type: 'installed'; id: string; verified: boolean; unverified: Array<{ path: string; sha256: string }> }
  | { type: 'failed'; id: string; kind: InstallErrorKind; error: string };

export interface InstallReport {
  /**
   * done: every model was tried (see installed / failed); offline: no connection, nothing tried;
   * no-space: not enough disk, nothing tried; busy: another process installs into this folder;
   * aborted: stopped by the signal.
   */
  status: 'done' | 'offline' | 'no-space' | 'busy' | 'aborted';
  message?: string;
  installed: string[];
  already: string[];
  failed: Array<{ id: string; kind: InstallErrorKind; error: string }>;
}

export interface StatfsLike {
  bavail: number;
  bsize: number;
}

export interface InstallOptions {
  modelsDir: string;
  /** Release downloads, e.g. https://github.com/k2-fsa/sherpa-onnx/releases/download (or a mirror). */
  baseUrl: string;
  catalogue: readonly InstallableEntry[];
  ids: readonly string[];
  onEvent?: (event: InstallEvent) => void;
  signal?: AbortSignal;
  /** Free space of the folder's file system (tests inject one). */
  statfs?: (dir: string) => Promise<StatfsLike>;
  /** The offline probe's time limit; default 5 s. */
  probeTimeoutMs?: number;
  /** Progress events per download at most this often; default 1000 ms. */
  progressEveryMs?: number;
  /**
   * Waits before resuming a download whose connection failed, within the same run (one more try
   * each); default 2 s, 10 s, 30 s. After the last, the model fails and the next run resumes it.
   */
  retryDelaysMs?: readonly number[];
  /** Leave out models the operator removed (the server's default set); named ones install regardless. */
  skipRemoved?: boolean;
}

/** Archives wait here for unpacking (their `.part` too), out of the way of model folders. */
export const DOWNLOADS_DIR = '.downloads';
const LOCK_FILE = '.install.lock';
/** Room kept free beyond what the models take: the rest of the system keeps writing too. */
const MARGIN_MIN = 100 * 1024 * 1024;
const MARGIN_SHARE = 0.1;

/** A path under the base URL, or a file published elsewhere given by its whole URL (LaMa). */
export const downloadUrl = (baseUrl: string, path: string) =>
  /^https?:\/\//.test(path) ? path : `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;

/** Where a download lands: archives under .downloads/, single files at the top of the models folder. */
export const downloadTarget = (modelsDir: string, d: InstallDownload) =>
  d.unpack ? join(modelsDir, DOWNLOADS_DIR, basename(d.path)) : join(modelsDir, basename(d.path));

/**
 * One short request to the first download: any HTTP answer means the mirror is reachable. Resolves
 * the reason when it is not (refused, no DNS, no answer within the limit); never throws.
 */
export async function probeOnline(
  url: string,
  timeoutMs = 5_000,
  signal?: AbortSignal,
): Promise<string | null> {
  const limit = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, {
      method: 'HEAD',
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, limit]) : limit,
    });
    await res.body?.cancel().catch(() => {});
    return null;
  } catch (err) {
    if (limit.aborted) return `no answer from ${new URL(url).host} within ${Math.round(timeoutMs / 1000)} s`;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return `${new URL(url).host}: ${cause?.code ?? cause?.message ?? (err as Error).message}`;
  }
}

async function isInstalled(modelsDir: string, registered: Set<string>, model: SherpaModel) {
  if (!registered.has(model.id)) return false;
  return checkModelFiles(modelsDir, model).then(
    () => true,
    () => false,
  );
}

/** One process installs into a folder at a time (the server's background run and the CLI). */
async function lock(modelsDir: string): Promise<{ release(): Promise<void> } | { pid: number }> {
  const file = join(modelsDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(await readFile(file, 'utf8').catch(() => ''));
      let running = false;
      try {
        if (pid > 0) process.kill(pid, 0);
        running = pid > 0;
      } catch (e) {
        running = (e as NodeJS.ErrnoException).code === 'EPERM';
      }
      if (running) return { pid };
      // Left by a process that died: take it over.
      await rm(file, { force: true });
    }
  }
  return { pid: 0 };
}

const asInstallError = (err: unknown): InstallError => {
  if (err instanceof InstallError) return err;
  if (err instanceof EngineError) return new InstallError('invalid', err.en, { cause: err });
  return new InstallError('invalid', (err as Error).message ?? String(err), { cause: err });
};

/** The program that unpacks an archive into the models folder: tar for .tar.bz2, unzip for .zip (g2pW). */
function unpacker(archive: string, modelsDir: string): { tool: string; args: string[]; apt: string } {
  return archive.endsWith('.zip')
    ? { tool: 'unzip', args: ['-q', '-o', archive, '-d', modelsDir], apt: 'unzip' }
    : { tool: 'tar', args: ['xjf', archive, '-C', modelsDir, '--no-same-owner'], apt: 'tar bzip2' };
}

const unpackErrors = (archive: string, tool: string, apt: string) => ({
  missing: () =>
    new EngineError(
      'engine_unavailable',
      `缺少 ${tool}`,
      `${tool} is not installed (apt-get install ${apt})`,
    ),
  aborted: () => new EngineError('aborted', '已取消', `unpacking ${archive} stopped`),
  failed: (exit: number | string, stderr: string) =>
    new EngineError(
      'engine_unavailable',
      '解压失败',
      `${tool} exited ${exit} for ${archive}: ${stderr.trim()}`,
    ),
});

/**
 * Installs catalogue models into a models folder: a disk-space check and an offline probe first (so a
 * machine without internet finds out in seconds), then per model: download every file (resumable,
 * hashed while streaming), check each digest (a mismatch deletes the file and fails that model; an
 * unpublished digest is recorded and reported as not verified), unpack archives, check every file the
 * entry names, and only then add it to models.json. Progress goes to `onEvent` and to
 * install-state.json. Resolves a report; never rejects for a network, disk or checksum failure.
 */
export async function installModels(options: InstallOptions): Promise<InstallReport> {
  const { modelsDir, baseUrl, catalogue, signal } = options;
  const emit = options.onEvent ?? (() => {});
  const report: InstallReport = { status: 'done', installed: [], already: [], failed: [] };

  await mkdir(modelsDir, { recursive: true });
  const removed = options.skipRemoved ? ((await readInstallState(modelsDir)).removed ?? []) : [];
  const entries = options.ids
    .filter((id) => !removed.includes(id))
    .map((id) => {
      const entry = catalogue.find((c) => c.model.id === id);
      if (!entry) throw new InstallError('invalid', `no model ${id} in the catalogue`);
      return entry;
    });

  const registered = new Set((await readRegistryEntries(modelsDir)).map((e) => e.id as string));
  const pending: Array<{ entry: InstallableEntry; model: SherpaModel }> = [];
  for (const entry of entries) {
    const [model] = parseModelRegistry({ models: [entry.model] });
    if (await isInstalled(modelsDir, registered, model!)) {
      report.already.push(entry.model.id);
      emit({ type: 'already', id: entry.model.id });
    } else if (!pending.some((p) => p.model.id === model!.id)) {
      pending.push({ entry, model: model! });
    }
  }
  if (!pending.length) return report;

  const held = await lock(modelsDir);
  if ('pid' in held) {
    emit({ type: 'busy', pid: held.pid });
    return {
      ...report,
      status: 'busy',
      message: `another process (pid ${held.pid}) is installing models into ${modelsDir}`,
    };
  }
  const state = createStateWriter(modelsDir, await readInstallState(modelsDir), options.progressEveryMs);
  try {
    const statfs = options.statfs ?? fsStatfs;
    const fs = await statfs(modelsDir);
    const available = fs.bavail * fs.bsize;
    const models = pending.reduce(
      (sum, { entry }) =>
        sum + entry.installedBytes + entry.downloads.filter((d) => d.unpack).reduce((s, d) => s + d.bytes, 0),
      0,
    );
    const needed = models + Math.max(MARGIN_MIN, Math.round(models * MARGIN_SHARE));
    if (available < needed) {
      const mb = (n: number) => `${Math.ceil(n / 1_000_000)} MB`;
      const message = `not enough disk space in ${modelsDir}: ${mb(needed)} needed (models and a margin), ${mb(available)} free`;
      for (const { model } of pending) state.set(model.id, { state: 'failed', error: message });
      emit({ type: 'no-space', neededBytes: needed, availableBytes: available });
      return { ...report, status: 'no-space', message };
    }

    const firstUrl = downloadUrl(baseUrl, pending[0]!.entry.downloads[0]?.path ?? '');
    const offline = await probeOnline(firstUrl, options.probeTimeoutMs, signal);
    if (signal?.aborted) return { ...report, status: 'aborted' };
    if (offline) {
      for (const { model } of pending) state.set(model.id, { state: 'offline', error: offline });
      emit({ type: 'offline', reason: offline });
      return { ...report, status: 'offline', message: offline };
    }

    const totalBytes = pending.reduce((s, p) => s + p.entry.downloads.reduce((t, d) => t + d.bytes, 0), 0);
    for (const { entry, model } of pending) {
      const bytesTotal = entry.downloads.reduce((s, d) => s + d.bytes, 0);
      state.set(model.id, {
        state: 'queued',
        bytesDone: 0,
        bytesTotal,
        bytesPerSecond: 0,
        secondsLeft: null,
      });
    }
    emit({ type: 'queued', ids: pending.map((p) => p.model.id), bytes: totalBytes });

    for (const { entry, model } of pending) {
      if (signal?.aborted) break;
      try {
        const result = await installOne(options, entry, model, state, emit);
        registered.add(model.id);
        state.restore(model.id);
        report.installed.push(model.id);
        emit({ type: 'installed', id: model.id, ...result });
      } catch (err) {
        const e = asInstallError(err);
        const error = e.kind === 'aborted' ? `${e.message}; the next installation resumes it` : e.message;
        state.set(model.id, { state: 'failed', error, bytesPerSecond: 0, secondsLeft: null });
        report.failed.push({ id: model.id, kind: e.kind, error });
        emit({ type: 'failed', id: model.id, kind: e.kind, error });
      }
    }
    if (signal?.aborted) {
      report.status = 'aborted';
      for (const { model } of pending) {
        if (state.state.models[model.id]?.state === 'queued')
          state.set(model.id, {
            state: 'failed',
            error: 'stopped before it started; the next installation does it',
          });
      }
    }
    return report;
  } finally {
    await state.flush();
    await held.release();
  }
}

async function installOne(
  options: InstallOptions,
  entry: InstallableEntry,
  model: SherpaModel,
  state: StateWriter,
  emit: (event: InstallEvent) => void,
): Promise<{ verified: boolean; unverified: Array<{ path: string; sha256: string }> }> {
  const { modelsDir, baseUrl, signal } = options;
  const id = model.id;
  const unverified: Array<{ path: string; sha256: string }> = [];
  let before = 0;
  const registered = parseModelRegistry({ models: await readRegistryEntries(modelsDir) });
  const sharedFolders = new Set(
    registered.flatMap((m) => modelFiles(modelsDir, m).map((f) => topEntry(modelsDir, f))),
  );
  state.set(id, { state: 'downloading' });
  emit({ type: 'state', id, state: 'downloading' });

  for (const [i, d] of entry.downloads.entries()) {
    const later = entry.downloads.slice(i + 1).reduce((s, x) => s + x.bytes, 0);
    // No published digest: hold later downloads to the digest of the first one.
    const recorded = state.state.digests?.[d.path];
    const expected = d.sha256 ?? recorded ?? null;
    const file = downloadTarget(modelsDir, d);
    if (d.unpack && sharedFolders.has(archiveFolder(d.path))) {
      // Unpacked and checked already for a registered model (the shared pyannote segmentation).
      before += d.bytes;
      continue;
    }
    const fetchOnce = () =>
      download({
        url: downloadUrl(baseUrl, d.path),
        file,
        bytes: d.bytes,
        exact: d.bytesExact !== false,
        sha256: expected,
        signal,
        progressEveryMs: options.progressEveryMs,
        onProgress: (p) => {
          // The server's length replaces the catalogue's estimate as soon as it is known.
          const total = before + p.bytesTotal + later;
          const done = before + p.bytesDone;
          const progress: ModelProgress = {
            state: 'downloading',
            bytesDone: done,
            bytesTotal: total,
            bytesPerSecond: p.bytesPerSecond,
            secondsLeft: p.bytesPerSecond > 0 ? Math.round((total - done) / p.bytesPerSecond) : null,
          };
          state.set(id, progress);
          emit({ type: 'progress', id, ...progress });
        },
      });
    const got = await withRetries(fetchOnce, options.retryDelaysMs ?? RETRY_DELAYS_MS, signal);
    before += got.bytes;
    if (!d.sha256) {
      unverified.push({ path: d.path, sha256: got.sha256 });
      if (!recorded) state.recordDigest(d.path, got.sha256);
    }
    if (d.unpack) {
      state.set(id, { state: 'unpacking', bytesDone: before, bytesPerSecond: 0, secondsLeft: null });
      emit({ type: 'state', id, state: 'unpacking' });
      try {
        const { tool, args, apt } = unpacker(file, modelsDir);
        await runTool(tool, args, {
          errors: unpackErrors(basename(file), tool, apt),
          signal,
          stdout: 'ignore',
        }).done;
      } catch (err) {
        // A checked archive is kept for the next try; an unchecked one may be what is broken.
        if (!d.sha256) await rm(file, { force: true });
        if (signal?.aborted) throw new InstallError('aborted', `unpacking ${d.path} stopped`, { cause: err });
        throw new InstallError('unpack', (err as EngineError).en ?? String(err), { cause: err });
      }
      await rm(file, { force: true });
      state.set(id, { state: 'downloading' });
    }
  }

  state.set(id, {
    state: 'verifying',
    bytesDone: before,
    bytesTotal: before,
    bytesPerSecond: 0,
    secondsLeft: null,
  });
  emit({ type: 'state', id, state: 'verifying' });
  await checkModelFiles(modelsDir, model).catch((err: EngineError) => {
    throw new InstallError(
      'invalid',
      `${id}: the downloads do not hold every file the catalogue names (${err.en})`,
    );
  });
  // Another process may have changed models.json meanwhile (a removal): read it again under the lock.
  const current = await readRegistryEntries(modelsDir);
  await writeRegistryEntries(modelsDir, [...current.filter((e) => e.id !== id), entry.model]);
  const verified = unverified.length === 0;
  state.set(id, { state: 'installed', bytesDone: before, bytesTotal: before, verified });
  return { verified, unverified };
}

const RETRY_DELAYS_MS = [2_000, 10_000, 30_000];

/** Runs a download again (it resumes from its part) after a network failure, up to one try per delay. */
async function withRetries<T>(
  run: () => Promise<T>,
  delays: readonly number[],
  signal?: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      if (!(err instanceof InstallError) || err.kind !== 'network' || attempt >= delays.length) throw err;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delays[attempt]);
        signal?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
    }
  }
}

/** The folder an upstream archive unpacks into: its name without .tar.bz2. */
const archiveFolder = (path: string) => basename(path).replace(/\.(tar\.bz2|zip)$/, '');

/** The first path segment of a file inside the models folder: a model's folder, or the file itself. */
const topEntry = (modelsDir: string, file: string) => relative(modelsDir, file).split(sep)[0]!;

/**
 * Unregisters a model and deletes its files, except those another registered model uses (the shared
 * pyannote segmentation folder). models.json is written first, so a running server stops using the
 * model before its files go. Resolves false when the model was not registered.
 */
export async function removeModel(modelsDir: string, id: string): Promise<boolean> {
  const entries = await readRegistryEntries(modelsDir);
  const target = entries.find((e) => e.id === id);
  if (!target) return false;
  const rest = entries.filter((e) => e !== target);
  const parsed = parseModelRegistry({ models: entries });
  const model = parsed.find((m) => m.id === id)!;
  const kept = new Set(
    parsed
      .filter((m) => m.id !== id)
      .flatMap((m) => modelFiles(modelsDir, m).map((f) => topEntry(modelsDir, f))),
  );
  await writeRegistryEntries(modelsDir, rest);
  const own = new Set(modelFiles(modelsDir, model).map((f) => topEntry(modelsDir, f)));
  for (const name of own) {
    // Only what lies inside the folder, and never the registry's own files.
    if (!name || name === '..' || name.startsWith('.') || kept.has(name)) continue;
    await rm(join(modelsDir, name), { recursive: true, force: true });
  }
  // Its progress entry goes and the removal is remembered (a server start does not bring it back);
  // the writer's pid stays (an installation may be running meanwhile).
  const file = join(modelsDir, INSTALL_STATE_FILE);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  let state: InstallState | undefined;
  try {
    state = text ? (JSON.parse(text) as InstallState) : undefined;
  } catch {
    // A broken state file is rewritten by the next installation.
  }
  state ??= { updatedAt: new Date().toISOString(), models: {} };
  delete state.models[id];
  state.removed = [...new Set([...(state.removed ?? []), id])];
  await writeJsonAtomic(file, state);
  return true;
}

export interface VerifyResult {
  id: string;
  ok: boolean;
  /** What was checked: files present always; sizes and sha256 of single files when known. */
  checked: string[];
  problems: string[];
}

/**
 * Checks every registered model: all its files present; single-file downloads of its catalogue
 * entry at their published size and re-hashed against the published (or recorded) digest.
 */
export async function verifyModels(
  modelsDir: string,
  catalogue: readonly InstallableEntry[],
  signal?: AbortSignal,
): Promise<VerifyResult[]> {
  const entries = await readRegistryEntries(modelsDir);
  const recorded = (await readInstallState(modelsDir)).digests ?? {};
  const results: VerifyResult[] = [];
  for (const model of parseModelRegistry({ models: entries })) {
    const result: VerifyResult = { id: model.id, ok: true, checked: ['files present'], problems: [] };
    for (const file of modelFiles(modelsDir, model)) {
      if (!(await stat(file).catch(() => undefined)))
        result.problems.push(`missing ${relative(modelsDir, file)}`);
    }
    const entry = catalogue.find((c) => c.model.id === model.id);
    for (const d of entry?.downloads.filter((x) => !x.unpack) ?? []) {
      const file = downloadTarget(modelsDir, d);
      const found = await stat(file).catch(() => undefined);
      if (!found) continue;
      if (d.bytesExact !== false) {
        if (found.size !== d.bytes) {
          result.problems.push(`${basename(file)} is ${found.size} bytes, published ${d.bytes}`);
          continue;
        }
        result.checked.push(`size of ${basename(file)}`);
      }
      const expected = d.sha256 ?? recorded[d.path];
      if (!expected) continue;
      const actual = await sha256File(file, signal);
      result.checked.push(`sha256 of ${basename(file)}${d.sha256 ? '' : ' (recorded at download)'}`);
      if (actual !== expected.toLowerCase())
        result.problems.push(`${basename(file)} sha256 ${actual} differs from ${expected}`);
    }
    result.ok = result.problems.length === 0;
    results.push(result);
  }
  return results;
}
