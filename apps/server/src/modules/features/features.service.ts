import {
  type FeatureSwitch,
  FREE_LEVEL,
  featureSwitchErrors,
  type MediaLimits,
  type ToolAvailability,
} from '@vw/contract';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { mediaLimitsForLevel } from '../../media/limits.ts';
import { getTenantBonus } from '../credits/membership.service.ts';
import { deleteFeatureOverride, findFeatureOverrides, upsertFeatureOverride } from './features.repo.ts';

export const FEATURE_SWITCHES = Object.keys(featureSwitchErrors) as FeatureSwitch[];

/**
 * The plan level from which each switch is on by default (spec §6). Subtitles for everyone; the
 * heavy video tools from the basic plan; lip sync from pro. An operator override beats the plan.
 */
export const FEATURE_MIN_LEVEL: Record<FeatureSwitch, number> = {
  subtitle_generate: 0,
  video_translate: 200,
  subtitle_erase: 200,
  remove_watermark: 200,
  lip_sync: 300,
};

export function isFeatureSwitch(name: string): name is FeatureSwitch {
  return name in featureSwitchErrors;
}

async function userLevel(ctx: AppContext, userId: string): Promise<number> {
  return (await getTenantBonus(ctx, userId)).level ?? FREE_LEVEL;
}

export interface FeatureState {
  enabled: boolean;
  /** Where the answer came from: the plan's default or the operator's override. */
  source: 'plan' | 'override';
  planDefault: boolean;
}

export async function getFeatureStates(
  ctx: AppContext,
  userId: string,
): Promise<Record<FeatureSwitch, FeatureState>> {
  const [level, overrides] = await Promise.all([
    userLevel(ctx, userId),
    findFeatureOverrides(ctx.db, userId),
  ]);
  const out = {} as Record<FeatureSwitch, FeatureState>;
  for (const feature of FEATURE_SWITCHES) {
    const planDefault = level >= FEATURE_MIN_LEVEL[feature];
    const override = overrides.get(feature);
    out[feature] =
      override === undefined
        ? { enabled: planDefault, source: 'plan', planDefault }
        : { enabled: override, source: 'override', planDefault };
  }
  return out;
}

export async function getFeatures(ctx: AppContext, userId: string): Promise<Record<FeatureSwitch, boolean>> {
  const states = await getFeatureStates(ctx, userId);
  return Object.fromEntries(FEATURE_SWITCHES.map((f) => [f, states[f].enabled])) as Record<
    FeatureSwitch,
    boolean
  >;
}

/** Throws the switch's own named error (e.g. err_subtitle_erase_not_allowed) when it is off. */
export async function assertFeature(ctx: AppContext, userId: string, feature: FeatureSwitch): Promise<void> {
  const states = await getFeatureStates(ctx, userId);
  if (!states[feature].enabled) throw AppError.named(featureSwitchErrors[feature]);
}

/** Operator: on, off, or back to the plan's default (null). */
export async function setFeatureOverride(
  ctx: AppContext,
  userId: string,
  feature: FeatureSwitch,
  enabled: boolean | null,
): Promise<void> {
  if (enabled === null) await deleteFeatureOverride(ctx.db, userId, feature);
  else await upsertFeatureOverride(ctx.db, { userId, feature, enabled, now: ctx.clock.now() });
}

/** Size, duration and resolution allowed to this account (by plan level, see media/limits.ts). */
export async function getMediaLimits(ctx: AppContext, userId: string): Promise<MediaLimits> {
  return mediaLimitsForLevel(await userLevel(ctx, userId));
}

type AvailabilityCheck = (ctx: AppContext, userId: string) => Promise<ToolAvailability>;

/**
 * How each tool tells whether it can run for a user (engine configured, switch on), by tool name:
 * every tool exports its checks and the app context lists them; /v1/tools/capabilities asks them all.
 */
export type ToolChecks = Readonly<Record<string, AvailabilityCheck>>;

export async function listToolAvailability(ctx: AppContext, userId: string): Promise<ToolAvailability[]> {
  const out: ToolAvailability[] = [];
  for (const [tool, check] of Object.entries(ctx.toolChecks)) {
    try {
      out.push(await check(ctx, userId));
    } catch (err) {
      // One broken check must not hide the other tools.
      ctx.log.error({ err, tool }, 'tool availability check failed');
      out.push({
        tool,
        available: false,
        reason: '暂时无法确认该工具是否可用',
        error_type: 'err_system',
        engines: [],
      });
    }
  }
  return out;
}

export async function getCapabilities(ctx: AppContext, userId: string) {
  const [features, limits, tools] = await Promise.all([
    getFeatures(ctx, userId),
    getMediaLimits(ctx, userId),
    listToolAvailability(ctx, userId),
  ]);
  return { features, limits, tools };
}
