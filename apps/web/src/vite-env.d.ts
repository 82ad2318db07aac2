/// <reference types="vite/client" />

/** The web package version, injected at build time. */
declare const __APP_VERSION__: string;

interface ImportMetaEnv {
  /** Social-link bar (onboarding issue): the WeChat QR's text and the two profile links. */
  readonly VITE_WECHAT_QR_TEXT?: string;
  readonly VITE_XIAOHONGSHU_URL?: string;
  readonly VITE_BILIBILI_URL?: string;
}
