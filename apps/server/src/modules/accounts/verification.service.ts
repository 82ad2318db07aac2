import { randomInt } from 'node:crypto';
import { normalizeIP } from '@fastify/rate-limit';
import type { VerificationScene } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { AuthUser } from '../../http/request-context.ts';
import { newId, sha256Hex } from '../../ids.ts';
import { toAccountKey } from './account-key.ts';
import {
  addCodeAttempt,
  consumeCode,
  countCodesSentFromIp,
  countCodesSentTo,
  deleteVerificationCode,
  findOpenCode,
  findUserByAccount,
  findUserById,
  insertVerificationCode,
} from './accounts.repo.ts';

export const CODE_TTL_MS = 5 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Per target: 1 a minute, 5 an hour, 10 a day; per client address (an IPv6 /64): 20 an hour. */
export const SEND_LIMITS = {
  perTarget: [
    [MINUTE, 1],
    [HOUR, 5],
    [DAY, 10],
  ],
  perIpHour: 20,
} as const;

const SCENE_TEXT: Record<VerificationScene, string> = {
  login: '登录',
  reset_pwd: '重置密码',
  cancel_account: '注销账号',
  bind: '绑定账号',
};

const hashCode = (id: string, code: string) => sha256Hex(`${id}:${code}`);

/** Sends a 6-digit code by SMS or mail after the scene's own checks and the send limits. */
export async function sendVerificationCode(
  ctx: AppContext,
  input: { account: string; scene: VerificationScene; ip: string; user: AuthUser | null },
): Promise<{ expires_in: number; resend_after: number }> {
  const key = toAccountKey(input.account);
  await checkScene(ctx, key, input.scene, input.user);

  const now = ctx.clock.now();
  for (const [window, max] of SEND_LIMITS.perTarget) {
    if ((await countCodesSentTo(ctx.db, key.value, now - window)) >= max) {
      throw AppError.named('err_verification_code_too_frequent');
    }
  }
  // An IPv6 client holds a whole /64 (millions of addresses): counted as one, like the route limits.
  const address = normalizeIP(input.ip);
  if ((await countCodesSentFromIp(ctx.db, address, now - HOUR)) >= SEND_LIMITS.perIpHour) {
    throw AppError.named('err_verification_code_too_frequent');
  }

  const id = newId('vc');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await insertVerificationCode(ctx.db, {
    id,
    target: key.value,
    scene: input.scene,
    code_hash: hashCode(id, code),
    ip: address,
    created_at: now,
    expires_at: now + CODE_TTL_MS,
  });
  const sender = key.column === 'phone' ? ctx.sms : ctx.mail;
  try {
    await sender.send({
      to: key.value,
      subject: `声音工作台${SCENE_TEXT[input.scene]}验证码`,
      text: `【声音工作台】您的${SCENE_TEXT[input.scene]}验证码是 ${code}，5 分钟内有效。如非本人操作，请忽略。`,
      params: { code },
    });
  } catch (err) {
    // An undelivered code must not count against the user's limits.
    await deleteVerificationCode(ctx.db, id);
    if (err instanceof AppError) throw err; // a channel this server does not serve
    ctx.log.error(
      { err, channel: sender.channel, provider: sender.provider },
      'verification code delivery failed',
    );
    throw AppError.named('err_service_busy', '验证码发送失败，请稍后再试');
  }
  return { expires_in: CODE_TTL_MS / 1000, resend_after: 60 };
}

async function checkScene(
  ctx: AppContext,
  key: ReturnType<typeof toAccountKey>,
  scene: VerificationScene,
  user: AuthUser | null,
): Promise<void> {
  if (scene === 'login') return;
  const owner = await findUserByAccount(ctx.db, key);
  if (scene === 'reset_pwd') {
    if (!owner || owner.cancelled_at !== null) throw AppError.named('err_user_not_fount');
    return;
  }
  if (!user) throw AppError.unauthorized();
  if (scene === 'bind') {
    if (owner && owner.id !== user.uid) throw AppError.named('err_account_already_bound');
    return;
  }
  // cancel_account: the code goes only to an account the signed-in user owns.
  const me = await findUserById(ctx.db, user.uid);
  if (!me || (me.phone !== key.value && me.email !== key.value)) throw AppError.named('err_permission_deny');
}

/**
 * Checks a code against the newest open code of any of `targets` for the scene and consumes it.
 * Wrong tries count; the fifth wrong try burns the code.
 */
export async function verifyCode(ctx: AppContext, targets: string[], scene: VerificationScene, code: string) {
  const row = await findOpenCode(ctx.db, targets, scene);
  const now = ctx.clock.now();
  if (!row || row.expires_at <= now) throw AppError.named('err_verification_code_expired');
  if (row.attempts >= MAX_CODE_ATTEMPTS) throw AppError.named('err_verification_code_too_many_attempts');
  if (hashCode(row.id, code) !== row.code_hash) {
    const attempts = await addCodeAttempt(ctx.db, row.id);
    throw AppError.named(
      attempts >= MAX_CODE_ATTEMPTS
        ? 'err_verification_code_too_many_attempts'
        : 'err_verification_code_invalid',
    );
  }
  if (!(await consumeCode(ctx.db, row.id, now))) throw AppError.named('err_verification_code_expired');
  return row.target;
}
