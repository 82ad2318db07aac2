import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';

export const WEB_BASE = '/workbench/';

/**
 * Serves the built web app under /workbench/: hashed assets with a long cache, and index.html for
 * every other path so the client router handles deep links.
 */
export async function registerWebApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(WEB_BASE));
  const dist = ctx.config.webDistDir;
  const index = path.join(dist, 'index.html');
  if (!existsSync(index)) {
    ctx.log.warn(`the web app is not built: run npm run build -w @vw/web (looked for ${index})`);
    app.get('/workbench/*', { schema: { hide: true } }, (_request, reply) =>
      reply.status(503).type('text/plain; charset=utf-8').send('网页端暂不可用，请稍后再试或联系管理员'),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: dist,
    prefix: WEB_BASE,
    wildcard: false,
    index: false,
    // The web build writes .br/.gz beside each asset; the browser gets the smallest it accepts.
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply: FastifyReply, filePath: string) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (_request: unknown, reply: FastifyReply) => reply.sendFile('index.html');
  app.get('/workbench', { schema: { hide: true } }, sendIndex);
  app.get('/workbench/*', { schema: { hide: true } }, sendIndex);
}
