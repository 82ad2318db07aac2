import { voiceChangerCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import {
  createVoiceChangerTask,
  getVoiceChangerResult,
  getVoiceChangerTargets,
} from './voice-changer.service.ts';

export function registerVoiceChangerRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(
    app,
    voiceChangerCalls.voiceChangerCreate,
    ({ user, body }) => createVoiceChangerTask(ctx, user.uid, body),
    { rateLimit: { max: 30, timeWindow: '1 minute' } },
  );
  registerCall(app, voiceChangerCalls.voiceChangerTargets, ({ user }) =>
    getVoiceChangerTargets(ctx, user.uid),
  );
  registerCall(app, voiceChangerCalls.voiceChangerResult, ({ user, query }) =>
    getVoiceChangerResult(ctx, user.uid, query.task_id),
  );
}
