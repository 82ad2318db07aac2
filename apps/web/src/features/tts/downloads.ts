import type { HistoryItem } from '@vw/contract';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { type DownloadTask, useDownloadStore } from '@/stores/download.ts';

export type DownloadKind = 'mp3' | 'wav' | 'srt';

/** Characters a file name may not carry on common file systems. */
export const safeFileName = (name: string) =>
  name
    .replace(/[\\/:*?"<>|]+/g, ' ')
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80) || 'tts';

export function downloadName(item: Pick<HistoryItem, 'name'>, kind: DownloadKind): string {
  return `${safeFileName(item.name)}.${kind}`;
}

/** The stored file a download of this kind comes from (WAV is converted from the audio on the way). */
export function sourceFile(item: Pick<HistoryItem, 'files'>, kind: DownloadKind) {
  const want = kind === 'srt' ? 'srt' : 'audio';
  const files = item.files.filter((f) => f.kind === want);
  return files.find((f) => f.format === kind) ?? files[0] ?? null;
}

export const canDownload = (item: Pick<HistoryItem, 'files' | 'status'>, kind: DownloadKind) =>
  item.status === 'succeeded' && sourceFile(item, kind) !== null;

/** A signed, expiring URL for one file of the item (spec §7, file_download_urlbyname). */
export async function resolveUrl(item: HistoryItem, kind: DownloadKind): Promise<string> {
  const file = sourceFile(item, kind);
  if (!file) throw new Error(zhCN.tts.noDownloadUrl);
  const d = await http.request(
    api.fileDownloadUrlByName,
    { body: { name: file.name, format: kind, file_name: downloadName(item, kind) } },
    { suppressError: true },
  );
  if (!d.url) throw new Error(zhCN.tts.noDownloadUrl);
  return d.url;
}

/** Hands a URL to the browser's own download (the server names the file). */
export function saveUrl(url: string, fileName: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

let batchSeq = 0;
let running: Promise<void> | null = null;

/**
 * Adds downloads to the download center store (one batch) and runs them one after another:
 * resolve the signed URL, hand it to the browser, mark success. A link that cannot be obtained
 * marks the task suspended; other failures mark it as an error (spec §4, download tasks).
 */
export function queueDownloads(
  entries: { item: HistoryItem; kind: DownloadKind }[],
  onError?: (name: string, message: string) => void,
): DownloadTask[] {
  const batch = ++batchSeq;
  const tasks: DownloadTask[] = entries.map(({ item, kind }) => {
    const key = `${batch}-${item.history_id}-${kind}`;
    return {
      key,
      urlResolver: () => resolveUrl(item, kind),
      fileName: downloadName(item, kind),
      ext: kind,
      downloadTaskType: kind === 'srt' ? 'srt' : 'audio',
      taskState: 'normal',
      customData: { percent: 0 },
    };
  });
  const store = useDownloadStore.getState();
  store.addTasks(tasks);
  const run = async () => {
    for (const task of tasks) {
      const current = useDownloadStore.getState().tasks.find((t) => t.key === task.key);
      if (!current || current.taskState === 'cancel') continue;
      let url: string;
      try {
        url = await task.urlResolver!(task.key);
      } catch (e) {
        useDownloadStore.getState().updateTask(task.key, { taskState: 'suspend' });
        onError?.(task.fileName, (e as Error).message || zhCN.tts.noDownloadUrl);
        continue;
      }
      try {
        saveUrl(url, task.fileName);
        useDownloadStore
          .getState()
          .updateTask(task.key, { url, taskState: 'success', customData: { percent: 100 } });
      } catch (e) {
        useDownloadStore.getState().updateTask(task.key, { taskState: 'error' });
        onError?.(task.fileName, (e as Error).message);
      }
      // Browsers drop downloads started in the same instant.
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  // Batches run one after another.
  running = (running ?? Promise.resolve()).then(run, run);
  return tasks;
}
