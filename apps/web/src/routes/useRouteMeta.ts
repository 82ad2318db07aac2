import { useMatches } from 'react-router';
import { defaultRouteMeta, type RouteMeta } from '@/stores/user.ts';

/** The route meta of the deepest match that declares one. */
export function useRouteMeta(): RouteMeta {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as { meta?: RouteMeta } | undefined;
    if (handle?.meta) return handle.meta;
  }
  return defaultRouteMeta;
}
