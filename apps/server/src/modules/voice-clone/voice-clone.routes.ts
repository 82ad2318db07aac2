import { voiceCloneCalls } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerCall } from '../../http/calls.ts';
import { assertCloneOn } from '../voices/clones.ts';
import {
  checkAssets,
  chooseCandidate,
  consentSentence,
  createFastClone,
  createProfessionalClone,
  deleteClone,
  fixAsset,
  getOverview,
  listClones,
  previewCandidate,
  recheckClone,
  renameClone,
} from './voice-clone.service.ts';

/** Voice cloning calls; every one is refused while voice_clone_switch is off (in the service). */
export function registerVoiceCloneRoutes(app: FastifyInstance, ctx: AppContext): void {
  const heavy = { rateLimit: { max: 20, timeWindow: '1 minute' } };
  registerCall(app, voiceCloneCalls.voiceCloneOverview, ({ user }) => getOverview(ctx, user.uid));
  registerCall(app, voiceCloneCalls.voiceCloneList, ({ user }) => listClones(ctx, user.uid));
  registerCall(
    app,
    voiceCloneCalls.voiceCloneCheck,
    ({ user, body }) => checkAssets(ctx, user.uid, body),
    heavy,
  );
  registerCall(app, voiceCloneCalls.voiceCloneFix, ({ user, body }) => fixAsset(ctx, user.uid, body), heavy);
  registerCall(app, voiceCloneCalls.voiceCloneConsentSentence, async ({ query }) => {
    await assertCloneOn(ctx);
    return consentSentence(query.language);
  });
  registerCall(
    app,
    voiceCloneCalls.voiceCloneCreate,
    ({ user, body }) => createFastClone(ctx, user.uid, body),
    heavy,
  );
  registerCall(
    app,
    voiceCloneCalls.voiceClonePreview,
    ({ user, body }) => previewCandidate(ctx, user.uid, body),
    heavy,
  );
  registerCall(app, voiceCloneCalls.voiceCloneChoose, ({ user, body }) =>
    chooseCandidate(ctx, user.uid, body),
  );
  registerCall(app, voiceCloneCalls.voiceCloneRename, ({ user, body }) => renameClone(ctx, user.uid, body));
  registerCall(app, voiceCloneCalls.voiceCloneDelete, ({ user, body }) => deleteClone(ctx, user.uid, body));
  registerCall(
    app,
    voiceCloneCalls.voiceCloneRecheck,
    ({ user, body }) => recheckClone(ctx, user.uid, body),
    heavy,
  );
  registerCall(app, voiceCloneCalls.voiceCloneProfessionalCreate, ({ user, body }) =>
    createProfessionalClone(ctx, user.uid, body),
  );
}
