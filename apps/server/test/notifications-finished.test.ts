import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import webpush from 'web-push';
import { upsertSubscription } from '../src/modules/notifications/notifications.repo.ts';
import { pushLongTaskFinished } from '../src/modules/notifications/notifications.service.ts';
import { professionalClonePipeline } from '../src/modules/voice-clone/professional.pipeline.ts';
import { createTestServer, signIn, type TestServer, taskRow } from './harness.ts';

describe('the "long task finished" push', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server.close();
  });

  it('is sent for a long task, but not for a pipeline that tells its owner itself (professional cloning)', async () => {
    const uid = (await signIn(server.app, '13900000611')).user_info.uid;
    await upsertSubscription(server.ctx.db, {
      endpoint: 'https://push.example.com/sub/1',
      user_id: uid,
      // A P-256 public key and an auth secret shaped as browsers send them.
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
      created_at: server.clock.now(),
    });
    const sent = vi
      .spyOn(webpush, 'sendNotification')
      .mockResolvedValue({ statusCode: 201, body: '', headers: {} });
    const at = server.clock.now();
    const long = { started_at: at - 5 * 60_000, status: 'succeeded' as const, finished_at: at };

    await pushLongTaskFinished({
      app: server.ctx,
      task: taskRow(uid, at, { id: 'tk_long_stt', ...long }),
      pipeline: undefined,
      at,
    });
    expect(sent).toHaveBeenCalledTimes(1);

    await pushLongTaskFinished({
      app: server.ctx,
      task: taskRow(uid, at, { id: 'tk_long_clone', tool: 'voice_clone', ...long }),
      pipeline: professionalClonePipeline as never,
      at,
    });
    expect(sent).toHaveBeenCalledTimes(1);
  });
});
