import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { findAllSettings, findSetting, upsertSetting } from './settings.repo.ts';

/**
 * Runtime settings an operator changes without a restart (CLI `settings set KEY VALUE`).
 * Each has a schema and a default; values are stored as JSON text.
 */
export const runtimeSettings = {
  voice_clone_switch: { schema: z.boolean(), default: false, description: '是否开放声音克隆' },
} as const;
export type SettingKey = keyof typeof runtimeSettings;
type SettingValue<K extends SettingKey> = z.infer<(typeof runtimeSettings)[K]['schema']>;

export function isSettingKey(key: string): key is SettingKey {
  return key in runtimeSettings;
}

export async function getSetting<K extends SettingKey>(ctx: AppContext, key: K): Promise<SettingValue<K>> {
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
