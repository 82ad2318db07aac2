import { CompiledQuery } from 'kysely';
import type { Db, DbKind } from './database.ts';
import { perDatabase } from './local-state.ts';

/**
 * Runs `work` in one transaction that writers cannot interleave with: on SQLite `BEGIN IMMEDIATE`
 * takes the write lock up front (so two read-then-write transactions never race); on PostgreSQL a
 * normal transaction, in which callers lock the rows they change (SELECT … FOR UPDATE).
 * Never nest: on SQLite the inner call would wait for the connection the outer one holds.
 */
export async function inTransaction<T>(db: Db, kind: DbKind, work: (tx: Db) => Promise<T>): Promise<T> {
  if (kind === 'postgres') return db.transaction().execute(work);
  return new Promise<T>((resolve, reject) => {
    const commits = groupCommits(db, () => ({ queue: [], draining: false }));
    commits.queue.push({ work, resolve, reject } as Pending);
    if (!commits.draining) void drain(db, commits);
  });
}

/**
 * SQLite group commit. Writes go through one connection one at a time anyway, and the commit is
 * their main cost, so transactions that arrive while one is running are run together: each in its
 * own savepoint (a failure undoes only its own work), one COMMIT for all. Nobody hears "done" before
 * that commit; if it fails, every transaction of the batch fails.
 */
interface Pending {
  work: (tx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}
/** Per database: the transactions waiting for the next batch, and whether a batch is running. */
interface GroupCommit {
  queue: Pending[];
  draining: boolean;
}
const groupCommits = perDatabase<GroupCommit>();
const MAX_BATCH = 256;
// Compiled once: they run around every transaction of a batch.
const BEGIN = CompiledQuery.raw('begin immediate');
const SAVEPOINT = CompiledQuery.raw('savepoint batch_item');
const RELEASE = CompiledQuery.raw('release batch_item');
const ROLLBACK_ITEM = CompiledQuery.raw('rollback to batch_item');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

async function drain(db: Db, commits: GroupCommit): Promise<void> {
  commits.draining = true;
  const { queue } = commits;
  try {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      await db.connection().execute(async (conn) => {
        const outcomes: Array<() => void> = [];
        try {
          await conn.executeQuery(BEGIN);
          for (const item of batch) {
            await conn.executeQuery(SAVEPOINT);
            try {
              const value = await item.work(conn);
              await conn.executeQuery(RELEASE);
              outcomes.push(() => item.resolve(value));
            } catch (error) {
              await conn.executeQuery(ROLLBACK_ITEM);
              await conn.executeQuery(RELEASE);
              outcomes.push(() => item.reject(error));
            }
          }
          await conn.executeQuery(COMMIT);
        } catch (error) {
          await conn.executeQuery(ROLLBACK).catch(() => {});
          for (const item of batch) item.reject(error);
          return;
        }
        for (const settle of outcomes) settle();
      });
    }
  } finally {
    commits.draining = false;
  }
}
