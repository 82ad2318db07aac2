import type { AppContext } from '../../context.ts';
import { updateUser } from './accounts.repo.ts';
import { findOrCreateUser, hashPassword } from './accounts.service.ts';

/**
 * The demo account of the embedded default (outside production): signs in with its password or
 * with a code from the dev outbox. Created once; an existing account is left as it is.
 */
export async function seedDemoAccount(ctx: AppContext): Promise<void> {
  if (ctx.config.isProduction) return;
  const { user, created } = await findOrCreateUser(ctx, ctx.config.DEMO_ACCOUNT);
  if (!created) return;
  await updateUser(ctx.db, user.id, {
    nickname: '演示用户',
    password_hash: await hashPassword(ctx.config.DEMO_PASSWORD),
    updated_at: ctx.clock.now(),
  });
}
