import { Modal, Slider } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';

const VIEW = 280; // crop viewport, CSS px
export const AVATAR_OUTPUT = 256; // saved image, px

interface Props {
  file: File | null;
  onCancel: () => void;
  onConfirm: (blob: Blob) => Promise<void>;
  onLoadError: () => void;
}

interface Crop {
  zoom: number;
  /** Image offset in viewport px from the centred position. */
  x: number;
  y: number;
}

/** Keeps the square viewport covered by the image. */
function clampCrop(c: Crop, natural: { w: number; h: number }): Crop {
  const base = VIEW / Math.min(natural.w, natural.h);
  const w = natural.w * base * c.zoom;
  const h = natural.h * base * c.zoom;
  const maxX = (w - VIEW) / 2;
  const maxY = (h - VIEW) / 2;
  return { zoom: c.zoom, x: Math.max(-maxX, Math.min(maxX, c.x)), y: Math.max(-maxY, Math.min(maxY, c.y)) };
}

/** Draws the visible square into a canvas of `size` px. */
function renderCrop(img: HTMLImageElement, c: Crop, size: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext('2d')!;
  const base = VIEW / Math.min(img.naturalWidth, img.naturalHeight);
  const scale = base * c.zoom; // natural px → viewport px
  const drawnW = img.naturalWidth * scale;
  const drawnH = img.naturalHeight * scale;
  const left = (VIEW - drawnW) / 2 + c.x; // image top-left in viewport px
  const top = (VIEW - drawnH) / 2 + c.y;
  const sx = -left / scale;
  const sy = -top / scale;
  const sSize = VIEW / scale;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, sx, sy, sSize, sSize, 0, 0, size, size);
  return canvas;
}

/** Square avatar crop: drag to move, slider to zoom, round preview; saved as a 256 px PNG. */
export function AvatarCropper({ file, onCancel, onConfirm, onLoadError }: Props) {
  const [url, setUrl] = useState<string | null>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 0, y: 0 });
  const [saving, setSaving] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const imgRef = useRef<HTMLImageElement>(null);
  const drag = useRef<{ x: number; y: number; cx: number; cy: number } | null>(null);
  const t = zhCN.profile;

  useEffect(() => {
    if (!file) return;
    const u = URL.createObjectURL(file);
    setUrl(u);
    setNatural(null);
    setCrop({ zoom: 1, x: 0, y: 0 });
    return () => URL.revokeObjectURL(u);
  }, [file]);

  useEffect(() => {
    const img = imgRef.current;
    if (!img || !natural) return;
    const id = requestAnimationFrame(() => setPreview(renderCrop(img, crop, 96).toDataURL('image/png')));
    return () => cancelAnimationFrame(id);
  }, [crop, natural]);

  const update = (c: Crop) => natural && setCrop(clampCrop(c, natural));

  const base = natural ? VIEW / Math.min(natural.w, natural.h) : 1;
  const w = natural ? natural.w * base * crop.zoom : VIEW;
  const h = natural ? natural.h * base * crop.zoom : VIEW;

  const save = async () => {
    const img = imgRef.current;
    if (!img || !natural) return;
    setSaving(true);
    try {
      const canvas = renderCrop(img, crop, AVATAR_OUTPUT);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (blob) await onConfirm(blob);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={file !== null}
      title={t.cropTitle}
      okText={t.cropSave}
      cancelText={t.cancel}
      onCancel={onCancel}
      onOk={save}
      confirmLoading={saving}
      okButtonProps={{ disabled: !natural }}
      width={520}
      destroyOnHidden
    >
      <div className="vw-crop">
        <div>
          <div
            className="vw-crop-view"
            style={{ width: VIEW, height: VIEW }}
            onPointerDown={(e) => {
              (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
              drag.current = { x: e.clientX, y: e.clientY, cx: crop.x, cy: crop.y };
            }}
            onPointerMove={(e) => {
              if (!drag.current) return;
              update({
                zoom: crop.zoom,
                x: drag.current.cx + e.clientX - drag.current.x,
                y: drag.current.cy + e.clientY - drag.current.y,
              });
            }}
            onPointerUp={() => {
              drag.current = null;
            }}
            onWheel={(e) => update({ ...crop, zoom: Math.max(1, Math.min(3, crop.zoom - e.deltaY / 500)) })}
          >
            {url && (
              <img
                ref={imgRef}
                src={url}
                alt=""
                draggable={false}
                onLoad={(e) =>
                  setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })
                }
                onError={onLoadError}
                style={{
                  width: w,
                  height: h,
                  left: (VIEW - w) / 2 + crop.x,
                  top: (VIEW - h) / 2 + crop.y,
                }}
              />
            )}
            <div className="vw-crop-ring" />
          </div>
          <div className="vw-crop-zoom">
            <span>{t.cropZoom}</span>
            <Slider
              min={1}
              max={3}
              step={0.01}
              value={crop.zoom}
              onChange={(zoom) => update({ ...crop, zoom })}
            />
          </div>
          <div className="vw-crop-hint">{t.cropDragHint}</div>
        </div>
        <div className="vw-crop-side">
          <div className="vw-crop-preview-label">{t.cropPreview}</div>
          {preview && <img className="vw-crop-preview" src={preview} alt={t.cropPreview} />}
          {preview && <img className="vw-crop-preview is-small" src={preview} alt="" />}
        </div>
      </div>
    </Modal>
  );
}
