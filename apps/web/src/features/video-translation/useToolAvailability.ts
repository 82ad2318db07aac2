import type { ToolAvailability } from '@vw/contract';
import type { FeatureSwitch, TaskTool } from '@vw/contract/constants/tasks.ts';
import { featureSwitchErrors } from '@vw/contract/constants/tasks.ts';
import { namedErrorMessage } from '@vw/contract/errors.ts';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';

/** The feature switch of spec §6 each tool needs, when it needs one. */
const TOOL_FEATURES: Partial<Record<TaskTool, FeatureSwitch>> = {
  stt: 'subtitle_generate',
  ocr: 'subtitle_generate',
  erase: 'subtitle_erase',
  watermark: 'remove_watermark',
  translate: 'video_translate',
};

export interface ToolAvailabilityView {
  /** Still loading the capabilities. */
  loading: boolean;
  available: boolean;
  /** Why not (Chinese), '' when available. */
  reason: string;
  /** The engines that would run it (empty while loading or unknown). */
  engines: ToolAvailability['engines'];
}

/**
 * Whether this account can start the tool (`GET /v1/tools/capabilities`): the engine is configured
 * and the feature switch is on. When the answer cannot be loaded the create call decides.
 */
export function useToolAvailability(tool: TaskTool): ToolAvailabilityView {
  const caps = useCall(api.getToolCapabilities, undefined, { staleTime: 60_000, suppressError: true });
  if (!caps.data) return { loading: caps.isPending, available: true, reason: '', engines: [] };
  const entry = caps.data.tools.find((t) => t.tool === tool);
  const engines = entry?.engines ?? [];
  if (entry && !entry.available)
    return {
      loading: false,
      available: false,
      reason: entry.reason || namedErrorMessage(entry.error_type),
      engines,
    };
  const feature = TOOL_FEATURES[tool];
  if (feature && caps.data.features[feature] === false)
    return {
      loading: false,
      available: false,
      reason: namedErrorMessage(featureSwitchErrors[feature]),
      engines,
    };
  return { loading: false, available: true, reason: '', engines };
}
