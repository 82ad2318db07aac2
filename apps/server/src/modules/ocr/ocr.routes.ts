import { ocrCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { createOcrTask, detectRegions, previewFrame } from './ocr.service.ts';

export function registerOcrRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, ocrCalls.ocrCreate, ({ user, body }) => createOcrTask(ctx, user.uid, body), {
    rateLimit: { max: 30, timeWindow: '1 minute' },
  });
  registerCall(
    app,
    ocrCalls.ocrDetectRegions,
    ({ user, body }) => detectRegions(ctx, user.uid, body.asset_id),
    {
      rateLimit: { max: 30, timeWindow: '1 minute' },
    },
  );
  registerCall(
    app,
    ocrCalls.ocrPreviewFrame,
    ({ user, body }) => previewFrame(ctx, user.uid, body.asset_id, body.at_ms),
    { rateLimit: { max: 240, timeWindow: '1 minute' } },
  );
}
