import { CloudUploadOutlined, FolderOpenOutlined } from '@ant-design/icons';
import type { MediaAsset } from '@vw/contract';
import type { CreditTool } from '@vw/contract/constants/credits.ts';
import { Button, Segmented, Select } from 'antd';
import { useEffect, useState } from 'react';
import { formatCredits } from '@/features/credits/format.ts';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { formatDuration } from '@/lib/tasks/format.ts';
import { formatBytes, UploadDropzone, UploadLeaveGuard } from '@/lib/upload/UploadDropzone.tsx';
import { useUpload } from '@/lib/upload/useUpload.ts';
import type { EditorBox } from './RegionEditor.tsx';

export const VIDEO_ACCEPT = 'video/*';
const ACCEPT_LABEL = 'MP4、MOV、MKV、WEBM、AVI、FLV';

/** What a media step picks: a video, an audio file, or either (any file with sound). */
type StepKind = 'video' | 'audio' | 'media';
const KIND_TEXT: Record<StepKind, { noun: string; accept: string; acceptLabel: string }> = {
  video: { noun: '视频', accept: VIDEO_ACCEPT, acceptLabel: ACCEPT_LABEL },
  audio: { noun: '音频', accept: 'audio/*', acceptLabel: 'MP3、WAV、M4A、AAC' },
  media: { noun: '音视频', accept: 'audio/*,video/*', acceptLabel: 'MP4、MOV、MKV、MP3、WAV、M4A' },
};

/**
 * The media picker of the video tools: a file uploaded here, or one already in 我的素材 (earlier
 * uploads, results such as an erased video; the demo account's sample video is there).
 */
export function VideoStep({
  asset,
  onAsset,
  disabled,
  testId,
  kind = 'video',
  accept,
  acceptLabel,
  onBusy,
}: {
  asset: MediaAsset | null;
  onAsset: (a: MediaAsset | null) => void;
  disabled: boolean;
  testId: string;
  kind?: StepKind;
  /** The upload's accepted types, when not the kind's. */
  accept?: string;
  acceptLabel?: string;
  /** Told while an upload runs (a start button waits for it). */
  onBusy?: (busy: boolean) => void;
}) {
  const upload = useUpload();
  const text = KIND_TEXT[kind];
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
          {asset.duration_ms != null ? ` · ${formatDuration(asset.duration_ms / 1000)}` : ' · 处理中…'}
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
          更换{text.noun}
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
            { value: 'upload', label: `上传${text.noun}`, icon: <CloudUploadOutlined /> },
            { value: 'library', label: '我的素材', icon: <FolderOpenOutlined /> },
          ]}
          data-testid={`${testId}-source`}
        />
      )}
      {source === 'upload' || uploading ? (
        <UploadDropzone
          accept={accept ?? text.accept}
          acceptLabel={acceptLabel ?? text.acceptLabel}
          upload={upload}
          leaveGuard={false}
          disabled={disabled}
          onUploaded={(a) => onAsset(a)}
        />
      ) : (
        <Select<string>
          placeholder={
            library.data?.list.length === 0 ? `还没有${text.noun}素材，请先上传` : `选择一个${text.noun}`
          }
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

/** Detected subtitle bands of the video and a frame at the scrubber's time. */
export function useFrames(asset: MediaAsset | null, atMs: number | null) {
  const ready = !!asset && asset.status === 'ready' && asset.has_video;
  const detect = useCall(
    api.ocrDetectRegions,
    { body: { asset_id: asset?.asset_id ?? '' } },
    { enabled: ready, staleTime: Number.POSITIVE_INFINITY, retry: false },
  );
  const frame = useCall(
    api.ocrPreviewFrame,
    { body: { asset_id: asset?.asset_id ?? '', at_ms: atMs ?? 0 } },
    { enabled: ready && atMs != null, staleTime: 30 * 60_000, placeholderData: (prev) => prev },
  );
  const first = detect.data?.frames.find((f) => f.at_ms > 0) ?? detect.data?.frames[0];
  const initialBoxes: EditorBox[] = (detect.data?.regions ?? []).map((r) => ({
    x: r.x,
    y: r.y,
    w: r.w,
    h: r.h,
    kind: r.kind,
  }));
  return {
    detect,
    initialBoxes,
    frameUrl: (atMs != null ? frame.data?.url : undefined) ?? first?.url ?? null,
    frameAt: atMs ?? first?.at_ms ?? 0,
    loading: detect.isFetching || frame.isFetching,
  };
}

/** The cost estimate against the balance for `seconds` of video priced by `tool`. */
export function Estimate({
  tool,
  seconds,
  testId,
}: {
  tool: CreditTool;
  seconds: number | null;
  testId: string;
}) {
  const estimate = useCall(
    api.estimateCredits,
    { body: { task_type: tool, params: { seconds: seconds ?? 0 } } },
    { enabled: seconds != null, suppressError: true, staleTime: 0 },
  );
  if (seconds == null) return <div className="vw-vt-estimate" data-testid={testId} />;
  return (
    <div className="vw-vt-estimate" data-testid={testId}>
      <span>预计消耗</span>
      {estimate.data ? (
        <>
          <strong data-testid={`${testId}-credits`}>{formatCredits(estimate.data.credits)} 积分</strong>
          <span className="vw-vt-muted">当前余额 {formatCredits(estimate.data.balance)}</span>
          {!estimate.data.sufficient && (
            <span className="vw-vt-error" data-testid={`${testId}-insufficient`}>
              积分不足，请先充值或升级套餐
            </span>
          )}
        </>
      ) : (
        <span className="vw-vt-muted">{estimate.isFetching ? '计算中…' : ''}</span>
      )}
    </div>
  );
}

export const boxesOnly = (boxes: EditorBox[]) => boxes.map(({ x, y, w, h }) => ({ x, y, w, h }));
