import { create } from 'zustand';

/** Download task states (spec §4). */
export type DownloadTaskState = 'normal' | 'cancel' | 'suspend' | 'success' | 'error';
export type DownloadTaskType = 'video' | 'audio' | 'srt';

/** A download task (spec §3). The download center issue fills and drives this store. */
export interface DownloadTask {
  /** Prefixed by the batch sequence number. */
  key: string;
  url?: string;
  urlResolver?: (key: string) => Promise<string>;
  fileName: string;
  ext: string;
  backupDownloadType?: string;
  downloadTaskType: DownloadTaskType;
  taskState: DownloadTaskState;
  customData: { percent: number };
  extData?: { first_image?: string };
}

interface DownloadState {
  tasks: DownloadTask[];
  /** Whether the download list panel is open. */
  panelOpen: boolean;
  addTasks: (tasks: DownloadTask[]) => void;
  updateTask: (key: string, patch: Partial<DownloadTask>) => void;
  removeTask: (key: string) => void;
  clear: () => void;
  setPanelOpen: (open: boolean) => void;
}

export const useDownloadStore = create<DownloadState>((set) => ({
  tasks: [],
  panelOpen: false,
  addTasks: (tasks) => set((s) => ({ tasks: [...s.tasks, ...tasks] })),
  updateTask: (key, patch) =>
    set((s) => ({ tasks: s.tasks.map((t) => (t.key === key ? { ...t, ...patch } : t)) })),
  removeTask: (key) => set((s) => ({ tasks: s.tasks.filter((t) => t.key !== key) })),
  clear: () => set({ tasks: [] }),
  setPanelOpen: (panelOpen) => set({ panelOpen }),
}));

/** completed/total for the sidebar entry. */
export function downloadProgress(tasks: DownloadTask[]) {
  return { completed: tasks.filter((t) => t.taskState === 'success').length, total: tasks.length };
}
