import { appCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { getSetting } from '../settings/settings.service.ts';

export function registerAppConfigRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, appCalls.getAppConfig, async () => ({
    voice_clone_config: { voice_clone_switch: await getSetting(ctx, 'voice_clone_switch') },
  }));
}
