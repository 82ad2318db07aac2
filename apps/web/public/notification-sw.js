/* Notification service worker (spec §7, §9). Shows Web Push messages; a click with action
 * video-edit and a task id opens the video translation editor. Talks to pages through a message
 * channel (version handshake, click forwarding) and a broadcast channel (every open tab). */
const VERSION = '0.0.113';
const CHANNEL = 'vw-notifications';
const BASE = new URL('./', self.location.href).pathname;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function broadcast(message) {
  try {
    const bc = new BroadcastChannel(CHANNEL);
    bc.postMessage(message);
    bc.close();
  } catch {
    // no BroadcastChannel: the message channel still reaches the focused page
  }
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: '声音工作台', body: event.data ? event.data.text() : '' };
  }
  broadcast({ type: 'push', payload: data });
  event.waitUntil(
    self.registration.showNotification(data.title || '声音工作台', {
      body: data.body || '',
      icon: `${BASE}favicon.svg`,
      tag: data.task_id ? `task-${data.task_id}` : undefined,
      data: { action: data.action, task_id: data.task_id, project_id: data.project_id },
    }),
  );
});

function targetOf(payload) {
  // The editor opens by project id (the task id only for messages from before it was sent).
  const id = payload && (payload.project_id || payload.task_id);
  if (payload && payload.action === 'video-edit' && id) {
    return `${BASE}video-translation/editor?id=${encodeURIComponent(id)}`;
  }
  return BASE;
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const payload = event.notification.data || {};
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const client = windows.find((c) => c.url.includes(BASE));
      if (client) {
        await client.focus();
        // The page navigates inside the app (no reload).
        client.postMessage({ type: 'notification-click', payload });
        return;
      }
      await self.clients.openWindow(targetOf(payload));
    })(),
  );
});

// Message channel: a page asks for the version (and whether it is in control).
self.addEventListener('message', (event) => {
  const port = event.ports?.[0];
  if (event.data?.type === 'version' && port) port.postMessage({ type: 'version', version: VERSION });
  if (event.data?.type === 'broadcast') broadcast(event.data.message);
});
