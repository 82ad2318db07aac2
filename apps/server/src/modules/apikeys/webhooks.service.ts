import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_HEADERS,
  WEBHOOK_SECRET_PREFIX,
  type WebhookDeliveryView,
  type WebhookEvent,
  type WebhookView,
} from '@vw/contract';
import { z } from 'zod';
import { isPublicAddress, postOnce } from '../../adapters/http/outbound.ts';
import type { AppContext } from '../../context.ts';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId, newOrderedId } from '../../ids.ts';
import { defineJob } from '../../jobs/index.ts';
import type { TaskFinished } from '../../tasks/finished.ts';
import { limitAccount } from '../accounts/account-limits.ts';
import { randomBase62 } from './keys.ts';
import { findDeliveryForOwner, findDeliveryPage, insertDelivery } from './webhooks.repo.ts';

type Ctx = Pick<AppContext, 'db' | 'clock' | 'log' | 'config' | 'jobs'>;
const sec = (ms: number | null) => (ms == null ? null : Math.floor(ms / 1000));

function toView(row: WebhookEndpointRow): WebhookView {
  return {
    endpoint_id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    status: row.status,
    consecutive_failures: row.consecutive_failures,
    last_status: row.last_status,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_delivery_time: sec(row.last_delivery_at),
    disabled_time: sec(row.disabled_at),
    created_time: sec(row.created_at)!,
  };
}

function toDeliveryView(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    delivery_id: row.id,
    endpoint_id: row.endpoint_id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    payload: row.payload,
    created_time: sec(row.created_at)!,
    updated_time: sec(row.updated_at)!,
    next_attempt_time: sec(row.next_attempt_at),
  };
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;

/**
 * HTTPS only. Outside production a loopback http:// address is allowed so a developer can receive
 * events locally; in production a literal address that is not public is refused here, and a name
 * that resolves to one is refused when a delivery connects (see postOnce).
 */
export function checkWebhookUrl(raw: string, isProduction: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw AppError.named('err_webhook_url_invalid');
  }
  const host = url.hostname;
  const loopback = LOOPBACK.test(host);
  if (url.username || url.password)
    throw AppError.named('err_webhook_url_invalid', 'Webhook 地址不能包含账号密码');
  if (url.protocol === 'https:') {
    const bare = host.replace(/^\[|\]$/g, '');
    if (isProduction && (loopback || (isIP(bare) !== 0 && !isPublicAddress(bare))))
      throw AppError.named('err_webhook_url_invalid', 'Webhook 地址不能是内网地址');
    return url.toString();
  }
  if (url.protocol === 'http:' && loopback && !isProduction) return url.toString();
  throw AppError.named('err_webhook_url_invalid');
}

async function getOwnEndpoint(ctx: Ctx, userId: string, id: string): Promise<WebhookEndpointRow> {
  const row = await ctx.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw AppError.named('err_not_found');
  return row;
}

export async function findWebhookEndpoints(ctx: Ctx, userId: string): Promise<WebhookView[]> {
  const rows = await ctx.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(toView);
}

/** Adds an endpoint; its signing secret is answered once (it stays readable only to the signer). */
export async function createWebhookEndpoint(
  ctx: Ctx,
  userId: string,
  input: { url: string; events: string[] },
): Promise<{ endpoint: WebhookView; secret: string }> {
  const url = checkWebhookUrl(input.url, ctx.config.isProduction);
  const count = await ctx.db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_WEBHOOK_ENDPOINTS) throw AppError.named('err_webhook_limit_reached');
  const row: WebhookEndpointRow = {
    id: newId('whe'),
    user_id: userId,
    url,
    secret: `${WEBHOOK_SECRET_PREFIX}${randomBase62(32)}`,
    events: JSON.stringify([...new Set(input.events)]),
    status: 'active',
    consecutive_failures: 0,
    last_status: null,
    last_status_code: null,
    last_error: null,
    last_delivery_at: null,
    disabled_at: null,
    created_at: ctx.clock.now(),
  };
  await ctx.db.insertInto('webhook_endpoints').values(row).execute();
  return { endpoint: toView(row), secret: row.secret };
}

export async function deleteWebhookEndpoint(ctx: Ctx, userId: string, id: string) {
  await getOwnEndpoint(ctx, userId, id);
  await ctx.db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
  await ctx.db.deleteFrom('webhook_endpoints').where('id', '=', id).where('user_id', '=', userId).execute();
  return { deleted: true };
}

export async function enableWebhookEndpoint(ctx: Ctx, userId: string, id: string) {
  await getOwnEndpoint(ctx, userId, id);
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({ status: 'active', consecutive_failures: 0, disabled_at: null })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
  return { endpoint: toView(await getOwnEndpoint(ctx, userId, id)) };
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (a receiver recomputes it). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * One signed POST; redirects are not followed (the address is what the owner registered). In
 * production it connects only to public internet addresses.
 */
async function send(
  ctx: Ctx,
  endpoint: WebhookEndpointRow,
  delivery: WebhookDeliveryRow,
): Promise<SendResult> {
  const t = Math.floor(ctx.clock.now() / 1000);
  try {
    const { status } = await postOnce(endpoint.url, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'VoiceWorkbench-Webhooks/1',
        [WEBHOOK_HEADERS.signature]: signWebhook(endpoint.secret, t, delivery.payload),
        [WEBHOOK_HEADERS.event]: delivery.event,
        [WEBHOOK_HEADERS.delivery]: delivery.id,
      },
      body: delivery.payload,
      timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
      publicOnly: ctx.config.isProduction,
    });
    const ok = status >= 200 && status < 300;
    return { ok, statusCode: status, error: ok ? null : `HTTP ${status}` };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // The time limit is the only thing that aborts a delivery.
    const error = e.name === 'AbortError' ? 'ETIMEDOUT' : (e.code ?? e.name ?? 'error');
    return { ok: false, statusCode: null, error: error.slice(0, 200) };
  }
}

function newDelivery(endpoint: WebhookEndpointRow, event: WebhookEvent, data: unknown, now: number) {
  // Ordered ids: deliveries recorded in the same millisecond still list in the order they were made.
  const id = newOrderedId('whd');
  const row: WebhookDeliveryRow = {
    id,
    endpoint_id: endpoint.id,
    user_id: endpoint.user_id,
    event,
    payload: JSON.stringify({ id, event, created: Math.floor(now / 1000), data }),
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    last_status_code: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
  return row;
}

/** Delay before retry n (1-based): base, 2×base, 4×base… */
export function retryDelay(base: number, attempt: number): number {
  return base * 2 ** Math.max(0, attempt - 1);
}

/**
 * One delivery attempt. Success resets the endpoint's failure count. A failure schedules the next
 * attempt with exponential backoff until WEBHOOK_MAX_ATTEMPTS; a delivery that used them all counts
 * as one failure of the endpoint, and WEBHOOK_DISABLE_AFTER failures in a row disable it.
 */
export async function attemptDelivery(ctx: Ctx, deliveryId: string): Promise<WebhookDeliveryRow['status']> {
  const delivery = await ctx.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (delivery?.status !== 'pending') return delivery?.status ?? 'failed';
  const endpoint = await ctx.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', delivery.endpoint_id)
    .executeTakeFirst();
  const now = () => ctx.clock.now();
  if (endpoint?.status !== 'active') {
    await ctx.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: 'endpoint disabled', next_attempt_at: null, updated_at: now() })
      .where('id', '=', deliveryId)
      .execute();
    return 'failed';
  }
  const result = await send(ctx, endpoint, delivery);
  const attempts = delivery.attempts + 1;
  const { WEBHOOK_MAX_ATTEMPTS: maxAttempts, WEBHOOK_DISABLE_AFTER: disableAfter } = ctx.config;
  const status: WebhookDeliveryRow['status'] = result.ok
    ? 'succeeded'
    : attempts >= maxAttempts
      ? 'failed'
      : 'pending';
  const delay = status === 'pending' ? retryDelay(ctx.config.WEBHOOK_RETRY_BASE_MS, attempts) : 0;
  await ctx.db
    .updateTable('webhook_deliveries')
    .set({
      status,
      attempts,
      last_status_code: result.statusCode,
      last_error: result.error,
      next_attempt_at: status === 'pending' ? now() + delay : null,
      updated_at: now(),
    })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .execute();
  const failures = result.ok
    ? 0
    : status === 'failed'
      ? endpoint.consecutive_failures + 1
      : endpoint.consecutive_failures;
  const disable = failures >= disableAfter;
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({
      last_status: result.ok ? 'succeeded' : status === 'failed' ? 'failed' : 'retrying',
      last_status_code: result.statusCode,
      last_error: result.error,
      last_delivery_at: now(),
      consecutive_failures: failures,
      ...(disable ? { status: 'disabled' as const, disabled_at: now() } : {}),
    })
    .where('id', '=', endpoint.id)
    .execute();
  if (status === 'pending') {
    await ctx.jobs.enqueue(
      webhookDeliveryJob,
      { delivery_id: deliveryId },
      { ownerId: delivery.user_id, delayMs: delay, idempotencyKey: `whd:${deliveryId}:${attempts}` },
    );
  }
  return status;
}

export const webhookDeliveryJob = defineJob({
  name: 'webhooks.deliver',
  payload: z.object({ delivery_id: z.string() }),
  // Delivery failures are retried by attemptDelivery itself; these attempts cover a crashed worker.
  maxAttempts: 3,
  backoffMs: 5_000,
  async handler({ delivery_id }, job) {
    return { status: await attemptDelivery(job.app, delivery_id) };
  },
});

/**
 * A task started through an API key finished: one delivery per subscribed endpoint of its owner,
 * each sent by the `webhooks.deliver` job. Never throws: the task's outcome is recorded already.
 */
export async function emitTaskWebhook(
  ctx: Ctx,
  task: { id: string; owner_id: string; api_key_id: string | null },
  event: 'task.succeeded' | 'task.failed',
  data: Record<string, unknown>,
): Promise<void> {
  if (!task.api_key_id) return;
  try {
    const endpoints = await ctx.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('user_id', '=', task.owner_id)
      .where('status', '=', 'active')
      .execute();
    const now = ctx.clock.now();
    for (const endpoint of endpoints) {
      if (!(JSON.parse(endpoint.events) as string[]).includes(event)) continue;
      const delivery = newDelivery(endpoint, event, data, now);
      await insertDelivery(ctx.db, delivery);
      await ctx.jobs.enqueue(
        webhookDeliveryJob,
        { delivery_id: delivery.id },
        { ownerId: task.owner_id, idempotencyKey: `whd:${delivery.id}:0` },
      );
    }
  } catch (err) {
    ctx.log.error({ err, task: task.id }, 'could not queue webhook deliveries');
  }
}

/** Task-finished listener: the webhook event of a task an API key started (none for a cancel). */
export async function sendTaskWebhooks({ app, task, pipeline }: TaskFinished): Promise<void> {
  if (!task.api_key_id || task.status === 'cancelled') return;
  await emitTaskWebhook(app, task, task.status === 'succeeded' ? 'task.succeeded' : 'task.failed', {
    task_id: task.id,
    tool: task.tool,
    status: task.status,
    api_key_id: task.api_key_id,
    credits: task.credits_captured,
    failure_code: task.status === 'failed' ? task.error_code : null,
    error: task.status === 'failed' ? task.error : null,
    ...(await pipeline?.webhookData?.(app, task).catch(() => ({}))),
  });
}

/**
 * Sends a new delivery once, now, and records its outcome (no retries: the owner is watching and
 * can send again). The test ping and a redelivery both come this way.
 */
async function deliverNow(ctx: Ctx, endpoint: WebhookEndpointRow, event: WebhookEvent, data: unknown) {
  const delivery = newDelivery(endpoint, event, data, ctx.clock.now());
  const result = await send(ctx, endpoint, delivery);
  const now = ctx.clock.now();
  const status = result.ok ? 'succeeded' : 'failed';
  const recorded: WebhookDeliveryRow = {
    ...delivery,
    status,
    attempts: 1,
    next_attempt_at: null,
    last_status_code: result.statusCode,
    last_error: result.error,
    updated_at: now,
  };
  await insertDelivery(ctx.db, recorded);
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({
      last_status: status,
      last_status_code: result.statusCode,
      last_error: result.error,
      last_delivery_at: now,
    })
    .where('id', '=', endpoint.id)
    .execute();
  return {
    delivered: result.ok,
    status_code: result.statusCode,
    error: result.error,
    endpoint: toView(await getOwnEndpoint(ctx, endpoint.user_id, endpoint.id)),
    delivery: toDeliveryView(recorded),
  };
}

/** A signed `ping` sent once, now, so the owner can check the receiver (recorded as a delivery). */
export async function testWebhookEndpoint(
  ctx: Ctx & Pick<AppContext, 'accountLimits'>,
  userId: string,
  id: string,
) {
  const endpoint = await getOwnEndpoint(ctx, userId, id);
  await limitAccount(ctx, userId, 'webhook_tests');
  return deliverNow(ctx, endpoint, 'ping', { endpoint_id: endpoint.id });
}

/** The owner's delivery log of one endpoint, newest first. */
export async function findWebhookDeliveries(
  ctx: Ctx,
  userId: string,
  query: { endpoint_id: string; page: number; page_size: number },
) {
  await getOwnEndpoint(ctx, userId, query.endpoint_id);
  const { total, rows } = await findDeliveryPage(
    ctx.db,
    userId,
    query.endpoint_id,
    query.page,
    query.page_size,
  );
  return { total, list: rows.map(toDeliveryView) };
}

/**
 * Sends a recorded delivery's event again, now, as a new delivery (new id, freshly signed, the same
 * event and data). A disabled endpoint is refused rather than recorded as one more failure.
 */
export async function redeliverWebhook(
  ctx: Ctx & Pick<AppContext, 'accountLimits'>,
  userId: string,
  deliveryId: string,
) {
  const original = await findDeliveryForOwner(ctx.db, userId, deliveryId);
  if (!original) throw AppError.named('err_not_found');
  const endpoint = await getOwnEndpoint(ctx, userId, original.endpoint_id);
  if (endpoint.status !== 'active') throw AppError.named('err_webhook_endpoint_disabled');
  // A resend is a request to the owner's address on demand, like a test: the same limit.
  await limitAccount(ctx, userId, 'webhook_tests');
  const { data } = JSON.parse(original.payload) as { data: unknown };
  return deliverNow(ctx, endpoint, original.event as WebhookEvent, data);
}
