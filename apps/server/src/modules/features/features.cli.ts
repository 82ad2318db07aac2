import type { AppContext } from '../../context.ts';
import {
  FEATURE_SWITCHES,
  getFeatureStates,
  isFeatureSwitch,
  setFeatureOverride,
} from './features.service.ts';

/**
 * `features set --user U --feature F --on|--off|--default` and `features show --user U`.
 * Returns the lines to print; throws an Error with a usage message on bad input.
 */
export async function runFeaturesCommand(
  ctx: AppContext,
  verb: string | undefined,
  userId: string,
  options: { feature?: string; on?: boolean; off?: boolean; default?: boolean },
): Promise<string[]> {
  if (verb === 'set') {
    const feature = options.feature ?? '';
    if (!isFeatureSwitch(feature)) throw new Error(`--feature must be one of ${FEATURE_SWITCHES.join(', ')}`);
    const chosen = [options.on, options.off, options.default].filter(Boolean).length;
    if (chosen !== 1) throw new Error('give exactly one of --on, --off, --default');
    await setFeatureOverride(ctx, userId, feature, options.default ? null : Boolean(options.on));
  } else if (verb !== 'show') {
    throw new Error(`unknown command "features ${verb ?? ''}"`);
  }
  const states = await getFeatureStates(ctx, userId);
  return FEATURE_SWITCHES.map((f) => {
    const s = states[f];
    const why =
      s.source === 'override' ? `override (plan default ${s.planDefault ? 'on' : 'off'})` : 'plan default';
    return `${f.padEnd(18)} ${s.enabled ? 'on ' : 'off'}  ${why}`;
  });
}
