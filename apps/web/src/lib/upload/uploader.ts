import type { MediaAsset, UploadTicket } from '@vw/contract';
import { Upload } from 'tus-js-client';
import { api } from '../api.ts';
import { readAccessToken } from '../auth/storage.ts';
import { http, request } from '../http/client.ts';
import { ApiError } from '../http/errors.ts';
import { fileFingerprint, forgetS3Upload, loadS3Upload, partTransport, saveS3Upload } from './s3.ts';

export type UploadPhase =
  | 'idle'
  | 'preparing'
  | 'uploading'
  | 'paused'
  | 'completing'
  | 'done'
  | 'error'
  | 'cancelled';

/** The user cancelled: not an error to show. */
export class UploadCancelled extends Error {
  constructor() {
    super('upload cancelled');
    this.name = 'UploadCancelled';
  }
}

export interface UploadCallbacks {
  onProgress(loaded: number, total: number): void;
  onPhase(phase: UploadPhase): void;
}

export interface UploadSession<T = MediaAsset> {
  /** Uploads, then registers the file; resolves the media asset. Rejects UploadCancelled on cancel. */
  readonly done: Promise<T>;
  pause(): void;
  resume(): void;
  cancel(): void;
}

/** Retries of one tus request after a broken connection, then the upload fails (resumable later). */
const TUS_RETRY_DELAYS = [0, 1000, 3000, 5000, 10000];

/**
 * One file to the server: an upload ticket (`generateUploadCredentials`), then either tus to this
 * server (tus-js-client, resumable across reloads through its stored fingerprint) or presigned
 * multipart parts straight to S3 (ETags kept in localStorage so a reload resumes), then
 * `completeUpload`, which checks the file and answers the media asset.
 */
/** What the server is told once the bytes are there (the body of `completeUpload`). */
export type UploadCompletion =
  | { tus_upload: string }
  | { upload_id: string; parts: { part_number: number; etag: string }[] };

/** Asking again after a dropped connection or a restarting server is safe: the server keeps the upload until it is done. */
const COMPLETE_RETRY_DELAYS = [1000, 3000, 10000];

async function registerAsset(body: UploadCompletion): Promise<MediaAsset> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await request(api.completeUpload, { body }, { suppressError: true })).asset;
    } catch (e) {
      const passing = e instanceof ApiError && (e.kind === 'network' || e.httpStatus >= 500);
      if (!passing || attempt === COMPLETE_RETRY_DELAYS.length) {
        if (e instanceof ApiError) http.report(e);
        throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, COMPLETE_RETRY_DELAYS[attempt]));
    }
  }
}

/**
 * `complete` replaces `completeUpload` for files that are not media (a book for the audiobook
 * import): the same resumable transfer, then the tool's own call with the same body.
 */
export function startUpload<T = MediaAsset>(
  file: File,
  cb: UploadCallbacks,
  complete: (body: UploadCompletion) => Promise<T> = registerAsset as never,
): UploadSession<T> {
  let paused = false;
  let cancelled = false;
  let control: { pause(): void; resume(): void; cancel(): void } | null = null;

  const done = (async () => {
    cb.onPhase('preparing');
    const ticket = await request(api.generateUploadCredentials, {
      body: { name: file.name, size: file.size, content_type: file.type || 'application/octet-stream' },
    });
    if (cancelled) throw new UploadCancelled();
    cb.onPhase(paused ? 'paused' : 'uploading');
    const body =
      ticket.provider === 'tus'
        ? {
            tus_upload: await viaTus(
              file,
              ticket,
              cb,
              (c) => (control = c),
              () => paused,
            ),
          }
        : await viaS3(
            file,
            ticket,
            cb,
            (c) => (control = c),
            () => paused,
          );
    if (cancelled) throw new UploadCancelled();
    cb.onPhase('completing');
    const asset = await complete(body);
    if (ticket.provider === 's3') forgetS3Upload(fileFingerprint(file));
    cb.onPhase('done');
    return asset;
  })();
  done.catch((e) => cb.onPhase(e instanceof UploadCancelled ? 'cancelled' : 'error'));

  return {
    done,
    pause() {
      if (paused || cancelled) return;
      paused = true;
      control?.pause();
      cb.onPhase('paused');
    },
    resume() {
      if (!paused || cancelled) return;
      paused = false;
      cb.onPhase('uploading');
      control?.resume();
    },
    cancel() {
      if (cancelled) return;
      cancelled = true;
      control?.cancel();
    },
  };
}

type Control = { pause(): void; resume(): void; cancel(): void };

function viaTus(
  file: File,
  ticket: Extract<UploadTicket, { provider: 'tus' }>,
  cb: UploadCallbacks,
  setControl: (c: Control) => void,
  isPaused: () => boolean,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const upload = new Upload(file, {
      endpoint: new URL(ticket.endpoint, window.location.origin).toString(),
      chunkSize: ticket.chunk_size > 0 ? ticket.chunk_size : Number.POSITIVE_INFINITY,
      retryDelays: TUS_RETRY_DELAYS,
      metadata: { filename: file.name, filetype: file.type || 'application/octet-stream' },
      // A reload that picks the same file again continues the same upload (HEAD for its offset).
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      // The access token rotates during a long upload: read it for every request.
      onBeforeRequest: (req) => {
        const token = readAccessToken();
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
      },
      onProgress: (sent, total) => cb.onProgress(sent, total),
      onSuccess: () => (upload.url ? resolve(upload.url) : reject(new Error('tus: no upload url'))),
      onError: (e) => reject(e),
    });
    setControl({
      pause: () => void upload.abort(false),
      resume: () => upload.start(),
      cancel: () => {
        // Terminate on the server too (frees its space) and forget the stored fingerprint.
        void upload.abort(true).catch(() => undefined);
        reject(new UploadCancelled());
      },
    });
    void upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous.length > 0) upload.resumeFromPreviousUpload(previous[0]);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!isPaused()) upload.start();
      });
  });
}

async function viaS3(
  file: File,
  fresh: Extract<UploadTicket, { provider: 's3' }>,
  cb: UploadCallbacks,
  setControl: (c: Control) => void,
  isPaused: () => boolean,
): Promise<{ upload_id: string; parts: Array<{ part_number: number; etag: string }> }> {
  const fingerprint = fileFingerprint(file);
  // After a reload the earlier multipart upload goes on while its links are valid.
  const stored = loadS3Upload(fingerprint) ?? {
    ticket: fresh,
    expiresAt: Date.now() + fresh.expires_in * 1000,
    etags: {},
  };
  saveS3Upload(fingerprint, stored);
  const { ticket } = stored;
  const partSize = ticket.part_size;
  const sizeOf = (n: number) => Math.max(0, Math.min(file.size, n * partSize) - (n - 1) * partSize);
  let doneBytes = ticket.parts.reduce(
    (sum, p) => sum + (stored.etags[p.part_number] ? sizeOf(p.part_number) : 0),
    0,
  );
  cb.onProgress(doneBytes, file.size);

  let current: AbortController | null = null;
  let wake: (() => void) | null = null;
  let cancelled = false;
  setControl({
    pause: () => current?.abort(),
    resume: () => wake?.(),
    cancel: () => {
      cancelled = true;
      current?.abort();
      wake?.();
      forgetS3Upload(fingerprint);
    },
  });

  for (const part of ticket.parts) {
    if (stored.etags[part.part_number]) continue;
    const blob = file.slice((part.part_number - 1) * partSize, part.part_number * partSize);
    for (;;) {
      if (cancelled) throw new UploadCancelled();
      if (isPaused()) await new Promise<void>((r) => (wake = r));
      if (cancelled) throw new UploadCancelled();
      current = new AbortController();
      try {
        const etag = await partTransport.put(
          part.url,
          blob,
          (loaded) => cb.onProgress(doneBytes + loaded, file.size),
          current.signal,
        );
        stored.etags[part.part_number] = etag;
        saveS3Upload(fingerprint, stored);
        doneBytes += blob.size;
        cb.onProgress(doneBytes, file.size);
        break;
      } catch (e) {
        // A pause aborts the part in flight: send it again when resumed.
        if ((isPaused() || cancelled) && (e as Error)?.name === 'AbortError') continue;
        throw e;
      } finally {
        current = null;
      }
    }
  }
  return {
    upload_id: ticket.upload_id,
    parts: ticket.parts.map((p) => ({ part_number: p.part_number, etag: stored.etags[p.part_number] })),
  };
}
