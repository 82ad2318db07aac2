import {
  type AsrRegistry,
  createAsrRegistry,
  createEngineRegistry,
  createMediaInspector,
  type EngineRegistry,
  type MediaInspector,
  type OcrEngine,
} from '@vw/engines';
import type { FastifyBaseLogger } from 'fastify';
import { createAliyunSmsSender } from './adapters/messaging/aliyun-sms.ts';
import type { MessageSender } from './adapters/messaging/messaging.ts';
import {
  createOperatorLogSender,
  createOutboxSender,
  createUnavailableSender,
} from './adapters/messaging/outbox.ts';
import { createSmtpSender } from './adapters/messaging/smtp.ts';
import { createPaymentProviders, type PaymentProviders } from './adapters/payments/providers.ts';
import type { ObjectStorage } from './adapters/storage/storage.ts';
import { createStorage } from './adapters/storage/storage.ts';
import { type AccessTokens, createAccessTokens } from './auth/access-tokens.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle, Db, DbKind } from './db/database.ts';
import { createJobQueue, type JobQueue } from './jobs/index.ts';
import { createMemoryLimiter, createRedisLimiter, type Limiter } from './modules/apikeys/limits.ts';
import { createLazyOcrPool } from './modules/ocr/ocr.engine.ts';
import { loadSigningSecret } from './secrets.ts';
import { createTaskEventHub, type TaskEventHub } from './tasks/events.ts';

/** Everything a service needs, built once at start-up from the config. */
export interface AppContext {
  config: Config;
  db: Db;
  dbKind: DbKind;
  clock: Clock;
  log: FastifyBaseLogger;
  accessTokens: AccessTokens;
  sms: MessageSender;
  mail: MessageSender;
  storage: ObjectStorage;
  jobs: JobQueue;
  /** Speech engines (created at start-up by createEnginesFromConfig; empty when not given). */
  engines: EngineRegistry;
  /** Speech recognizers (created at start-up by createAsrFromConfig; empty when not given: get() says what to configure). */
  asr: AsrRegistry;
  /** Payment providers by channel (sandbox, WeChat Pay, Alipay). */
  payments: PaymentProviders;
  /** Task events for the SSE streams of this process (through Redis pub/sub when REDIS_URL is set). */
  taskEvents: TaskEventHub;
  /** Set on SIGTERM: /readyz answers 503 so load balancers stop sending before the process closes. */
  lifecycle: { draining: boolean };
  /** Per-account rate windows (tasks, uploads, webhook tests; account-limits.ts), on Redis when REDIS_URL is set. */
  accountLimits: Limiter;
  /** The process's one bounded OCR pool (PP-OCRv4 workers, started on first use; closed on shutdown). */
  ocr: OcrEngine;
  /** Probe, peaks and thumbnails of uploaded files, in a helper process (started on first use; closed on shutdown). */
  mediaInspector: MediaInspector;
}

export function createContext(options: {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  log: FastifyBaseLogger;
  engines?: EngineRegistry;
  asr?: AsrRegistry;
  ocr?: OcrEngine;
}): AppContext {
  const { config, database, clock, log } = options;
  const now = () => clock.now();
  // A channel without a real sender: the dev outbox outside production; in production the
  // operator's log when VERIFICATION_CODES_TO_LOG says so, else no codes to that channel.
  const fallbackSender = (channel: 'sms' | 'mail') =>
    !config.isProduction
      ? createOutboxSender(channel, database.db, log, now)
      : config.VERIFICATION_CODES_TO_LOG
        ? createOperatorLogSender(channel, log)
        : createUnavailableSender(channel);
  const sms =
    config.SMS_PROVIDER === 'aliyun'
      ? createAliyunSmsSender(
          {
            accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID!,
            accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET!,
            signName: config.ALIYUN_SMS_SIGN_NAME!,
            templateCode: config.ALIYUN_SMS_TEMPLATE_CODE!,
            endpoint: config.ALIYUN_SMS_ENDPOINT,
          },
          now,
        )
      : fallbackSender('sms');
  const mail = config.SMTP_URL ? createSmtpSender(config.SMTP_URL, config.MAIL_FROM) : fallbackSender('mail');
  const secret = loadSigningSecret(config);
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    clock,
    log,
    accessTokens: createAccessTokens(secret, config.ACCESS_TOKEN_TTL, now),
    sms,
    mail,
    storage: createStorage(config, secret, now),
    jobs: createJobQueue({
      db: database.db,
      clock,
      log,
      redisUrl: config.REDIS_URL,
      prefix: config.REDIS_PREFIX,
      leaseMs: config.JOB_LEASE_MS,
      app: () => ctx,
    }),
    engines: options.engines ?? createEngineRegistry([]),
    asr: options.asr ?? createAsrRegistry([]),
    payments: createPaymentProviders({ config, db: database.db, now, signingSecret: secret }),
    taskEvents: createTaskEventHub({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, log }),
    accountLimits: config.REDIS_URL
      ? createRedisLimiter(config.REDIS_URL, `${config.REDIS_PREFIX}-account:`)
      : createMemoryLimiter(now),
    ocr: options.ocr ?? createLazyOcrPool(config.OCR_WORKERS),
    mediaInspector: createMediaInspector(),
    lifecycle: { draining: false },
  };
  return ctx;
}
