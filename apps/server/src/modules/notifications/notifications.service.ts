import webpush from 'web-push';
import { mayBePublicHost, publicOnlyHttpsAgent } from '../../adapters/http/outbound.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { TaskFinished } from '../../tasks/finished.ts';
import { getOrCreateSecret } from '../onboarding/app-secrets.ts';
import {
  deleteEndpoint,
  deleteSubscription,
  findSubscriptionsOfUser,
  upsertSubscription,
} from './notifications.repo.ts';

/** Push services want a contact: the https site, else the sender address of the mail settings. */
export function vapidSubject(mailFrom: string, publicUrl: string): string {
  if (publicUrl.startsWith('https://')) return publicUrl;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The VAPID key pair, created on first start and kept in the database (all processes share it). */
export async function ensureVapidKeys(ctx: AppContext): Promise<VapidKeys> {
  const raw = await getOrCreateSecret(
    ctx.db,
    'vapid_keys',
    () => JSON.stringify(webpush.generateVAPIDKeys()),
    ctx.clock.now(),
  );
  return JSON.parse(raw) as VapidKeys;
}

/**
 * The server later connects to a push endpoint the browser (or anyone with a token) gave, so it gets
 * the webhooks' guard: HTTPS, and in production nothing but public internet addresses (checked here
 * for literal addresses and loopback names, and again when connecting).
 */
export function checkPushEndpoint(raw: string, isProduction: boolean): void {
  const url = new URL(raw);
  if (url.protocol !== 'https:' || url.username || url.password)
    throw AppError.named('err_invalid_param', '推送地址须为 HTTPS 地址');
  if (isProduction && !mayBePublicHost(url))
    throw AppError.named('err_invalid_param', '推送地址不能是内网地址');
}

export async function subscribe(
  ctx: AppContext,
  userId: string,
  sub: { endpoint: string; keys: { p256dh: string; auth: string } },
): Promise<void> {
  checkPushEndpoint(sub.endpoint, ctx.config.isProduction);
  await upsertSubscription(ctx.db, {
    endpoint: sub.endpoint,
    user_id: userId,
    p256dh: sub.keys.p256dh,
    auth: sub.keys.auth,
    created_at: ctx.clock.now(),
  });
}

export const unsubscribe = (ctx: AppContext, userId: string, endpoint: string) =>
  deleteSubscription(ctx.db, userId, endpoint);

/** What the service worker shows; `action` + `task_id` decide where a click leads. */
export interface PushMessage {
  title: string;
  body: string;
  action?: 'video-edit';
  task_id?: string;
  /** The editor project of a video task (the editor opens by project id). */
  project_id?: string | null;
}

/**
 * Sends a message to every browser the user allowed notifications in. Endpoints the push service
 * reports gone (404/410) are removed; other failures are logged and counted, never thrown, so a
 * finished task is never failed by its notification.
 */
export async function notifyUser(
  ctx: AppContext,
  userId: string,
  message: PushMessage,
): Promise<{ sent: number; failed: number }> {
  const subs = await findSubscriptionsOfUser(ctx.db, userId);
  if (subs.length === 0) return { sent: 0, failed: 0 };
  const keys = await ensureVapidKeys(ctx);
  const vapidDetails = {
    subject: ctx.config.VAPID_SUBJECT ?? vapidSubject(ctx.config.MAIL_FROM, ctx.config.publicUrl),
    publicKey: keys.publicKey,
    privateKey: keys.privateKey,
  };
  let sent = 0;
  let failed = 0;
  const isProduction = ctx.config.isProduction;
  for (const sub of subs) {
    try {
      // Subscriptions from before the guard are checked again; production connects to public addresses only.
      checkPushEndpoint(sub.endpoint, isProduction);
      await webpush.sendNotification(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        JSON.stringify(message),
        {
          vapidDetails,
          TTL: 24 * 3600,
          timeout: 10_000,
          ...(isProduction ? { agent: publicOnlyHttpsAgent } : {}),
        },
      );
      sent++;
    } catch (err) {
      failed++;
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 404 || status === 410 || err instanceof AppError)
        await deleteEndpoint(ctx.db, sub.endpoint);
      else ctx.log.warn({ status, userId, err: (err as Error).message }, 'web push failed');
    }
  }
  return { sent, failed };
}

/** Tools whose results open in the video editor (design §10): their notification leads there. */
const EDITOR_TOOLS = new Set([
  'stt',
  'ocr',
  'erase',
  'watermark',
  'dubbing',
  'srt_dubbing',
  'synthesis',
  'translate',
]);

/**
 * A long task finished: a video tool's notification carries `video-edit` with the task id and its
 * project id (the editor opens by project id); other tools just say it finished.
 */
export function taskFinishedMessage(task: {
  id: string;
  name: string;
  tool?: string;
  projectId?: string | null;
  failed?: boolean;
}): PushMessage {
  return {
    title: task.failed ? '任务失败' : '任务已完成',
    body: task.failed ? `「${task.name}」处理失败，积分已退还` : `「${task.name}」已处理完成，点击查看`,
    ...(task.tool === undefined || EDITOR_TOOLS.has(task.tool)
      ? { action: 'video-edit' as const, task_id: task.id, project_id: task.projectId ?? null }
      : { task_id: task.id }),
  };
}

export const notifyTaskFinished = (
  ctx: AppContext,
  userId: string,
  task: Parameters<typeof taskFinishedMessage>[0],
) => notifyUser(ctx, userId, taskFinishedMessage(task));

/** Tasks that ran longer than this tell their owner by Web Push when they finish. */
const PUSH_AFTER_MS = 60_000;

/** Task-finished listener: Web Push for a task that ran longer than a minute (none for a cancel). */
export async function pushLongTaskFinished({ app, task, pipeline, at }: TaskFinished): Promise<void> {
  if (task.status === 'cancelled' || task.started_at === null || at - task.started_at <= PUSH_AFTER_MS)
    return;
  if (pipeline?.notifiesOwner) return;
  await notifyTaskFinished(app, task.owner_id, {
    id: task.id,
    name: task.title,
    tool: task.tool,
    projectId: task.project_id,
    failed: task.status === 'failed',
  }).catch((err) => app.log.warn({ err, taskId: task.id }, 'task push failed'));
}
