import { CloudUploadOutlined, FolderOpenOutlined } from '@ant-design/icons';
import type { MediaAsset } from '@vw/contract';
import { Button, Segmented, Select } from 'antd';
import { useEffect, useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import { formatBytes, UploadDropzone, UploadLeaveGuard } from '@/lib/upload/UploadDropzone.tsx';
import { useUpload } from '@/lib/upload/useUpload.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const subtitleTools = zhCN.subtitleTools;

const t = subtitleTools.media;

/** What a media step picks: a video, an audio file, or either (any file with sound). */
type StepKind = 'video' | 'audio' | 'media';
const KIND_FILES: Record<StepKind, { accept: string; acceptLabel: string }> = {
  video: { accept: 'video/*', acceptLabel: 'MP4、MOV、MKV、WEBM、AVI、FLV' },
  audio: { accept: 'audio/*', acceptLabel: 'MP3、WAV、M4A、AAC' },
  media: { accept: 'audio/*,video/*', acceptLabel: 'MP4、MOV、MKV、MP3、WAV、M4A' },
};

interface PickerProps {
  asset: MediaAsset | null;
  onAsset: (a: MediaAsset | null) => void;
  disabled: boolean;
  testId: string;
  kind?: StepKind;
  acceptLabel?: string;
  /** Told while an upload runs (a start button waits for it). */
  onBusy?: (busy: boolean) => void;
}

/** A step of a new-project flow that picks a file: its title over the picker. */
export function MediaStep({ title, ...picker }: PickerProps & { title: string }) {
  return (
    <section className="vw-vt-step" data-testid={picker.testId}>
      <h3>{title}</h3>
      <MediaPicker {...picker} />
    </section>
  );
}

/**
 * The media picker of the video tools: a file uploaded here, or one already in 我的素材 (earlier
 * uploads, results such as an erased video; the demo account's sample video is there).
 */
export function MediaPicker({
  asset,
  onAsset,
  disabled,
  testId,
  kind = 'video',
  acceptLabel,
  onBusy,
}: PickerProps) {
  const upload = useUpload();
  const noun = t.nouns[kind];
  const [source, setSource] = useState<'upload' | 'library'>('upload');
  const library = useCall(
    api.listMediaAssets,
    { query: { ...(kind === 'media' ? {} : { kind }), page: 1, page_size: 50 } },
    { enabled: source === 'library', staleTime: 0 },
  );
  useEffect(() => {
    onBusy?.(upload.active);
  }, [upload.active, onBusy]);
  // The asset is probed when the upload completes; while it is still processing, look again.
  const fresh = useCall(
    api.getMediaAsset,
    { query: { asset_id: asset?.asset_id ?? '' } },
    {
      enabled: !!asset && asset.status === 'processing',
      refetchInterval: (q) => (q.state.data?.asset.status === 'processing' ? 1500 : false),
    },
  );
  useEffect(() => {
    if (fresh.data && fresh.data.asset.status !== 'processing') onAsset(fresh.data.asset);
  }, [fresh.data, onAsset]);

  const uploading = upload.state.phase !== 'idle' && upload.state.phase !== 'cancelled';
  if (asset) {
    return (
      <div className="vw-vt-file" data-testid={`${testId}-file`}>
        <strong>{asset.name}</strong>
        <span className="vw-vt-muted">
          {formatBytes(asset.size)}
          {asset.duration_ms != null ? ` · ${formatDuration(asset.duration_ms / 1000)}` : t.processing}
          {asset.width ? ` · ${asset.width}×${asset.height}` : ''}
        </span>
        <Button
          size="small"
          type="link"
          onClick={() => {
            upload.reset();
            onAsset(null);
          }}
        >
          {t.change(noun)}
        </Button>
      </div>
    );
  }
  return (
    <>
      <UploadLeaveGuard active={upload.active} />
      {!uploading && (
        <Segmented
          value={source}
          onChange={(v) => setSource(v as 'upload' | 'library')}
          options={[
            { value: 'upload', label: t.upload(noun), icon: <CloudUploadOutlined /> },
            { value: 'library', label: t.library, icon: <FolderOpenOutlined /> },
          ]}
          data-testid={`${testId}-source`}
        />
      )}
      {source === 'upload' || uploading ? (
        <UploadDropzone
          accept={KIND_FILES[kind].accept}
          acceptLabel={acceptLabel ?? KIND_FILES[kind].acceptLabel}
          upload={upload}
          leaveGuard={false}
          disabled={disabled}
          onUploaded={(a) => onAsset(a)}
        />
      ) : (
        <Select<string>
          placeholder={library.data?.list.length === 0 ? t.libraryEmpty(noun) : t.libraryPick(noun)}
          style={{ width: 420 }}
          loading={library.isFetching}
          options={(library.data?.list ?? [])
            .filter((a) => (kind === 'video' ? a.has_video : a.has_audio))
            .map((a) => ({
              value: a.asset_id,
              label: `${a.name}${a.duration_ms != null ? ` · ${formatDuration(a.duration_ms / 1000)}` : ''}`,
            }))}
          onChange={(id) => onAsset(library.data?.list.find((a) => a.asset_id === id) ?? null)}
          data-testid={`${testId}-library`}
        />
      )}
    </>
  );
}
