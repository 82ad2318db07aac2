import type { SecureTokens } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId, randomToken, sha256Hex } from '../../ids.ts';
import {
  findRefreshTokenByHash,
  findUserById,
  insertRefreshToken,
  markRefreshTokenUsed,
  revokeRefreshFamily,
} from './accounts.repo.ts';

/** Two tabs may refresh with the same token at once; within this window the second one is not a theft. */
export const REFRESH_REUSE_GRACE_MS = 10_000;

/** Issues an access token and a refresh token; `familyId` continues a session across rotations. */
export async function issueSession(
  ctx: AppContext,
  userId: string,
  deviceId: string | null,
  familyId = newId('fam'),
): Promise<SecureTokens> {
  const now = ctx.clock.now();
  const refreshToken = `rt_${randomToken(32)}`;
  await insertRefreshToken(ctx.db, {
    id: newId('rt'),
    user_id: userId,
    family_id: familyId,
    token_hash: sha256Hex(refreshToken),
    device_id: deviceId,
    created_at: now,
    expires_at: now + ctx.config.REFRESH_TOKEN_TTL * 1000,
    used_at: null,
    revoked_at: null,
  });
  return {
    access_token: ctx.accessTokens.sign(userId, familyId),
    refresh_token: refreshToken,
    expires_in: ctx.config.ACCESS_TOKEN_TTL,
    refresh_token_expires_in: ctx.config.REFRESH_TOKEN_TTL,
  };
}

/**
 * Rotates a refresh token. A token used once more after the grace window is treated as stolen:
 * the whole family is revoked and every holder must sign in again.
 */
export async function refreshSession(
  ctx: AppContext,
  refreshToken: string,
  deviceId: string | null,
): Promise<{ tokens: SecureTokens; user: User }> {
  const now = ctx.clock.now();
  const row = await findRefreshTokenByHash(ctx.db, sha256Hex(refreshToken));
  if (!row || row.revoked_at !== null || row.expires_at <= now) throw AppError.unauthorized();

  const firstUse = row.used_at === null && (await markRefreshTokenUsed(ctx.db, row.id, now));
  if (!firstUse) {
    const usedAt = row.used_at ?? now;
    if (now - usedAt > REFRESH_REUSE_GRACE_MS) {
      await revokeRefreshFamily(ctx.db, row.family_id, now);
      ctx.log.warn(
        { userId: row.user_id, familyId: row.family_id },
        'refresh token reuse: session family revoked',
      );
      throw AppError.unauthorized();
    }
  }
  const user = await findUserById(ctx.db, row.user_id);
  if (!user || user.type === 1) throw AppError.unauthorized();
  return { tokens: await issueSession(ctx, user.id, deviceId, row.family_id), user };
}

/** Revokes the session the refresh token belongs to; unknown tokens are ignored. */
export async function signOut(ctx: AppContext, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  const row = await findRefreshTokenByHash(ctx.db, sha256Hex(refreshToken));
  if (row) await revokeRefreshFamily(ctx.db, row.family_id, ctx.clock.now());
}
