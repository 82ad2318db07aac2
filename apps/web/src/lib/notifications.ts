/** A notification click forwarded by the service worker (it comes with a later issue). */
export interface NotificationClick {
  action?: string;
  task_id?: string;
  id?: string;
}

export const NOTIFICATION_CHANNEL = 'vw-notifications';

/** The in-app target of a notification click, or null when it has none. */
export function notificationTarget(payload: NotificationClick | null | undefined): string | null {
  if (!payload) return null;
  const id = payload.task_id ?? payload.id;
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
