import type { MediaAsset, ProjectView } from '@vw/contract';
import type { TaskTool, VideoToolTab } from '@vw/contract/constants/tasks.ts';
import { VIDEO_TOOL_TABS } from '@vw/contract/constants/tasks.ts';
import type { ComponentType, ReactNode } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { AiDubbingNew, SrtDubbingNew, SynthesisNew } from './dubbing/DubNewProject.tsx';
import { SttNewProject } from './stt/SttNewProject.tsx';
import { EraseNewProject } from './subtitles/EraseNewProject.tsx';
import { EraseProjectResult } from './subtitles/EraseProjectResult.tsx';
import { OcrNewProject } from './subtitles/OcrNewProject.tsx';
import { downloadTranslation, ProjectLanguages } from './translate/ProjectLanguages.tsx';
import { TranslateNewProject } from './translate/TranslateNewProject.tsx';

const dub = zhCN.dubbing;
const subtitleTools = zhCN.subtitleTools;
const vt = zhCN.videoTranslate;

/** A built tab of /video-translation/:tab (design §10): its task tool and its "new" flow. */
export interface VideoToolDef {
  tab: VideoToolTab;
  tool: TaskTool;
  /** `asset`: a video handed over by another tool (AI配音 → 擦除原字幕). */
  New: ComponentType<{ onBack: () => void; asset?: MediaAsset }>;
  /** One line under the tab bar: what the tool does. */
  desc?: string;
  /** A tool whose result is not an editor project (erase): what 打开 shows instead of the editor. */
  Result?: ComponentType<{ project: ProjectView; onBack: () => void }>;
  /** An extra column of the project list (title, cell). */
  column?: { title: string; render: (project: ProjectView) => ReactNode };
  /** 下载 in the list, when it is not the project's SRT, and its label. */
  download?: { label: string; run: (project: ProjectView) => unknown };
}

/** Tools that exist; only these appear in the tab bar. Later issues add theirs here. */
const BUILT: Partial<Record<VideoToolTab, Omit<VideoToolDef, 'tab'>>> = {
  translate: {
    tool: 'translate',
    New: TranslateNewProject,
    desc: vt.desc,
    column: { title: vt.colLanguages, render: (p) => <ProjectLanguages project={p} /> },
    download: { label: vt.downloadResult, run: downloadTranslation },
  },
  stt: { tool: 'stt', New: SttNewProject },
  dubbing: { tool: 'dubbing', New: AiDubbingNew, desc: dub.aiDesc },
  'srt-dubbing': { tool: 'srt_dubbing', New: SrtDubbingNew, desc: dub.srtDesc },
  synthesis: { tool: 'synthesis', New: SynthesisNew, desc: dub.synthDesc },
  ocr: {
    tool: 'ocr',
    New: OcrNewProject,
    desc: subtitleTools.ocrDesc,
  },
  erase: {
    tool: 'erase',
    New: EraseNewProject,
    Result: EraseProjectResult,
    desc: subtitleTools.eraseDesc,
  },
};

/** The built tabs in tab-bar order. */
export const builtTools: VideoToolDef[] = VIDEO_TOOL_TABS.flatMap((tab) => {
  const def = BUILT[tab];
  return def ? [{ tab, ...def }] : [];
});
