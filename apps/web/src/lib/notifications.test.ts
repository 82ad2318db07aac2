import { describe, expect, it, vi } from 'vitest';
import {
  notificationTarget,
  registerNotificationWorker,
  urlBase64ToUint8Array,
  WORKER_URL,
} from './notifications.ts';

describe('notifications', () => {
  it('registers the 0.0.113 worker under the app base', async () => {
    const register = vi.fn(async () => ({}) as ServiceWorkerRegistration);
    await registerNotificationWorker({ register } as unknown as ServiceWorkerContainer);
    expect(WORKER_URL).toMatch(/notification-sw\.js\?v=0\.0\.113$/);
    expect(register).toHaveBeenCalledWith(WORKER_URL, { scope: import.meta.env.BASE_URL });
    expect(await registerNotificationWorker(undefined)).toBeNull();
  });

  it('decodes the VAPID key (base64url) into bytes', () => {
    const bytes = new Uint8Array([4, 250, 251, 252, 253, 254, 255, 0, 62, 63]);
    const b64url = Buffer.from(bytes).toString('base64url');
    expect([...urlBase64ToUint8Array(b64url)]).toEqual([...bytes]);
  });

  it('a click with action video-edit and a task id opens the editor', () => {
    expect(notificationTarget({ action: 'video-edit', task_id: 't 1' })).toBe(
      '/video-translation/editor?id=t%201',
    );
    expect(notificationTarget({ action: 'other', task_id: 't' })).toBeNull();
  });
});
