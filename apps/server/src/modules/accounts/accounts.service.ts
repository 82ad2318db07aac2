import { hash, verify } from '@node-rs/argon2';
import { QuestionnaireStatus, type SecureTokens, type UserInfo, UserType } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { toAccountKey } from './account-key.ts';
import {
  findUserByAccount,
  findUserById,
  findUserByIdCached,
  insertUser,
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
  return startSession(ctx, user, input.deviceId, created);
}

export async function signInWithPassword(
  ctx: AppContext,
  input: { account: string; password: string; deviceId: string | null },
): Promise<SignInResult> {
  const user = await findUserByAccount(ctx.db, toAccountKey(input.account));
  // The same answer for an unknown account and a wrong password: no account probing.
  if (!user?.password_hash || !(await verify(user.password_hash, input.password))) {
    throw AppError.named('err_password_incorrect');
  }
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
  await updateUser(ctx.db, user.id, { password_hash: passwordHash, updated_at: now });
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
  await revokeRefreshTokensOfUser(ctx.db, user.id, now);
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
