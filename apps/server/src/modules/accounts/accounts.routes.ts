import { accountsCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { clientIds } from '../../http/request-context.ts';
import { userInfoOf } from '../users/users.service.ts';
import { deleteAllDataOf } from './account-data.ts';
import {
  cancelAccount,
  resetPassword,
  type SignInResult,
  signInWithCode,
  signInWithPassword,
} from './accounts.service.ts';
import { refreshSession, signOut } from './sessions.service.ts';
import { sendVerificationCode } from './verification.service.ts';

const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const authResult = async (result: SignInResult) => ({
    secure_tokens: result.tokens,
    user_info: await userInfoOf(ctx, result.user),
    is_new_user: result.created,
  });

  registerCall(
    app,
    accountsCalls.sendVerificationCode,
    ({ body, user, request }) => sendVerificationCode(ctx, { ...body, ip: request.ip, user }),
    perMinute(10),
  );

  registerCall(
    app,
    accountsCalls.authWithVerificationCode,
    async ({ body, request }) =>
      authResult(await signInWithCode(ctx, { ...body, deviceId: clientIds(request).deviceId })),
    perMinute(20),
  );

  registerCall(
    app,
    accountsCalls.authWithPassword,
    async ({ body, request }) =>
      authResult(await signInWithPassword(ctx, { ...body, deviceId: clientIds(request).deviceId })),
    perMinute(10),
  );

  registerCall(
    app,
    accountsCalls.resetPassword,
    async ({ body }) => {
      await resetPassword(ctx, { account: body.account, code: body.code, newPassword: body.new_password });
      return {};
    },
    perMinute(10),
  );

  registerCall(
    app,
    accountsCalls.refreshToken,
    async ({ body, request }) => {
      const { tokens, user } = await refreshSession(ctx, body.refresh_token, clientIds(request).deviceId);
      return { secure_tokens: tokens, user_info: await userInfoOf(ctx, user) };
    },
    perMinute(60),
  );

  registerCall(app, accountsCalls.signOut, async ({ body }) => {
    await signOut(ctx, body.refresh_token);
    return {};
  });

  registerCall(
    app,
    accountsCalls.cancelAccount,
    async ({ body, user }) => {
      await cancelAccount(ctx, user.uid, body.code, (uid) => deleteAllDataOf(ctx, uid));
      return {};
    },
    perMinute(10),
  );
}
