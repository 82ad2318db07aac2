import type { AnyCall, DataOf } from '@/lib/http/client.ts';
import { useCall } from '@/lib/query/hooks.ts';

/**
 * A list loaded through the query cache on mount and again by `reload()` (`pick` must be stable).
 * A failure is shown by the client and keeps the last list; `loads` changes with every successful
 * fetch, for views that follow the list.
 */
export function useLoadedList<C extends AnyCall, T>(call: C, pick: (data: DataOf<C>) => T[]) {
  const q = useCall(call, undefined, { staleTime: 0 });
  const list = q.data ? pick(q.data) : [];
  return {
    list,
    loading: q.isPending && q.fetchStatus !== 'idle',
    loads: q.dataUpdatedAt,
    reload: async () => {
      await q.refetch();
    },
  };
}
