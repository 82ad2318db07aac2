import { videoTranslationCalls as calls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { exportTranslation } from './video-translation.export.ts';
import {
  getGlossary,
  getSpeakerVoices,
  readPreferences,
  saveGlossary,
  savePreferences,
} from './video-translation.profile.ts';
import {
  backTranslateAgain,
  continueTranslation,
  createTranslation,
  estimate,
  languages,
  redub,
  retranslate,
} from './video-translation.service.ts';

export function registerVideoTranslationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const limited = { rateLimit: { max: 30, timeWindow: '1 minute' } };
  registerCall(app, calls.videoTranslationLanguages, async () => languages(ctx));
  registerCall(app, calls.videoTranslationEstimate, ({ user, body }) => estimate(ctx, user.uid, body));
  registerCall(
    app,
    calls.videoTranslationCreate,
    ({ user, body }) => createTranslation(ctx, user.uid, body),
    limited,
  );
  registerCall(
    app,
    calls.videoTranslationRetranslate,
    ({ user, body }) => retranslate(ctx, user.uid, body),
    limited,
  );
  registerCall(
    app,
    calls.videoTranslationBackTranslate,
    ({ user, body }) => backTranslateAgain(ctx, user.uid, body),
    limited,
  );
  registerCall(app, calls.videoTranslationRedub, ({ user, body }) => redub(ctx, user.uid, body), limited);
  registerCall(app, calls.videoTranslationContinue, ({ user, body }) =>
    continueTranslation(ctx, user.uid, body.project_id),
  );
  registerCall(app, calls.videoTranslationExport, ({ user, body }) => exportTranslation(ctx, user.uid, body));
  registerCall(app, calls.translationPreferencesGet, async ({ user }) => ({
    preferences: await readPreferences(ctx, user.uid),
  }));
  registerCall(app, calls.translationPreferencesSave, ({ user, body }) =>
    savePreferences(ctx, user.uid, body.preferences),
  );
  registerCall(app, calls.glossaryGet, ({ user }) => getGlossary(ctx, user.uid));
  registerCall(app, calls.glossarySave, ({ user, body }) => saveGlossary(ctx, user.uid, body.entries));
  registerCall(app, calls.speakerVoicesGet, ({ user }) => getSpeakerVoices(ctx, user.uid));
}
