import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ANALYTICS_LIMITS, analyticsEvent, findUnsafeInput, INPUT_LIMITS } from '@vw/contract';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { businessDate, DAY_MS } from '../credits/calendar.ts';
import { getOrCreateSecret } from '../onboarding/app-secrets.ts';
import { findDailyActivity, findTopEvents, insertEvents } from './analytics.repo.ts';

async function analyticsSecret(ctx: AppContext): Promise<string> {
  return getOrCreateSecret(
    ctx.db,
    'analytics_secret',
    () => randomBytes(32).toString('hex'),
    ctx.clock.now(),
  );
}

/**
 * The signing key of one device: HMAC(secret, device id). The browser signs its reports with it;
 * the server derives it again, so nothing per device is stored. It does not make a forged report
 * impossible (the browser holds the key), but binds every report to one device and keeps
 * replays and random posts out.
 */
export async function deviceKey(ctx: AppContext, deviceId: string): Promise<string> {
  return createHmac('sha256', await analyticsSecret(ctx))
    .update(deviceId)
    .digest('hex');
}

export const signReport = (key: string, ts: number, data: string) =>
  createHmac('sha256', key).update(`${ts}.${data}`).digest('hex');

const events = z.array(analyticsEvent);

/**
 * Verifies and stores one report: signature over `${ts}.${data}` with the device key, timestamp
 * within ±10 minutes, at most 100 events and 128 KiB of base64, properties nested at most 8 deep,
 * every event well-formed. A report is
 * stored whole or not at all.
 */
export async function ingestReport(
  ctx: AppContext,
  report: { data: string; sign: string; ts: number; device_id: string },
): Promise<{ accepted: number }> {
  const now = ctx.clock.now();
  if (report.data.length > ANALYTICS_LIMITS.maxEncodedChars) throw AppError.named('err_batch_too_large');
  const expected = Buffer.from(
    signReport(await deviceKey(ctx, report.device_id), report.ts, report.data),
    'hex',
  );
  const given = Buffer.from(report.sign, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw AppError.named('err_signature_invalid');
  if (Math.abs(now - report.ts) > ANALYTICS_LIMITS.maxSkewMs)
    throw AppError.named('err_signature_invalid', '签名已过期，请校准设备时间');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(report.data))
    throw AppError.named('value_error.invalid', 'data 不是 base64');
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(report.data, 'base64').toString('utf8'));
  } catch {
    throw AppError.named('value_error.invalid', 'data 不是 JSON');
  }
  if (Array.isArray(decoded) && decoded.length > ANALYTICS_LIMITS.maxEvents)
    throw AppError.named('err_batch_too_large');
  // Free-form properties: the input rule of every request (well-formed text, no U+0000) with a
  // nesting limit, before anything (zod, JSON.stringify, the database) walks them.
  const unsafe = findUnsafeInput(decoded, INPUT_LIMITS.maxFreeFormDepth + 2);
  if (unsafe) throw AppError.named(unsafe.type);
  const parsed = events.safeParse(decoded);
  if (!parsed.success) throw AppError.named('value_error.invalid', '事件格式不正确');
  await insertEvents(
    ctx.db,
    parsed.data.map((e) => ({
      id: newId('ev'),
      day: businessDate(now),
      event: e.event,
      uid: e.uuid,
      device_id: report.device_id,
      // Contact fields are not kept: the uid identifies a user well enough for the figures.
      props: JSON.stringify(e.props),
      client_time: e.time,
      received_at: now,
    })),
  );
  return { accepted: parsed.data.length };
}

/** Daily active users (and visitors) of the last `days` days, and the most frequent events. */
export async function activityReport(ctx: AppContext, days: number, top = 10) {
  const fromDay = businessDate(ctx.clock.now() - (days - 1) * DAY_MS);
  return {
    daily: (await findDailyActivity(ctx.db, fromDay)).map((r) => ({
      day: r.day,
      users: Number(r.users),
      visitors: Number(r.visitors),
      events: Number(r.events),
    })),
    top: (await findTopEvents(ctx.db, fromDay, top)).map((r) => ({ event: r.event, count: Number(r.n) })),
  };
}
