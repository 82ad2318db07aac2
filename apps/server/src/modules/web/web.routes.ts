import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';

export const WEB_BASE = '/workbench/';

/**
 * Serves the built web app under /workbench/: hashed assets with a long cache, and index.html for
 * every other path so the client router handles deep links. The folder is read per request, so a
 * new build switched in (apps/web/dist is a link the build points at its new folder) is served at
 * once, without a restart; until there is a build, visitors get a 503.
 */
export async function registerWebApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(WEB_BASE));
  const dist = ctx.config.webDistDir;
  const index = path.join(dist, 'index.html');
  if (!existsSync(index)) {
    ctx.log.warn(`the web app is not built: run npm run build -w @vw/web (looked for ${index})`);
  }
  const unavailable = (reply: FastifyReply) =>
    reply.status(503).type('text/plain; charset=utf-8').send('网页端暂不可用，请稍后再试或联系管理员');
  await app.register(
    async (scope) => {
      // Every request looks in the folder (wildcard), so files of a newer build are found too.
      await scope.register(fastifyStatic, {
        root: dist,
        prefix: '/',
        wildcard: true,
        index: false,
        // The web build writes .br/.gz beside each asset; the browser gets the smallest it accepts.
        preCompressed: true,
        cacheControl: false,
        setHeaders(reply: FastifyReply, filePath: string) {
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
      // Not a file: a page of the client router, answered with index.html. A missing asset stays a
      // 404 (a script that is HTML would only fail later and less clearly).
      const page = (request: FastifyRequest, reply: FastifyReply) => {
        if (!existsSync(index)) return unavailable(reply);
        if (request.url.startsWith(`${WEB_BASE}assets/`)) {
          return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
        }
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      };
      // `/workbench` and `/workbench/` (a prefixed '/' route answers both).
      scope.get('/', { schema: { hide: true } }, page);
      scope.setNotFoundHandler(page);
    },
    { prefix: WEB_BASE.slice(0, -1) },
  );
}
