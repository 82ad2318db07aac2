import type { HistoryItem } from '@vw/contract';
import { startDownloads } from '@/features/downloads/center.ts';
import { api } from '@/lib/api.ts';
import { http } from '@/lib/http/client.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import type { DownloadTask } from '@/stores/download.ts';

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

/**
 * Hands history items to the download center as one batch (spec §4, download tasks): each file's
 * signed URL is obtained when its turn comes; a link that cannot be obtained suspends the task and
 * the center retries it.
 */
export function queueDownloads(entries: { item: HistoryItem; kind: DownloadKind }[]): DownloadTask[] {
  return startDownloads(
    entries.map(({ item, kind }) => ({
      id: `${item.history_id}-${kind}`,
      urlResolver: () => resolveUrl(item, kind),
      fileName: safeFileName(item.name),
      ext: kind,
      downloadTaskType: kind === 'srt' ? 'srt' : 'audio',
    })),
  );
}
