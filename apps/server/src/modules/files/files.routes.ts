import { namedErrorMessages } from '@vw/contract';
import type { FastifyInstance } from 'fastify';
import { contentDisposition } from '../../adapters/storage/content-disposition.ts';
import { isLocalStorage } from '../../adapters/storage/local.ts';
import { isAccountActive } from '../accounts/accounts.service.ts';
import { type FilesContext, fileOwnerOf } from './files.service.ts';

type Query = Record<string, string | string[] | undefined>;
const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * GET /files/<key>: serves the local backend's signed URLs, with byte ranges so downloads resume.
 * Nothing to serve with S3, whose presigned URLs go straight to the bucket.
 */
export function registerFileRoutes(
  app: FastifyInstance,
  ctx: Pick<FilesContext, 'storage' | 'clock' | 'db'>,
): void {
  const { storage } = ctx;
  if (!isLocalStorage(storage)) return;

  // HEAD is declared rather than derived from GET: the derived one would zero Content-Length.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/files/*',
    config: { auth: 'public' },
    schema: { hide: true },
    handler: async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const query = request.query as Query;
      const signed = { exp: single(query.exp), sig: single(query.sig), name: single(query.name) };
      // A link stops with its account: a refused or cancelled owner's files are no longer served
      // (the user cache notices another process's refusal within a second).
      const owner = fileOwnerOf(key);
      if (!storage.verifySignedUrl(key, signed) || (owner && !(await isAccountActive(ctx, owner)))) {
        return reply.status(403).send({ code: 403, msg: '链接已失效', data: null });
      }
      const info = await storage.stat(key);
      if (!info) {
        return reply.status(404).send({ code: 404, msg: namedErrorMessages.err_not_found, data: null });
      }

      const secondsLeft = Math.max(0, Number(signed.exp) - Math.floor(ctx.clock.now() / 1000));
      reply.headers({
        'content-type': info.contentType ?? 'application/octet-stream',
        'content-disposition':
          signed.name === undefined ? 'inline' : contentDisposition('attachment', signed.name),
        'accept-ranges': 'bytes',
        etag: info.etag,
        // The URL is a credential: private caches only, and no longer than it stays valid.
        'cache-control': `private, max-age=${secondsLeft}`,
        'x-content-type-options': 'nosniff',
      });
      if (request.headers['if-none-match'] === info.etag) return reply.status(304).send();

      // A resumed download only gets a part if its copy is still the same bytes (If-Range).
      const ifRange = request.headers['if-range'];
      const range =
        ifRange === undefined || ifRange === info.etag ? parseRange(request.headers.range, info.size) : null;
      if (range === 'unsatisfiable') {
        return reply.status(416).header('content-range', `bytes */${info.size}`).send();
      }
      const length = range ? range.end - range.start + 1 : info.size;
      reply.status(range ? 206 : 200).header('content-length', length);
      if (range) reply.header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
      if (request.method === 'HEAD' || length === 0) return reply.send();
      return reply.send(await storage.read(key, range ?? undefined));
    },
  });
}

/**
 * One `bytes=` range as inclusive offsets; null means serve everything (no header, a syntax we
 * ignore as RFC 9110 allows, or several ranges, which downloaders do not need).
 */
function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
