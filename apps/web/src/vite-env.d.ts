/// <reference types="vite/client" />

/** The web package version, injected at build time. */
declare const __APP_VERSION__: string;
