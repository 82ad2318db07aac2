import { onboardingCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { registerCall } from '../../http/calls.ts';
import { clientIds } from '../../http/request-context.ts';
import { deviceKey, ingestReport } from './analytics.service.ts';

/** A report is at most 128 KiB of base64 plus its envelope. */
const REPORT_BODY_LIMIT = 160 * 1024;

export function registerAnalyticsRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(
    app,
    onboardingCalls.getAnalyticsKey,
    async ({ request }) => {
      const { deviceId } = clientIds(request.raw);
      if (!deviceId) throw AppError.named('value_error.missing', '缺少 x-device-id');
      return { key: await deviceKey(ctx, deviceId) };
    },
    { rateLimit: { max: 60, timeWindow: '1 minute' } },
  );
  registerCall(app, onboardingCalls.reportAnalytics, ({ body }) => ingestReport(ctx, body), {
    bodyLimit: REPORT_BODY_LIMIT,
    rateLimit: { max: 600, timeWindow: '1 minute' },
  });
}
