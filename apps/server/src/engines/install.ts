import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type InstallableEntry,
  type InstallEvent,
  type InstallReport,
  installModels,
  MODEL_CATALOGUE,
  type ModelInstallState,
  RECOMMENDED_MODELS,
  REGISTRY_FILE,
  readInstallState,
} from '@vw/engines';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';

const INSTALL_HINT = 'npm run admin -- engines install <id>';
/** Said (with its English) of a model installed without a published digest to check it against. */
export const NOT_VERIFIED = '未核对';

const mb = (bytes: number) => (bytes / 1_000_000).toFixed(1);

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

/**
 * Operator lines (log or console) for the installer's events: progress of each model at most every
 * `everyMs`, every other event at once. `warn` gets failures; `info` the rest.
 */
export function installLines(
  out: { info(line: string): void; warn(line: string): void },
  { everyMs = 5_000, now = () => Date.now() }: { everyMs?: number; now?: () => number } = {},
): (event: InstallEvent) => void {
  const lastProgress = new Map<string, number>();
  return (e) => {
    switch (e.type) {
      case 'offline':
        return out.info(
          `engines: offline (${e.reason}) — running on the standard engine; install later with ${INSTALL_HINT}`,
        );
      case 'no-space':
        return out.warn(
          `engines: not enough disk space for the models (${mb(e.neededBytes)} MB needed, ${mb(e.availableBytes)} MB free) — running on the standard engine; free some space, then ${INSTALL_HINT}`,
        );
      case 'busy':
        return out.info(
          `engines: another process (pid ${e.pid}) is installing models into this folder; npm run admin -- engines list shows its progress`,
        );
      case 'queued':
        return out.info(
          `engines: downloading ${e.ids.length} model(s), ${mb(e.bytes)} MB, in the background: ${e.ids.join(', ')}`,
        );
      case 'already':
        return;
      case 'state':
        if (e.state === 'unpacking') out.info(`engines: ${e.id} unpacking`);
        return;
      case 'progress': {
        const last = lastProgress.get(e.id);
        if (last !== undefined && now() - last < everyMs) return;
        lastProgress.set(e.id, now());
        const left = e.secondsLeft === null ? 'time left unknown' : `${duration(e.secondsLeft)} left`;
        return out.info(
          `engines: ${e.id} ${mb(e.bytesDone)}/${mb(e.bytesTotal)} MB, ${mb(e.bytesPerSecond)} MB/s, ${left}`,
        );
      }
      case 'installed':
        return out.info(
          e.verified
            ? `engines: ${e.id} installed (sha256 verified)`
            : `engines: ${e.id} installed — ${NOT_VERIFIED} (not verified: no published digest; recorded ${e.unverified
                .map((u) => `sha256 ${u.sha256} of ${u.path}`)
                .join(', ')})`,
        );
      case 'failed':
        return out.warn(`engines: ${e.id} not installed (${e.kind}): ${e.error}`);
    }
  };
}

export interface BackgroundInstall {
  done: Promise<InstallReport | undefined>;
  /** Stops downloads and unpacking (parts are kept for the next start) and waits for the state file. */
  stop(): Promise<void>;
}

/**
 * The recommended models, installed in the background by a server process (role all or worker)
 * unless ENGINES=none. Never awaited by start-up: the server answers on the standard engine meanwhile
 * and the engines pick each model up when models.json changes.
 */
export function startBackgroundInstall(
  config: Pick<Config, 'ENGINES' | 'ENGINES_BASE_URL' | 'modelsDir'>,
  log: FastifyBaseLogger,
  catalogue: readonly InstallableEntry[] = MODEL_CATALOGUE,
  ids: readonly string[] = RECOMMENDED_MODELS,
): BackgroundInstall | null {
  if (config.ENGINES === 'none') return null;
  const abort = new AbortController();
  const lines = installLines({ info: (l) => log.info(l), warn: (l) => log.warn(l) });
  const done = installModels({
    modelsDir: config.modelsDir,
    baseUrl: config.ENGINES_BASE_URL,
    catalogue,
    ids,
    signal: abort.signal,
    onEvent: lines,
    skipRemoved: true,
  }).catch((err: unknown) => {
    log.warn({ err }, `engines: installation stopped: ${(err as Error).message}`);
    return undefined;
  });
  return {
    done,
    async stop() {
      abort.abort();
      await done;
    },
  };
}

/** A model's state for /readyz: what is installed (models.json) and what is on its way (install-state.json). */
export interface EngineModelState {
  state: ModelInstallState;
  bytesDone?: number;
  bytesTotal?: number;
  /** false: installed without a published digest to check it against. */
  verified?: boolean;
}

/**
 * Every model the folder has or is getting, by id. Never throws: a missing or broken file reads as
 * nothing installed, and readiness never depends on it.
 */
export async function engineStates(modelsDir: string): Promise<Record<string, EngineModelState>> {
  const out: Record<string, EngineModelState> = {};
  const [progress, registered] = await Promise.all([
    readInstallState(modelsDir).catch(() => undefined),
    readFile(path.join(modelsDir, REGISTRY_FILE), 'utf8').then(
      (text) => (JSON.parse(text) as { models?: Array<{ id?: unknown }> }).models ?? [],
      () => [],
    ),
  ]);
  for (const [id, m] of Object.entries(progress?.models ?? {})) {
    if (m.state === 'installed') continue;
    out[id] = { state: m.state, bytesDone: m.bytesDone, bytesTotal: m.bytesTotal };
  }
  for (const entry of Array.isArray(registered) ? registered : []) {
    if (typeof entry?.id !== 'string') continue;
    const verified = progress?.models[entry.id]?.verified;
    out[entry.id] = { state: 'installed', ...(verified === false ? { verified } : {}) };
  }
  return out;
}
