import { createHash } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  SqliteDialect,
  type Transaction,
} from 'kysely';
import pg from 'pg';
import { LocalState } from './local-state.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type DbKind = 'sqlite' | 'postgres';

// BIGINT columns hold millisecond times and sizes, all far below 2^53: read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.FLOAT4, (v) => Number(v));

export interface DatabaseHandle {
  db: Db;
  kind: DbKind;
  close(): Promise<void>;
}

export function openDatabase(
  target: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string },
): DatabaseHandle {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 20 });
    // An idle connection the server closes (restart, admin) must not crash the process.
    pool.on('error', (err) => console.error('PostgreSQL pool connection error:', err.message));
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }),
      plugins: [new LocalState()],
    });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const sqlite = withStatementCache(new SqliteDatabase(target.file));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [new LocalState()],
  });
  return { db, kind: 'sqlite', close: () => db.destroy() };
}

/**
 * Names every parameterised query after its text so that each connection parses and plans it once
 * (node-postgres keeps the prepared statements per connection). The app has a few hundred distinct
 * statements, and migrations run before any traffic.
 */
function withPreparedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      name = `q${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
      names.set(text, name);
    }
    return name;
  };
  // pool.end() resolves once it has asked its connections to close; closing waits until they have.
  let open = 0;
  let allClosed = () => {};
  pool.on('connect', (client) => {
    open += 1;
    // A connection lost while checked out (a PostgreSQL restart mid-transaction) errors on the
    // client, where no pool listener is: without this the process crashes. Its query fails instead.
    client.on('error', (err) => console.error('PostgreSQL connection error:', err.message));
  });
  pool.on('remove', () => {
    open -= 1;
    if (open === 0) allClosed();
  });
  return {
    async connect() {
      const client = await pool.connect();
      // A connection that broke while checked out is destroyed on release, not handed out again.
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken = err;
      };
      client.on('error', onError);
      // Kysely calls query(sql, parameters); cursors (streaming) are not used by the app.
      const query = (text: string, values: unknown[]) =>
        values.length > 0 ? client.query({ name: nameOf(text), text, values }) : client.query(text);
      const release = () => {
        client.off('error', onError);
        client.release(broken);
      };
      return { query, release } as unknown as PostgresPoolClient;
    },
    async end() {
      const closed = open === 0 ? Promise.resolve() : new Promise<void>((r) => (allClosed = r));
      await pool.end();
      await closed;
    },
  };
}

/**
 * Kysely prepares every query anew; preparing is a large share of a small query's cost, and the
 * app runs a few hundred distinct statements, so keep them (better-sqlite3 re-prepares on schema change).
 */
function withStatementCache(db: SqliteDatabase.Database, max = 1000): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = prepare(sql);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
    }
    return statement;
  }) as typeof db.prepare;
  return db;
}

/** Runs the migrations not run yet; safe to run from many processes. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
