import type { UploadTicket } from '@vw/contract';

type S3Ticket = Extract<UploadTicket, { provider: 's3' }>;

/** What survives a page reload of a presigned multipart upload (localStorage, by file fingerprint). */
export interface StoredS3Upload {
  ticket: S3Ticket;
  /** When the presigned part links stop working (ms since the epoch). */
  expiresAt: number;
  /** ETag of every part already stored, by part number. */
  etags: Record<number, string>;
}

const PREFIX = 'vw-upload-s3:';

/** The same file picked again (after a reload) has the same fingerprint. */
export function fileFingerprint(file: File): string {
  return [file.name, file.type, file.size, file.lastModified].join('|');
}

export function loadS3Upload(fingerprint: string, now = Date.now()): StoredS3Upload | null {
  try {
    const raw = localStorage.getItem(PREFIX + fingerprint);
    if (!raw) return null;
    const stored = JSON.parse(raw) as StoredS3Upload;
    // A minute of margin: a part started just before expiry would be refused half way.
    if (!stored?.ticket?.upload_id || stored.expiresAt - 60_000 < now) {
      localStorage.removeItem(PREFIX + fingerprint);
      return null;
    }
    return stored;
  } catch {
    return null;
  }
}

export function saveS3Upload(fingerprint: string, stored: StoredS3Upload): void {
  try {
    localStorage.setItem(PREFIX + fingerprint, JSON.stringify(stored));
  } catch {
    // storage full or blocked: the upload still works, it just cannot resume after a reload
  }
}

export function forgetS3Upload(fingerprint: string): void {
  localStorage.removeItem(PREFIX + fingerprint);
}

/**
 * PUTs one part to its presigned link, reporting bytes sent; resolves the part's ETag (the bucket's
 * CORS rule must expose the ETag header). XMLHttpRequest because fetch reports no upload progress.
 */
export function xhrPutPart(
  url: string,
  body: Blob,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      const etag = xhr.getResponseHeader('ETag');
      if (xhr.status >= 200 && xhr.status < 300 && etag) resolve(etag);
      else reject(new Error(`part upload failed: HTTP ${xhr.status}`));
    };
    xhr.onerror = () => reject(new Error('part upload failed: network'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

/** How parts travel (replaced in tests). */
export const partTransport = { put: xhrPutPart };
