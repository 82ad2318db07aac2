import type { SecureTokens, UserInfo } from '@vw/contract';
import { accountsCalls } from '@vw/contract';
import { describe, expect, it, vi } from 'vitest';
import { HttpClient } from '../http/client.ts';
import { runStartup } from './session.ts';
import {
  decideStartup,
  readTokens,
  StorageKey,
  type StoredTokens,
  saveTokens,
  saveUserInfo,
} from './storage.ts';

const NOW = 1_800_000_000;
const stored = (accessDelta: number, refreshDelta: number): StoredTokens => ({
  access_token: 'a',
  refresh_token: 'r',
  access_expires_at: NOW + accessDelta,
  refresh_expires_at: NOW + refreshDelta,
});

const user = (type = 2): UserInfo => ({
  uid: 'u1',
  type,
  phone: '13800000000',
  email: '',
  nickname: 'demo',
  avatar_url: '',
  user_persona_questionnaire_status: 1,
  has_password: true,
});

describe('decideStartup (spec §4)', () => {
  it('tokens missing → login', () => {
    expect(decideStartup(null, NOW)).toBe('login');
    expect(decideStartup({ ...stored(100, 100), refresh_token: '' }, NOW)).toBe('login');
  });
  it('both expired → login', () => {
    expect(decideStartup(stored(-10, -5), NOW)).toBe('login');
  });
  it('access expired, refresh valid → refresh', () => {
    expect(decideStartup(stored(-10, 1000), NOW)).toBe('refresh');
  });
  it('access valid → fetch user info', () => {
    expect(decideStartup(stored(10, 1000), NOW)).toBe('fetch_user');
  });
});

describe('saveTokens', () => {
  it('stores expiry timestamps as now + expires_in and now + refresh_token_expires_in', () => {
    const t: SecureTokens = {
      access_token: 'a',
      refresh_token: 'r',
      expires_in: 900,
      refresh_token_expires_in: 3600,
    };
    saveTokens(t, NOW);
    expect(readTokens()).toEqual({
      access_token: 'a',
      refresh_token: 'r',
      access_expires_at: NOW + 900,
      refresh_expires_at: NOW + 3600,
    });
    expect(localStorage.getItem(StorageKey.accessToken)).toBe('a');
  });
});

function clientFor(handler: (path: string) => Response | Promise<Response>) {
  const paths: string[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://x').pathname;
    paths.push(path);
    return handler(path);
  });
  return { client: new HttpClient({ fetch: fetchImpl as typeof fetch }), paths };
}
const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'success', data }));
const nowS = () => Math.floor(Date.now() / 1000);

describe('runStartup', () => {
  it('no tokens → login without any call', async () => {
    const { client, paths } = clientFor(() => ok({}));
    expect(await runStartup(client)).toEqual({ ok: false, decision: 'login' });
    expect(paths).toEqual([]);
  });

  it('both expired → login and stored items cleared', async () => {
    localStorage.setItem(
      StorageKey.secureTokens,
      JSON.stringify({ ...stored(0, 0), access_expires_at: nowS() - 5, refresh_expires_at: nowS() - 1 }),
    );
    saveUserInfo(user());
    const { client, paths } = clientFor(() => ok({}));
    expect((await runStartup(client)).ok).toBe(false);
    expect(paths).toEqual([]);
    expect(localStorage.getItem(StorageKey.userInfo)).toBeNull();
  });

  it('access expired, refresh valid → one silent refresh, then signed in', async () => {
    localStorage.setItem(
      StorageKey.secureTokens,
      JSON.stringify({
        access_token: 'old',
        refresh_token: 'r',
        access_expires_at: nowS() - 5,
        refresh_expires_at: nowS() + 1000,
      }),
    );
    const { client, paths } = clientFor((path) =>
      path === accountsCalls.refreshToken.path
        ? ok({
            secure_tokens: {
              access_token: 'new',
              refresh_token: 'r2',
              expires_in: 900,
              refresh_token_expires_in: 1000,
            },
            user_info: user(),
          })
        : ok({}),
    );
    const result = await runStartup(client);
    expect(result.ok).toBe(true);
    expect(result.decision).toBe('refresh');
    expect(paths).toEqual([accountsCalls.refreshToken.path]);
    expect(readTokens()?.access_token).toBe('new');
  });

  it('access valid → fetches user info', async () => {
    saveTokens({ access_token: 'a', refresh_token: 'r', expires_in: 900, refresh_token_expires_in: 1000 });
    const { client, paths } = clientFor(() => ok({ user_info: user() }));
    const result = await runStartup(client);
    expect(result).toMatchObject({ ok: true, decision: 'fetch_user' });
    expect(paths).toEqual([accountsCalls.getUserInfo.path]);
  });

  it('user type 1 is refused → login', async () => {
    saveTokens({ access_token: 'a', refresh_token: 'r', expires_in: 900, refresh_token_expires_in: 1000 });
    const { client } = clientFor(() => ok({ user_info: user(1) }));
    const result = await runStartup(client);
    expect(result).toMatchObject({ ok: false, refused: true });
    expect(readTokens()).toBeNull();
  });

  it('refresh fails → login', async () => {
    localStorage.setItem(
      StorageKey.secureTokens,
      JSON.stringify({
        access_token: 'old',
        refresh_token: 'r',
        access_expires_at: nowS() - 5,
        refresh_expires_at: nowS() + 1000,
      }),
    );
    const { client } = clientFor(
      () => new Response(JSON.stringify({ code: 401, msg: 'no', data: null }), { status: 401 }),
    );
    expect((await runStartup(client)).ok).toBe(false);
  });
});
