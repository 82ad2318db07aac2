import { DeleteOutlined } from '@ant-design/icons';
import type { Box } from '@vw/contract';
import { Button, Slider } from 'antd';
import { type PointerEvent as ReactPointerEvent, useRef, useState } from 'react';
import { formatDuration } from '@/lib/tasks/format.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const subtitleTools = zhCN.subtitleTools;

const t = subtitleTools.region;

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

type Handle = 'nw' | 'ne' | 'sw' | 'se';

/** Drawing, moving and resizing boxes with the pointer, in coordinates of the stage's picture. */
function useBoxDrag(boxes: EditorBox[], onChange: (boxes: EditorBox[]) => void, maxBoxes: number) {
  const stage = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [draft, setDraft] = useState<EditorBox | null>(null);
  const [selected, setSelected] = useState<number | null>(null);

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
  const startResize = (e: ReactPointerEvent, index: number, handle: Handle) => {
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
    const next = dragged(boxes[drag.index], drag, p);
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
  return { stage, draft, selected, onDown, onMove, onUp, startMove, startResize };
}

/** A box moved, or resized by one corner, to the pointer at `p`. */
function dragged(
  b: EditorBox,
  drag: Exclude<Drag, { mode: 'draw' }>,
  p: { x: number; y: number },
): EditorBox {
  if (drag.mode === 'move')
    return { ...b, x: clamp(p.x - drag.dx, 0, 1 - b.w), y: clamp(p.y - drag.dy, 0, 1 - b.h) };
  const right = b.x + b.w;
  const bottom = b.y + b.h;
  const left = drag.handle.includes('w') ? Math.min(p.x, right - MIN) : b.x;
  const top = drag.handle.includes('n') ? Math.min(p.y, bottom - MIN) : b.y;
  const r2 = drag.handle.includes('e') ? Math.max(p.x, b.x + MIN) : right;
  const b2 = drag.handle.includes('s') ? Math.max(p.y, b.y + MIN) : bottom;
  return { ...b, x: left, y: top, w: r2 - left, h: b2 - top };
}

const boxStyle = (b: Box) => ({
  left: `${b.x * 100}%`,
  top: `${b.y * 100}%`,
  width: `${b.w * 100}%`,
  height: `${b.h * 100}%`,
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
  const { stage, draft, selected, onDown, onMove, onUp, startMove, startResize } = useBoxDrag(
    boxes,
    onChange,
    maxBoxes,
  );
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
          <img src={frameUrl} alt={t.frame} draggable={false} data-testid={`${testId}-frame`} />
        ) : (
          <div className="vw-st-placeholder">{loading ? t.loadingFrame : t.noFrame}</div>
        )}
        {boxes.map((b, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: boxes have no identity beyond their place
            key={i}
            className={`vw-st-box vw-st-box-${b.kind ?? 'custom'}${selected === i ? ' is-selected' : ''}`}
            style={boxStyle(b)}
            onPointerDown={(e) => startMove(e, i)}
            data-testid={`${testId}-box`}
          >
            <span className="vw-st-box-label">
              {t.kinds[b.kind ?? 'custom']} {i + 1}
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
        {draft && <div className="vw-st-box vw-st-box-draft" style={boxStyle(draft)} />}
      </div>
      <Scrubber atMs={atMs} durationMs={durationMs} onSeek={onSeek} testId={`${testId}-scrubber`} />
      <BoxChips boxes={boxes} onChange={onChange} testId={testId} />
    </div>
  );
}

/** The slider that picks the frame: moves freely, seeks when let go. */
function Scrubber({
  atMs,
  durationMs,
  onSeek,
  testId,
}: {
  atMs: number;
  durationMs: number;
  onSeek: (ms: number) => void;
  testId: string;
}) {
  const [scrub, setScrub] = useState(atMs);
  return (
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
        data-testid={testId}
      />
      <span className="vw-vt-muted">
        {formatDuration(scrub / 1000)} / {formatDuration(durationMs / 1000)}
      </span>
    </div>
  );
}

/** Each box in figures, with a button that removes it. */
function BoxChips({
  boxes,
  onChange,
  testId,
}: {
  boxes: EditorBox[];
  onChange: (boxes: EditorBox[]) => void;
  testId: string;
}) {
  return (
    <div className="vw-st-boxes">
      <span className="vw-vt-muted">{t.hint}</span>
      {boxes.map((b, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: boxes have no identity beyond their place
        <span key={i} className="vw-st-chip">
          {t.chip(i + 1)}
          {Math.round(b.x * 100)}%, {Math.round(b.y * 100)}% · {Math.round(b.w * 100)}×{Math.round(b.h * 100)}
          %
          <Button
            size="small"
            type="text"
            icon={<DeleteOutlined />}
            aria-label={t.remove(i + 1)}
            onClick={() => onChange(boxes.filter((_, j) => j !== i))}
            data-testid={`${testId}-remove`}
          />
        </span>
      ))}
    </div>
  );
}
