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
import { assembleEngines, type Engines } from './engines/engines.ts';
import { createJobQueue, type JobDefinition, type JobQueue, jobsByName } from './jobs/index.ts';
import { createMemoryLimiter, createRedisLimiter, type Limiter } from './modules/apikeys/limits.ts';
import { sendTaskWebhooks } from './modules/apikeys/webhooks.service.ts';
import { audiobookAvailability } from './modules/audiobook/audiobook.service.ts';
import { type AbandonedHoldHandler, TASK_HOLDS } from './modules/credits/hold-leases.ts';
import { settleTaskCredits } from './modules/credits/ledger.service.ts';
import { dubbingAvailability } from './modules/dubbing/dubbing.service.ts';
import { eraseAvailability } from './modules/erase/erase.service.ts';
import type { ToolChecks } from './modules/features/features.service.ts';
import { appJobs, appPipelines } from './modules/jobs.ts';
import { pushLongTaskFinished } from './modules/notifications/notifications.service.ts';
import { ocrAvailability } from './modules/ocr/ocr.service.ts';
import { sttAvailability } from './modules/stt/stt.service.ts';
import { failSynthesisOfAbandonedHold } from './modules/tts/tts.service.ts';
import { translateAvailability } from './modules/video-translation/video-translation.service.ts';
import { voiceChangerAvailability } from './modules/voice-changer/voice-changer.service.ts';
import { startVoicePreviews } from './modules/voices/voices.service.ts';
import { loadSigningSecret } from './secrets.ts';
import { createTaskEventHub, type TaskEventHub } from './tasks/events.ts';
import type { TaskFinishedListener } from './tasks/finished.ts';
import { type Pipeline, pipelinesByTool, stageJobs } from './tasks/pipeline.ts';
import { failTaskOfAbandonedHold } from './tasks/tasks.service.ts';

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
  /** Every job this app's workers run, by name: the stand-alone jobs and each pipeline stage's. */
  jobDefinitions: ReadonlyMap<string, JobDefinition>;
  /** The task pipelines, by tool. */
  pipelines: ReadonlyMap<string, Pipeline<unknown>>;
  /** Every engine (created at start-up by createEngines; without speech, cloning and recognition when not given). */
  engines: Engines;
  /** Payment providers by channel (sandbox, WeChat Pay, Alipay). */
  payments: PaymentProviders;
  /** Task events for the SSE streams of this process (through Redis pub/sub when REDIS_URL is set). */
  taskEvents: TaskEventHub;
  /** Set on SIGTERM: /readyz answers 503 so load balancers stop sending before the process closes. */
  lifecycle: { draining: boolean };
  /** Per-account rate windows (tasks, uploads, webhook tests; account-limits.ts), on Redis when REDIS_URL is set. */
  accountLimits: Limiter;
  /** What happens when a task ends, in this order (tasks/finished.ts). */
  onTaskFinished: readonly TaskFinishedListener[];
  /** What each tool that takes leased holds does when the sweep releases one (hold-leases.ts), by tool. */
  onAbandonedHold: ReadonlyMap<string, AbandonedHoldHandler>;
  /** Whether each tool can run for a user, by tool (/v1/tools/capabilities). */
  toolChecks: ToolChecks;
}

export function createContext(options: {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  log: FastifyBaseLogger;
  engines?: Engines;
  /** The app's work (modules/jobs.ts) unless given: a test passes the app's plus its own. */
  jobs?: readonly JobDefinition[];
  pipelines?: readonly Pipeline<unknown>[];
}): AppContext {
  const { config, database, clock, log } = options;
  const pipelines = pipelinesByTool(options.pipelines ?? appPipelines);
  const jobDefinitions = jobsByName([...(options.jobs ?? appJobs), ...stageJobs(pipelines.values())]);
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
      jobs: jobDefinitions,
      redisUrl: config.REDIS_URL,
      prefix: config.REDIS_PREFIX,
      leaseMs: config.JOB_LEASE_MS,
      app: () => ctx,
    }),
    jobDefinitions,
    pipelines,
    engines: options.engines ?? assembleEngines(config),
    payments: createPaymentProviders({ config, db: database.db, now, signingSecret: secret }),
    taskEvents: createTaskEventHub({ redisUrl: config.REDIS_URL, prefix: config.REDIS_PREFIX, log }),
    accountLimits: config.REDIS_URL
      ? createRedisLimiter(config.REDIS_URL, `${config.REDIS_PREFIX}-account:`)
      : createMemoryLimiter(now),
    lifecycle: { draining: false },
    onTaskFinished: [settleTaskCredits, sendTaskWebhooks, pushLongTaskFinished],
    onAbandonedHold: new Map([
      [TASK_HOLDS, failTaskOfAbandonedHold],
      ['tts', failSynthesisOfAbandonedHold],
    ]),
    toolChecks: {
      ...audiobookAvailability,
      ...dubbingAvailability,
      ...eraseAvailability,
      ...ocrAvailability,
      ...sttAvailability,
      ...translateAvailability,
      ...voiceChangerAvailability,
    },
  };
  // Models installed or removed while running: the library's local voices follow, with previews.
  ctx.engines.onReload(() => startVoicePreviews(ctx));
  return ctx;
}
