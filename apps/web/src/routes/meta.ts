import { defaultRouteMeta, type RouteMeta } from '@/stores/user.ts';

export const BASENAME = '/workbench';

export function meta(patch: Partial<RouteMeta> = {}): { meta: RouteMeta } {
  return { meta: { ...defaultRouteMeta, ...patch } };
}

/** A redirect target after sign-in must stay inside the app. */
export function safeRedirect(target: string | null | undefined, fallback = '/tts'): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/login')) return fallback;
  return target;
}

/** `/login?redirect=<path inside the app>` for a request URL. */
export function loginPath(url?: string): string {
  if (!url) return '/login';
  const u = new URL(url, 'http://localhost');
  let path = u.pathname;
  if (path.startsWith(BASENAME)) path = path.slice(BASENAME.length) || '/';
  const target = `${path}${u.search}`;
  if (target === '/' || target.startsWith('/login')) return '/login';
  return `/login?redirect=${encodeURIComponent(target)}`;
}
