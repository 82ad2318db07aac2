import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { ANALYTICS_LIMITS, AnalyticsEventName } from '@vw/contract/constants/onboarding.ts';
import { useUserStore } from '@/stores/user.ts';
import { api } from './api.ts';
import { getDeviceId } from './auth/storage.ts';
import { http } from './http/client.ts';

/** Analytics timings of spec §9. */
export const ANALYTICS_TIMING = {
  /** reports leave at most every 500 ms */
  reportCapMs: 500,
  /** the same link click is tracked at most once a second */
  linkClickCapMs: 1000,
  /** page exposure is debounced */
  exposureDebounceMs: 500,
  heartbeatMs: 10_000,
};

export interface TrackedEvent {
  event: string;
  uuid: string;
  phone: string;
  email: string;
  time: number;
  props: Record<string, unknown>;
}

export interface AnalyticsTransport {
  /** The device's signing key. */
  key(): Promise<string>;
  /** Sends one signed report; `beacon` when the page may be going away. */
  send(body: { data: string; sign: string; ts: number; device_id: string }, beacon: boolean): Promise<void>;
}

/** base64 of UTF-8 text (btoa alone takes only Latin-1). */
export function toBase64(text: string): string {
  const bytes = utf8ToBytes(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The signature the server checks: hex HMAC-SHA256 of `${ts}.${data}` with the device key. */
export const signReport = (key: string, ts: number, data: string) =>
  bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(`${ts}.${data}`)));

type Timers = {
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (id: unknown) => void;
  now: () => number;
};

/**
 * Client analytics (spec §7, §9): events carry uuid, phone and email (empty for visitors) plus their
 * own fields; they are batched and sent at most every 500 ms as a signed base64 report; a link click
 * is counted at most once a second and sent by beacon (the page may be leaving); page exposure is
 * debounced 500 ms.
 */
export class Analytics {
  private queue: TrackedEvent[] = [];
  private flushTimer: unknown = null;
  private lastSent = 0;
  private exposureTimer: unknown = null;
  private readonly lastLinkClick = new Map<string, number>();
  /** Everything tracked in this page (newest last; bounded): for tests and debugging. */
  readonly recent: TrackedEvent[] = [];

  constructor(
    private readonly transport: AnalyticsTransport,
    private readonly identity: () => { uuid: string; phone: string; email: string },
    private readonly timers: Timers,
  ) {}

  track(event: string, props: Record<string, unknown> = {}, beacon = false): void {
    const e: TrackedEvent = { event, ...this.identity(), time: this.timers.now(), props };
    this.queue.push(e);
    this.recent.push(e);
    if (this.recent.length > 200) this.recent.shift();
    if (typeof window !== 'undefined') window.dispatchEvent(new CustomEvent('vw:track', { detail: e }));
    if (beacon) void this.flush(true);
    else this.schedule();
  }

  click(button: string, props: Record<string, unknown> = {}): void {
    this.track(AnalyticsEventName.buttonClick, { button, ...props });
  }

  /** A click on a link leaving the page: at most once a second per link, sent by beacon. */
  linkClick(name: string, props: Record<string, unknown> = {}): boolean {
    const now = this.timers.now();
    const last = this.lastLinkClick.get(name);
    if (last !== undefined && now - last < ANALYTICS_TIMING.linkClickCapMs) return false;
    this.lastLinkClick.set(name, now);
    this.track(AnalyticsEventName.buttonClick, { button: name, ...props }, true);
    return true;
  }

  /** Page exposure, debounced: only the page the user settles on counts. */
  exposure(page: string, props: Record<string, unknown> = {}): void {
    if (this.exposureTimer !== null) this.timers.clearTimeout(this.exposureTimer);
    this.exposureTimer = this.timers.setTimeout(() => {
      this.exposureTimer = null;
      this.track(AnalyticsEventName.pageExposure, { page, ...props });
    }, ANALYTICS_TIMING.exposureDebounceMs);
  }

  private schedule(): void {
    if (this.flushTimer !== null) return;
    const wait = Math.max(0, this.lastSent + ANALYTICS_TIMING.reportCapMs - this.timers.now());
    this.flushTimer = this.timers.setTimeout(() => {
      this.flushTimer = null;
      void this.flush(false);
    }, wait);
  }

  /** Sends what is queued (in reports of at most 100 events). Failures drop the events: analytics never retry-storm. */
  async flush(beacon: boolean): Promise<void> {
    if (this.queue.length === 0) return;
    const events = this.queue.splice(0, ANALYTICS_LIMITS.maxEvents);
    this.lastSent = this.timers.now();
    try {
      const key = await this.transport.key();
      const data = toBase64(JSON.stringify(events));
      const ts = Date.now();
      await this.transport.send(
        { data, ts, sign: signReport(key, ts, data), device_id: getDeviceId() },
        beacon,
      );
    } catch {
      // Analytics must never disturb the user.
    }
    if (this.queue.length > 0) this.schedule();
  }
}

let keyPromise: Promise<string> | null = null;

const browserTransport: AnalyticsTransport = {
  key() {
    keyPromise ??= http
      .request(api.getAnalyticsKey, {}, { suppressError: true })
      .then((d) => d.key)
      .catch((e) => {
        keyPromise = null;
        throw e;
      });
    return keyPromise;
  },
  async send(body, beacon) {
    const json = JSON.stringify(body);
    if (beacon && typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
      if (navigator.sendBeacon(api.reportAnalytics.path, new Blob([json], { type: 'application/json' })))
        return;
    }
    await fetch(api.reportAnalytics.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: json,
      keepalive: true,
    });
  },
};

export const analytics = new Analytics(
  browserTransport,
  () => {
    const u = useUserStore.getState().userInfo;
    return { uuid: u?.uid ?? '', phone: u?.phone ?? '', email: u?.email ?? '' };
  },
  {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
  },
);

export const track = (event: string, props: Record<string, unknown> = {}) => analytics.track(event, props);

/** Click tracking (h5_button_click). */
export function trackClick(button: string, data: Record<string, unknown> = {}): void {
  analytics.click(button, data);
}

/** Link clicks (social links, external pages): capped at one a second, sent by beacon. */
export const trackLinkClick = (name: string, data: Record<string, unknown> = {}) =>
  analytics.linkClick(name, data);

export const trackExposure = (page: string) => analytics.exposure(page);

/** The sign-up / sign-in event (spec §7: sent on login). */
export const trackSignUp = (method: string) => analytics.track(AnalyticsEventName.signUp, { method });

/**
 * Heartbeat every 10 s while the page is visible (h5_user_heartbeat_log); stops while hidden.
 * Returns a stop function.
 */
export function startHeartbeat(a: Analytics = analytics, doc: Document = document): () => void {
  let timer: ReturnType<typeof setInterval> | null = null;
  const update = () => {
    if (doc.visibilityState === 'visible' && timer === null) {
      timer = setInterval(() => a.track(AnalyticsEventName.heartbeat, {}), ANALYTICS_TIMING.heartbeatMs);
    } else if (doc.visibilityState !== 'visible' && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
  update();
  doc.addEventListener('visibilitychange', update);
  const leave = () => void a.flush(true);
  window.addEventListener('pagehide', leave);
  return () => {
    if (timer !== null) clearInterval(timer);
    doc.removeEventListener('visibilitychange', update);
    window.removeEventListener('pagehide', leave);
  };
}
