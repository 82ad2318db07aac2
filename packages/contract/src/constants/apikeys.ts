/**
 * Plain API key and public API constants, free of zod so the web bundle can import them directly
 * (`@vw/contract/constants/apikeys.ts`); calls/apikeys.ts and calls/public-api.ts build on them.
 */

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'vwk_';
/** Random part (base62) and checksum (base62 CRC32) lengths: vwk_ + 32 + 6 characters. */
export const API_KEY_RANDOM_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH + API_KEY_CHECKSUM_LENGTH;

/** Keys per account (revoked ones included, until deleted). */
export const MAX_API_KEYS = 20;
export const MAX_WEBHOOK_ENDPOINTS = 10;

/** Where the public API lives; OpenAI SDK clients take `${origin}${PUBLIC_API_BASE}` as base URL. */
export const PUBLIC_API_BASE = '/api/v1';
export const PUBLIC_API_DOCS_PATH = '/api/docs';
export const PUBLIC_API_OPENAPI_PATH = '/api/v1/openapi.json';
export const API_KEY_HEADER = 'x-api-key';

/** Public API requests running at once per account, by plan level (the highest level ≤ the user's). */
export const PUBLIC_API_CONCURRENCY_BY_LEVEL: Record<number, number> = {
  100: 2,
  200: 4,
  300: 8,
  400: 16,
};
export function publicApiConcurrency(level: number): number {
  const levels = Object.keys(PUBLIC_API_CONCURRENCY_BY_LEVEL)
    .map(Number)
    .sort((a, b) => a - b);
  const at = levels.filter((l) => l <= level).pop() ?? levels[0];
  return PUBLIC_API_CONCURRENCY_BY_LEVEL[at];
}

/** Standard rate-limit headers (IETF draft RateLimit header fields) plus Retry-After on 429. */
export const RATE_LIMIT_HEADERS = {
  limit: 'ratelimit-limit',
  remaining: 'ratelimit-remaining',
  reset: 'ratelimit-reset',
  retryAfter: 'retry-after',
} as const;

/** Webhook events a user can subscribe to. */
export const WEBHOOK_EVENTS = ['task.succeeded', 'task.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number] | 'ping';
export const webhookEventNames: Record<string, string> = {
  'task.succeeded': '任务成功',
  'task.failed': '任务失败',
  ping: '测试',
};

/**
 * Deliveries carry `x-vw-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`;
 * a receiver recomputes it and refuses timestamps older than a few minutes (replays).
 */
export const WEBHOOK_HEADERS = {
  signature: 'x-vw-signature',
  event: 'x-vw-event',
  delivery: 'x-vw-delivery',
} as const;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Deliveries kept per endpoint for its delivery log (older finished ones are deleted). */
export const WEBHOOK_DELIVERIES_KEPT = 200;
