import { dubbingCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import {
  createDubbing,
  createSrtDubbing,
  createVideoSynthesis,
  dubbingMedia,
  lockCues,
  pickTake,
  regenerate,
} from './dubbing.service.ts';

export function registerDubbingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const limited = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  registerCall(
    app,
    dubbingCalls.srtDubbingCreate,
    ({ user, body }) => createSrtDubbing(ctx, user.uid, body),
    limited,
  );
  registerCall(
    app,
    dubbingCalls.dubbingCreate,
    ({ user, body }) => createDubbing(ctx, user.uid, body),
    limited,
  );
  registerCall(
    app,
    dubbingCalls.videoSynthesisCreate,
    ({ user, body }) => createVideoSynthesis(ctx, user.uid, body),
    limited,
  );
  registerCall(
    app,
    dubbingCalls.dubbingRegenerate,
    ({ user, body }) => regenerate(ctx, user.uid, body),
    limited,
  );
  registerCall(app, dubbingCalls.dubbingPickTake, ({ user, body }) => pickTake(ctx, user.uid, body));
  registerCall(app, dubbingCalls.dubbingLock, ({ user, body }) => lockCues(ctx, user.uid, body));
  registerCall(app, dubbingCalls.dubbingMedia, ({ user, query }) =>
    dubbingMedia(ctx, user.uid, query.project_id),
  );
}
