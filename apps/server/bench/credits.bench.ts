/**
 * bench:credits — hold+capture pairs per second through the credits service at 64 concurrent
 * callers (one user each), on the embedded SQLite file and on PostgreSQL, then the invariant check.
 * Targets (issue 4): ≥ 5,000 pairs/s on SQLite, ≥ 2,000 on PostgreSQL, zero violations.
 */
import { runCredits } from './credits-run.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

// BENCH_DB=sqlite|postgres measures one database only (profiling); the default measures both.
const kinds = (process.env.BENCH_DB ? [process.env.BENCH_DB] : ['sqlite', 'postgres']) as Array<
  'sqlite' | 'postgres'
>;
const rows = [];
for (const kind of kinds) rows.push(await runCredits(kind, SECONDS));
console.table(rows);
console.log('targets: ≥ 5,000 pairs/s on SQLite, ≥ 2,000 on PostgreSQL, 0 violations');
