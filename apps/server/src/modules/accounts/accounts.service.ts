import { hash, verify } from '@node-rs/argon2';
import { QuestionnaireStatus, type SecureTokens, type UserInfo, UserType } from '@vw/contract';
import type { AccessClaims } from '../../auth/access-tokens.ts';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { revokeApiKeysOfUser } from '../apikeys/apikeys.repo.ts';
import { deleteWebhooksOfUser } from '../apikeys/webhooks.repo.ts';
import { deleteSubscriptionsOfUser } from '../notifications/notifications.repo.ts';
import { toAccountKey } from './account-key.ts';
import {
  claimPasswordTry,
  findUserByAccount,
  findUserById,
  findUserByIdCached,
  insertUser,
  isSessionLiveCached,
  revokeRefreshTokensOfUser,
  updateUser,
} from './accounts.repo.ts';
import { issueSession } from './sessions.service.ts';
import { verifyCode } from './verification.service.ts';

export interface SignInResult {
  tokens: SecureTokens;
  user: User;
  created: boolean;
}

export function toUserInfo(user: User, avatarUrl = ''): UserInfo {
  return {
    uid: user.id,
    type: user.type,
    phone: user.phone ?? '',
    email: user.email ?? '',
    nickname: user.nickname,
    avatar_url: avatarUrl,
    user_persona_questionnaire_status: user.questionnaire_status,
    has_password: user.password_hash !== null,
  };
}

export async function getUser(ctx: AppContext, userId: string): Promise<User> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw AppError.unauthorized();
  return user;
}

/** The user for display (get_user_info): may be up to a second old, see findUserByIdCached. */
export async function getUserForDisplay(ctx: AppContext, userId: string): Promise<User> {
  const user = await findUserByIdCached(ctx.db, userId);
  if (!user) throw AppError.unauthorized();
  return user;
}

/**
 * Whether a signed-in user may still act: not cancelled (findUserById skips cancelled rows) and not
 * refused (type 1). Read through the one-second user cache, so it costs no query on the hot path
 * and an operator's refusal written by another process shows within a second.
 */
export async function isAccountActive(ctx: Pick<AppContext, 'db'>, userId: string): Promise<boolean> {
  const user = await findUserByIdCached(ctx.db, userId);
  return user !== undefined && user.type !== UserType.Refused;
}

/**
 * Whether an access token may still act: its account is active and its session was not signed out
 * or revoked (refresh-token reuse, password reset, cancellation). Both cached for at most a second,
 * so an access token stops within the second its refresh tokens do.
 */
export async function isAccessActive(ctx: Pick<AppContext, 'db'>, claims: AccessClaims): Promise<boolean> {
  const [active, live] = await Promise.all([
    isAccountActive(ctx, claims.uid),
    claims.sessionId === null || isSessionLiveCached(ctx.db, claims.sessionId),
  ]);
  return active && live;
}

/**
 * isAccessActive answered from the same caches without waiting, when both answers are held (the
 * usual case of a signed-in client); undefined when one must be read. The request hook calls it
 * first, so most requests pass authentication without a promise.
 */
export function accessActiveNow(ctx: Pick<AppContext, 'db'>, claims: AccessClaims): boolean | undefined {
  const user = findUserByIdCached.peek(ctx.db, claims.uid);
  if (!user) return undefined;
  if (user.value === undefined || user.value.type === UserType.Refused) return false;
  if (claims.sessionId === null) return true;
  return isSessionLiveCached.peek(ctx.db, claims.sessionId)?.value;
}

function defaultNickname(key: ReturnType<typeof toAccountKey>): string {
  return key.column === 'phone' ? `用户${key.value.slice(-4)}` : key.value.split('@')[0].slice(0, 32);
}

/** Creates a user on first sign-in: type 2, free plan, questionnaire pending. */
export async function findOrCreateUser(
  ctx: AppContext,
  account: string,
): Promise<{ user: User; created: boolean }> {
  const key = toAccountKey(account);
  const existing = await findUserByAccount(ctx.db, key);
  if (existing) return { user: existing, created: false };
  const now = ctx.clock.now();
  const user: User = {
    id: newId('u'),
    type: UserType.User,
    phone: key.column === 'phone' ? key.value : null,
    email: key.column === 'email' ? key.value : null,
    nickname: defaultNickname(key),
    avatar_key: null,
    password_hash: null,
    questionnaire_status: QuestionnaireStatus.Pending,
    created_at: now,
    updated_at: now,
    cancelled_at: null,
    refused_reason: null,
    refused_at: null,
    password_failures: 0,
    password_retry_at: null,
  };
  try {
    await insertUser(ctx.db, user);
    return { user, created: true };
  } catch (err) {
    // Two first sign-ins of one account at once: the other request created it.
    const raced = await findUserByAccount(ctx.db, key);
    if (raced) return { user: raced, created: false };
    throw err;
  }
}

async function startSession(
  ctx: AppContext,
  user: User,
  deviceId: string | null,
  created: boolean,
): Promise<SignInResult> {
  if (user.type === UserType.Refused) throw AppError.named('err_account_refused');
  return { tokens: await issueSession(ctx, user.id, deviceId), user, created };
}

export async function signInWithCode(
  ctx: AppContext,
  input: { account: string; code: string; deviceId: string | null },
): Promise<SignInResult> {
  const key = toAccountKey(input.account);
  await verifyCode(ctx, [key.value], 'login', input.code);
  const { user, created } = await findOrCreateUser(ctx, input.account);
  // Proving the account by a code lifts a password backoff or lock.
  if (user.password_failures > 0 || user.password_retry_at !== null) {
    await updateUser(ctx.db, user.id, { password_failures: 0, password_retry_at: null });
  }
  return startSession(ctx, user, input.deviceId, created);
}

/**
 * Password guessing is limited per account, in the database, whatever the client address: the
 * first PASSWORD_FREE_TRIES wrong passwords in a row cost nothing, each further one makes the
 * next try wait (30 s, doubling), and PASSWORD_LOCK_AFTER of them lock password sign-in until a
 * code sign-in or a password reset. A right password resets the count.
 */
export const PASSWORD_FREE_TRIES = 5;
export const PASSWORD_LOCK_AFTER = 10;
const PASSWORD_BACKOFF_BASE_MS = 30_000;
/** How long one try holds the account's turn while its password is checked (a crash frees it). */
const PASSWORD_TRY_MS = 10_000;

export function passwordBackoffMs(failures: number): number {
  return failures < PASSWORD_FREE_TRIES
    ? 0
    : PASSWORD_BACKOFF_BASE_MS * 2 ** (failures - PASSWORD_FREE_TRIES);
}

export async function signInWithPassword(
  ctx: AppContext,
  input: { account: string; password: string; deviceId: string | null },
): Promise<SignInResult> {
  const user = await findUserByAccount(ctx.db, toAccountKey(input.account));
  // The same answer for an unknown account and a wrong password: no account probing.
  if (!user?.password_hash) throw AppError.named('err_password_incorrect');
  const now = ctx.clock.now();
  if (user.password_failures >= PASSWORD_LOCK_AFTER) throw AppError.named('err_password_locked');
  // Takes the account's turn by compare-and-set on the count read, so concurrent tries (from any
  // number of addresses) are heard one at a time and every wrong one counts.
  const turn = await claimPasswordTry(ctx.db, user.id, user.password_failures, now, now + PASSWORD_TRY_MS);
  if (!turn) throw AppError.named('err_password_attempts_backoff');
  if (!(await verify(user.password_hash, input.password))) {
    const failures = user.password_failures + 1;
    const wait = passwordBackoffMs(failures);
    await updateUser(ctx.db, user.id, {
      password_failures: failures,
      password_retry_at: wait > 0 ? now + wait : null,
    });
    throw AppError.named(failures >= PASSWORD_LOCK_AFTER ? 'err_password_locked' : 'err_password_incorrect');
  }
  await updateUser(ctx.db, user.id, { password_failures: 0, password_retry_at: null });
  return startSession(ctx, user, input.deviceId, false);
}

const PASSWORD_RULE = /^(?=.*[A-Za-z])(?=.*\d).{8,64}$/;

export async function hashPassword(password: string): Promise<string> {
  if (!PASSWORD_RULE.test(password)) throw AppError.named('err_password_too_weak');
  return hash(password);
}

/** Resets the password by a code and signs every session out. */
export async function resetPassword(
  ctx: AppContext,
  input: { account: string; code: string; newPassword: string },
): Promise<void> {
  const key = toAccountKey(input.account);
  const passwordHash = await hashPassword(input.newPassword);
  await verifyCode(ctx, [key.value], 'reset_pwd', input.code);
  const user = await findUserByAccount(ctx.db, key);
  if (!user || user.cancelled_at !== null) throw AppError.named('err_user_not_fount');
  const now = ctx.clock.now();
  await updateUser(ctx.db, user.id, {
    password_hash: passwordHash,
    password_failures: 0,
    password_retry_at: null,
    updated_at: now,
  });
  await revokeRefreshTokensOfUser(ctx.db, user.id, now);
}

export async function changePassword(
  ctx: AppContext,
  userId: string,
  input: { oldPassword?: string; newPassword: string },
): Promise<void> {
  const user = await getUser(ctx, userId);
  if (user.password_hash && !(input.oldPassword && (await verify(user.password_hash, input.oldPassword)))) {
    throw AppError.named('err_password_incorrect', '原密码错误');
  }
  await updateUser(ctx.db, user.id, {
    password_hash: await hashPassword(input.newPassword),
    updated_at: ctx.clock.now(),
  });
}

/** Binds a phone or e-mail proven by a `bind` code to the signed-in user. */
export async function bindAccount(
  ctx: AppContext,
  userId: string,
  input: { account: string; code: string },
): Promise<User> {
  const key = toAccountKey(input.account);
  const owner = await findUserByAccount(ctx.db, key);
  if (owner && owner.id !== userId) throw AppError.named('err_account_already_bound');
  await verifyCode(ctx, [key.value], 'bind', input.code);
  try {
    await updateUser(ctx.db, userId, { [key.column]: key.value, updated_at: ctx.clock.now() });
  } catch {
    throw AppError.named('err_account_already_bound');
  }
  return getUser(ctx, userId);
}

export async function updateNickname(ctx: AppContext, userId: string, nickname: string): Promise<User> {
  await updateUser(ctx.db, userId, { nickname, updated_at: ctx.clock.now() });
  return getUser(ctx, userId);
}

/**
 * Cancels the account with a `cancel_account` code: every session is revoked and personal data is
 * removed; the row stays, stripped, so ledger entries keep pointing at an anonymous account.
 * `removeFiles` deletes what the user stored (avatar and uploads).
 */
export async function cancelAccount(
  ctx: AppContext,
  userId: string,
  code: string,
  removeFiles: (userId: string) => Promise<void>,
): Promise<void> {
  const user = await getUser(ctx, userId);
  const targets = [user.phone, user.email].filter((t): t is string => Boolean(t));
  await verifyCode(ctx, targets, 'cancel_account', code);
  const now = ctx.clock.now();
  // Everything that acts for the account without signing in stops now: sessions, API keys,
  // webhooks (addresses the user gave) and push subscriptions. The access token in hand is refused
  // by the auth hook once cancelled_at is set.
  await revokeRefreshTokensOfUser(ctx.db, user.id, now);
  await revokeApiKeysOfUser(ctx.db, user.id, now);
  await deleteWebhooksOfUser(ctx.db, user.id);
  await deleteSubscriptionsOfUser(ctx.db, user.id);
  await updateUser(ctx.db, user.id, {
    phone: null,
    email: null,
    nickname: '已注销用户',
    avatar_key: null,
    password_hash: null,
    cancelled_at: now,
    updated_at: now,
  });
  await removeFiles(user.id);
}

/**
 * The operator's refusal (spec §3: type 1 is refused): every request of the account is refused
 * within a second in every process (see isAccountActive), sign-ins and token refreshes too; its
 * sessions and keys are kept, so lifting the refusal restores them.
 */
export async function refuseAccount(ctx: AppContext, userId: string, reason: string): Promise<User> {
  const user = await getUser(ctx, userId);
  const now = ctx.clock.now();
  await updateUser(ctx.db, user.id, {
    type: UserType.Refused,
    refused_reason: reason,
    refused_at: now,
    updated_at: now,
  });
  return getUser(ctx, userId);
}

export async function liftRefusal(ctx: AppContext, userId: string): Promise<User> {
  const user = await getUser(ctx, userId);
  await updateUser(ctx.db, user.id, {
    type: UserType.User,
    refused_reason: null,
    refused_at: null,
    updated_at: ctx.clock.now(),
  });
  return getUser(ctx, userId);
}
