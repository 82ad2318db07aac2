/** What bench:credits and the benchmark gate share: hold+capture pairs through the credits service. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { openDatabase } from '../src/db/database.ts';
import { createLogger } from '../src/logger.ts';
import { captureCredits, grantCredits, holdCredits } from '../src/modules/credits/ledger.service.ts';
import { prepareDatabase } from '../src/modules/seeds.ts';

const CALLERS = 64;
const PG_ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** hold+capture pairs at 64 concurrent callers for `seconds`, then the invariant check. */
export async function runCredits(kind: 'sqlite' | 'postgres', seconds: number) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vw-bench-credits-'));
  let dbName = '';
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret!!',
  };
  if (kind === 'postgres') {
    dbName = `vw_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(PG_ADMIN);
    url.pathname = `/${dbName}`;
    env.DATABASE_URL = url.toString();
  }
  const config = loadConfig(env);
  const database = openDatabase(config.database);
  await prepareDatabase(database.db);
  const ctx = createContext({ config, database, clock: systemClock, log: createLogger('warn') });
  const users = Array.from({ length: CALLERS }, (_, i) => `u_bench_${i}`);
  for (const userId of users) {
    await grantCredits(ctx, {
      userId,
      source: 'topup',
      amount: 10_000_000,
      expiresAt: Date.now() + 3600_000,
      grantKey: `bench:${userId}`,
      remark: 'bench',
    });
  }

  let pairs = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  await Promise.all(
    users.map(async (userId) => {
      for (let i = 0; Date.now() < deadline; i++) {
        const holdKey = `${userId}:${i}`;
        await holdCredits(ctx, {
          userId,
          holdKey,
          amount: 3,
          tool: 'tts',
          taskId: holdKey,
          taskName: 'bench',
        });
        await captureCredits(ctx, holdKey, 2);
        pairs++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  // This process's CPU per pair (the database server's is not included): steadier than pairs/s
  // when other work shares the machine.
  const cpu = process.cpuUsage(cpuStarted);

  // Invariants: every lot's ledger adds up to what it has left, nothing negative, nothing held.
  const violations = await database.db
    .selectFrom('credit_lots')
    .leftJoin('credit_ledger', 'credit_ledger.lot_id', 'credit_lots.id')
    .select(['credit_lots.id', 'credit_lots.remaining', 'credit_lots.amount'])
    .select((eb) => eb.fn.sum<number>('credit_ledger.delta').as('sum'))
    .groupBy(['credit_lots.id', 'credit_lots.remaining', 'credit_lots.amount'])
    .execute();
  const bad = violations.filter(
    (v) => Number(v.sum) !== v.remaining || v.remaining < 0 || v.remaining > v.amount,
  );
  const open = await database.db
    .selectFrom('credit_holds')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'held')
    .executeTakeFirstOrThrow();
  const spent = violations.reduce((s, v) => s + (v.amount - v.remaining), 0);

  await ctx.jobs.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (dbName) {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
  return {
    database: kind,
    'pairs/s': Math.round(pairs / elapsed),
    pairs,
    'node CPU µs/pair': Math.round((cpu.user + cpu.system) / pairs),
    'credits spent': spent,
    'expected spent': pairs * 2,
    violations: bad.length + Number(open.n) + (spent === pairs * 2 ? 0 : 1),
  };
}
