import type { ExportStatus } from '@vw/contract';
import { clientMessages } from '@vw/contract/errors.ts';
import { api } from '@/lib/api.ts';
import { ExportTaskStatus } from '@/lib/credits.ts';
import { type HttpClient, http } from '@/lib/http/client.ts';
import { isApiError } from '@/lib/http/errors.ts';

/** Spec §9: the status is polled after 1 s, 2 s, 4 s, 8 s, then every 10 s, with no maximum. */
export const EXPORT_POLL_DELAYS_MS = [1000, 2000, 4000, 8000] as const;
export const EXPORT_POLL_STEADY_MS = 10_000;

/** The wait before status poll number `attempt` (0-based). */
export function exportPollDelay(attempt: number): number {
  return EXPORT_POLL_DELAYS_MS[attempt] ?? EXPORT_POLL_STEADY_MS;
}

export type ExportOutcome =
  | { kind: 'downloaded'; fileName: string }
  | { kind: 'opened'; url: string }
  | { kind: 'failed'; text: string }
  | { kind: 'cancelled' };

export interface ExportDeps {
  client?: HttpClient;
  /** Saves the finished file; resolves how it was delivered. */
  save?: (url: string, fileName: string) => Promise<'downloaded' | 'opened'>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before every status poll (progress display, tests). */
  onPoll?: (attempt: number) => void;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The envelope's msg when it says something (spec §8 Export: "server message or 操作失败"). */
function serverMessage(msg: string | undefined): string | undefined {
  return msg && !/^(success|ok)$/i.test(msg.trim()) ? msg : undefined;
}

/** A file name safe to offer to the browser (no path separators). */
function safeName(name: string): string {
  return name.replace(/[\\/]/g, '_').trim() || 'export.xlsx';
}

/**
 * Fetches the finished export as a blob and saves it under its file name; when the file cannot be
 * fetched (cross-origin storage, network) the link opens in a new tab instead (spec §4).
 */
export async function saveExportFile(url: string, fileName: string): Promise<'downloaded' | 'opened'> {
  try {
    const res = await fetch(url, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const blob = await res.blob();
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = safeName(fileName);
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 60_000);
    return 'downloaded';
  } catch {
    window.open(url, '_blank', 'noopener');
    return 'opened';
  }
}

/**
 * Exports the consumption details of [start_time, end_time) (spec §4, credit consumption export):
 * starts the job (its errors are kept from the general handler: the failure text is the server
 * message or 操作失败，请稍后再试), then polls the status: 0 keep waiting; 2 save the file;
 * 3 failed, with the server's message when it sends one; any other value or a failed status
 * request polls again.
 */
export async function runExport(
  range: { start_time: number; end_time: number },
  signal?: AbortSignal,
  deps: ExportDeps = {},
): Promise<ExportOutcome> {
  const client = deps.client ?? http;
  const save = deps.save ?? saveExportFile;
  const sleep = deps.sleep ?? abortableSleep;
  try {
    await client.request(api.downloadConsumeDetails, { body: range }, { suppressError: true, signal });
  } catch (e) {
    if (signal?.aborted) return { kind: 'cancelled' };
    return {
      kind: 'failed',
      text: (isApiError(e) && e.serverMessage) || clientMessages.exportFailed,
    };
  }
  for (let attempt = 0; ; attempt++) {
    await sleep(exportPollDelay(attempt), signal);
    if (signal?.aborted) return { kind: 'cancelled' };
    deps.onPoll?.(attempt);
    let status: ExportStatus;
    let msg: string | undefined;
    try {
      ({ data: status, msg } = await client.requestWithMessage(
        api.exportTaskStatus,
        {},
        { suppressError: true, signal },
      ));
    } catch {
      if (signal?.aborted) return { kind: 'cancelled' };
      continue; // a failed status request polls again
    }
    if (signal?.aborted) return { kind: 'cancelled' };
    if (status?.status === ExportTaskStatus.Done && status.download_url) {
      const fileName = status.file_name || 'export.xlsx';
      const how = await save(status.download_url, fileName);
      return how === 'downloaded'
        ? { kind: 'downloaded', fileName }
        : { kind: 'opened', url: status.download_url };
    }
    if (status?.status === ExportTaskStatus.Failed)
      return { kind: 'failed', text: serverMessage(msg) ?? clientMessages.exportFailed };
    // 0 waiting, or any other value (2 without a link included): poll again
  }
}
