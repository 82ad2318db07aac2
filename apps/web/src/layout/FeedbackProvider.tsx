/**
 * antd's <App> (the message / notification / modal context that `useApp()` reads) without its
 * startup cost: the three hook hosts (rc-notification, rc-dialog, Modal, Skeleton…) load in a lazy
 * chunk after the first paint, or at the first call. Calls made before that are queued and replayed
 * in order; the handles they return (close functions, thenables) forward to the real ones.
 */
import type { useAppProps } from 'antd/es/app/context';
import AppContext from 'antd/es/app/context';
import useStyle from 'antd/es/app/style';
import { ConfigContext } from 'antd/es/config-provider/context';
import { lazy, type ReactNode, Suspense, useContext, useEffect, useState } from 'react';

type Api = useAppProps;
type Fn = (...args: unknown[]) => unknown;
type Thenable = { then: (ok?: Fn, fail?: Fn) => Promise<unknown> };

const FeedbackHost = lazy(() => import('./FeedbackHost.tsx'));

let real: Api | null = null;
let waiting: Array<(api: Api) => void> = [];
let requestLoad: () => void = () => undefined;

/** Boxed: the real handles are thenables, which a promise would otherwise adopt. */
function whenReady<T>(run: (api: Api) => T): Promise<{ value: T }> {
  requestLoad();
  return new Promise((resolve) => waiting.push((api) => resolve({ value: run(api) })));
}

/** Called by the host once its holders are mounted (null when it unmounts). */
export function setFeedbackApi(api: Api | null) {
  real = api;
  if (!api) return;
  const queued = waiting;
  waiting = [];
  for (const run of queued) run(api);
}

function call(part: keyof Api, name: string, args: unknown[]) {
  return ((real ?? ({} as Api))[part] as unknown as Record<string, Fn>)[name](...args);
}

/** message.* before the host is there: a close function that is also a thenable, like antd's. */
function messageMethod(name: string) {
  return (...args: unknown[]) => {
    if (real) return call('message', name, args);
    const handle = whenReady(() => call('message', name, args) as (() => void) & Thenable);
    const close = () => void handle.then((h) => h.value?.());
    // biome-ignore lint/suspicious/noThenProperty: antd's MessageType is a thenable close function
    close.then = (ok?: Fn, fail?: Fn) => handle.then((h) => h.value.then(ok, fail));
    return close;
  };
}

/** modal.* before the host is there: { destroy, update, then } forwarding to the real instance. */
function modalMethod(name: string) {
  return (...args: unknown[]) => {
    if (real) return call('modal', name, args);
    type Handle = { destroy: () => void; update: (c: unknown) => void } & Thenable;
    const handle = whenReady(() => call('modal', name, args) as Handle);
    return {
      destroy: () => void handle.then((h) => h.value.destroy()),
      update: (c: unknown) => void handle.then((h) => h.value.update(c)),
      // biome-ignore lint/suspicious/noThenProperty: antd's modal hook instances are thenables
      then: (ok?: Fn, fail?: Fn) => handle.then((h) => h.value.then(ok, fail)),
    };
  };
}

function plainMethod(part: keyof Api, name: string) {
  return (...args: unknown[]) => {
    if (real) return call(part, name, args);
    void whenReady(() => call(part, name, args));
  };
}

const methods = (names: string[], make: (n: string) => Fn) =>
  Object.fromEntries(names.map((n) => [n, make(n)]));

/** Stable for the app's lifetime, so `[message]` effect dependencies never change. */
const lazyApi = {
  message: {
    ...methods(['open', 'success', 'error', 'info', 'warning', 'loading'], messageMethod),
    destroy: plainMethod('message', 'destroy'),
  },
  notification: methods(['open', 'success', 'error', 'info', 'warning', 'destroy'], (n) =>
    plainMethod('notification', n),
  ),
  modal: methods(['confirm', 'info', 'success', 'error', 'warning'], modalMethod),
} as unknown as Api;

/** Idle time after the first paint, at the latest after two seconds. */
function afterFirstPaint(run: () => void) {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 200);
  return () => window.clearTimeout(id);
}

/** Drop-in for antd's <App>: the same `ant-app` root element and style, the same context. */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [wrapCSSVar, hashId, cssVarCls] = useStyle(prefixCls);
  const [load, setLoad] = useState(false);

  useEffect(() => {
    requestLoad = () => setLoad(true);
    if (waiting.length > 0) setLoad(true);
    const cancel = afterFirstPaint(() => setLoad(true));
    return () => {
      cancel();
      requestLoad = () => undefined;
    };
  }, []);

  return wrapCSSVar(
    <AppContext.Provider value={lazyApi}>
      <div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>
        {load && (
          <Suspense fallback={null}>
            <FeedbackHost />
          </Suspense>
        )}
        {children}
      </div>
    </AppContext.Provider>,
  );
}
