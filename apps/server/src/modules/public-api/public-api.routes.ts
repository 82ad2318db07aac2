import {
  API_KEY_HEADER,
  codeMessages,
  countTtsCharacters,
  ErrorCode,
  namedErrorMessages,
  PUBLIC_API_DOCS_PATH,
  PUBLIC_API_OPENAPI_PATH,
  publicApi,
  publicApiConcurrency,
  RATE_LIMIT_HEADERS,
} from '@vw/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { sendPublicError } from '../../http/errors.ts';
import {
  type AuthKey,
  authenticateApiKey,
  findApiKeyViews,
  getApiKeyUsage,
} from '../apikeys/apikeys.service.ts';
import { createMemoryLimiter, createRedisLimiter, type Limiter } from '../apikeys/limits.ts';
import { type UsageMeter, usageMeter } from '../apikeys/metering.ts';
import { sumSpentByApiKey } from '../credits/credits.repo.ts';
import { getBalance } from '../credits/ledger.service.ts';
import { getTaskStatus } from '../tts/history.service.ts';
import { sendAudio } from '../tts/tts.routes.ts';
import { generateSpeech, type TtsRequest } from '../tts/tts.service.ts';
import { defaultVoiceOf, findModels, findVoices, getUserLevel } from '../voices/voices.service.ts';
import { DOCS_HTML, DOCS_INIT_JS, publicOpenApiDocument } from './openapi.ts';
import { registerTranscriptionRoutes } from './transcriptions.routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: AuthKey | null;
    /** Characters a public call asked to synthesise (usage counters). */
    apiCharacters: number;
  }
}

const { publicTts, publicTtsTask, publicVoices, publicModels, publicBalance, publicUsage, openaiSpeech } =
  publicApi;

const WINDOW_MS = 60_000;
const LEVEL_CACHE_MS = 30_000;
/** OpenAI's own voice names read as our default Mandarin voice, so unchanged client code works. */
const OPENAI_VOICES = new Set([
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
]);
const OPENAI_MODELS = new Set(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']);

function keyFrom(request: FastifyRequest): string | null {
  const header = request.headers[API_KEY_HEADER];
  if (typeof header === 'string' && header) return header.trim();
  const auth = request.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7).trim() : null;
}

/** Runs `fn` once when the answer is over, whether it was sent whole or the client went away. */
function whenReplyEnds(reply: FastifyReply, fn: () => void): void {
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    fn();
  };
  reply.raw.once('finish', once);
  reply.raw.once('close', once);
}

const ok = <T>(data: T) => ({ code: 0, msg: codeMessages[0] ?? 'success', data });
/** The key the onRequest hook authenticated. */
const keyOf = (request: FastifyRequest) => request.apiKey!;

/**
 * The onRequest hook of every keyed call: the key, its per-key and per-account rate windows
 * (RateLimit-* headers, 429), usage counted when the answer ends, then a concurrency slot by plan.
 */
function admitRequest(
  ctx: AppContext,
  limiter: Limiter,
  meter: UsageMeter,
  levelOf: (userId: string) => Promise<number>,
) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const key = await authenticateApiKey(ctx, keyFrom(request));
    request.apiKey = key;
    const [perKey, perAccount] = await Promise.all([
      limiter.hit(`key:${key.id}`, ctx.config.PUBLIC_API_KEY_RPM, WINDOW_MS),
      limiter.hit(`acct:${key.userId}`, ctx.config.PUBLIC_API_ACCOUNT_RPM, WINDOW_MS),
    ]);
    // The headers describe whichever limit is closer to being reached.
    const shown = !perKey.allowed
      ? perKey
      : !perAccount.allowed
        ? perAccount
        : perKey.remaining <= perAccount.remaining
          ? perKey
          : perAccount;
    const resetSeconds = Math.max(1, Math.ceil(shown.resetMs / 1000));
    reply.header(RATE_LIMIT_HEADERS.limit, String(shown.limit));
    reply.header(RATE_LIMIT_HEADERS.remaining, String(shown.remaining));
    reply.header(RATE_LIMIT_HEADERS.reset, String(resetSeconds));
    whenReplyEnds(reply, () => meter.record(key.id, key.userId, request.apiCharacters));
    if (!perKey.allowed || !perAccount.allowed) throw AppError.tooManyRequests(resetSeconds);

    // The operator may set one limit for every account (PUBLIC_API_CONCURRENCY) instead of the plan's.
    const slots = ctx.config.PUBLIC_API_CONCURRENCY ?? publicApiConcurrency(await levelOf(key.userId));
    if (!(await limiter.acquire(`acct:${key.userId}`, slots))) {
      throw new AppError(
        ErrorCode.TooManyRequests,
        namedErrorMessages.err_concurrency_limit,
        'err_concurrency_limit',
        429,
        { [RATE_LIMIT_HEADERS.retryAfter]: '1' },
      );
    }
    whenReplyEnds(reply, () => {
      limiter.release(`acct:${key.userId}`).catch((err) => ctx.log.warn({ err }, 'slot release failed'));
    });
  };
}

/** Speech synthesis: our own call and the OpenAI-compatible audio.speech. */
function registerSpeechRoutes(scope: FastifyInstance, ctx: AppContext): void {
  const speak = async (request: FastifyRequest, reply: FastifyReply, input: TtsRequest) => {
    const key = keyOf(request);
    request.apiCharacters = countTtsCharacters(input.text);
    const outcome = await generateSpeech(ctx, key.userId, input, {
      apiKey: { id: key.id, creditLimit: key.creditLimit },
    });
    if (outcome.kind === 'task') return ok(outcome.data);
    await sendAudio(reply, outcome);
    return reply;
  };

  scope.post(
    publicTts.path,
    { schema: { hide: true, body: publicTts.body }, bodyLimit: 8 * 1024 * 1024 },
    (request, reply) => speak(request, reply, request.body as z.output<typeof publicTts.body>),
  );

  const openaiHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as z.output<typeof openaiSpeech.body>;
    if (body.response_format !== 'mp3' && body.response_format !== 'wav') {
      throw AppError.named(
        'err_invalid_param',
        `不支持的 response_format：${body.response_format}（支持 mp3、wav）`,
      );
    }
    if (body.speed < 0.5 || body.speed > 2)
      throw AppError.named('err_invalid_param', 'speed 须在 0.5 到 2 之间');
    const voiceId = OPENAI_VOICES.has(body.voice) ? await defaultVoiceOf(ctx, 'tts') : body.voice;
    return speak(request, reply, {
      text: body.input,
      voice_id: voiceId,
      model_id: OPENAI_MODELS.has(body.model) ? undefined : body.model,
      speed: body.speed,
      pitch: 0,
      volume: 0,
      format: body.response_format,
      mode: 'stream',
      no_cache: false,
    });
  };
  const openaiOptions = { schema: { hide: true, body: openaiSpeech.body }, bodyLimit: 1024 * 1024 };
  scope.post(openaiSpeech.path, openaiOptions, openaiHandler);
  // Clients configured with the bare origin + /v1 as base URL reach the same route.
  scope.post('/v1/audio/speech', openaiOptions, openaiHandler);
}

/** Tasks, voices, models, balance and usage, as the key's holder sees them. */
function registerKeyHolderRoutes(scope: FastifyInstance, ctx: AppContext): void {
  scope.get(
    publicTtsTask.path,
    { schema: { hide: true, querystring: publicTtsTask.query } },
    async (request) => {
      const { task_id } = request.query as { task_id: string };
      return ok(await getTaskStatus(ctx, keyOf(request).userId, task_id));
    },
  );

  scope.get(publicVoices.path, { schema: { hide: true } }, async (request) =>
    ok(await findVoices(ctx, keyOf(request).userId, {})),
  );

  scope.get(publicModels.path, { schema: { hide: true } }, async (request) => {
    const { models } = await findModels(ctx, keyOf(request).userId);
    const created = 1_735_689_600; // 2025-01-01: models have no creation time of their own
    return {
      ...ok(
        models.map((m) => ({
          id: m.model_id,
          object: 'model' as const,
          created,
          owned_by: 'voice-workbench',
          name: m.name,
          description: m.description,
          languages: m.languages.map((l) => l.language_id),
          max_text_length: m.max_text_length,
        })),
      ),
      object: 'list',
    };
  });

  scope.get(publicBalance.path, { schema: { hide: true } }, async (request) => {
    const key = keyOf(request);
    const [{ balance, held }, level, used] = await Promise.all([
      getBalance(ctx, key.userId),
      getUserLevel(ctx, key.userId),
      sumSpentByApiKey(ctx.db, key.id),
    ]);
    return ok({
      balance,
      held,
      level,
      key: {
        key_id: key.id,
        credit_limit: key.creditLimit,
        credits_used: used,
        credits_remaining: key.creditLimit == null ? null : Math.max(0, key.creditLimit - used),
      },
    });
  });

  scope.get(publicUsage.path, { schema: { hide: true, querystring: publicUsage.query } }, async (request) => {
    const key = keyOf(request);
    const { days } = request.query as { days: number };
    const usage = await getApiKeyUsage(ctx, key.userId, key.id, days);
    const keys = await findApiKeyViews(ctx, key.userId);
    return ok({
      key_id: key.id,
      days: usage.days,
      keys: keys.map((k) => ({
        key_id: k.key_id,
        name: k.name,
        masked_key: k.masked_key,
        status: k.status,
        requests: k.requests,
        credits_used: k.credits_used,
      })),
    });
  });
}

/**
 * The versioned public API (/api/v1) for API-key holders. Every request: key → per-key and per-account
 * rate windows (RateLimit-* headers, 429) → a concurrency slot by plan → the same services the
 * workbench uses (same credits, recorded against the key) → usage counted when the answer ends.
 */
export async function registerPublicApiRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limiter: Limiter = ctx.config.REDIS_URL
    ? createRedisLimiter(ctx.config.REDIS_URL, `${ctx.config.REDIS_PREFIX}-public:`)
    : createMemoryLimiter(() => ctx.clock.now());
  const meter = usageMeter(ctx);
  app.addHook('onClose', async () => {
    await meter.close();
    await limiter.close();
  });
  const levels = new Map<string, { level: number; until: number }>();
  const levelOf = async (userId: string) => {
    const now = Date.now();
    const hit = levels.get(userId);
    if (hit && hit.until > now) return hit.level;
    const level = await getUserLevel(ctx, userId);
    if (levels.size > 10_000) levels.clear();
    levels.set(userId, { level, until: now + LEVEL_CACHE_MS });
    return level;
  };

  // Documentation needs no key; the document is built on its first request.
  let openApiDocument: Record<string, unknown> | undefined;
  app.get(
    PUBLIC_API_OPENAPI_PATH,
    { schema: { hide: true } },
    async () => (openApiDocument ??= publicOpenApiDocument(ctx.config.publicUrl)),
  );
  app.get(PUBLIC_API_DOCS_PATH, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(DOCS_HTML),
  );
  app.get(`${PUBLIC_API_DOCS_PATH}/init.js`, { schema: { hide: true } }, async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').send(DOCS_INIT_JS),
  );

  await app.register(async (scope) => {
    scope.decorateRequest('apiKey', null);
    scope.decorateRequest('apiCharacters', 0);

    scope.addHook('onRequest', admitRequest(ctx, limiter, meter, levelOf));
    scope.setErrorHandler(sendPublicError);

    registerSpeechRoutes(scope, ctx);
    await registerTranscriptionRoutes(scope, ctx);
    registerKeyHolderRoutes(scope, ctx);
  });
}
