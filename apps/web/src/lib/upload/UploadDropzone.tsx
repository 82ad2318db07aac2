import { CloudUploadOutlined } from '@ant-design/icons';
import type { MediaAsset } from '@vw/contract';
import { Button, Progress } from 'antd';
import { type DragEvent, type ReactNode, useId, useRef, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { api } from '../api.ts';
import { ApiError, describeEnvelopeError } from '../http/errors.ts';
import { useCall } from '../query/hooks.ts';
import { formatDuration } from '../tasks/format.ts';
import { useUploadLeaveGuard } from './guard.ts';
import { type UseUpload, useUpload } from './useUpload.ts';
import './upload.css';

const t = zhCN.upload;

/** 1536 → "1.5 KB"; sizes for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 ? Math.round(v) : Number(v.toFixed(1))} ${units[i]}`;
}

/** Whether a file matches an `accept` list like "audio/*,video/*,.srt" (empty: anything). */
export function accepts(file: Pick<File, 'name' | 'type'>, accept: string | undefined): boolean {
  if (!accept) return true;
  const name = file.name.toLowerCase();
  const type = (file.type || '').toLowerCase();
  return accept
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean)
    .some((a) => {
      if (a.startsWith('.')) return name.endsWith(a);
      if (a.endsWith('/*')) return type.startsWith(a.slice(0, -1));
      return type === a;
    });
}

/**
 * What a failed upload tells the user, in Chinese: a refused call's mapped message (spec §8); a
 * refusal of the tus server carried as an envelope in its body (err_file_not_supported…); the
 * size limit for a 413; otherwise that the upload failed and can be resumed.
 */
export function uploadErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  const res = (error as { originalResponse?: { getStatus(): number; getBody(): string } | null })
    ?.originalResponse;
  if (res) {
    try {
      const envelope = JSON.parse(res.getBody()) as { code?: number; msg?: string; data?: unknown };
      if (typeof envelope?.code === 'number' && envelope.code !== 0)
        return describeEnvelopeError(envelope.code, envelope.msg, envelope.data).text;
    } catch {
      // not an envelope
    }
    if (res.getStatus() === 413) return t.tooLargeServer;
  }
  return t.failedRetry;
}

/** Why a file cannot be uploaded here, or null. */
export function refuseFile(
  file: File,
  accept: string | undefined,
  maxBytes: number | undefined,
): string | null {
  if (file.size === 0) return t.empty;
  if (!accepts(file, accept)) return t.wrongType;
  if (maxBytes && file.size > maxBytes) return t.tooLarge(formatBytes(maxBytes));
  return null;
}

export interface UploadDropzoneProps<T = MediaAsset> {
  /** The file input's accept list, e.g. "audio/*,video/*". */
  accept?: string;
  /** What the accepted types are called (shown under the drop text), e.g. "MP3、WAV、MP4". */
  acceptLabel?: string;
  onUploaded: (asset: T, file: File) => void;
  disabled?: boolean;
  /** An upload driven from outside (e.g. a recording uploads through the same hook). */
  upload?: UseUpload<T>;
  /**
   * Guard leaving while this upload runs (default). A page that guards its uploads itself passes
   * false: a router holds one blocker at a time.
   */
  leaveGuard?: boolean;
  /**
   * What the limit line describes: 'media' (default) shows the plan's size and duration limits;
   * 'document' (books, text) shows the size only — a duration means nothing there.
   */
  limitKind?: 'media' | 'document';
  /** A tighter size limit of this tool (the lower of it and the plan's applies). */
  maxBytes?: number;
  /** A tighter duration limit of this tool, in seconds (the lower of it and the plan's is shown). */
  maxSeconds?: number;
}

/** The leave guard as a component, so it can be left out (hooks cannot be conditional). */
export function UploadLeaveGuard({ active }: { active: boolean }) {
  useUploadLeaveGuard(active);
  return null;
}

/** An upload under way (or failed, or done): name, size, percent, speed, time left and its controls. */
function UploadProgress<T>({
  upload,
  onRetry,
  children,
}: {
  upload: UseUpload<T>;
  onRetry: () => void;
  /** The leave guard, when the dropzone keeps one. */
  children: ReactNode;
}) {
  const { state } = upload;
  if (state.phase === 'idle' || state.phase === 'cancelled') return null;
  const percent = state.total > 0 ? Math.floor((state.loaded / state.total) * 100) : 0;
  const status = {
    preparing: t.preparing,
    uploading: t.uploading,
    paused: t.paused,
    completing: t.checking,
    done: t.done,
    error: t.failed,
  }[state.phase];
  const errorText = state.phase === 'error' ? uploadErrorText(state.error) : null;
  return (
    <div className="vw-upload-card" data-testid="upload-progress" data-phase={state.phase}>
      {children}
      <div className="vw-upload-row">
        <strong className="vw-upload-name">{state.file?.name}</strong>
        <span className="vw-upload-size">{formatBytes(state.total)}</span>
      </div>
      <Progress
        percent={percent}
        status={state.phase === 'error' ? 'exception' : state.phase === 'done' ? 'success' : 'active'}
        strokeColor={state.phase === 'error' || state.phase === 'done' ? undefined : '#4f46e5'}
        data-testid="upload-percent"
      />
      <div className="vw-upload-row vw-upload-meta">
        <span data-testid="upload-status">{status}</span>
        {state.phase === 'uploading' && state.speed > 0 && (
          <span data-testid="upload-speed">{t.speed((state.speed / 1024 / 1024).toFixed(1))}</span>
        )}
        {state.phase === 'uploading' && state.etaSeconds != null && (
          <span data-testid="upload-eta">{t.remaining(formatDuration(state.etaSeconds))}</span>
        )}
      </div>
      {errorText && (
        <div className="vw-upload-error" role="alert" data-testid="upload-error">
          {errorText}
        </div>
      )}
      <div className="vw-upload-actions">
        {state.phase === 'uploading' && (
          <Button size="small" onClick={upload.pause} data-testid="upload-pause">
            {t.pause}
          </Button>
        )}
        {state.phase === 'paused' && (
          <Button size="small" type="primary" onClick={upload.resume} data-testid="upload-resume">
            {t.resume}
          </Button>
        )}
        {upload.active && state.phase !== 'completing' && (
          <Button size="small" onClick={upload.cancel} data-testid="upload-cancel">
            {t.cancel}
          </Button>
        )}
        {state.phase === 'error' && (
          <Button size="small" type="primary" onClick={onRetry} data-testid="upload-retry">
            {t.retry}
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * Drag a file here or click to pick one; it uploads resumably with percent, MB/s, time left and
 * pause/resume/cancel. The size limit is the plan's (`getToolCapabilities().limits`). While it
 * uploads, leaving the page asks first (spec §4).
 */
export function UploadDropzone<T = MediaAsset>({
  accept,
  acceptLabel,
  onUploaded,
  disabled,
  upload: outer,
  leaveGuard = true,
  limitKind = 'media',
  maxBytes: toolMaxBytes,
  maxSeconds: toolMaxSeconds,
}: UploadDropzoneProps<T>) {
  const own = useUpload();
  const upload = (outer ?? own) as UseUpload<T>;
  const { state } = upload;
  const caps = useCall(api.getToolCapabilities, undefined, { staleTime: 60_000 });
  const limits = caps.data?.limits;
  const planMax = limits?.max_upload_bytes;
  const maxBytes = toolMaxBytes && planMax ? Math.min(toolMaxBytes, planMax) : (planMax ?? toolMaxBytes);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const guard = leaveGuard && <UploadLeaveGuard active={upload.active} />;

  const take = (file: File | undefined) => {
    if (!file || disabled) return;
    const why = refuseFile(file, accept, maxBytes);
    setRefusal(why);
    if (why) return;
    upload.start(file).then(
      (asset) => onUploaded(asset, file),
      () => undefined, // shown from the state
    );
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!upload.active) take(e.dataTransfer.files?.[0]);
  };

  if (state.phase !== 'idle' && state.phase !== 'cancelled') {
    return (
      <UploadProgress upload={upload} onRetry={() => take(state.file ?? undefined)}>
        {guard}
      </UploadProgress>
    );
  }

  return (
    <fieldset
      className={`vw-upload-drop${over ? ' over' : ''}${disabled ? ' disabled' : ''}`}
      aria-label={t.drop}
      data-testid="upload-dropzone"
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      {guard}
      <label htmlFor={inputId} className="vw-upload-label">
        <CloudUploadOutlined className="vw-upload-icon" />
        <span className="vw-upload-title">{over ? t.dropActive : t.drop}</span>
        {acceptLabel && <span className="vw-upload-hint">{t.accept(acceptLabel)}</span>}
        {limits && (
          <span className="vw-upload-hint" data-testid="upload-limit">
            {t.limit(
              formatBytes(maxBytes ?? limits.max_upload_bytes),
              limitKind === 'media' && limits.max_duration_seconds > 0
                ? Math.floor(Math.min(limits.max_duration_seconds, toolMaxSeconds ?? Infinity) / 60)
                : null,
            )}
          </span>
        )}
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={accept}
        disabled={disabled}
        className="vw-upload-input"
        data-testid="upload-input"
        onChange={(e) => {
          take(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {refusal && (
        <div className="vw-upload-error" role="alert" data-testid="upload-refused">
          {refusal}
        </div>
      )}
    </fieldset>
  );
}
