import { create } from 'zustand';

/** Download task states (spec §4). */
export type DownloadTaskState = 'normal' | 'cancel' | 'suspend' | 'success' | 'error';
/**
 * What a download is, for its tag and cover (spec §2: MP4 video, MP3 audio, SRT subtitle, FILE
 * otherwise): `file` is any other document (TXT, JSON, DOCX…).
 */
export type DownloadTaskType = 'video' | 'audio' | 'srt' | 'file';

const VIDEO_EXTS = new Set(['mp4', 'mov', 'webm', 'mkv', 'm4v']);
const AUDIO_EXTS = new Set(['mp3', 'wav', 'm4a', 'aac', 'flac', 'ogg', 'opus']);
const SUBTITLE_EXTS = new Set(['srt', 'vtt', 'ass']);

/** The task type of a file by its extension: subtitles are `srt`, documents and the rest `file`. */
export function downloadTaskTypeOf(ext: string): DownloadTaskType {
  const e = ext.replace(/^\./, '').toLowerCase();
  if (VIDEO_EXTS.has(e)) return 'video';
  if (AUDIO_EXTS.has(e)) return 'audio';
  if (SUBTITLE_EXTS.has(e)) return 'srt';
  return 'file';
}
/** Why a task stopped (spec §4 error kinds). */
export type DownloadErrorKind =
  | 'none'
  | 'url-error-suspend'
  | 'http-error'
  | 'reader-error'
  | 'aborted'
  | 'filesystem-error'
  | 'unknown';
/** Batch status (spec §4). */
export type BatchStatus =
  | 'selecting-folder'
  | 'folder-cancelled'
  | 'downloading'
  | 'user-cancelled'
  | 'user-retry'
  | 'completed';

/** A download task (spec §3), driven by the download manager (features/downloads). */
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
  /** The batch sequence number the key is prefixed with. */
  batch?: number;
  errorKind?: DownloadErrorKind;
  errorMessage?: string;
  /** The name it was saved under (a numbered suffix when the folder had one already). */
  savedAs?: string;
}

interface DownloadState {
  tasks: DownloadTask[];
  /** Status of each batch by sequence number. */
  batches: Record<number, BatchStatus>;
  setBatchStatus: (batch: number, status: BatchStatus) => void;
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
  batches: {},
  setBatchStatus: (batch, status) => set((s) => ({ batches: { ...s.batches, [batch]: status } })),
  panelOpen: false,
  addTasks: (tasks) => set((s) => ({ tasks: [...s.tasks, ...tasks] })),
  updateTask: (key, patch) =>
    set((s) => ({ tasks: s.tasks.map((t) => (t.key === key ? { ...t, ...patch } : t)) })),
  removeTask: (key) => set((s) => ({ tasks: s.tasks.filter((t) => t.key !== key) })),
  clear: () => set({ tasks: [], batches: {} }),
  setPanelOpen: (panelOpen) => set({ panelOpen }),
}));

/** completed/total for the sidebar entry. */
export function downloadProgress(tasks: DownloadTask[]) {
  return { completed: tasks.filter((t) => t.taskState === 'success').length, total: tasks.length };
}
