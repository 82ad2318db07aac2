/**
 * Stands in for `resize-observer-polyfill` in the browser build (vite.config.ts alias): every
 * browser the build targets (es2022) has ResizeObserver, so antd's rc-resize-observer gets the
 * native one instead of ~13 KB of polyfill on the first load. Tests keep the polyfill (jsdom has none).
 */
export default globalThis.ResizeObserver;
