import multipart from '@fastify/multipart';
import { accountsCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { registerCall } from '../../http/calls.ts';
import {
  bindAccount,
  changePassword,
  getUser,
  getUserForDisplay,
  updateNickname,
} from '../accounts/accounts.service.ts';
import { AVATAR_MAX_BYTES, replaceAvatar, userInfoOf } from './users.service.ts';

export async function registerUserRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerCall(app, accountsCalls.getUserInfo, async ({ user }) => ({
    user_info: await userInfoOf(ctx, await getUserForDisplay(ctx, user.uid)),
  }));

  registerCall(app, accountsCalls.updateProfile, async ({ body, user }) => ({
    user_info: await userInfoOf(ctx, await updateNickname(ctx, user.uid, body.nickname)),
  }));

  registerCall(
    app,
    accountsCalls.bindAccount,
    async ({ body, user }) => ({ user_info: await userInfoOf(ctx, await bindAccount(ctx, user.uid, body)) }),
    { rateLimit: { max: 10, timeWindow: '1 minute' } },
  );

  registerCall(
    app,
    accountsCalls.changePassword,
    async ({ body, user }) => {
      await changePassword(ctx, user.uid, { oldPassword: body.old_password, newPassword: body.new_password });
      return {};
    },
    { rateLimit: { max: 10, timeWindow: '1 minute' } },
  );

  // Multipart exists only in the avatar's own scope, with the avatar's limits: no other route parses
  // multipart bodies (media goes through resumable uploads, modules/uploads).
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });
    registerCall(
      scope,
      accountsCalls.uploadAvatar,
      async ({ user, request }) => {
        if (!request.isMultipart())
          throw AppError.named('err_invalid_param', '请以 multipart/form-data 上传头像');
        const part = await request.file();
        if (!part) throw AppError.named('err_file_empty');
        const bytes = await part.toBuffer().catch(() => {
          throw AppError.named('err_file_too_large', '头像不能超过 2 MB');
        });
        const updated = await replaceAvatar(ctx, await getUser(ctx, user.uid), {
          bytes,
          originalName: part.filename,
        });
        return { user_info: await userInfoOf(ctx, updated) };
      },
      { bodyLimit: AVATAR_MAX_BYTES + 64 * 1024, rateLimit: { max: 20, timeWindow: '1 minute' } },
    );
  });
}
