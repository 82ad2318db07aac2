import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Db } from './database.ts';

/**
 * Tells in-process caches that a table was written: every INSERT, UPDATE and DELETE built with
 * Kysely's query builder on a database from openDatabase, whichever module runs it. Listeners
 * hear it before the statement runs and again once it has. Raw `sql` statements are not seen:
 * a cached table must be written through the builder.
 */
const listeners = new Map<string, Array<() => void>>();
/** Writes to a watched table that are running, to be announced again when they finish. */
const running = new WeakMap<QueryId, string>();

export function onTableWrite(table: string, listener: () => void): void {
  listeners.set(table, [...(listeners.get(table) ?? []), listener]);
}

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'TableNode')
    return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  return undefined;
}

function writtenTable(node: RootOperationNode): string | undefined {
  switch (node.kind) {
    case 'InsertQueryNode':
      return tableName(node.into);
    case 'UpdateQueryNode':
      return tableName(node.table);
    case 'DeleteQueryNode':
      return tableName(node.from.froms[0]);
    default:
      return undefined;
  }
}

function announce(table: string): void {
  for (const listener of listeners.get(table) ?? []) listener();
}

/** For queries compiled once and run many times (prepared.ts): what to call around each run. */
export function writeAnnouncer(node: RootOperationNode): (() => void) | undefined {
  const table = writtenTable(node);
  return table ? () => announce(table) : undefined;
}

export const tableWritesPlugin: KyselyPlugin = {
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (listeners.size > 0) {
      const table = writtenTable(node);
      if (table && listeners.has(table)) {
        running.set(queryId, table);
        announce(table);
      }
    }
    return node;
  },
  transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const table = running.get(queryId);
    if (table) {
      running.delete(queryId);
      announce(table);
    }
    return Promise.resolve(result);
  },
};

/**
 * A read-through cache of values that may be a moment old, per database: any write to `table` in
 * this process (heard before and after the statement) empties it, a value read while a write ran is
 * not kept, and another process's write shows after at most `ttlMs`. `keep` says which values to keep.
 */
export function cachedByTableWrites<V>(
  table: string,
  load: (db: Db, key: string) => Promise<V>,
  options: { ttlMs: number; size: number; keep?: (value: V) => boolean },
): (db: Db, key: string) => Promise<V> {
  const caches = new WeakMap<Db, Map<string, { value: V; until: number; generation: number }>>();
  /** Counts writes to the table. */
  let generation = 0;
  onTableWrite(table, () => {
    generation++;
  });
  return async (db, key) => {
    let cache = caches.get(db);
    if (!cache) {
      cache = new Map();
      caches.set(db, cache);
    }
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && hit.until > now && hit.generation === generation) return hit.value;
    const before = generation;
    const value = await load(db, key);
    if ((options.keep?.(value) ?? true) && before === generation) {
      if (cache.size >= options.size) cache.clear();
      cache.set(key, { value, until: now + options.ttlMs, generation: before });
    }
    return value;
  };
}
