import { mediaCalls } from '@vw/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { registerCall } from '../../http/calls.ts';
import { limitAccount } from '../accounts/account-limits.ts';
import { createTusServer, TUS_PATH, tusOwnerOf } from './tus.ts';
import { createFastPatch } from './tus-patch.ts';
import {
  completeUpload,
  createUploadTicket,
  deleteAsset,
  getAssetPeaks,
  getOwnedAsset,
  listAssets,
  toAssetView,
} from './uploads.service.ts';

export async function registerUploadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const tus = createTusServer(ctx);
  const fastPatch = createFastPatch(tus);

  // tus lives in its own scope: its raw body parser and hijacked replies touch no other route.
  await app.register(async (scope) => {
    // Hand the request stream to tus untouched (no buffering, no body limit: tus enforces the plan's).
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const id = (request.params as { id?: string }).id;
      if (request.method !== 'OPTIONS') {
        if (!request.user) throw AppError.unauthorized();
        if (request.method === 'POST' && id === undefined)
          await limitAccount(ctx, request.user.uid, 'uploads');
        // Another user's upload (or not an upload id at all) does not exist for this caller.
        if (id !== undefined && tusOwnerOf(id) !== request.user.uid) {
          return reply.status(404).header('tus-resumable', '1.0.0').send();
        }
      }
      reply.hijack();
      if (request.method === 'PATCH' && id !== undefined) await fastPatch(request.raw, reply.raw, id);
      else await tus.handle(request.raw, reply.raw);
    };
    const methods = ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as const;
    const route = { config: { auth: 'public' as const }, schema: { hide: true }, handler };
    scope.route({ method: ['POST', 'OPTIONS'], url: TUS_PATH, ...route });
    scope.route({ method: [...methods], url: `${TUS_PATH}/:id`, ...route });
  });

  registerCall(app, mediaCalls.generateUploadCredentials, async ({ user, body }) =>
    createUploadTicket(ctx, user.uid, body),
  );
  registerCall(
    app,
    mediaCalls.completeUpload,
    async ({ user, body }) => ({
      asset: await toAssetView(ctx, await completeUpload(ctx, tus, user.uid, body)),
    }),
    { rateLimit: { max: 60, timeWindow: '1 minute' } },
  );
  registerCall(app, mediaCalls.getMediaAsset, async ({ user, query }) => ({
    asset: await toAssetView(ctx, await getOwnedAsset(ctx, user.uid, query.asset_id)),
  }));
  registerCall(app, mediaCalls.listMediaAssets, async ({ user, query }) => listAssets(ctx, user.uid, query));
  registerCall(app, mediaCalls.deleteMediaAsset, async ({ user, body }) => ({
    deleted: await deleteAsset(ctx, user.uid, body.asset_id),
  }));
  registerCall(app, mediaCalls.getMediaPeaks, async ({ user, query }) =>
    getAssetPeaks(ctx, user.uid, query.asset_id),
  );
}
