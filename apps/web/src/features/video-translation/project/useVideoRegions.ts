import type { MediaAsset } from '@vw/contract';
import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import type { EditorBox } from './RegionEditor.tsx';

/**
 * Detected subtitle bands of the video and a frame at the scrubber's time. Without `bands` (a
 * watermark, drawn by hand) nothing is detected — recognising text only to show a frame would keep
 * the user waiting — and the frame in the middle of the video is shown until the scrubber moves.
 */
export function useFrames(asset: MediaAsset | null, atMs: number | null, bands = true) {
  const ready = !!asset && asset.status === 'ready' && asset.has_video;
  const detect = useCall(
    api.ocrDetectRegions,
    { body: { asset_id: asset?.asset_id ?? '' } },
    { enabled: ready && bands, staleTime: Number.POSITIVE_INFINITY, retry: false },
  );
  const middle = Math.round((asset?.duration_ms ?? 0) / 2);
  const frame = useCall(
    api.ocrPreviewFrame,
    { body: { asset_id: asset?.asset_id ?? '', at_ms: atMs ?? middle } },
    {
      enabled: ready && (atMs != null || !bands),
      staleTime: 30 * 60_000,
      placeholderData: (prev) => prev,
    },
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
    frameUrl: (atMs != null || !bands ? frame.data?.url : undefined) ?? first?.url ?? null,
    frameAt: atMs ?? (bands ? (first?.at_ms ?? 0) : middle),
    loading: detect.isFetching || frame.isFetching,
  };
}

/**
 * The picked video and the boxes drawn on one of its frames: once its bands are detected they are the
 * boxes to start with (when `startDetected` is false nothing is detected: a watermark is drawn by hand). Frames are
 * loaded only while `wanted`. Picking another video starts again.
 */
export function useVideoRegions({
  initial = null,
  wanted = true,
  startDetected = true,
}: {
  initial?: MediaAsset | null;
  wanted?: boolean;
  startDetected?: boolean;
} = {}) {
  const [asset, setAsset] = useState<MediaAsset | null>(initial);
  const [atMs, setAtMs] = useState<number | null>(null);
  const [drawn, setBoxes] = useState<EditorBox[] | null>(null);
  const frames = useFrames(wanted ? asset : null, atMs, startDetected);
  const { detect, initialBoxes } = frames;
  useEffect(() => {
    if (detect.data && drawn === null) setBoxes(startDetected ? initialBoxes : []);
  }, [detect.data, drawn, initialBoxes, startDetected]);
  const pick = useCallback((a: MediaAsset | null) => {
    setAsset(a);
    setBoxes(null);
    setAtMs(null);
  }, []);
  return { asset, pick, atMs, setAtMs, boxes: drawn ?? [], setBoxes, frames };
}

/** The boxes as the contract takes them (without what each is for). */
export const boxesOnly = (boxes: EditorBox[]) => boxes.map(({ x, y, w, h }) => ({ x, y, w, h }));
