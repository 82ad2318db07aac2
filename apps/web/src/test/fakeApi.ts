import { vi } from 'vitest';

/** What a fake route answers: the envelope's data, or a whole envelope / Response. */
export type FakeAnswer = unknown;
export type FakeRoute = (req: { url: URL; body: unknown; init: RequestInit | undefined }) => FakeAnswer;

export interface FakeCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
}

/** An envelope with a nonzero code (a business error). */
export const envelope = (code: number, msg: string, data: unknown = null) => ({
  __envelope: { code, msg, data },
});

/**
 * Stubs the global fetch the app's client uses with a table of routes by path. A route returns the
 * data of a success envelope, `envelope(code, msg)` for a business error, or a Response.
 * Unknown paths answer 404. Every call is recorded.
 */
export function stubApi(routes: Record<string, FakeRoute>) {
  const calls: FakeCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    let body: unknown;
    if (typeof init?.body === 'string') body = JSON.parse(init.body);
    calls.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      headers: { ...((init?.headers as Record<string, string>) ?? {}) },
    });
    const route = routes[url.pathname];
    if (!route) return new Response('not found', { status: 404 });
    const answer = await route({ url, body, init });
    if (answer instanceof Response) return answer;
    if (answer && typeof answer === 'object' && '__envelope' in answer)
      return new Response(JSON.stringify((answer as { __envelope: unknown }).__envelope), {
        headers: { 'content-type': 'application/json' },
      });
    return new Response(JSON.stringify({ code: 0, msg: 'success', data: answer }), {
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetch: fetchMock, count: (path: string) => calls.filter((c) => c.path === path).length };
}
