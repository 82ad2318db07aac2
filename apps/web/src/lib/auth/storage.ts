import type { SecureTokens, UserInfo } from '@vw/contract';

/** Local storage keys (spec §3): user info, tokens with computed expiry, access token, device id. */
export const StorageKey = {
  userInfo: 'user_info',
  secureTokens: 'secure_tokens',
  accessToken: 'access_token',
  deviceId: 'u_device_id',
} as const;

/** Tokens as stored: expiry timestamps are unix seconds computed at issue time (spec §9). */
export interface StoredTokens {
  access_token: string;
  refresh_token: string;
  /** unix seconds: now + expires_in */
  access_expires_at: number;
  /** unix seconds: now + refresh_token_expires_in */
  refresh_expires_at: number;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function saveTokens(tokens: SecureTokens, now = nowSeconds()): StoredTokens {
  const stored: StoredTokens = {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    access_expires_at: now + tokens.expires_in,
    refresh_expires_at: now + tokens.refresh_token_expires_in,
  };
  localStorage.setItem(StorageKey.secureTokens, JSON.stringify(stored));
  localStorage.setItem(StorageKey.accessToken, tokens.access_token);
  return stored;
}

export function readTokens(): StoredTokens | null {
  const t = readJson<StoredTokens>(StorageKey.secureTokens);
  if (!t || typeof t.access_token !== 'string' || typeof t.refresh_token !== 'string') return null;
  return t;
}

export function readAccessToken(): string | null {
  return localStorage.getItem(StorageKey.accessToken) || readTokens()?.access_token || null;
}

export function saveUserInfo(user: UserInfo): void {
  localStorage.setItem(StorageKey.userInfo, JSON.stringify(user));
}

export function readUserInfo(): UserInfo | null {
  return readJson<UserInfo>(StorageKey.userInfo);
}

/** A device id that survives sign-out: it identifies the browser, not the session. */
export function getDeviceId(): string {
  let id = localStorage.getItem(StorageKey.deviceId);
  if (!id) {
    id =
      typeof crypto !== 'undefined' && 'randomUUID' in crypto
        ? crypto.randomUUID()
        : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
    localStorage.setItem(StorageKey.deviceId, id);
  }
  return id;
}

export function clearUserInfo(): void {
  localStorage.removeItem(StorageKey.userInfo);
}

/**
 * Sign-out clears every stored item (spec §4). The device id is kept: it names the browser,
 * and rotating it on every sign-out would make the server's device list meaningless.
 */
export function clearAllStored(): void {
  const deviceId = localStorage.getItem(StorageKey.deviceId);
  // Per-user onboarding marks (survey progress, preview seen) are about the person, not the session.
  const kept = Object.keys(localStorage)
    .filter((k) => PER_USER_KEYS.some((prefix) => k.startsWith(prefix)))
    .map((k) => [k, localStorage.getItem(k) ?? ''] as const);
  localStorage.clear();
  sessionStorage.clear();
  if (deviceId) localStorage.setItem(StorageKey.deviceId, deviceId);
  for (const [k, v] of kept) localStorage.setItem(k, v);
}

/** Local keys that belong to a user (suffixed by the uid) and survive sign-out. */
const PER_USER_KEYS = ['surveyPage', 'videoTranslationPreview'];

export type StartupDecision = 'login' | 'refresh' | 'fetch_user';

/**
 * Startup check of spec §4: tokens missing or both expired → login; access expired and
 * refresh valid → silent refresh; otherwise (access still valid) → fetch user info.
 */
export function decideStartup(tokens: StoredTokens | null, now = nowSeconds()): StartupDecision {
  if (!tokens?.access_token || !tokens.refresh_token) return 'login';
  const accessValid = now < tokens.access_expires_at;
  const refreshValid = now < tokens.refresh_expires_at;
  if (!accessValid && !refreshValid) return 'login';
  if (!accessValid) return 'refresh';
  return 'fetch_user';
}
