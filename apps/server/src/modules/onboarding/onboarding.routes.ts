import { onboardingCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { getQuestionnaire, submitQuestionnaire } from './onboarding.service.ts';

export function registerOnboardingRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCall(app, onboardingCalls.getUserPersonaQuestionnaire, async () => ({
    questionnaire: await getQuestionnaire(ctx),
  }));
  registerCall(
    app,
    onboardingCalls.submitUserPersonaQuestionnaire,
    ({ user, body }) => submitQuestionnaire(ctx, user.uid, body.questionnaire),
    { rateLimit: { max: 20, timeWindow: '1 minute' } },
  );
}
