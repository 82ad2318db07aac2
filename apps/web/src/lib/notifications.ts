import { NOTIFICATION_WORKER_VERSION } from '@vw/contract/constants/onboarding.ts';
import { api } from './api.ts';
import { http } from './http/client.ts';

/** A notification click forwarded by the service worker. */
export interface NotificationClick {
  action?: string;
  task_id?: string;
  /** The editor project of a video task: the editor opens by it. */
  project_id?: string | null;
  id?: string;
}

export const NOTIFICATION_CHANNEL = 'vw-notifications';
export const WORKER_URL = `${import.meta.env.BASE_URL}notification-sw.js?v=${NOTIFICATION_WORKER_VERSION}`;

/** The in-app target of a notification click, or null when it has none. */
export function notificationTarget(payload: NotificationClick | null | undefined): string | null {
  if (!payload) return null;
  const id = payload.project_id || payload.task_id || payload.id;
  if (payload.action === 'video-edit' && id) return `/video-translation/editor?id=${encodeURIComponent(id)}`;
  return null;
}

/**
 * Listens for notification clicks from the service worker (message channel) and other tabs
 * (broadcast channel) and navigates accordingly. Returns an unsubscribe function.
 */
export function wireNotificationClicks(navigate: (to: string) => void): () => void {
  const onMessage = (event: MessageEvent) => {
    const data = event.data as { type?: string; payload?: NotificationClick } | null;
    if (data?.type !== 'notification-click') return;
    const target = notificationTarget(data.payload);
    if (target) navigate(target);
  };
  const sw = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
  sw?.addEventListener('message', onMessage);
  const bc = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(NOTIFICATION_CHANNEL) : null;
  bc?.addEventListener('message', onMessage);
  return () => {
    sw?.removeEventListener('message', onMessage);
    bc?.close();
  };
}

/** Registers the notification service worker at startup (spec §2); null where there is none. */
export async function registerNotificationWorker(
  container: ServiceWorkerContainer | undefined = typeof navigator !== 'undefined'
    ? navigator.serviceWorker
    : undefined,
): Promise<ServiceWorkerRegistration | null> {
  if (!container) return null;
  try {
    return await container.register(WORKER_URL, { scope: import.meta.env.BASE_URL });
  } catch (e) {
    console.warn('notification worker not registered', e);
    return null;
  }
}

/** Base64url (VAPID public key) to the bytes PushManager wants. */
export function urlBase64ToUint8Array(base64: string): Uint8Array<ArrayBuffer> {
  const padded = `${base64}${'='.repeat((4 - (base64.length % 4)) % 4)}`
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  const raw = atob(padded);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export type EnableResult = 'enabled' | 'denied' | 'unsupported';

/**
 * Lets the user allow notifications: asks the browser, subscribes this browser to Web Push with the
 * server's VAPID key and stores the subscription on the server (task-finished notifications).
 */
export async function enableNotifications(): Promise<EnableResult> {
  if (typeof Notification === 'undefined' || !navigator.serviceWorker || !('PushManager' in window))
    return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const registration =
    (await navigator.serviceWorker.getRegistration(import.meta.env.BASE_URL)) ??
    (await registerNotificationWorker());
  if (!registration) return 'unsupported';
  const { public_key } = await http.request(api.getPushPublicKey, {}, { suppressError: true });
  const existing = await registration.pushManager.getSubscription();
  const subscription =
    existing ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: urlBase64ToUint8Array(public_key),
    }));
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await http.request(
    api.subscribePush,
    { body: { endpoint: json.endpoint, keys: json.keys } },
    { suppressError: true },
  );
  return 'enabled';
}
