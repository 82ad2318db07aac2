import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { type EngineModelState, engineStates } from '../engines/install.ts';

/** How long one readiness probe waits for a dependency before calling it unreachable. */
const PROBE_TIMEOUT_MS = 2_000;
/** A key no one writes: a stat of it answers "absent" when the store is up, and throws when it is not. */
const STORAGE_PROBE_KEY = 'health/probe';

export type Check = { ok: true; ms: number } | { ok: false; ms: number; error: string };

export interface Readiness {
  ready: boolean;
  draining: boolean;
  checks: Record<string, Check>;
  /** Local engine models by id (installed, downloading, failed…): reported, never a reason to be unready. */
  engines: Record<string, EngineModelState>;
}

async function timed(run: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)),
          PROBE_TIMEOUT_MS,
        );
      }),
    ]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { ok: false, ms: Math.round(performance.now() - started), error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness and readiness for load balancers. `/healthz` says the process answers (restart it when
 * not); `/readyz` says it should get traffic: database, Redis and storage reachable, and not
 * draining (SIGTERM sets `ctx.lifecycle.draining`, so the balancer stops sending before it closes).
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Its own connection: no offline queue, so a down Redis fails the probe at once instead of waiting.
  const redis = ctx.config.REDIS_URL
    ? new Redis(ctx.config.REDIS_URL, {
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
      })
    : null;
  redis?.on('error', () => {});
  if (redis) app.addHook('onClose', async () => void redis.disconnect());

  async function readiness(): Promise<Readiness> {
    const probes: Array<[string, () => Promise<unknown>]> = [
      ['database', () => sql`select 1`.execute(ctx.db)],
      ['storage', () => ctx.storage.stat(STORAGE_PROBE_KEY)],
    ];
    if (redis) {
      probes.push([
        'redis',
        async () => {
          if (redis.status === 'wait' || redis.status === 'end') await redis.connect();
          await redis.ping();
        },
      ]);
    }
    const [results, engines] = await Promise.all([
      Promise.all(probes.map(async ([name, run]) => [name, await timed(run)] as const)),
      engineStates(ctx.config.modelsDir),
    ]);
    const checks = Object.fromEntries(results);
    const draining = ctx.lifecycle.draining;
    return { ready: !draining && Object.values(checks).every((c) => c.ok), draining, checks, engines };
  }

  const hidden = { schema: { hide: true } };
  app.get('/healthz', hidden, async () => ({ ok: true, pid: process.pid }));
  app.get('/readyz', hidden, async (_request, reply) => {
    const state = await readiness();
    return reply.status(state.ready ? 200 : 503).send(state);
  });
}
