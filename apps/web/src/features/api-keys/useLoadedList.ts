import { useCallback, useEffect, useState } from 'react';

/**
 * A list fetched on mount and again by `reload()` (`fetch` must be stable). A failure is shown by the
 * client and keeps the last list; `loads` counts the successful fetches, for views that follow the list.
 */
export function useLoadedList<T>(fetch: () => Promise<T[]>) {
  const [state, setState] = useState<{ list: T[]; loading: boolean; loads: number }>({
    list: [],
    loading: true,
    loads: 0,
  });
  const reload = useCallback(async () => {
    try {
      const list = await fetch();
      setState((s) => ({ list, loading: false, loads: s.loads + 1 }));
    } catch {
      setState((s) => ({ ...s, loading: false }));
    }
  }, [fetch]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { ...state, reload };
}
