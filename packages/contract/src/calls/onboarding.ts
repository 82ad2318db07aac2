import { z } from 'zod';
import { defineCall } from '../call.ts';

import { ANALYTICS_LIMITS } from '../constants/onboarding.ts';

export * from '../constants/onboarding.ts';

// ——— Persona questionnaire (spec §3, §4 onboarding, §7) ———

export const questionOption = z.object({
  id: z.number().int(),
  content: z.string(),
  /** Optional icon URL. */
  icon: z.string().optional(),
});

export const question = z.object({
  id: z.number().int(),
  question_content: z.string(),
  /** 2 multiple choice, anything else single choice. */
  select_type: z.number().int(),
  question_options: z.array(questionOption),
});
export type Question = z.infer<typeof question>;

export const getUserPersonaQuestionnaire = defineCall({
  operationId: 'getUserPersonaQuestionnaire',
  method: 'GET',
  path: '/v1/user/get_user_persona_questionnaire',
  summary: '首次登录的用户画像问卷',
  tags: ['onboarding'],
  auth: 'user',
  data: z.object({ questionnaire: z.array(question) }),
});

const answer = z.object({
  id: z.number().int(),
  answer: z.array(z.object({ id: z.number().int() })).max(50),
});

export const submitUserPersonaQuestionnaire = defineCall({
  operationId: 'submitUserPersonaQuestionnaire',
  method: 'POST',
  path: '/v1/user/submit_user_persona_questionnaire',
  summary: '提交问卷（首次提交赠送 3 天会员体验）；1002 已提交，4001 问卷不可用',
  tags: ['onboarding'],
  auth: 'user',
  body: z.object({ questionnaire: z.array(answer).min(1).max(50) }),
  data: z.object({
    /** False when the user already had a paid plan in force: answers are kept, no trial. */
    trial_granted: z.boolean(),
    /** unix seconds; 0 without a trial */
    trial_expire_time: z.number().int(),
  }),
});

// ——— Analytics ingest (spec §7 analytics) ———

export const reportAnalytics = defineCall({
  operationId: 'reportAnalytics',
  method: 'POST',
  path: '/v1/analytics/report',
  summary: `上报埋点：base64 编码的 JSON 事件列表（最多 ${ANALYTICS_LIMITS.maxEvents} 条），附 HMAC-SHA256 签名（密钥由 get_key 按设备下发）`,
  tags: ['analytics'],
  auth: 'public',
  body: z.object({
    /** base64 of a UTF-8 JSON array of events */
    data: z.string().min(1),
    /** hex HMAC-SHA256 of `data` with the device's analytics key */
    sign: z.string().regex(/^[0-9a-f]{64}$/),
    /** unix milliseconds when the batch was signed (signed too: `${ts}.${data}`) */
    ts: z.number().int(),
    /** the browser's u_device_id (in the body: sendBeacon cannot set headers) */
    device_id: z.string().min(1).max(128),
  }),
  data: z.object({ accepted: z.number().int() }),
});

export const getAnalyticsKey = defineCall({
  operationId: 'getAnalyticsKey',
  method: 'GET',
  path: '/v1/analytics/get_key',
  summary: '当前设备（x-device-id）的埋点签名密钥',
  tags: ['analytics'],
  auth: 'public',
  data: z.object({ key: z.string() }),
});

/** One event inside a report (after base64 and JSON decoding). */
export const analyticsEvent = z.object({
  event: z.string().min(1).max(64),
  uuid: z.string().max(128).optional().default(''),
  phone: z.string().max(32).optional().default(''),
  email: z.string().max(128).optional().default(''),
  /** unix milliseconds on the client */
  time: z.number().int(),
  props: z.record(z.string(), z.unknown()).optional().default({}),
});
export type AnalyticsEvent = z.input<typeof analyticsEvent>;

// ——— Web Push notifications (spec §7 service worker) ———

export const getPushPublicKey = defineCall({
  operationId: 'getPushPublicKey',
  method: 'GET',
  path: '/v1/notifications/vapid_public_key',
  summary: 'Web Push 的 VAPID 公钥（首次启动时生成并保存）',
  tags: ['notifications'],
  auth: 'public',
  data: z.object({ public_key: z.string() }),
});

export const pushSubscription = z.object({
  endpoint: z.url().max(1024),
  keys: z.object({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(64) }),
});

export const subscribePush = defineCall({
  operationId: 'subscribePush',
  method: 'POST',
  path: '/v1/notifications/subscribe',
  summary: '保存当前浏览器的推送订阅（任务完成通知）',
  tags: ['notifications'],
  auth: 'user',
  body: pushSubscription,
  data: z.object({}),
});

export const unsubscribePush = defineCall({
  operationId: 'unsubscribePush',
  method: 'POST',
  path: '/v1/notifications/unsubscribe',
  summary: '删除当前浏览器的推送订阅',
  tags: ['notifications'],
  auth: 'user',
  body: z.object({ endpoint: z.url().max(1024) }),
  data: z.object({}),
});
