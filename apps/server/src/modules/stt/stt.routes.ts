import { sttCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { createSttTask } from './stt.service.ts';

export function registerSttRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, sttCalls.sttCreate, ({ user, body }) => createSttTask(ctx, user.uid, body), {
    rateLimit: { max: 30, timeWindow: '1 minute' },
  });
}
