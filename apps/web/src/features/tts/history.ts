/**
 * Selection in the history panel: a set of ids kept in step with the list the server returned.
 * Pure functions so the batch actions (delete, download) can be tested without the UI.
 */
export type Selection = ReadonlySet<string>;

export function toggle(sel: Selection, id: string): Set<string> {
  const next = new Set(sel);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Selects every visible item, or clears the selection when all of them are already selected. */
export function toggleAll(sel: Selection, ids: readonly string[]): Set<string> {
  if (ids.length > 0 && ids.every((id) => sel.has(id))) {
    const next = new Set(sel);
    for (const id of ids) next.delete(id);
    return next;
  }
  return new Set([...sel, ...ids]);
}

/** Drops ids that are no longer in the list (deleted, or paged away after a reload). */
export function prune(sel: Selection, ids: readonly string[]): Set<string> {
  const present = new Set(ids);
  return new Set([...sel].filter((id) => present.has(id)));
}

/** The state of a "select all" checkbox. */
export function allState(sel: Selection, ids: readonly string[]): 'none' | 'some' | 'all' {
  const n = ids.filter((id) => sel.has(id)).length;
  if (n === 0) return 'none';
  return n === ids.length ? 'all' : 'some';
}

/** Items picked for a batch action, in list order; items whose audio is not ready are skipped. */
export function pickForBatch<T extends { id: string }>(
  sel: Selection,
  items: readonly T[],
  ready: (item: T) => boolean = () => true,
): T[] {
  return items.filter((it) => sel.has(it.id) && ready(it));
}
