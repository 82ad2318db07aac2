import type { Compilable, CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import type { Db } from './database.ts';
import { localState } from './local-state.ts';
import { writtenTable } from './table-writes.ts';

/** Stands in for a parameter while the query is built; replaced by the caller's value on execution. */
class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  template: CompiledQuery;
  /** Per position in `parameters`: the name of a caller's value, or a constant the builder put there. */
  sources: Array<Slot | { constant: unknown }>;
  /** A write's table: its caches hear of each run before and after (see table-writes.ts). */
  writes?: string;
}

/**
 * A hot query built with Kysely's typed builder once per dialect and then executed with new values.
 * Building and compiling a small query costs about as much as SQLite running it; the statements of
 * the credits hot path are fixed, so that work is done once. `build` receives stand-ins for the
 * values (use them only as values: in where/set/values or `sql` templates, never in JS arithmetic
 * or branches).
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  build: (db: Db, values: P) => Compilable<R> | RawBuilder<R>,
): {
  execute(db: Db, values: P): Promise<QueryResult<R>>;
  rows(db: Db, values: P): Promise<R[]>;
  first(db: Db, values: P): Promise<R | undefined>;
} {
  // One compilation per dialect: the adapter object is shared by a database, its transactions and connections.
  const byAdapter = new Map<unknown, Compiled>();
  const slots = new Proxy({} as P, {
    get: (_target, name) => new Slot(String(name)),
  });
  const compile = (db: Db): Compiled => {
    const adapter = db.getExecutor().adapter.constructor;
    let compiled = byAdapter.get(adapter);
    if (!compiled) {
      // A query builder compiles by itself; a raw `sql` query needs the database for its dialect.
      const template = build(db, slots).compile(db);
      compiled = {
        template,
        sources: template.parameters.map((p) => (p instanceof Slot ? p : { constant: p })),
        writes: writtenTable(template.query),
      };
      byAdapter.set(adapter, compiled);
    }
    return compiled;
  };
  const execute = async (db: Db, values: P): Promise<QueryResult<R>> => {
    const { template, sources, writes } = compile(db);
    const parameters = sources.map((s) => {
      if (!(s instanceof Slot)) return s.constant;
      const value = values[s.name];
      if (value === undefined) throw new Error(`prepared query: no value for ${s.name}`);
      return value;
    });
    if (!writes) return db.executeQuery<R>({ ...template, parameters } as CompiledQuery<R>);
    const tableWrites = localState(db).writes;
    tableWrites.announce(writes);
    try {
      return await db.executeQuery<R>({ ...template, parameters } as CompiledQuery<R>);
    } finally {
      tableWrites.announce(writes);
    }
  };
  return {
    execute,
    rows: async (db, values) => (await execute(db, values)).rows,
    first: async (db, values) => (await execute(db, values)).rows[0],
  };
}
