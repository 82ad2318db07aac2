import { AnalyticsEventName } from '@vw/contract/constants/onboarding.ts';
import { clientMessages } from '@vw/contract/errors.ts';
import { track } from '@/lib/analytics.ts';
import { useDownloadStore } from '@/stores/download.ts';
import {
  DownloadManager,
  type DownloadRequest,
  type FolderHandle,
  HIDDEN_DOWNLOAD_TTL_MS,
} from './manager.ts';

type Listener = (message: string, level: 'error' | 'warning') => void;
let toast: Listener = () => {};
/** The mount (which has antd's message API) shows failure toasts through this. */
export function setDownloadToast(listener: Listener): () => void {
  toast = listener;
  return () => {
    toast = () => {};
  };
}

/** The failure toast of spec §8: file name, download failed, message. */
export const downloadFailedText = (name: string, message: string) =>
  `${name} ${clientMessages.downloadFailed}：${message}`;

/** Adds a hidden element to the page and removes it after 6 hours (spec §9). */
function hidden(el: HTMLElement, cleanup?: () => void) {
  el.style.display = 'none';
  document.body.appendChild(el);
  setTimeout(() => {
    el.remove();
    cleanup?.();
  }, HIDDEN_DOWNLOAD_TTL_MS);
}

function saveBlob(blob: Blob, name: string) {
  const a = document.createElement('a');
  const url = URL.createObjectURL(blob);
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  hidden(a, () => URL.revokeObjectURL(url));
  a.click();
}

function saveUrl(url: string) {
  const frame = document.createElement('iframe');
  frame.src = url;
  hidden(frame);
}

const picker = (globalThis as { showDirectoryPicker?: (o?: object) => Promise<FolderHandle> })
  .showDirectoryPicker;

/** The one download manager of the app; every tool hands its files to it. */
export const downloadManager = new DownloadManager({
  store: {
    getTasks: () => useDownloadStore.getState().tasks,
    addTasks: (t) => useDownloadStore.getState().addTasks(t),
    updateTask: (k, p) => useDownloadStore.getState().updateTask(k, p),
    setBatchStatus: (b, s) => useDownloadStore.getState().setBatchStatus(b, s),
  },
  fetch: (...args) => globalThis.fetch(...args),
  pickFolder: picker
    ? () =>
        (
          globalThis as unknown as { showDirectoryPicker: (o?: object) => Promise<FolderHandle> }
        ).showDirectoryPicker({
          id: 'vw-downloads',
          mode: 'readwrite',
          startIn: 'downloads',
        })
    : null,
  saveBlob,
  saveUrl,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  sameOrigin: (url) => {
    try {
      return new URL(url, location.href).origin === location.origin;
    } catch {
      return false;
    }
  },
  onFailure: (task, message) => toast(downloadFailedText(`${task.fileName}.${task.ext}`, message), 'error'),
  onInProgress: (names) => toast(`${names.join('、')} ${clientMessages.downloadInProgress}`, 'warning'),
  onFinished: (task) =>
    track(AnalyticsEventName.techDownload, {
      file_type: task.ext,
      task_type: task.downloadTaskType,
      state: task.taskState,
      error_kind: task.errorKind ?? 'none',
    }),
});

/** Hands files to the download center (one batch). */
export const startDownloads = (requests: DownloadRequest[]) => downloadManager.add(requests);
