import { buildApp } from './app.ts';
import { systemClock } from './clock.ts';
import { ConfigError, ensureDataDir, loadConfig } from './config.ts';
import { createContext } from './context.ts';
import { openDatabase } from './db/database.ts';
import { createEngines } from './engines/engines.ts';
import { startBackgroundInstall } from './engines/install.ts';
import { scheduleEvery } from './jobs/schedule.ts';
import { createLogger } from './logger.ts';
import { MEDIA_SWEEP_EVERY_MS, mediaSweepJob } from './media/gc.ts';
import { seedDemoAccount } from './modules/accounts/demo.ts';
import { creditSweepJob } from './modules/credits/credits.jobs.ts';
import { holdLeaseSweepJob } from './modules/credits/hold-leases.ts';
import { ensureVapidKeys } from './modules/notifications/notifications.service.ts';
import { ensureDemoSample } from './modules/ocr/ocr.sample.ts';
import { paymentReconcileJob, RECONCILE_EVERY_MS } from './modules/payments/payments.jobs.ts';
import { prepareDatabase } from './modules/seeds.ts';
import { startVoicePreviews } from './modules/voices/voices.service.ts';
import { TASK_SWEEP_EVERY_MS, taskSweepJob } from './tasks/tasks.jobs.ts';

const CREDIT_SWEEP_EVERY_MS = 10 * 60_000;

type Role = 'api' | 'worker' | 'all';

/** `api` serves HTTP, `worker` runs jobs, `all` (default) does both in one process. */
async function main(role: Role): Promise<void> {
  const config = loadConfig();
  ensureDataDir(config);
  const log = createLogger(config.LOG_LEVEL);
  const database = openDatabase(config.database);
  await prepareDatabase(database.db);
  const engines = await createEngines(config, log);
  const ctx = createContext({ config, database, clock: systemClock, log, engines });
  for (const problem of ctx.payments.problems) log.warn(problem);
  // Preview clips of the voice catalogue are made once, by whichever worker takes the job.
  await startVoicePreviews(ctx);
  // Web Push keys: made on first start, kept in the database.
  await ensureVapidKeys(ctx);

  const closers: Array<() => Promise<unknown>> = [];
  if (role !== 'api') {
    await ctx.jobs.startWorker({
      concurrency: config.JOB_CONCURRENCY,
      heavyConcurrency: config.JOB_HEAVY_CONCURRENCY,
    });
    const stopSweep = scheduleEvery(ctx.jobs, creditSweepJob, CREDIT_SWEEP_EVERY_MS, ctx.clock);
    const stopReconcile = scheduleEvery(ctx.jobs, paymentReconcileJob, RECONCILE_EVERY_MS, ctx.clock);
    const stopLeases = scheduleEvery(ctx.jobs, holdLeaseSweepJob, config.HOLD_LEASE_MS, ctx.clock);
    const stopMediaSweep = scheduleEvery(ctx.jobs, mediaSweepJob, MEDIA_SWEEP_EVERY_MS, ctx.clock);
    const stopTaskSweep = scheduleEvery(ctx.jobs, taskSweepJob, TASK_SWEEP_EVERY_MS, ctx.clock);
    closers.push(async () => {
      stopSweep();
      stopReconcile();
      stopLeases();
      stopMediaSweep();
      stopTaskSweep();
    });
  }
  if (role !== 'worker') {
    await seedDemoAccount(ctx);
    // The demo account's sample video for the subtitle tools: made in the background, once.
    void ensureDemoSample(ctx).catch((err) => log.warn({ err }, 'demo sample video not made'));
    const app = await buildApp(ctx);
    await app.listen({ host: config.HOST, port: config.PORT });
    closers.push(async () => {
      // Requests still running after the timeout (a slow upload) are cut; the client resumes it.
      const cut = setTimeout(() => app.server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS);
      await app.close();
      clearTimeout(cut);
    });
    log.info(`声音工作台 is running at ${config.publicUrl}/workbench/  (API docs: ${config.publicUrl}/docs)`);
    if (!config.isProduction) {
      log.info(
        `demo account: ${config.DEMO_ACCOUNT} / password ${config.DEMO_PASSWORD} (or sign in by code from ${config.publicUrl}/dev/outbox)`,
      );
    }
  }
  // The recommended models download in the background once the process serves: never awaited, so
  // start-up and requests never wait on the network; each model is used once it is verified.
  if (role !== 'api') {
    const install = startBackgroundInstall(config, log);
    if (install) closers.unshift(() => install.stop());
  }
  // Running stages get the shutdown timeout to finish; those still running are handed back (their
  // checkpoints kept) for another worker, without spending an attempt.
  closers.push(() => ctx.jobs.close({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }));
  closers.push(() => ctx.taskEvents.close());
  closers.push(() => database.close());
  closers.push(() => engines.close());

  // Draining: /readyz answers 503 at once; an API process keeps serving for DRAIN_DELAY_MS so the
  // load balancer moves away, then closes: new requests get 503, SSE streams end (clients resume
  // with Last-Event-ID), running requests get SHUTDOWN_TIMEOUT_MS (an upload cut then resumes).
  const shutdown = async (signal: string) => {
    ctx.lifecycle.draining = true;
    log.info({ signal, role }, 'draining');
    if (role !== 'worker' && config.DRAIN_DELAY_MS > 0) {
      await new Promise((resolve) => setTimeout(resolve, config.DRAIN_DELAY_MS));
    }
    // Whatever still hangs after the timeouts (a client that never finishes its upload) is cut.
    setTimeout(() => {
      log.warn('shutdown took too long: exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 5_000).unref();
    for (const close of closers) await close().catch((err) => log.error({ err }, 'error while closing'));
    log.info({ signal, role }, 'stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

const role = (process.argv[2] ?? 'all') as Role;
if (!['api', 'worker', 'all'].includes(role)) {
  console.error(`Unknown role "${role}". Use: api | worker | all`);
  process.exit(2);
}
main(role).catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
