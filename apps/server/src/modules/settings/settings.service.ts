import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { findAllSettings, findSetting, upsertSetting } from './settings.repo.ts';

const priceRule = z.object({
  /** What the quantity counts: characters of text, seconds of media, or one task. */
  basis: z.enum(['characters', 'seconds', 'task']),
  /** Credits per `unit` of the basis, rounded up; never less than `minimum`. */
  unit: z.number().positive(),
  credits: z.number().int().min(0),
  minimum: z.number().int().min(0),
});
export type PriceRule = z.infer<typeof priceRule>;

/** One pricing table, shared by estimate and charge. */
const DEFAULT_PRICING: Record<string, PriceRule> = {
  tts: { basis: 'characters', unit: 10, credits: 1, minimum: 1 },
  // Media tools are priced per started unit of media seconds, with a floor for short clips.
  voice_changer: { basis: 'seconds', unit: 10, credits: 3, minimum: 3 },
  voice_clone: { basis: 'task', unit: 1, credits: 500, minimum: 500 },
  speech_to_text: { basis: 'seconds', unit: 60, credits: 10, minimum: 1 },
  subtitle_ocr: { basis: 'seconds', unit: 60, credits: 20, minimum: 1 },
  subtitle_erase: { basis: 'seconds', unit: 60, credits: 60, minimum: 10 },
  dubbing: { basis: 'seconds', unit: 60, credits: 60, minimum: 10 },
  video_translation: { basis: 'seconds', unit: 60, credits: 120, minimum: 20 },
  audiobook: { basis: 'characters', unit: 10, credits: 1, minimum: 1 },
  api: { basis: 'characters', unit: 10, credits: 1, minimum: 1 },
};

/**
 * Runtime settings an operator changes without a restart (CLI `settings set KEY VALUE`).
 * Each has a schema and a default; values are stored as JSON text.
 */
export const runtimeSettings = {
  voice_clone_switch: { schema: z.boolean(), default: false, description: '是否开放声音克隆' },
  pricing: {
    schema: z.record(z.string(), priceRule),
    default: DEFAULT_PRICING,
    description: '积分价格表（各工具按字符、秒或次计费）',
  },
  sensitive_words: {
    schema: z.array(z.string()),
    default: [] as string[],
    description: '敏感词列表（文字转语音等：命中即拒绝，失败码 3，积分退还）',
  },
  free_monthly_credits: {
    schema: z.number().int().min(0),
    default: 500,
    description: '免费版每月赠送积分（按自然月发放，当月有效；0 表示不赠送）',
  },
  account_rate_limits: {
    // Missing fields take their defaults, so one limit can be set alone.
    schema: z.object({
      tasks: z.number().int().min(1).default(60),
      uploads: z.number().int().min(1).default(60),
      webhook_tests: z.number().int().min(1).default(10),
    }),
    default: { tasks: 60, uploads: 60, webhook_tests: 10 },
    description:
      '每个账号每分钟的上限：创建任务 tasks、开始上传 uploads、测试 Webhook webhook_tests（超出回复 429）',
  },
  questionnaire_trial_level: {
    schema: z.number().int().min(101),
    default: 200,
    description: '首次问卷奖励的 3 天体验会员等级（默认基础版 200）',
  },
} as const;
export type SettingKey = keyof typeof runtimeSettings;
type SettingValue<K extends SettingKey> = z.infer<(typeof runtimeSettings)[K]['schema']>;

export function isSettingKey(key: string): key is SettingKey {
  return key in runtimeSettings;
}

export async function getSetting<K extends SettingKey>(
  ctx: Pick<AppContext, 'db'>,
  key: K,
): Promise<SettingValue<K>> {
  const raw = await findSetting(ctx.db, key);
  if (raw === undefined) return runtimeSettings[key].default as SettingValue<K>;
  const parsed = runtimeSettings[key].schema.safeParse(JSON.parse(raw));
  return (parsed.success ? parsed.data : runtimeSettings[key].default) as SettingValue<K>;
}

/** Parses an operator-typed value (JSON, or a bare string) against the setting's schema. */
export async function updateSetting(ctx: AppContext, key: SettingKey, input: string): Promise<unknown> {
  let candidate: unknown = input;
  try {
    candidate = JSON.parse(input);
  } catch {
    // not JSON: keep the raw string
  }
  const value = runtimeSettings[key].schema.parse(candidate);
  await upsertSetting(ctx.db, key, JSON.stringify(value), ctx.clock.now());
  return value;
}

export async function findSettings(ctx: AppContext): Promise<Record<string, unknown>> {
  const stored = await findAllSettings(ctx.db);
  return Object.fromEntries(
    Object.entries(runtimeSettings).map(([key, def]) => [
      key,
      key in stored ? JSON.parse(stored[key]) : def.default,
    ]),
  );
}
