import type { AppConfig, TenantBonus, UserInfo } from '@vw/contract';
import { create } from 'zustand';
import { zhCN } from '@/locales/zh-CN.ts';

/** The meta every route carries (spec §2); the current one is kept in the user state. */
export interface RouteMeta {
  /** Shows the sidebar navigation. */
  showNav: boolean;
  /** Only the page, no sidebar. */
  fullScreen: boolean;
  /** The video translation editor flag. */
  isVideoTranslationEditor: boolean;
  /** Document title suffix. */
  title?: string;
  /** Reachable without signing in. */
  public?: boolean;
}

export const defaultRouteMeta: RouteMeta = {
  showNav: true,
  fullScreen: false,
  isVideoTranslationEditor: false,
};

/** Used when the tenant bonus cannot be loaded: the free plan. */
export const FREE_TENANT_BONUS: TenantBonus = {
  level: 100,
  credit_type: 0,
  title: zhCN.plan.free,
  expired_time: 0,
  credit_balance: 0,
  is_free_package: 1,
  is_annual_package: 0,
};

export const DEFAULT_APP_CONFIG: AppConfig = { voice_clone_config: { voice_clone_switch: false } };

interface UserState {
  userInfo: UserInfo | null;
  tenantBonus: TenantBonus;
  /** False until the tenant bonus has been fetched successfully at least once. */
  tenantBonusLoaded: boolean;
  appConfig: AppConfig;
  routeMeta: RouteMeta;
  setUserInfo: (u: UserInfo | null) => void;
  setTenantBonus: (b: TenantBonus | null) => void;
  setAppConfig: (c: AppConfig) => void;
  setRouteMeta: (m: RouteMeta) => void;
  reset: () => void;
}

export const useUserStore = create<UserState>((set) => ({
  userInfo: null,
  tenantBonus: FREE_TENANT_BONUS,
  tenantBonusLoaded: false,
  appConfig: DEFAULT_APP_CONFIG,
  routeMeta: defaultRouteMeta,
  setUserInfo: (userInfo) => set({ userInfo }),
  setTenantBonus: (b) => set({ tenantBonus: b ?? FREE_TENANT_BONUS, tenantBonusLoaded: b !== null }),
  setAppConfig: (appConfig) => set({ appConfig }),
  setRouteMeta: (routeMeta) => set({ routeMeta }),
  reset: () =>
    set({
      userInfo: null,
      tenantBonus: FREE_TENANT_BONUS,
      tenantBonusLoaded: false,
      appConfig: DEFAULT_APP_CONFIG,
    }),
}));

/** Derived plan facts (spec §3): membership means level above 100. */
export function planOf(bonus: TenantBonus) {
  const isFree = bonus.is_free_package === 1 || bonus.level <= 100;
  return {
    name: bonus.title || zhCN.plan.free,
    isFree,
    hasMembership: bonus.level > 100,
    expiresAt: bonus.expired_time > 0 ? bonus.expired_time : null,
    credits: bonus.credit_balance,
  };
}
