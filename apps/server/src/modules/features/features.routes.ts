import { mediaCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { getCapabilities } from './features.service.ts';

export function registerFeatureRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, mediaCalls.getToolCapabilities, async ({ user }) => getCapabilities(ctx, user.uid));
}
