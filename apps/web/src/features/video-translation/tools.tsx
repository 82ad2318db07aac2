import type { TaskTool, VideoToolTab } from '@vw/contract/constants/tasks.ts';
import { VIDEO_TOOL_TABS } from '@vw/contract/constants/tasks.ts';
import type { ComponentType } from 'react';
import { SttNewProject } from './stt/SttNewProject.tsx';

/** A built tab of /video-translation/:tab (design §10): its task tool and its "new" flow. */
export interface VideoToolDef {
  tab: VideoToolTab;
  tool: TaskTool;
  New: ComponentType<{ onBack: () => void }>;
  /** One line under the tab bar: what the tool does. */
  desc?: string;
}

/** Tools that exist; only these appear in the tab bar. Later issues add theirs here. */
const BUILT: Partial<Record<VideoToolTab, Omit<VideoToolDef, 'tab'>>> = {
  stt: { tool: 'stt', New: SttNewProject },
};

/** The built tabs in tab-bar order. */
export const builtTools: VideoToolDef[] = VIDEO_TOOL_TABS.flatMap((tab) => {
  const def = BUILT[tab];
  return def ? [{ tab, ...def }] : [];
});
