import { type ApiKeyView, MAX_API_KEYS } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import type { ApiKeyRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { isAccountActive } from '../accounts/accounts.service.ts';
import { businessDate } from '../credits/calendar.ts';
import {
  countApiKeys,
  findApiKeyByHash,
  findApiKeyForOwner,
  findApiKeys,
  findKeyHoldsSince,
  findUsageDays,
  insertApiKey,
  sumCreditsByKey,
  sumRequestsByKey,
  updateApiKey,
} from './apikeys.repo.ts';
import { generateApiKey, hashApiKey, isWellFormedApiKey, keyParts, maskKey } from './keys.ts';
import { usageMeter } from './metering.ts';

const sec = (ms: number | null) => (ms == null ? null : Math.floor(ms / 1000));

function statusOf(row: Pick<ApiKeyRow, 'revoked_at' | 'expires_at'>, now: number): ApiKeyView['status'] {
  if (row.revoked_at != null) return 'revoked';
  if (row.expires_at != null && row.expires_at <= now) return 'expired';
  return 'active';
}

function toView(row: ApiKeyRow, now: number, creditsUsed: number, requests: number): ApiKeyView {
  return {
    key_id: row.id,
    name: row.name,
    masked_key: maskKey(row.prefix, row.last4),
    status: statusOf(row, now),
    credit_limit: row.credit_limit,
    credits_used: creditsUsed,
    requests,
    created_time: sec(row.created_at)!,
    last_used_time: sec(row.last_used_at),
    expires_time: sec(row.expires_at),
    revoked_time: sec(row.revoked_at),
  };
}

async function viewOf(ctx: AppContext, userId: string, row: ApiKeyRow): Promise<ApiKeyView> {
  await usageMeter(ctx).flush();
  const [credits, requests] = await Promise.all([
    sumCreditsByKey(ctx.db, userId),
    sumRequestsByKey(ctx.db, userId),
  ]);
  return toView(row, ctx.clock.now(), credits.get(row.id) ?? 0, requests.get(row.id) ?? 0);
}

export async function findApiKeyViews(ctx: AppContext, userId: string): Promise<ApiKeyView[]> {
  await usageMeter(ctx).flush();
  const [rows, credits, requests] = await Promise.all([
    findApiKeys(ctx.db, userId),
    sumCreditsByKey(ctx.db, userId),
    sumRequestsByKey(ctx.db, userId),
  ]);
  const now = ctx.clock.now();
  return rows.map((r) => toView(r, now, credits.get(r.id) ?? 0, requests.get(r.id) ?? 0));
}

/** Creates a key; the answer is the only place the whole key ever appears. */
export async function createApiKey(
  ctx: AppContext,
  userId: string,
  input: { name: string; credit_limit?: number | null; expires_time?: number | null },
): Promise<{ key: ApiKeyView; secret_key: string }> {
  const now = ctx.clock.now();
  const expiresAt = input.expires_time ? input.expires_time * 1000 : null;
  if (expiresAt != null && expiresAt <= now) throw AppError.named('err_invalid_param', '过期时间须晚于现在');
  if ((await countApiKeys(ctx.db, userId)) >= MAX_API_KEYS) throw AppError.named('err_apikey_limit_reached');
  const secret = generateApiKey();
  const row: ApiKeyRow = {
    id: newId('key'),
    user_id: userId,
    name: input.name.trim(),
    key_hash: hashApiKey(secret),
    ...keyParts(secret),
    credit_limit: input.credit_limit ?? null,
    expires_at: expiresAt,
    revoked_at: null,
    last_used_at: null,
    created_at: now,
  };
  await insertApiKey(ctx.db, row);
  return { key: toView(row, now, 0, 0), secret_key: secret };
}

async function getOwnKey(ctx: AppContext, userId: string, keyId: string): Promise<ApiKeyRow> {
  const row = await findApiKeyForOwner(ctx.db, userId, keyId);
  if (!row) throw AppError.named('err_tenant_apikey_not_found');
  return row;
}

export async function renameApiKey(ctx: AppContext, userId: string, keyId: string, name: string) {
  const row = await getOwnKey(ctx, userId, keyId);
  await updateApiKey(ctx.db, userId, keyId, { name: name.trim() });
  return viewOf(ctx, userId, { ...row, name: name.trim() });
}

/** Takes effect on the next request: authentication reads the row every time (no cache to go stale). */
export async function revokeApiKey(ctx: AppContext, userId: string, keyId: string) {
  const row = await getOwnKey(ctx, userId, keyId);
  const revokedAt = row.revoked_at ?? ctx.clock.now();
  if (row.revoked_at == null) await updateApiKey(ctx.db, userId, keyId, { revoked_at: revokedAt });
  return viewOf(ctx, userId, { ...row, revoked_at: revokedAt });
}

/** Requests and characters per day from the counters, credits per day from the key's holds. */
export async function getApiKeyUsage(ctx: AppContext, userId: string, keyId: string, days: number) {
  await getOwnKey(ctx, userId, keyId);
  await usageMeter(ctx).flush();
  const now = ctx.clock.now();
  const dayList: string[] = [];
  for (let i = days - 1; i >= 0; i--) dayList.push(businessDate(now - i * 86_400_000));
  const byDay = new Map(dayList.map((d) => [d, { day: d, requests: 0, characters: 0, credits: 0 }]));
  for (const u of await findUsageDays(ctx.db, keyId, dayList[0])) {
    const d = byDay.get(u.day);
    if (d) {
      d.requests = Number(u.requests);
      d.characters = Number(u.characters);
    }
  }
  for (const h of await findKeyHoldsSince(ctx.db, keyId, now - days * 86_400_000)) {
    const d = byDay.get(businessDate(h.created_at));
    if (d) d.credits += h.status === 'held' ? h.amount : (h.captured ?? 0);
  }
  const list = [...byDay.values()];
  const totals = list.reduce(
    (t, d) => ({
      requests: t.requests + d.requests,
      characters: t.characters + d.characters,
      credits: t.credits + d.credits,
    }),
    { requests: 0, characters: 0, credits: 0 },
  );
  return { key_id: keyId, days: list, totals };
}

export interface AuthKey {
  id: string;
  userId: string;
  creditLimit: number | null;
}

/**
 * The key of a public API request. A malformed key (wrong prefix, length or checksum) is refused
 * without touching the database; revoked and expired keys are refused at once.
 */
export async function authenticateApiKey(ctx: AppContext, key: string | null): Promise<AuthKey> {
  if (!key || !isWellFormedApiKey(key)) throw AppError.named('err_tenant_apikey_not_found', undefined, 401);
  const row = await findApiKeyByHash(ctx.db, hashApiKey(key));
  if (!row) throw AppError.named('err_tenant_apikey_not_found', undefined, 401);
  if (row.revoked_at != null) throw AppError.named('err_apikey_revoked', undefined, 401);
  if (row.expires_at != null && row.expires_at <= ctx.clock.now())
    throw AppError.named('err_apikey_expired', undefined, 401);
  // A refused or cancelled account's keys stop at once (cancellation also revokes them).
  if (!(await isAccountActive(ctx, row.user_id))) throw AppError.named('err_account_refused', undefined, 403);
  return { id: row.id, userId: row.user_id, creditLimit: row.credit_limit };
}
