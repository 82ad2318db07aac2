import type { AppConfig, TenantBonusWithPrevious, UserInfo } from '@vw/contract';
import { emptyCatalogue, useCatalogueStore } from '@/stores/data.ts';
import { DEFAULT_APP_CONFIG, useUserStore } from '@/stores/user.ts';
import { api, USER_TYPE_REFUSED } from '../api.ts';
import { type HttpClient, http } from '../http/client.ts';
import { isApiError } from '../http/errors.ts';
import { VoiceStatus } from '../tts.ts';
import {
  clearAllStored,
  decideStartup,
  readTokens,
  readUserInfo,
  type StartupDecision,
  saveTokens,
  saveUserInfo,
} from './storage.ts';

export type SessionResult =
  | { ok: true; user: UserInfo; decision: StartupDecision }
  | { ok: false; decision: StartupDecision; refused?: boolean };

/**
 * The startup check of spec §4. Tokens missing or both expired → login; access expired and
 * refresh valid → silent refresh; otherwise fetch user info. A user of type 1 is refused.
 */
export async function runStartup(client: HttpClient = http): Promise<SessionResult> {
  const decision = decideStartup(readTokens());
  if (decision === 'login') {
    clearAllStored();
    return { ok: false, decision };
  }
  let user: UserInfo | null = null;
  if (decision === 'refresh') {
    if (!(await client.refreshSession())) return { ok: false, decision };
    user = readUserInfo();
  } else {
    try {
      // A 401 here refreshes and retries inside the client.
      user = (await client.request(api.getUserInfo, {}, { suppressError: true })).user_info;
      saveUserInfo(user);
    } catch (e) {
      if (isApiError(e) && e.kind === 'auth') return { ok: false, decision };
      // Server unreachable or failing: keep the stored identity rather than signing the user out.
      user = readUserInfo();
      if (isApiError(e) && e.kind === 'network') client.hooks.onError?.(e.display, e);
    }
  }
  if (!user) return { ok: false, decision };
  if (user.type === USER_TYPE_REFUSED) {
    clearAllStored();
    return { ok: false, decision, refused: true };
  }
  return { ok: true, user, decision };
}

let sessionPromise: Promise<SessionResult> | null = null;

/** The startup check, run once per page load (and again after a sign-out). */
export function ensureSession(): Promise<SessionResult> {
  if (!sessionPromise) {
    sessionPromise = runStartup().then((result) => {
      if (result.ok) {
        useUserStore.getState().setUserInfo(result.user);
        void loadStartupData();
      } else {
        sessionPromise = null;
        useUserStore.getState().reset();
      }
      return result;
    });
  }
  return sessionPromise;
}

/** Forget the memoised session (after sign-out or an auth failure). */
export function resetSession(): void {
  sessionPromise = null;
  appConfigPromise = null;
}

let appConfigPromise: Promise<AppConfig> | null = null;

/** App config, fetched once per session; its failure means defaults (voice cloning off). */
export function ensureAppConfig(): Promise<AppConfig> {
  if (!appConfigPromise) {
    appConfigPromise = http
      .request(api.getAppConfig, {}, { suppressError: true })
      .catch(() => DEFAULT_APP_CONFIG)
      .then((config) => {
        const merged: AppConfig = {
          voice_clone_config: {
            voice_clone_switch: config?.voice_clone_config?.voice_clone_switch === true,
          },
        };
        useUserStore.getState().setAppConfig(merged);
        return merged;
      });
  }
  return appConfigPromise;
}

/** Tenant bonus; the free plan when the call fails (its errors are suppressed, spec §7). */
export async function loadTenantBonus(): Promise<TenantBonusWithPrevious | null> {
  try {
    const bonus = await http.request(api.getTenantBonus, {}, { suppressError: true });
    if (!bonus || typeof bonus.level !== 'number') throw new Error('no tenant bonus');
    useUserStore.getState().setTenantBonus(bonus);
    return bonus;
  } catch {
    useUserStore.getState().setTenantBonus(null);
    return null;
  }
}

/** The voice list (spec §7: status [2], disabled voices kept); also refetched after a payment. */
export async function loadVoices(): Promise<void> {
  try {
    const d = await http.request(
      api.getAllVoices,
      { query: { status: [VoiceStatus.Published], legacy_voice_skip_disabled: false } },
      { suppressError: true },
    );
    useCatalogueStore
      .getState()
      .set({ voices: Array.isArray(d?.voices) ? d.voices : [], voicesLoaded: true });
  } catch {
    useCatalogueStore.getState().set({ voicesLoaded: true });
  }
}

/** The catalogue of products (member plans and credit packs); failures are silent. */
export async function loadProducts(): Promise<void> {
  try {
    const d = await http.request(api.getProducts, { query: { type: -1 } }, { suppressError: true });
    useCatalogueStore.getState().set({ products: Array.isArray(d?.product_list) ? d.product_list : [] });
  } catch {
    // The payment dialog asks again when it opens.
  }
}

/**
 * After the startup check: config, tenant bonus, default voices, voices, models and products
 * (spec §4). Every failure is silent: the page that needs the data asks again.
 */
export async function loadStartupData(): Promise<void> {
  const quiet = { suppressError: true } as const;
  const catalogue = useCatalogueStore.getState();
  await Promise.allSettled([
    ensureAppConfig(),
    loadTenantBonus(),
    http
      .request(api.getDefaultVoice, {}, quiet)
      .then((d) => catalogue.set({ defaultVoiceMap: d?.default_voice_map ?? {} })),
    loadVoices(),
    http.request(api.getSupportedModel, {}, quiet).then((d) =>
      catalogue.set({
        models: Array.isArray(d?.models) ? d.models : [],
        multilingualModelId: d?.multilingual_model_id ?? '',
      }),
    ),
    http
      .request(api.getLanguageIcon, {}, quiet)
      .then((d) => catalogue.set({ languageIcons: Array.isArray(d?.language) ? d.language : [] })),
    loadProducts(),
  ]);
}

/** Stores a fresh sign-in (tokens with computed expiry, user info) and starts the session. */
export function completeSignIn(data: {
  secure_tokens: Parameters<typeof saveTokens>[0];
  user_info: UserInfo;
}): boolean {
  if (data.user_info.type === USER_TYPE_REFUSED) return false;
  saveTokens(data.secure_tokens);
  saveUserInfo(data.user_info);
  resetSession();
  useUserStore.getState().setUserInfo(data.user_info);
  sessionPromise = Promise.resolve({ ok: true, user: data.user_info, decision: 'fetch_user' });
  void loadStartupData();
  return true;
}

/** Sign-out: tell the server (revoking the refresh token), then clear every stored item. */
export async function signOut(): Promise<void> {
  const refresh = readTokens()?.refresh_token;
  try {
    await http.request(api.signOut, { body: { refresh_token: refresh } }, { suppressError: true });
  } catch {
    // Signing out locally must work even when the server cannot be reached.
  }
  clearAllStored();
  resetSession();
  useUserStore.getState().reset();
  useCatalogueStore.getState().set(emptyCatalogue);
}

/** Local sign-out without a server call (account cancelled, refresh failed). */
export function dropSession(): void {
  clearAllStored();
  resetSession();
  useUserStore.getState().reset();
}
