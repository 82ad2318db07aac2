import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerJobRoutes } from '../jobs/jobs.routes.ts';
import { registerTaskRoutes } from '../tasks/tasks.routes.ts';
import { registerAccountRoutes } from './accounts/accounts.routes.ts';
import { registerAnalyticsRoutes } from './analytics/analytics.routes.ts';
import { registerApiKeyRoutes } from './apikeys/apikeys.routes.ts';
import { registerAppConfigRoutes } from './appconfig/appconfig.routes.ts';
import { registerCreditRoutes } from './credits/credits.routes.ts';
import { registerDevRoutes } from './dev/dev.routes.ts';
import { registerFeatureRoutes } from './features/features.routes.ts';
import { registerFileRoutes } from './files/files.routes.ts';
import { registerNotificationRoutes } from './notifications/notifications.routes.ts';
import { registerOnboardingRoutes } from './onboarding/onboarding.routes.ts';
import { registerPaymentRoutes } from './payments/payments.routes.ts';
import { registerProjectRoutes } from './projects/projects.routes.ts';
import { registerPublicApiRoutes } from './public-api/public-api.routes.ts';
import { registerRedeemRoutes } from './redeem/redeem.routes.ts';
import { registerSttRoutes } from './stt/stt.routes.ts';
import { registerTtsRoutes } from './tts/tts.routes.ts';
import { registerUploadRoutes } from './uploads/uploads.routes.ts';
import { registerUserRoutes } from './users/users.routes.ts';
import { registerWebApp } from './web/web.routes.ts';

/** Every feature module's routes. */
export async function registerModules(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerAccountRoutes(app, ctx);
  await registerUserRoutes(app, ctx);
  registerAppConfigRoutes(app, ctx);
  registerFileRoutes(app, ctx);
  registerJobRoutes(app, ctx);
  registerTaskRoutes(app, ctx);
  registerCreditRoutes(app, ctx);
  registerRedeemRoutes(app, ctx);
  await registerTtsRoutes(app, ctx);
  await registerPaymentRoutes(app, ctx);
  registerOnboardingRoutes(app, ctx);
  registerAnalyticsRoutes(app, ctx);
  registerNotificationRoutes(app, ctx);
  registerApiKeyRoutes(app, ctx);
  registerProjectRoutes(app, ctx);
  registerSttRoutes(app, ctx);
  await registerUploadRoutes(app, ctx);
  registerFeatureRoutes(app, ctx);
  await registerPublicApiRoutes(app, ctx);
  if (!ctx.config.isProduction) await registerDevRoutes(app, ctx);
  await registerWebApp(app, ctx);
}
