import { onboardingCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { ensureVapidKeys, subscribe, unsubscribe } from './notifications.service.ts';

export function registerNotificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, onboardingCalls.getPushPublicKey, async () => ({
    public_key: (await ensureVapidKeys(ctx)).publicKey,
  }));
  registerCall(
    app,
    onboardingCalls.subscribePush,
    async ({ user, body }) => {
      await subscribe(ctx, user.uid, body);
      return {};
    },
    { rateLimit: { max: 30, timeWindow: '1 minute' } },
  );
  registerCall(app, onboardingCalls.unsubscribePush, async ({ user, body }) => {
    await unsubscribe(ctx, user.uid, body.endpoint);
    return {};
  });
}
