import type {
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  if (node.kind === 'TableNode')
    return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  return undefined;
}

/** The table an INSERT, UPDATE or DELETE writes; undefined for any other statement. */
export function writtenTable(node: RootOperationNode): string | undefined {
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

/**
 * Tells this process's caches of one database that a table was written: every INSERT, UPDATE and
 * DELETE built with Kysely's query builder on the database (it runs inside the database's
 * LocalState plugin, local-state.ts), whichever module runs it. Listeners hear it before the
 * statement runs and again once it has. Raw `sql` statements are not seen: a cached table must be
 * written through the builder.
 */
export class TableWrites {
  private readonly listeners = new Map<string, Array<() => void>>();
  /** Writes to a watched table that are running, to be announced again when they finish. */
  private readonly running = new WeakMap<QueryId, string>();

  on(table: string, listener: () => void): void {
    this.listeners.set(table, [...(this.listeners.get(table) ?? []), listener]);
  }

  announce(table: string): void {
    for (const listener of this.listeners.get(table) ?? []) listener();
  }

  beforeQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.listeners.size > 0) {
      const table = writtenTable(node);
      if (table && this.listeners.has(table)) {
        this.running.set(queryId, table);
        this.announce(table);
      }
    }
    return node;
  }

  afterQuery({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const table = this.running.get(queryId);
    if (table) {
      this.running.delete(queryId);
      this.announce(table);
    }
    return Promise.resolve(result);
  }
}
