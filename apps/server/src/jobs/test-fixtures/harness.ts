import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createTestDatabase, TEST_DB } from '../../../test/harness.ts';
import { type Db, openDatabase } from '../../db/database.ts';
import type { Job } from '../../db/schema.ts';
import { prepareDatabase } from '../../modules/seeds.ts';

export interface JobTestDatabase {
  /** A SQLite file or a postgres:// URL, for other handles and child processes. */
  target: string;
  db: Db;
  /** Another connection (pool) to the same database, as a second process would have. */
  open(): Db;
  close(): Promise<void>;
}

export async function createJobTestDatabase(): Promise<JobTestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-jobs-'));
  const scratch = await createTestDatabase();
  const target = TEST_DB === 'postgres' ? scratch.env.DATABASE_URL : path.join(dir, 'jobs.db');
  const handles = [] as Array<{ close(): Promise<void> }>;
  const open = () => {
    const handle = openDatabase(
      TEST_DB === 'postgres' ? { kind: 'postgres', url: target } : { kind: 'sqlite', file: target },
    );
    handles.push(handle);
    return handle.db;
  };
  const db = open();
  await prepareDatabase(db);
  return {
    target,
    db,
    open,
    async close() {
      for (const h of handles) await h.close();
      if (TEST_DB === 'postgres') await waitForSessionsToEnd(target);
      await scratch.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * pg's pool.end() resolves before its connections have closed; dropping the database under them
 * would make the pool emit an unhandled 'error'.
 */
async function waitForSessionsToEnd(url: string): Promise<void> {
  const adminUrl = new URL(url);
  const name = adminUrl.pathname.slice(1);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const { rows } = await admin.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0].n === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await admin.end();
  }
}

export async function readJob(db: Db, id: string): Promise<Job> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Polls the row until `done` holds (real time: workers run on their own timers). */
export async function waitForJob(
  db: Db,
  id: string,
  done: (job: Job) => boolean,
  // Generous: a loaded CI machine can keep a polling worker away for seconds; the wait ends early.
  timeoutMs = 30_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await readJob(db, id);
    if (done(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} did not get there: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Starts a worker in a child process and resolves once its handlers report having started `jobIds`. */
export async function spawnWorkerUntilStarted(
  env: Record<string, string>,
  jobIds: string[],
): Promise<ChildProcess> {
  const script = fileURLToPath(new URL('./worker.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (jobIds.every((id) => out.includes(`started ${id}`))) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${out}`)));
  });
  return child;
}

export async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
