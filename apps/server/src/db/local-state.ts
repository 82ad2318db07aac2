import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Db } from './database.ts';
import { TableWrites } from './table-writes.ts';

/**
 * What this process keeps beside one database: caches of its rows, counters not yet written, the
 * SQLite group-commit queue, and who listens for writes to which table. openDatabase creates one
 * per database and installs it as a Kysely plugin, so the database, its transactions and its
 * connections all reach it (and it sees every query built with the query builder). Nothing of the
 * kind lives in module scope: two handles on one database are two processes to each other, and a
 * test's app forgets everything along with its database.
 */
export class LocalState implements KyselyPlugin {
  readonly writes = new TableWrites();
  private readonly values = new Map<symbol, unknown>();

  /** The value kept in `slot`, made by `create` on first use. */
  keep<T>(slot: symbol, create: () => T): T {
    if (!this.values.has(slot)) this.values.set(slot, create());
    return this.values.get(slot) as T;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.writes.beforeQuery(args);
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return this.writes.afterQuery(args);
  }
}

/** The LocalState openDatabase put among the executor's plugins (a scan of two or three plugins). */
export function localState(db: Db): LocalState {
  const state = db.getExecutor().plugins.find((p) => p instanceof LocalState) as LocalState | undefined;
  if (!state) throw new Error('this database was not opened by openDatabase (it has no LocalState)');
  return state;
}

/**
 * One kind of value this process keeps per database: `const meters = perDatabase<Meter>()` names
 * the slot, `meters(db, () => new Meter())` reads it, made on first use.
 */
export function perDatabase<T>(): (db: Db, create: () => T) => T {
  const slot = Symbol();
  return (db, create) => localState(db).keep(slot, create);
}

/** A read-through cache made by cachedByTableWrites. */
export interface TableWritesCache<V> {
  (db: Db, key: string): Promise<V>;
  /**
   * The value held for `key` if it may be used now, without waiting: `{ value }` (the kept entry,
   * not a copy), else undefined and the caller reads through the function. Lets a hot path that
   * finds everything cached stay synchronous.
   */
  peek(db: Db, key: string): { readonly value: V } | undefined;
}

/**
 * A read-through cache of values that may be a moment old, per database: any write to `table` in
 * this process (heard before and after the statement) empties it, a value read while a write ran is
 * not kept, and another process's write shows after at most `ttlMs`. `keep` says which values to keep.
 */
export function cachedByTableWrites<V>(
  table: string,
  load: (db: Db, key: string) => Promise<V>,
  options: { ttlMs: number; size: number; keep?: (value: V) => boolean },
): TableWritesCache<V> {
  interface Cache {
    entries: Map<string, { value: V; until: number; generation: number }>;
    /** Counts writes to the table. */
    generation: number;
  }
  const caches = perDatabase<Cache>();
  const cacheOf = (db: Db) =>
    caches(db, () => {
      const cache: Cache = { entries: new Map(), generation: 0 };
      localState(db).writes.on(table, () => {
        cache.generation++;
      });
      return cache;
    });
  const peek = (cache: Cache, key: string, now: number) => {
    const hit = cache.entries.get(key);
    return hit && hit.until > now && hit.generation === cache.generation ? hit : undefined;
  };
  const read = async (db: Db, key: string) => {
    const cache = cacheOf(db);
    const now = Date.now();
    const hit = peek(cache, key, now);
    if (hit) return hit.value;
    const before = cache.generation;
    const value = await load(db, key);
    if ((options.keep?.(value) ?? true) && before === cache.generation) {
      if (cache.entries.size >= options.size) cache.entries.clear();
      cache.entries.set(key, { value, until: now + options.ttlMs, generation: before });
    }
    return value;
  };
  return Object.assign(read, { peek: (db: Db, key: string) => peek(cacheOf(db), key, Date.now()) });
}
