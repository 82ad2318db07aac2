import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root; relative paths in the environment are taken from here. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const optionalUrl = z.url().optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** Unset: loopback in development (the dev outbox must not face the network), all interfaces otherwise. */
    HOST: z.string().optional(),
    PORT: z.coerce.number().int().min(0).max(65535).default(8787),
    PUBLIC_URL: optionalUrl,
    DATA_DIR: z.string().default('data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for the embedded SQLite file)')
      .optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    /** Key prefix in Redis (jobs, task events, rate limits), so several installations can share one Redis. */
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .default('vw'),
    JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** Heavy lane (ffmpeg, engines): separate from the light jobs so they never wait behind media. */
    JOB_HEAVY_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
    /** How long a worker holds a job without renewing it: a killed worker's job is taken over after about twice this. */
    JOB_LEASE_MS: z.coerce.number().int().min(2000).default(30_000),
    /** OCR worker threads of the process's pool (subtitle recognition and erase checks); default by cores, at most 2. */
    OCR_WORKERS: z.coerce.number().int().min(1).max(16).optional(),
    S3_ENDPOINT: optionalUrl,
    S3_REGION: z.string().default('us-east-1'),
    S3_BUCKET: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(true),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).default(900),
    REFRESH_TOKEN_TTL: z.coerce
      .number()
      .int()
      .min(3600)
      .default(30 * 24 * 3600),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().default('声音工作台 <no-reply@voice-workbench.local>'),
    SMS_PROVIDER: z.enum(['outbox', 'aliyun']).default('outbox'),
    /**
     * Production without a real sender for a channel: its verification codes are written to the
     * server log for the operator to pass on (the only log lines that ever hold a code).
     */
    VERIFICATION_CODES_TO_LOG: bool.default(false),
    ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
    ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
    ALIYUN_SMS_SIGN_NAME: z.string().optional(),
    ALIYUN_SMS_TEMPLATE_CODE: z.string().optional(),
    ALIYUN_SMS_ENDPOINT: z.url().default('https://dysmsapi.aliyuncs.com'),
    DEMO_ACCOUNT: z.string().default('13800000000'),
    DEMO_PASSWORD: z.string().default('demo12345'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: bool.default(false),
    WEB_DIST_DIR: z.string().default('apps/web/dist'),
    /** The models folder (speech, recognition, cloning); default DATA_DIR/models. */
    SHERPA_ONNX_MODELS_DIR: z.string().optional(),
    /**
     * Models a server process (role all or worker) installs in the background after it starts: the
     * catalogue's recommended set, or none (tests, machines managed with `npm run admin -- engines`).
     */
    ENGINES: z.enum(['recommended', 'none']).optional(),
    /** Where model downloads come from: the sherpa-onnx releases, or a mirror with the same paths. */
    ENGINES_BASE_URL: z.url().default('https://github.com/k2-fsa/sherpa-onnx/releases/download'),
    OPENAI_TTS_BASE_URL: optionalUrl,
    OPENAI_TTS_API_KEY: z.string().optional(),
    /** An OpenAI-compatible /v1/audio/transcriptions server (faster-whisper-server, whisper.cpp, vLLM…). */
    OPENAI_ASR_BASE_URL: optionalUrl,
    OPENAI_ASR_API_KEY: z.string().optional(),
    OPENAI_ASR_MODEL: z.string().min(1).optional(),
    /** An OpenAI-compatible chat server (DeepSeek, Qwen, Ollama, vLLM…): dubbing shortens overflowing lines with it; audiobook import refines speaker attribution. */
    LLM_BASE_URL: optionalUrl,
    LLM_API_KEY: z.string().optional(),
    LLM_MODEL: z.string().min(1).optional(),
    /** 视频翻译: an embedding model on LLM_BASE_URL (/v1/embeddings) scores back-translation drift; else token overlap. */
    LLM_EMBEDDING_MODEL: z.string().min(1).optional(),
    /** 视频翻译: target languages offered, comma-separated codes (default en,ja,ko,zh-Hant,es,fr,de,ru,th,vi,pt,it,id,ar). */
    TRANSLATE_TARGET_LANGUAGES: z.string().optional(),
    /** 口型同步: a self-hosted lip-sync server (video + audio → video), e.g. a Wav2Lip / LatentSync wrapper. */
    LIPSYNC_URL: optionalUrl,
    LIPSYNC_API_KEY: z.string().optional(),
    /** A self-hosted voice-conversion server speaking vw-vc/1 (packages/engines/src/vc/http.ts), e.g. an RVC wrapper. */
    VC_SERVER_URL: optionalUrl,
    VC_SERVER_API_KEY: z.string().optional(),
    /** The server voice/model used when a target names none (RVC: the .pth name). */
    VC_SERVER_VOICE: z.string().optional(),
    /** Label shown with its results, e.g. 'RVC v2'. */
    VC_SERVER_LABEL: z.string().optional(),
    /** A self-hosted source separator speaking vw-sep/1 (engines separate/http.ts), e.g. a Demucs or UVR wrapper: dubbing's 分离人声 background. */
    SEPARATOR_URL: optionalUrl,
    SEPARATOR_API_KEY: z.string().optional(),
    /** The server's model (Demucs: htdemucs); the server's default when unset. */
    SEPARATOR_MODEL: z.string().optional(),
    /** Label shown with its results, e.g. 'Demucs htdemucs'. */
    SEPARATOR_LABEL: z.string().optional(),
    /** Voice cloning: a GPT-SoVITS api_v2 server, a CosyVoice FastAPI server, a trainer (HTTP). */
    GPT_SOVITS_URL: optionalUrl,
    /** Where GPT-SoVITS sees CLONE_REFERENCE_DIR/gpt-sovits (when mounted elsewhere on its machine). */
    GPT_SOVITS_REMOTE_REF_DIR: z.string().optional(),
    COSYVOICE_URL: optionalUrl,
    COSYVOICE_SAMPLE_RATE: z.coerce.number().int().min(8000).max(48000).default(22050),
    VOICE_CLONE_TRAINER_URL: optionalUrl,
    /** How often a training job is asked for its status. */
    VOICE_CLONE_TRAINER_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(10_000),
    /** Reference clips of cloned voices read at synthesis time (default DATA_DIR/clone-references). */
    CLONE_REFERENCE_DIR: z.string().optional(),
    PAYMENT_WECHAT_PROVIDER: z.enum(['sandbox', 'wechatpay']).default('sandbox'),
    PAYMENT_ALIPAY_PROVIDER: z.enum(['sandbox', 'alipay']).default('sandbox'),
    /** The sandbox grants what is "paid" on its own page, so production refuses it unless this says otherwise. */
    PAYMENT_SANDBOX_IN_PRODUCTION: bool.default(false),
    PAYMENT_ORDER_TTL: z.coerce.number().int().min(10).max(7200).default(600),
    WECHATPAY_BASE_URL: z.url().default('https://api.mch.weixin.qq.com'),
    WECHATPAY_APPID: z.string().optional(),
    WECHATPAY_MCHID: z.string().optional(),
    WECHATPAY_MERCHANT_SERIAL_NO: z.string().optional(),
    WECHATPAY_MERCHANT_PRIVATE_KEY_FILE: z.string().optional(),
    WECHATPAY_APIV3_KEY: z.string().length(32, 'must be the 32-character APIv3 key').optional(),
    WECHATPAY_PLATFORM_CERTS_DIR: z.string().optional(),
    WECHATPAY_PUBLIC_KEY_FILE: z.string().optional(),
    WECHATPAY_PUBLIC_KEY_ID: z.string().startsWith('PUB_KEY_ID_', 'must start with PUB_KEY_ID_').optional(),
    ALIPAY_GATEWAY: z.url().default('https://openapi.alipay.com/gateway.do'),
    ALIPAY_APP_ID: z.string().optional(),
    ALIPAY_PRIVATE_KEY_FILE: z.string().optional(),
    ALIPAY_PUBLIC_KEY_FILE: z.string().optional(),
    ALIPAY_SELLER_ID: z.string().optional(),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)/, 'must be a mailto: address or an https:// URL')
      .optional(),
    PUBLIC_API_KEY_RPM: z.coerce.number().int().min(1).default(600),
    PUBLIC_API_ACCOUNT_RPM: z.coerce.number().int().min(1).default(1200),
    PUBLIC_API_CONCURRENCY: z.coerce.number().int().min(1).optional(),
    /**
     * How long a process vouches for the hold of a stream it runs without renewing (renewed every
     * quarter of it); a dead process's holds are released within about twice this.
     */
    HOLD_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
    /** On SIGTERM an API process answers /readyz with 503 this long before it stops taking requests. */
    DRAIN_DELAY_MS: z.coerce.number().int().min(0).default(0),
    /** On SIGTERM: how long running requests and job stages get to finish before they are cut (stages handed back). */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(0).default(30_000),
    WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).default(5),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  })
  .superRefine((env, ctx) => {
    const s3 = [env.S3_BUCKET, env.S3_ACCESS_KEY_ID, env.S3_SECRET_ACCESS_KEY];
    if (s3.some(Boolean) && !s3.every(Boolean)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_BUCKET'],
        message: 'S3 storage needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together',
      });
    }
    const requireAll = (keys: readonly (keyof typeof env)[], when: string) => {
      for (const key of keys) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: `required when ${when}` });
      }
    };
    if (env.SMS_PROVIDER === 'aliyun') {
      requireAll(
        [
          'ALIYUN_SMS_ACCESS_KEY_ID',
          'ALIYUN_SMS_ACCESS_KEY_SECRET',
          'ALIYUN_SMS_SIGN_NAME',
          'ALIYUN_SMS_TEMPLATE_CODE',
        ],
        'SMS_PROVIDER=aliyun',
      );
    }
    if (env.PAYMENT_WECHAT_PROVIDER === 'wechatpay') {
      const when = 'PAYMENT_WECHAT_PROVIDER=wechatpay';
      requireAll(
        [
          'WECHATPAY_APPID',
          'WECHATPAY_MCHID',
          'WECHATPAY_MERCHANT_SERIAL_NO',
          'WECHATPAY_MERCHANT_PRIVATE_KEY_FILE',
          'WECHATPAY_APIV3_KEY',
        ],
        when,
      );
      // Notify verification: platform certificates, or the WeChat Pay public key with its id.
      if (!env.WECHATPAY_PLATFORM_CERTS_DIR || env.WECHATPAY_PUBLIC_KEY_FILE || env.WECHATPAY_PUBLIC_KEY_ID)
        requireAll(['WECHATPAY_PUBLIC_KEY_FILE', 'WECHATPAY_PUBLIC_KEY_ID'], when);
    }
    if (env.PAYMENT_ALIPAY_PROVIDER === 'alipay') {
      requireAll(
        ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY_FILE', 'ALIPAY_PUBLIC_KEY_FILE'],
        'PAYMENT_ALIPAY_PROVIDER=alipay',
      );
    }
    if (
      env.NODE_ENV === 'production' &&
      env.SMS_PROVIDER === 'outbox' &&
      !env.SMTP_URL &&
      !env.VERIFICATION_CODES_TO_LOG
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_PROVIDER'],
        message:
          'production needs a real sender of verification codes: SMS_PROVIDER=aliyun and/or SMTP_URL ' +
          '(or VERIFICATION_CODES_TO_LOG=true to read codes from the server log and pass them on yourself)',
      });
    }
    if (env.OPENAI_ASR_BASE_URL) requireAll(['OPENAI_ASR_MODEL'], 'OPENAI_ASR_BASE_URL is set');
    if (env.LLM_BASE_URL) requireAll(['LLM_MODEL'], 'LLM_BASE_URL is set');
    if (env.DATABASE_URL && !env.JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'required with DATABASE_URL: every API process must sign tokens with the same secret',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'HOST' | 'ENGINES'> {
  /** Where the server listens: HOST, else 127.0.0.1 in development and 0.0.0.0 otherwise. */
  HOST: string;
  /** ENGINES, else recommended (none under NODE_ENV=test: a test never downloads models). */
  ENGINES: 'recommended' | 'none';
  dataDir: string;
  filesDir: string;
  /** The models folder: models.json, install-state.json and the model files (resolveModelsDir). */
  modelsDir: string;
  webDistDir: string;
  publicUrl: string;
  isProduction: boolean;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  storage: { kind: 'local' } | { kind: 's3' };
}

export class ConfigError extends Error {}

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR);
  return {
    ...env,
    HOST: env.HOST ?? (env.NODE_ENV === 'development' ? '127.0.0.1' : '0.0.0.0'),
    ENGINES: env.ENGINES ?? (env.NODE_ENV === 'test' ? 'none' : 'recommended'),
    dataDir,
    filesDir: path.join(dataDir, 'files'),
    modelsDir: resolveModelsDir(env, dataDir),
    webDistDir: path.resolve(REPO_ROOT, env.WEB_DIST_DIR),
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    isProduction: env.NODE_ENV === 'production',
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'workbench.db') },
    storage: env.S3_BUCKET ? { kind: 's3' } : { kind: 'local' },
  };
}

/** The one place the models folder is decided: SHERPA_ONNX_MODELS_DIR if set, else DATA_DIR/models. */
export function resolveModelsDir(env: Pick<Env, 'SHERPA_ONNX_MODELS_DIR'>, dataDir: string): string {
  return env.SHERPA_ONNX_MODELS_DIR
    ? path.resolve(REPO_ROOT, env.SHERPA_ONNX_MODELS_DIR)
    : path.join(dataDir, 'models');
}

export function ensureDataDir(config: Config): void {
  mkdirSync(config.filesDir, { recursive: true });
}
