import { eraseCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import {
  createEraseTask,
  createWatermarkTask,
  eraseDifference,
  erasePreview,
  getEraseResult,
} from './erase.service.ts';

export function registerEraseRoutes(app: FastifyInstance, ctx: AppContext): void {
  const limit = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  registerCall(app, eraseCalls.eraseCreate, ({ user, body }) => createEraseTask(ctx, user.uid, body), limit);
  registerCall(
    app,
    eraseCalls.watermarkRemoveCreate,
    ({ user, body }) => createWatermarkTask(ctx, user.uid, body),
    limit,
  );
  registerCall(app, eraseCalls.erasePreview, ({ user, body }) => erasePreview(ctx, user.uid, body), {
    rateLimit: { max: 60, timeWindow: '1 minute' },
  });
  registerCall(app, eraseCalls.eraseDifference, ({ user, body }) => eraseDifference(ctx, user.uid, body), {
    rateLimit: { max: 60, timeWindow: '1 minute' },
  });
  registerCall(app, eraseCalls.getEraseResult, ({ user, query }) =>
    getEraseResult(ctx, user.uid, query.task_id),
  );
}
