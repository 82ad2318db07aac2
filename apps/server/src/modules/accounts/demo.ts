import { QuestionnaireStatus } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import { grantCredits } from '../credits/ledger.service.ts';
import { updateUser } from './accounts.repo.ts';
import { findOrCreateUser, hashPassword } from './accounts.service.ts';

/**
 * The demo account of the embedded default (outside production): signs in with its password or
 * with a code from the dev outbox, and starts with 1,000 gifted credits. Created once; an existing
 * account is left as it is.
 */
export async function seedDemoAccount(ctx: AppContext): Promise<void> {
  if (ctx.config.isProduction) return;
  const { user, created } = await findOrCreateUser(ctx, ctx.config.DEMO_ACCOUNT);
  if (!created) return;
  await updateUser(ctx.db, user.id, {
    nickname: '演示用户',
    // The demo account has been through onboarding: it opens straight on the tools.
    questionnaire_status: QuestionnaireStatus.Done,
    password_hash: await hashPassword(ctx.config.DEMO_PASSWORD),
    updated_at: ctx.clock.now(),
  });
  // Enough to try the tools right away.
  await grantCredits(ctx, {
    userId: user.id,
    source: 'gift',
    amount: 1000,
    expiresAt: ctx.clock.now() + 365 * 24 * 3600_000,
    grantKey: `demo:${user.id}`,
    remark: '演示账号赠送积分',
  });
}
