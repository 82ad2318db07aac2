import type { SecureTokens, UserInfo } from '@vw/contract';
import { accountsCalls, appCalls } from '@vw/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readTokens, readUserInfo, StorageKey, saveTokens, saveUserInfo } from '../auth/storage.ts';
import { BUNDLE_ID, HttpClient } from './client.ts';
import { ApiError } from './errors.ts';

const user: UserInfo = {
  uid: 'u1',
  type: 2,
  phone: '13800000000',
  email: '',
  nickname: '',
  avatar_url: '',
  user_persona_questionnaire_status: 1,
  has_password: false,
};

const tokens = (access: string, refresh: string): SecureTokens => ({
  access_token: access,
  refresh_token: refresh,
  expires_in: 900,
  refresh_token_expires_in: 86400,
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const ok = (data: unknown) => json({ code: 0, msg: 'success', data });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fake server: data calls need `Bearer <valid>`; the token call rotates to `fresh`. */
function fakeServer(opts: { refreshFails?: boolean } = {}) {
  let valid = 'fresh-access';
  const calls: Array<{ path: string; auth: string | null; headers: Headers; body: unknown }> = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    calls.push({ path: url.pathname, auth: headers.get('Authorization'), headers, body });
    if (url.pathname === accountsCalls.refreshToken.path) {
      await sleep(20);
      if (opts.refreshFails) return json({ code: 401, msg: 'expired', data: null }, 401);
      valid = 'fresh-access';
      return ok({
        secure_tokens: tokens('fresh-access', 'fresh-refresh'),
        user_info: { ...user, nickname: 'refreshed' },
      });
    }
    if (headers.get('Authorization') !== `Bearer ${valid}`)
      return json({ code: 401, msg: 'unauthorized', data: null }, 401);
    return ok({ path: url.pathname });
  });
  return { fetchImpl, calls };
}

beforeEach(() => {
  saveTokens(tokens('stale-access', 'old-refresh'));
  saveUserInfo(user);
});

describe('refresh queue (spec §4)', () => {
  it('runs exactly one refresh for 5 concurrent 401s and retries every request', async () => {
    const server = fakeServer();
    const onSessionRefreshed = vi.fn();
    const client = new HttpClient({ fetch: server.fetchImpl as typeof fetch, hooks: { onSessionRefreshed } });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => client.request(accountsCalls.getUserInfo)),
    );
    expect(results).toHaveLength(5);
    const refreshCalls = server.calls.filter((c) => c.path === accountsCalls.refreshToken.path);
    expect(refreshCalls).toHaveLength(1);
    expect(refreshCalls[0].body).toEqual({ refresh_token: 'old-refresh' });
    const dataCalls = server.calls.filter((c) => c.path === accountsCalls.getUserInfo.path);
    expect(dataCalls).toHaveLength(10); // 5 refused + 5 retried
    expect(dataCalls.slice(5).every((c) => c.auth === 'Bearer fresh-access')).toBe(true);
    expect(client.refreshCount).toBe(1);
    expect(readTokens()?.refresh_token).toBe('fresh-refresh');
    expect(localStorage.getItem(StorageKey.accessToken)).toBe('fresh-access');
    expect(onSessionRefreshed).toHaveBeenCalledTimes(1);
  });

  it('a 401 arriving after the refresh finished retries with the new token without refreshing again', async () => {
    const server = fakeServer();
    const client = new HttpClient({ fetch: server.fetchImpl as typeof fetch });
    await client.request(accountsCalls.getUserInfo);
    // simulate a request that was sent with the stale token before the refresh completed
    localStorage.setItem(StorageKey.accessToken, 'stale-access');
    const p = client.request(appCalls.getAppConfig);
    await p;
    expect(client.refreshCount).toBe(2); // the stale token really was current: one more refresh
  });

  it('on refresh failure clears user info, reports the auth failure once and rejects all queued requests', async () => {
    const server = fakeServer({ refreshFails: true });
    const onAuthFailure = vi.fn();
    const onError = vi.fn();
    const client = new HttpClient({
      fetch: server.fetchImpl as typeof fetch,
      hooks: { onAuthFailure, onError },
    });
    const settled = await Promise.allSettled(
      Array.from({ length: 5 }, () => client.request(accountsCalls.getUserInfo)),
    );
    expect(settled.every((s) => s.status === 'rejected' && (s.reason as ApiError).kind === 'auth')).toBe(
      true,
    );
    expect(server.calls.filter((c) => c.path === accountsCalls.refreshToken.path)).toHaveLength(1);
    expect(onAuthFailure).toHaveBeenCalledTimes(1);
    expect(onError).not.toHaveBeenCalled();
    expect(readUserInfo()).toBeNull();
    expect(readTokens()).toBeNull();
  });

  it('does not refresh on a 401 from the token endpoint itself (errors pass through)', async () => {
    const server = fakeServer({ refreshFails: true });
    const client = new HttpClient({ fetch: server.fetchImpl as typeof fetch });
    await expect(
      client.request(accountsCalls.refreshToken, { body: { refresh_token: 'x' } }, { suppressError: true }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(server.calls).toHaveLength(1);
  });
});

describe('request headers and bodies', () => {
  it('sends JSON content type, a persisted device id, the bundle id and the bearer token', async () => {
    const server = fakeServer();
    localStorage.setItem(StorageKey.accessToken, 'fresh-access');
    const client = new HttpClient({ fetch: server.fetchImpl as typeof fetch });
    await client.request(accountsCalls.getUserInfo);
    await client.request(accountsCalls.getUserInfo);
    const [a, b] = server.calls;
    expect(a.headers.get('Content-Type')).toBe('application/json');
    expect(a.headers.get('X-Bundle-Id')).toBe(BUNDLE_ID);
    expect(a.headers.get('X-Device-Id')).toBeTruthy();
    expect(a.headers.get('X-Device-Id')).toBe(b.headers.get('X-Device-Id'));
    expect(localStorage.getItem(StorageKey.deviceId)).toBe(a.headers.get('X-Device-Id'));
    expect(a.auth).toBe('Bearer fresh-access');
  });

  it('omits Authorization when no token is stored and serialises the query', async () => {
    localStorage.clear();
    const fetchImpl = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => ok({ messages: [] }));
    const client = new HttpClient({ fetch: fetchImpl as typeof fetch });
    await client.request(accountsCalls.devOutbox, { query: { to: '13800000000' } });
    const [url, init] = fetchImpl.mock.calls[0];
    expect(String(url)).toBe('/dev/outbox?to=13800000000');
    expect(new Headers(init?.headers).get('Authorization')).toBeNull();
    expect(init?.method).toBe('GET');
  });

  it('returns blob responses as they are', async () => {
    const fetchImpl = vi.fn(
      async () => new Response('RIFF', { status: 200, headers: { 'Content-Type': 'audio/wav' } }),
    );
    const client = new HttpClient({ fetch: fetchImpl as typeof fetch });
    const out = (await client.request(
      { method: 'GET', path: '/files/x.wav' },
      {},
      { responseType: 'blob' },
    )) as Blob;
    expect(out.size).toBe(4);
    expect(typeof out.slice).toBe('function');
  });

  it('sends FormData without forcing a JSON content type', async () => {
    const fetchImpl = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      ok({ user_info: user }),
    );
    const client = new HttpClient({ fetch: fetchImpl as typeof fetch });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.png');
    await client.request(accountsCalls.uploadAvatar, { body: form });
    const init = fetchImpl.mock.calls[0][1];
    expect(init?.body).toBe(form);
    expect(new Headers(init?.headers).get('Content-Type')).toBeNull();
  });
});

describe('cancelled requests', () => {
  it('a load cancelled while its body arrives rejects as aborted and shows no error', async () => {
    const controller = new AbortController();
    const onError = vi.fn();
    const fetchImpl = vi.fn(async () => {
      // Headers are in; the body is cancelled before it is read.
      const body = new ReadableStream({
        start(c) {
          controller.signal.addEventListener('abort', () =>
            c.error(new DOMException('The operation was aborted.', 'AbortError')),
          );
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    const client = new HttpClient({ fetch: fetchImpl, hooks: { onError } });
    const pending = client.request(appCalls.getAppConfig, {}, { signal: controller.signal });
    await vi.waitFor(() => expect(fetchImpl).toHaveBeenCalled());
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(onError).not.toHaveBeenCalled();
  });
});
