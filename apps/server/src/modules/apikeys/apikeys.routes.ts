import { apikeysCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import {
  createApiKey,
  findApiKeyViews,
  getApiKeyUsage,
  renameApiKey,
  revokeApiKey,
} from './apikeys.service.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  findWebhookDeliveries,
  findWebhookEndpoints,
  redeliverWebhook,
  testWebhookEndpoint,
} from './webhooks.service.ts';

const write = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/** The owner's management of keys and webhook endpoints (the /api-keys page). */
export function registerApiKeyRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, apikeysCalls.apiKeyList, async ({ user }) => ({
    keys: await findApiKeyViews(ctx, user.uid),
  }));
  registerCall(app, apikeysCalls.apiKeyCreate, ({ user, body }) => createApiKey(ctx, user.uid, body), write);
  registerCall(app, apikeysCalls.apiKeyRename, async ({ user, body }) => ({
    key: await renameApiKey(ctx, user.uid, body.key_id, body.name),
  }));
  registerCall(app, apikeysCalls.apiKeyRevoke, async ({ user, body }) => ({
    key: await revokeApiKey(ctx, user.uid, body.key_id),
  }));
  registerCall(app, apikeysCalls.apiKeyUsage, ({ user, query }) =>
    getApiKeyUsage(ctx, user.uid, query.key_id, query.days),
  );

  registerCall(app, apikeysCalls.webhookList, async ({ user }) => ({
    endpoints: await findWebhookEndpoints(ctx, user.uid),
  }));
  registerCall(
    app,
    apikeysCalls.webhookCreate,
    ({ user, body }) => createWebhookEndpoint(ctx, user.uid, body),
    write,
  );
  registerCall(app, apikeysCalls.webhookDelete, ({ user, body }) =>
    deleteWebhookEndpoint(ctx, user.uid, body.endpoint_id),
  );
  registerCall(app, apikeysCalls.webhookEnable, ({ user, body }) =>
    enableWebhookEndpoint(ctx, user.uid, body.endpoint_id),
  );
  registerCall(
    app,
    apikeysCalls.webhookTest,
    ({ user, body }) => testWebhookEndpoint(ctx, user.uid, body.endpoint_id),
    write,
  );
  registerCall(app, apikeysCalls.webhookDeliveries, ({ user, query }) =>
    findWebhookDeliveries(ctx, user.uid, query),
  );
  registerCall(
    app,
    apikeysCalls.webhookRedeliver,
    ({ user, body }) => redeliverWebhook(ctx, user.uid, body.delivery_id),
    write,
  );
}
