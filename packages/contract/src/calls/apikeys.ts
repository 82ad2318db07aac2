import { z } from 'zod';
import { defineCall } from '../call.ts';
import { WEBHOOK_DELIVERIES_KEPT, WEBHOOK_EVENTS } from '../constants/apikeys.ts';

export * from '../constants/apikeys.ts';

/*
 * API keys and webhook endpoints as the signed-in owner manages them (/api-keys page, issue 8).
 * Times are unix seconds.
 */

export const ApiKeyStatus = z.enum(['active', 'revoked', 'expired']);

export const apiKeyView = z.object({
  key_id: z.string(),
  name: z.string(),
  /** Recognisable part of the key, e.g. 'vwk_Ab12…x9Qz' (the key itself is never shown again). */
  masked_key: z.string(),
  status: ApiKeyStatus,
  /** Credits this key may spend in all; null = no limit beyond the balance. */
  credit_limit: z.number().int().nullable(),
  /** Credits spent (captured) plus held by its running tasks. */
  credits_used: z.number().int(),
  requests: z.number().int(),
  created_time: z.number().int(),
  last_used_time: z.number().int().nullable(),
  expires_time: z.number().int().nullable(),
  revoked_time: z.number().int().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

export const apiKeyList = defineCall({
  operationId: 'apiKeyList',
  method: 'GET',
  path: '/v1/api_keys/list',
  summary: '我的 API 密钥（含用量）',
  tags: ['api-keys'],
  auth: 'user',
  data: z.object({ keys: z.array(apiKeyView) }),
});

const keyName = z.string().trim().min(1).max(50);

export const apiKeyCreate = defineCall({
  operationId: 'apiKeyCreate',
  method: 'POST',
  path: '/v1/api_keys/create',
  summary: '创建 API 密钥；完整密钥只在此应答中出现一次',
  tags: ['api-keys'],
  auth: 'user',
  body: z.object({
    name: keyName,
    credit_limit: z.number().int().min(1).max(1_000_000_000).nullable().optional(),
    /** Unix seconds; must be in the future. */
    expires_time: z.number().int().positive().nullable().optional(),
  }),
  data: z.object({ key: apiKeyView, secret_key: z.string() }),
});

export const apiKeyRename = defineCall({
  operationId: 'apiKeyRename',
  method: 'POST',
  path: '/v1/api_keys/rename',
  summary: '重命名 API 密钥',
  tags: ['api-keys'],
  auth: 'user',
  body: z.object({ key_id: z.string().min(1).max(64), name: keyName }),
  data: z.object({ key: apiKeyView }),
});

export const apiKeyRevoke = defineCall({
  operationId: 'apiKeyRevoke',
  method: 'POST',
  path: '/v1/api_keys/revoke',
  summary: '撤销 API 密钥（立即生效，不可恢复）',
  tags: ['api-keys'],
  auth: 'user',
  body: z.object({ key_id: z.string().min(1).max(64) }),
  data: z.object({ key: apiKeyView }),
});

export const apiKeyUsageDay = z.object({
  /** YYYY-MM-DD */
  day: z.string(),
  requests: z.number().int(),
  characters: z.number().int(),
  credits: z.number().int(),
});
export type ApiKeyUsageDay = z.infer<typeof apiKeyUsageDay>;

export const apiKeyUsage = defineCall({
  operationId: 'apiKeyUsage',
  method: 'GET',
  path: '/v1/api_keys/usage',
  summary: '某个 API 密钥最近若干天的用量（请求数、字数、积分）',
  tags: ['api-keys'],
  auth: 'user',
  query: z.object({
    key_id: z.string().min(1).max(64),
    days: z.coerce.number().int().min(1).max(90).default(30),
  }),
  data: z.object({
    key_id: z.string(),
    days: z.array(apiKeyUsageDay),
    totals: z.object({ requests: z.number().int(), characters: z.number().int(), credits: z.number().int() }),
  }),
});

// ---------------------------------------------------------------- webhooks

export const WebhookEventName = z.enum(WEBHOOK_EVENTS);

export const webhookView = z.object({
  endpoint_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  status: z.enum(['active', 'disabled']),
  consecutive_failures: z.number().int(),
  /** Outcome of the latest delivery: 'succeeded' | 'failed' | 'retrying', null before any. */
  last_status: z.string().nullable(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_delivery_time: z.number().int().nullable(),
  disabled_time: z.number().int().nullable(),
  created_time: z.number().int(),
});
export type WebhookView = z.infer<typeof webhookView>;

export const webhookList = defineCall({
  operationId: 'webhookList',
  method: 'GET',
  path: '/v1/webhooks/list',
  summary: '我的 Webhook 地址',
  tags: ['api-keys'],
  auth: 'user',
  data: z.object({ endpoints: z.array(webhookView) }),
});

export const webhookCreate = defineCall({
  operationId: 'webhookCreate',
  method: 'POST',
  path: '/v1/webhooks/create',
  summary: '添加 Webhook 地址（HTTPS）；签名密钥只在此应答中出现一次',
  tags: ['api-keys'],
  auth: 'user',
  body: z.object({
    url: z.string().trim().min(1).max(500),
    events: z
      .array(WebhookEventName)
      .min(1)
      .default([...WEBHOOK_EVENTS]),
  }),
  data: z.object({ endpoint: webhookView, secret: z.string() }),
});

const endpointRef = z.object({ endpoint_id: z.string().min(1).max(64) });

export const webhookDelete = defineCall({
  operationId: 'webhookDelete',
  method: 'POST',
  path: '/v1/webhooks/delete',
  summary: '删除 Webhook 地址',
  tags: ['api-keys'],
  auth: 'user',
  body: endpointRef,
  data: z.object({ deleted: z.boolean() }),
});

export const webhookEnable = defineCall({
  operationId: 'webhookEnable',
  method: 'POST',
  path: '/v1/webhooks/enable',
  summary: '重新启用因连续失败而停用的 Webhook 地址',
  tags: ['api-keys'],
  auth: 'user',
  body: endpointRef,
  data: z.object({ endpoint: webhookView }),
});

export const webhookDeliveryView = z.object({
  delivery_id: z.string(),
  endpoint_id: z.string(),
  /** 'task.succeeded' | 'task.failed' | 'ping' */
  event: z.string(),
  /** pending: queued or waiting for its next retry; succeeded / failed: done. */
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  /** The JSON body that was signed and sent, as sent. */
  payload: z.string(),
  created_time: z.number().int(),
  updated_time: z.number().int(),
  /** When the next retry is due; null once done. */
  next_attempt_time: z.number().int().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliveryView>;

/** What a delivery sent now answers (the test ping, a redelivery). */
const sentNow = {
  delivered: z.boolean(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  endpoint: webhookView,
  delivery: webhookDeliveryView,
};

export const webhookTest = defineCall({
  operationId: 'webhookTest',
  method: 'POST',
  path: '/v1/webhooks/test',
  summary: '向 Webhook 地址发送一次签名的测试事件（ping），应答对方的状态码',
  tags: ['api-keys'],
  auth: 'user',
  body: endpointRef,
  data: z.object(sentNow),
});

export const webhookDeliveries = defineCall({
  operationId: 'webhookDeliveries',
  method: 'GET',
  path: '/v1/webhooks/deliveries',
  summary: `某个 Webhook 地址的投递记录（分页，新的在前；每个地址保留最近 ${WEBHOOK_DELIVERIES_KEPT} 条）`,
  tags: ['api-keys'],
  auth: 'user',
  query: endpointRef.extend({
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  data: z.object({ total: z.number().int(), list: z.array(webhookDeliveryView) }),
});

export const webhookRedeliver = defineCall({
  operationId: 'webhookRedeliver',
  method: 'POST',
  path: '/v1/webhooks/redeliver',
  summary: '立即重新投递某条记录的事件（新的投递编号，重新签名），应答对方的状态码；已停用的地址不可重新投递',
  tags: ['api-keys'],
  auth: 'user',
  body: z.object({ delivery_id: z.string().min(1).max(64) }),
  data: z.object(sentNow),
});
