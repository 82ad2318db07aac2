import { creditsCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { redeemCode } from './redeem.service.ts';

export function registerRedeemRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, creditsCalls.useRedeemCode, ({ user, body }) => redeemCode(ctx, user.uid, body.code), {
    rateLimit: { max: 20, timeWindow: '1 minute' },
  });
}
