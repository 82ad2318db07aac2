import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Why an installation step failed. Operator-facing (CLI and log), never shown to users.
 * - checksum: the bytes are not the published ones; nothing of them is kept.
 * - network: the connection failed or was cut; the `.part` file is kept and the next run resumes.
 * - http: the server answered with an error status (a wrong mirror, a moved asset).
 * - aborted: the caller stopped it (SIGTERM); the `.part` file is kept.
 * - disk, unpack, invalid, busy: see the installer.
 */
export type InstallErrorKind =
  | 'checksum'
  | 'network'
  | 'http'
  | 'aborted'
  | 'disk'
  | 'unpack'
  | 'invalid'
  | 'busy';

export class InstallError extends Error {
  constructor(
    readonly kind: InstallErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'InstallError';
  }
}

export interface DownloadProgress {
  /** Bytes of the file on disk so far (a resumed part counts). */
  bytesDone: number;
  bytesTotal: number;
  /** Over the last few seconds of this run. */
  bytesPerSecond: number;
  /** null until there is a speed to go by. */
  secondsLeft: number | null;
}

export interface DownloadOptions {
  url: string;
  /** Where the file ends up; it is written to `<file>.part` and renamed once whole and checked. */
  file: string;
  /** The published size: progress until the server says it. */
  bytes?: number;
  /**
   * `bytes` is the exact length (not an upper bound): a file already present of another length is
   * fetched again, and a body without a declared length must reach it.
   */
  exact?: boolean;
  /** Expected sha256 (hex); null or absent: the digest is computed and returned, not checked. */
  sha256?: string | null;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** At most one progress call per this many ms (and one at the end); default 1000. */
  progressEveryMs?: number;
  /** A connection that sends nothing for this long is given up on (the part is kept); default 60 s. */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  sha256: string;
  bytes: number;
  /** Bytes that were already on disk (a `.part` resumed, or the whole file from an earlier run). */
  reused: number;
}

/** Speed over a sliding window, so a slow start or a stall shows in the figure within seconds. */
const SPEED_WINDOW_MS = 5_000;

const hex = (hash: Hash) => hash.digest('hex');

async function hashInto(file: string, hash: Hash, signal?: AbortSignal): Promise<number> {
  let size = 0;
  for await (const chunk of createReadStream(file, { signal })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return size;
}

/** sha256 of a file on disk, streamed. */
export async function sha256File(file: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  await hashInto(file, hash, signal);
  return hex(hash);
}

function checkDigest(url: string, expected: string | null | undefined, actual: string): void {
  if (expected && expected.toLowerCase() !== actual) {
    throw new InstallError(
      'checksum',
      `checksum mismatch for ${url}: expected sha256 ${expected}, got ${actual} (the file was deleted)`,
    );
  }
}

/** "bytes 100-199/1000" → 1000. */
function totalFromContentRange(header: string | null): number | undefined {
  const m = header ? /\/(\d+)\s*$/.exec(header) : null;
  return m ? Number(m[1]) : undefined;
}

const reasonOf = (err: unknown): string => {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message ?? String(err);
};

/**
 * Downloads `url` to `file`, resuming a `<file>.part` left by an earlier run with an HTTP Range
 * request (its bytes are hashed first, so the digest covers the whole file), hashing while it streams,
 * and renaming the part into place only when the size and the digest are right. A cut connection or a
 * cancel keeps the part; a wrong digest deletes it. A `file` already present is hashed and checked.
 */
export async function download(options: DownloadOptions): Promise<DownloadResult> {
  const { url, file, signal, onProgress, progressEveryMs = 1000, idleTimeoutMs = 60_000 } = options;
  await mkdir(dirname(file), { recursive: true });

  const whole = await stat(file).catch(() => undefined);
  const exact = options.exact && options.bytes ? options.bytes : undefined;
  if (whole?.isFile() && (!exact || whole.size === exact)) {
    const digest = await sha256File(file, signal);
    if (!options.sha256 || options.sha256.toLowerCase() === digest)
      return { sha256: digest, bytes: whole.size, reused: whole.size };
    // Not the published file (an older copy, a broken earlier run): fetch it again.
  }
  if (whole) await rm(file, { force: true });

  const part = `${file}.part`;
  let hash = createHash('sha256');
  let offset = (await stat(part).catch(() => undefined))?.size ?? 0;
  if (offset > 0) await hashInto(part, hash, signal);
  const reused = offset;

  const stop = new AbortController();
  const abortAll = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop.abort(new Error(`no data for ${idleTimeoutMs} ms`)), idleTimeoutMs);
    idle.unref();
  };
  const failure = (err: unknown): InstallError => {
    if (err instanceof InstallError) return err;
    if (signal?.aborted) return new InstallError('aborted', `download of ${url} stopped`, { cause: err });
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC')
      return new InstallError('disk', `disk full while downloading ${url} (the part is kept)`, {
        cause: err,
      });
    const why = stop.signal.aborted ? (stop.signal.reason as Error).message : reasonOf(err);
    return new InstallError('network', `download of ${url} failed: ${why}`, { cause: err });
  };

  let response: Response;
  try {
    armIdle();
    response = await fetch(url, {
      headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
      redirect: 'follow',
      signal: abortAll,
    });
  } catch (err) {
    clearTimeout(idle);
    throw failure(err);
  }

  // What the server declares; else the published length when exact (an estimate proves nothing).
  let total = exact ?? 0;
  const estimate = options.bytes ?? 0;
  if (response.status === 416 && offset > 0) {
    // The part already holds every byte (an earlier run stopped between the last byte and the rename).
    await response.body?.cancel();
    total = totalFromContentRange(response.headers.get('content-range')) ?? offset;
  } else {
    if (response.status === 200 && offset > 0) {
      // The server does not do ranges: start over.
      offset = 0;
      hash = createHash('sha256');
    } else if (response.status !== 200 && response.status !== 206) {
      clearTimeout(idle);
      await response.body?.cancel();
      throw new InstallError('http', `download of ${url} failed: HTTP ${response.status}`);
    }
    const length = Number(response.headers.get('content-length'));
    total =
      totalFromContentRange(response.headers.get('content-range')) ??
      (Number.isFinite(length) && length > 0 ? offset + length : total);

    const out = createWriteStream(part, { flags: offset > 0 ? 'a' : 'w' });
    const closed = once(out, 'close');
    let done = offset;
    const samples: Array<[number, number]> = [[performance.now(), done]];
    let lastReport = 0;
    const report = (force: boolean) => {
      const now = performance.now();
      if (!onProgress || (!force && now - lastReport < progressEveryMs)) return;
      lastReport = now;
      samples.push([now, done]);
      while (samples.length > 2 && now - samples[1]![0] >= SPEED_WINDOW_MS) samples.shift();
      const [t0, b0] = samples[0]!;
      const speed = now > t0 ? ((done - b0) * 1000) / (now - t0) : 0;
      onProgress({
        bytesDone: done,
        bytesTotal: Math.max(total || estimate, done),
        bytesPerSecond: Math.round(speed),
        secondsLeft:
          speed > 0 && (total || estimate) >= done ? Math.round(((total || estimate) - done) / speed) : null,
      });
    };
    try {
      if (!response.body) throw new Error('empty response');
      for await (const chunk of response.body) {
        armIdle();
        hash.update(chunk);
        done += chunk.length;
        if (!out.write(chunk)) await once(out, 'drain', { signal: abortAll });
        report(false);
      }
      out.end();
      await closed;
      report(true);
    } catch (err) {
      // Keep every byte that arrived: the next run resumes after them.
      out.end();
      await closed.catch(() => {});
      throw failure(err);
    } finally {
      clearTimeout(idle);
    }
    offset = done;
  }
  clearTimeout(idle);

  if (total && offset < total) {
    throw new InstallError('network', `download of ${url} ended early at ${offset} of ${total} bytes`);
  }
  const digest = hex(hash);
  try {
    checkDigest(url, options.sha256, digest);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
  await rename(part, file);
  return { sha256: digest, bytes: offset, reused };
}
