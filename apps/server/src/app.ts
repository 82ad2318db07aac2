import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { AccessClaims } from './auth/access-tokens.ts';
import type { AppContext } from './context.ts';
import { AppError } from './errors.ts';
import { registerHealthRoutes } from './health/health.ts';
import { sendWorkbenchError } from './http/errors.ts';
import { callSecurityHeaders, securityHeaders } from './http/security-headers.ts';
import { registerInputRule, zodValidatorCompiler } from './http/validation.ts';
import { requestLoggerFactory } from './logger.ts';
import { accessActiveNow, isAccessActive } from './modules/accounts/accounts.service.ts';
import { registerModules } from './modules/index.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: 'user' | 'public';
    /** A contract call (registerCall): answers JSON or audio to the client, never a page. */
    call?: true;
  }
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

type RouteConfig = FastifyRequest['routeOptions']['config'];

/** A request without an active token: 401 when its call requires a user, else it runs anonymously. */
function refusal(config: RouteConfig): AppError | undefined {
  return config.auth === 'user' ? AppError.unauthorized() : undefined;
}

function admit(
  request: FastifyRequest,
  config: RouteConfig,
  claims: AccessClaims,
  active: boolean,
  done: (err?: Error) => void,
): void {
  if (active) request.user = { uid: claims.uid };
  done(active ? undefined : refusal(config));
}

/** Builds the HTTP API around an already created context. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: ctx.config.TRUST_PROXY,
    logController: new LogController({ disableRequestLogging: true }),
    // Every log line of a request carries the client's device and bundle ids.
    childLoggerFactory: requestLoggerFactory,
  });

  // The client sends `Content-Type: application/json` on every request, bodiless calls included.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('malformed JSON body'), { statusCode: 400 }), undefined);
    }
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  // Responses are built from typed handlers; the response schemas exist for the OpenAPI document.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  const pageHeaders = securityHeaders();
  const callHeaders = callSecurityHeaders();
  // With Redis the flood guard is shared by every API process.
  const redis = ctx.config.REDIS_URL
    ? new Redis(ctx.config.REDIS_URL, { maxRetriesPerRequest: 1 })
    : undefined;
  if (redis) app.addHook('onClose', async () => void (await redis.quit()));
  app.addHook('onClose', () => ctx.accountLimits.close());
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: `${ctx.config.REDIS_PREFIX}-rate-limit:`,
    errorResponseBuilder: (_request, context) => AppError.tooManyRequests(context.ttl / 1000),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: '声音工作台 API', version: '1.0.0', description: 'Voice Workbench client API' },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.decorateRequest('user', null);
  // One hook on the hot path: security headers, then the Bearer token and its account.
  app.addHook('onRequest', (request, reply, done) => {
    // Fastify builds routeOptions on every access: read once.
    const config = request.routeOptions.config;
    reply.headers(config.call ? callHeaders : pageHeaders);
    // The client sends `Content-Type: application/json` on bodiless calls too; without a body there
    // is nothing to parse (the parser below would answer undefined), so let Fastify skip reading it.
    const raw = request.raw.headers;
    if (
      raw['content-type']?.startsWith('application/json') &&
      raw['transfer-encoding'] === undefined &&
      (raw['content-length'] === undefined || raw['content-length'] === '0')
    ) {
      delete raw['content-type'];
    }
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    const claims = token ? ctx.accessTokens.verify(token) : null;
    if (!claims) return done(refusal(config));
    // A token outlives a refusal, a cancellation or a sign-out by up to 15 minutes: the account and
    // the session decide, read per request (at most a second old, so every process sees them within it;
    // a write in this process empties the caches at once). Usually both are cached: no promise.
    const known = accessActiveNow(ctx, claims);
    if (known !== undefined) return admit(request, config, claims, known, done);
    isAccessActive(ctx, claims).then((active) => admit(request, config, claims, active, done), done);
  });

  app.setErrorHandler(sendWorkbenchError);
  registerInputRule(app);

  registerHealthRoutes(app, ctx);
  await registerModules(app, ctx);

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send({ code: 404, msg: `接口不存在：${request.method} ${request.url.split('?')[0]}`, data: null });
  });

  return app;
}
