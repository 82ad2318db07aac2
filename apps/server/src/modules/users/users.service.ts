import type { UserInfo } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { updateUser } from '../accounts/accounts.repo.ts';
import { toUserInfo } from '../accounts/accounts.service.ts';
import { deleteOwnedFile, signedFileUrl, storeFile } from '../files/files.service.ts';

const AVATAR_URL_TTL_SECONDS = 24 * 3600;
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** user_info as the client reads it, with a signed avatar URL. */
export async function userInfoOf(ctx: AppContext, user: User): Promise<UserInfo> {
  const avatarUrl = user.avatar_key
    ? await signedFileUrl(ctx, user.id, user.avatar_key, { expiresInSeconds: AVATAR_URL_TTL_SECONDS })
    : '';
  return toUserInfo(user, avatarUrl);
}

/** Stores a new avatar image (identified by its bytes) and removes the previous one. */
export async function replaceAvatar(
  ctx: AppContext,
  user: User,
  upload: { bytes: Buffer; originalName: string },
): Promise<User> {
  if (upload.bytes.length === 0) throw AppError.named('err_file_empty');
  const stored = await storeFile(ctx, user.id, {
    bytes: upload.bytes,
    originalName: upload.originalName,
    allowed: ['image'],
    maxBytes: AVATAR_MAX_BYTES,
    prefix: 'avatars',
  });
  const now = ctx.clock.now();
  await updateUser(ctx.db, user.id, { avatar_key: stored.key, updated_at: now });
  if (user.avatar_key) await deleteOwnedFile(ctx, user.id, user.avatar_key);
  return { ...user, avatar_key: stored.key, updated_at: now };
}
