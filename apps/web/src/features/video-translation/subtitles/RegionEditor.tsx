import { DeleteOutlined } from '@ant-design/icons';
import type { Box } from '@vw/contract';
import { Button, Slider } from 'antd';
import { type PointerEvent as ReactPointerEvent, useRef, useState } from 'react';
import { formatDuration } from '@/lib/tasks/format.ts';

/** A box in the editor: normalised (0..1), with what it is for. */
export interface EditorBox extends Box {
  kind?: 'subtitle' | 'title' | 'custom';
}

type Drag =
  | { mode: 'draw'; x0: number; y0: number }
  | { mode: 'move'; index: number; dx: number; dy: number }
  | { mode: 'resize'; index: number; handle: 'nw' | 'ne' | 'sw' | 'se' };

const MIN = 0.01;
const clamp = (v: number, lo = 0, hi = 1) => Math.min(hi, Math.max(lo, v));
const round = (v: number) => Math.round(v * 10_000) / 10_000;
const norm = (b: EditorBox): EditorBox => ({
  ...b,
  x: round(clamp(b.x)),
  y: round(clamp(b.y)),
  w: round(clamp(b.w, MIN, 1 - clamp(b.x))),
  h: round(clamp(b.h, MIN, 1 - clamp(b.y))),
});

/**
 * A video frame with boxes over it (normalised coordinates): drag on the picture to draw a box, drag a
 * box to move it, its corners to resize it; the scrubber under it picks the frame (`onSeek`).
 */
export function RegionEditor({
  frameUrl,
  aspect,
  boxes,
  onChange,
  durationMs,
  atMs,
  onSeek,
  loading,
  maxBoxes = 4,
  testId = 'region-editor',
}: {
  frameUrl: string | null;
  /** width / height of the video. */
  aspect: number;
  boxes: EditorBox[];
  onChange: (boxes: EditorBox[]) => void;
  durationMs: number;
  atMs: number;
  onSeek: (ms: number) => void;
  loading?: boolean;
  maxBoxes?: number;
  testId?: string;
}) {
  const stage = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [draft, setDraft] = useState<EditorBox | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [scrub, setScrub] = useState(atMs);

  const point = (e: { clientX: number; clientY: number }) => {
    const r = stage.current!.getBoundingClientRect();
    return { x: clamp((e.clientX - r.left) / r.width), y: clamp((e.clientY - r.top) / r.height) };
  };

  const onDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || boxes.length >= maxBoxes) return;
    const p = point(e);
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    setDrag({ mode: 'draw', x0: p.x, y0: p.y });
    setDraft({ x: p.x, y: p.y, w: 0, h: 0, kind: 'custom' });
    setSelected(null);
  };
  const startMove = (e: ReactPointerEvent, index: number) => {
    e.stopPropagation();
    const p = point(e);
    stage.current!.setPointerCapture(e.pointerId);
    setSelected(index);
    setDrag({ mode: 'move', index, dx: p.x - boxes[index].x, dy: p.y - boxes[index].y });
  };
  const startResize = (e: ReactPointerEvent, index: number, handle: 'nw' | 'ne' | 'sw' | 'se') => {
    e.stopPropagation();
    stage.current!.setPointerCapture(e.pointerId);
    setSelected(index);
    setDrag({ mode: 'resize', index, handle });
  };
  const onMove = (e: ReactPointerEvent) => {
    if (!drag) return;
    const p = point(e);
    if (drag.mode === 'draw') {
      setDraft({
        x: Math.min(drag.x0, p.x),
        y: Math.min(drag.y0, p.y),
        w: Math.abs(p.x - drag.x0),
        h: Math.abs(p.y - drag.y0),
        kind: 'custom',
      });
      return;
    }
    const b = boxes[drag.index];
    let next: EditorBox;
    if (drag.mode === 'move') {
      next = { ...b, x: clamp(p.x - drag.dx, 0, 1 - b.w), y: clamp(p.y - drag.dy, 0, 1 - b.h) };
    } else {
      const right = b.x + b.w;
      const bottom = b.y + b.h;
      const left = drag.handle.includes('w') ? Math.min(p.x, right - MIN) : b.x;
      const top = drag.handle.includes('n') ? Math.min(p.y, bottom - MIN) : b.y;
      const r2 = drag.handle.includes('e') ? Math.max(p.x, b.x + MIN) : right;
      const b2 = drag.handle.includes('s') ? Math.max(p.y, b.y + MIN) : bottom;
      next = { ...b, x: left, y: top, w: r2 - left, h: b2 - top };
    }
    onChange(boxes.map((x, i) => (i === drag.index ? norm(next) : x)));
  };
  const onUp = () => {
    if (drag?.mode === 'draw' && draft && draft.w > 0.02 && draft.h > 0.02) {
      onChange([...boxes, norm(draft)]);
      setSelected(boxes.length);
    }
    setDrag(null);
    setDraft(null);
  };

  const style = (b: Box) => ({
    left: `${b.x * 100}%`,
    top: `${b.y * 100}%`,
    width: `${b.w * 100}%`,
    height: `${b.h * 100}%`,
  });

  return (
    <div className="vw-st-editor" data-testid={testId}>
      <div
        ref={stage}
        className="vw-st-stage"
        style={{ aspectRatio: String(aspect || 16 / 9) }}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={onUp}
        data-testid={`${testId}-stage`}
      >
        {frameUrl ? (
          <img src={frameUrl} alt="视频画面" draggable={false} data-testid={`${testId}-frame`} />
        ) : (
          <div className="vw-st-placeholder">{loading ? '正在取画面…' : '选择视频后显示画面'}</div>
        )}
        {boxes.map((b, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: boxes have no identity beyond their place
            key={i}
            className={`vw-st-box vw-st-box-${b.kind ?? 'custom'}${selected === i ? ' is-selected' : ''}`}
            style={style(b)}
            onPointerDown={(e) => startMove(e, i)}
            data-testid={`${testId}-box`}
          >
            <span className="vw-st-box-label">
              {b.kind === 'title' ? '标题' : b.kind === 'subtitle' ? '字幕' : '区域'} {i + 1}
            </span>
            {(['nw', 'ne', 'sw', 'se'] as const).map((h) => (
              <span
                key={h}
                className={`vw-st-handle vw-st-handle-${h}`}
                onPointerDown={(e) => startResize(e, i, h)}
                data-testid={`${testId}-handle-${h}`}
              />
            ))}
          </div>
        ))}
        {draft && <div className="vw-st-box vw-st-box-draft" style={style(draft)} />}
      </div>
      <div className="vw-st-scrub">
        <Slider
          min={0}
          max={Math.max(0, durationMs - 100)}
          step={100}
          value={scrub}
          onChange={(v) => setScrub(v as number)}
          onChangeComplete={(v) => onSeek(v as number)}
          tooltip={{ formatter: (v) => formatDuration((v ?? 0) / 1000) }}
          style={{ flex: 1 }}
          data-testid={`${testId}-scrubber`}
        />
        <span className="vw-vt-muted">
          {formatDuration(scrub / 1000)} / {formatDuration(durationMs / 1000)}
        </span>
      </div>
      <div className="vw-st-boxes">
        <span className="vw-vt-muted">在画面上拖动可新增区域；拖动区域可移动，拖动四角可调整大小。</span>
        {boxes.map((b, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <span key={i} className="vw-st-chip">
            区域 {i + 1}：{Math.round(b.x * 100)}%, {Math.round(b.y * 100)}% · {Math.round(b.w * 100)}×
            {Math.round(b.h * 100)}%
            <Button
              size="small"
              type="text"
              icon={<DeleteOutlined />}
              aria-label={`删除区域 ${i + 1}`}
              onClick={() => onChange(boxes.filter((_, j) => j !== i))}
              data-testid={`${testId}-remove`}
            />
          </span>
        ))}
      </div>
    </div>
  );
}
