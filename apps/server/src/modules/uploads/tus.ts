import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';
import type { AppContext } from '../../context.ts';
import { getMediaLimits } from '../features/features.service.ts';

export const TUS_PATH = '/v1/uploads/tus';

/** Every tus upload lives under DATA_DIR/uploads as `<id>` (bytes) and `<id>.json` (tus metadata). */
export function uploadsDir(ctx: Pick<AppContext, 'config'>): string {
  return path.join(ctx.config.dataDir, 'uploads');
}

/**
 * A tus upload id names its owner: `<user id>-<32 hex>`. The HTTP scope refuses any request for an
 * id that does not start with the caller's user id, so nobody can HEAD, PATCH or DELETE another's.
 */
export const TUS_ID_RE = /^(u_[0-9a-f]{32})-([0-9a-f]{32})$/;

export function tusOwnerOf(id: string): string | null {
  return TUS_ID_RE.exec(id)?.[1] ?? null;
}

/** The upload id of a tus URL or of a bare id; null if it is not one of ours. */
export function tusIdOf(urlOrId: string): string | null {
  const last = urlOrId.split('?')[0].replace(/\/+$/, '').split('/').pop() ?? '';
  return TUS_ID_RE.test(last) ? last : null;
}

const bearerUser = (ctx: AppContext, header: string | null): string | null => {
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
  return token ? (ctx.accessTokens.verify(token)?.uid ?? null) : null;
};

/** The tus server of the embedded default (the Fastify scope in uploads.routes.ts hands requests to it). */
export function createTusServer(ctx: AppContext): Server {
  return new Server({
    path: TUS_PATH,
    datastore: new FileStore({ directory: uploadsDir(ctx) }),
    relativeLocation: true,
    // Same origin only: the web app is served by this server.
    allowedOrigins: [],
    // The route already checked the token; these run inside tus on the same request.
    namingFunction: (req) => {
      const uid = bearerUser(ctx, req.headers.get('authorization'));
      if (!uid) throw { status_code: 401, body: 'Unauthorized\n' };
      return `${uid}-${randomBytes(16).toString('hex')}`;
    },
    maxSize: async (req) => {
      const uid = bearerUser(ctx, req.headers.get('authorization'));
      if (!uid) return 1;
      return (await getMediaLimits(ctx, uid)).max_upload_bytes;
    },
    onIncomingRequest: async (req, uploadId) => {
      const uid = bearerUser(ctx, req.headers.get('authorization'));
      if (!uid || tusOwnerOf(uploadId) !== uid) throw { status_code: 404, body: 'Not found\n' };
    },
  });
}
