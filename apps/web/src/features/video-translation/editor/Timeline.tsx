import { ColumnWidthOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import type { MediaPeaks } from '@vw/contract/calls/media.ts';
import { formatTimeShort } from '@vw/contract/helpers/time.ts';
import { Tooltip } from 'antd';
import {
  type PointerEvent as ReactPointerEvent,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { useActiveCueId, useEditor } from './context.tsx';
import { clampMove, clampResize, type SubtitleCue, setCueTimes } from './document.ts';
import { chosenTake, isStale, lineFlag } from './dub.ts';
import { clickSelection } from './history.ts';
import { speakerColor } from './SpeakersPanel.tsx';

const s = zhCN.editor;

const RULER_H = 18;
const HEIGHT = 132;
const MIN_PPS = 2;
const MAX_PPS = 1000;
/** A press that moves less than this is a click (select, seek), not a drag. */
const DRAG_SLOP_PX = 3;
const TICK_STEPS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800];

type DragMode = 'move' | 'start' | 'end';

/** Draws the ruler and the waveform of the visible window (min/max pairs per bucket). */
function draw(
  canvas: HTMLCanvasElement,
  view: { left: number; width: number },
  pps: number,
  peaks: MediaPeaks | null,
) {
  const ctx = canvas.getContext?.('2d');
  if (!ctx) return;
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.floor(view.width));
  if (canvas.width !== w * dpr || canvas.height !== HEIGHT * dpr) {
    canvas.width = w * dpr;
    canvas.height = HEIGHT * dpr;
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, HEIGHT);

  // Ruler: labels at least 70 px apart.
  const step = TICK_STEPS.find((t) => t * pps >= 70) ?? 3600;
  ctx.fillStyle = '#1b1e27';
  ctx.fillRect(0, 0, w, RULER_H);
  ctx.strokeStyle = '#3a3f4d';
  ctx.fillStyle = '#8b93a7';
  ctx.font = '10px ui-monospace, monospace';
  ctx.beginPath();
  const first = Math.floor(view.left / pps / step) * step;
  for (let t = first; t * pps <= view.left + w; t += step) {
    const x = Math.round(t * pps - view.left) + 0.5;
    ctx.moveTo(x, RULER_H - 6);
    ctx.lineTo(x, RULER_H);
    for (let k = 1; k < 5; k++) {
      const mx = Math.round((t + (step * k) / 5) * pps - view.left) + 0.5;
      ctx.moveTo(mx, RULER_H - 3);
      ctx.lineTo(mx, RULER_H);
    }
    ctx.fillText(formatTimeShort(t * 1000), x + 3, 10);
  }
  ctx.stroke();

  if (!peaks || peaks.peaks.length < 2) return;
  const mid = RULER_H + (HEIGHT - RULER_H) / 2;
  const amp = (HEIGHT - RULER_H) / 2 - 6;
  const buckets = peaks.peaks.length / 2;
  const bps = peaks.buckets_per_second;
  ctx.fillStyle = '#4b6bd6';
  for (let x = 0; x < w; x++) {
    const t0 = (view.left + x) / pps;
    const b0 = Math.floor(t0 * bps);
    if (b0 >= buckets) break;
    const b1 = Math.min(buckets, Math.max(b0 + 1, Math.floor(((view.left + x + 1) / pps) * bps)));
    let lo = 1;
    let hi = -1;
    for (let b = b0; b < b1; b++) {
      lo = Math.min(lo, peaks.peaks[2 * b]!);
      hi = Math.max(hi, peaks.peaks[2 * b + 1]!);
    }
    if (hi < lo) continue;
    const top = mid - hi * amp;
    ctx.fillRect(x, top, 1, Math.max(1, (hi - lo) * amp));
  }
}

/**
 * The waveform timeline: ruler, peaks, cues as regions (drag to move, drag an edge to resize —
 * never past a neighbour), the playhead; click to seek; Ctrl+wheel or the buttons zoom; the
 * wheel scrolls horizontally.
 */
export function Timeline({ peaks }: { peaks: MediaPeaks | null }) {
  const editor = useEditor();
  const { cues } = editor;
  const total = Math.max(editor.durationMs ?? 0, (cues.at(-1)?.end_ms ?? 0) + 2000, 5000);
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { pps, view, onScroll, zoom, zoomToFit } = useTimelineView(scrollRef, total);
  const { drag, onCueDown } = useCueDrag(scrollRef, pps);

  useEffect(() => {
    if (canvasRef.current && view.width > 0) draw(canvasRef.current, view, pps, peaks);
  }, [view, pps, peaks]);

  const onBackgroundDown = (e: ReactPointerEvent) => {
    if (e.button !== 0) return;
    editor.seek(msAt(scrollRef.current!, e.clientX, pps));
  };
  // The regions drawn: those in view, with a margin.
  const span = {
    from: (view.left / pps) * 1000 - 2000,
    to: ((view.left + (view.width || 2000)) / pps) * 1000 + 2000,
  };

  return (
    <section className="vw-ed-timeline" aria-label={s.timeline} data-testid="timeline">
      <div className="vw-ed-tl-bar">
        <Tooltip title={s.zoomOutTip}>
          <button type="button" className="vw-ed-icon" aria-label={s.zoomOut} onClick={() => zoom(0.66)}>
            <ZoomOutOutlined />
          </button>
        </Tooltip>
        <Tooltip title={s.zoomInTip}>
          <button type="button" className="vw-ed-icon" aria-label={s.zoomIn} onClick={() => zoom(1.5)}>
            <ZoomInOutlined />
          </button>
        </Tooltip>
        <Tooltip title={s.zoomFit}>
          <button type="button" className="vw-ed-icon" aria-label={s.zoomFit} onClick={zoomToFit}>
            <ColumnWidthOutlined />
          </button>
        </Tooltip>
        <span className="vw-ed-tl-scale" data-testid="timeline-scale" data-pps={pps.toFixed(3)}>
          {Math.round(pps)} px/s
        </span>
      </div>
      <div className="vw-ed-tl-scroll" ref={scrollRef} onScroll={onScroll}>
        <div
          className="vw-ed-tl-content"
          style={{ width: Math.ceil((total / 1000) * pps), height: HEIGHT }}
          onPointerDown={onBackgroundDown}
          data-testid="timeline-content"
        >
          <canvas ref={canvasRef} className="vw-ed-tl-canvas" style={{ width: view.width, height: HEIGHT }} />
          <CueRegions pps={pps} span={span} drag={drag} onCueDown={onCueDown} />
          <DubClips pps={pps} span={span} />
          <Playhead pps={pps} scrollRef={scrollRef} />
        </div>
      </div>
    </section>
  );
}

type ScrollRef = RefObject<HTMLDivElement | null>;

/** The instant under a pointer over the scrolled timeline. */
const msAt = (el: HTMLElement, clientX: number, pps: number) =>
  Math.max(0, ((clientX - el.getBoundingClientRect().left + el.scrollLeft) / pps) * 1000);
/** The part of the timeline drawn, in ms. */
type Span = { from: number; to: number };

/**
 * The timeline's scale (pixels per second) and visible window: fitted to the width at first, zoomed
 * around the pointer or the playhead, scrolled sideways by the wheel.
 */
function useTimelineView(scrollRef: ScrollRef, total: number) {
  const { clock } = useEditor();
  const [pps, setPps] = useState(80);
  const [view, setView] = useState({ left: 0, width: 0 });
  const zoomAnchor = useRef<{ ms: number; px: number } | null>(null);
  const fitted = useRef(false);

  // The visible window: width from a resize observer, left from scrolling.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      setView({ left: el.scrollLeft, width: el.clientWidth });
      if (!fitted.current && el.clientWidth > 0) {
        fitted.current = true;
        setPps(Math.min(200, Math.max(20, el.clientWidth / (total / 1000))));
      }
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [total, scrollRef]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (el) setView((v) => (v.left === el.scrollLeft ? v : { ...v, left: el.scrollLeft }));
  };

  // Zoom around the pointer (or the playhead): keep that instant under it.
  const zoom = useCallback(
    (factor: number, px?: number) => {
      const el = scrollRef.current;
      if (!el) return;
      setPps((old) => {
        const next = Math.min(MAX_PPS, Math.max(MIN_PPS, old * factor));
        const at = px ?? Math.max(0, (clock.getState().ms / 1000) * old - el.scrollLeft);
        zoomAnchor.current = { ms: ((el.scrollLeft + at) / old) * 1000, px: at };
        return next;
      });
    },
    [clock, scrollRef],
  );
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const anchor = zoomAnchor.current;
    if (!el || !anchor) return;
    zoomAnchor.current = null;
    el.scrollLeft = Math.max(0, (anchor.ms / 1000) * pps - anchor.px);
    setView({ left: el.scrollLeft, width: el.clientWidth });
  }, [pps, scrollRef]);

  // Ctrl+wheel zooms; a vertical wheel scrolls sideways. Native listener: React's is passive.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        zoom(e.deltaY < 0 ? 1.25 : 0.8, e.clientX - el.getBoundingClientRect().left);
      } else if (Math.abs(e.deltaY) > Math.abs(e.deltaX)) {
        e.preventDefault();
        el.scrollLeft += e.deltaY;
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoom, scrollRef]);

  const zoomToFit = () => {
    const el = scrollRef.current;
    if (!el) return;
    setPps(Math.min(MAX_PPS, Math.max(MIN_PPS, el.clientWidth / (total / 1000))));
    el.scrollLeft = 0;
  };
  return { pps, view, onScroll, zoom, zoomToFit };
}

type CueDrag = { id: string; start: number; end: number };

/**
 * Pressing a region selects it; dragging moves it (or, on a handle, resizes it) between its
 * neighbours and records the edit on release; a press without a drag seeks there.
 */
function useCueDrag(scrollRef: ScrollRef, pps: number) {
  const editor = useEditor();
  const editorRef = useRef(editor);
  editorRef.current = editor;
  const [drag, setDrag] = useState<CueDrag | null>(null);

  const onCueDown = (e: ReactPointerEvent, cue: SubtitleCue, mode: DragMode) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    e.preventDefault();
    const e0 = editorRef.current;
    const list = e0.cues;
    const index = list.findIndex((c) => c.id === cue.id);
    const order = list.map((c) => c.id);
    const mods = { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey };
    e0.dispatch({ type: 'select', ids: clickSelection(order, e0.current().selected, cue.id, mods) });
    const x0 = e.clientX;
    const downMs = msAt(scrollRef.current!, e.clientX, pps);
    let moved = false;
    let last: { start: number; end: number } | null = null;
    const onMove = (ev: PointerEvent) => {
      const dx = ev.clientX - x0;
      if (!moved && Math.abs(dx) < DRAG_SLOP_PX) return;
      moved = true;
      const delta = (dx / pps) * 1000;
      const [start, end] =
        mode === 'move'
          ? clampMove(list, index, delta, e0.durationMs)
          : clampResize(
              list,
              index,
              mode,
              (mode === 'start' ? cue.start_ms : cue.end_ms) + delta,
              e0.durationMs,
            );
      last = { start, end };
      setDrag({ id: cue.id, start, end });
    };
    const onUp = () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
      setDrag(null);
      const e1 = editorRef.current;
      if (moved && last) {
        e1.edit(setCueTimes(e1.current().doc!, cue.id, last.start, last.end, e1.durationMs));
      } else if (!mods.shift && !mods.toggle) {
        e1.seek(downMs);
      }
    };
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
  };
  return { drag, onCueDown };
}

/** The cues in view as regions, coloured by speaker and marked by selection, play and rule issues. */
function CueRegions({
  pps,
  span,
  drag,
  onCueDown,
}: {
  pps: number;
  span: Span;
  drag: CueDrag | null;
  onCueDown: (e: ReactPointerEvent, cue: SubtitleCue, mode: DragMode) => void;
}) {
  const { cues, issues, state } = useEditor();
  const activeId = useActiveCueId();
  const selected = new Set(state.selected);
  const speakerIndex = new Map((state.doc?.speakers ?? []).map((sp, i) => [sp.id, i]));
  return cues.map((cue, i) => {
    const d = drag?.id === cue.id ? drag : null;
    const start = d ? d.start : cue.start_ms;
    const end = d ? d.end : cue.end_ms;
    if (end < span.from || start > span.to) return null;
    const bad = (issues[i]?.length ?? 0) > 0;
    const cls = [
      'vw-ed-region',
      selected.has(cue.id) ? 'is-selected' : '',
      cue.id === activeId ? 'is-active' : '',
      bad ? 'is-bad' : '',
      d ? 'is-dragging' : '',
    ].join(' ');
    return (
      <div
        key={cue.id}
        className={cls}
        data-testid="timeline-cue"
        data-cue-id={cue.id}
        data-start={start}
        data-end={end}
        style={{
          left: (start / 1000) * pps,
          width: Math.max(2, ((end - start) / 1000) * pps),
          top: RULER_H + 6,
          borderTopColor:
            cue.speaker_id && speakerIndex.has(cue.speaker_id)
              ? speakerColor(speakerIndex.get(cue.speaker_id)!)
              : undefined,
        }}
        title={cue.text}
        onPointerDown={(e) => onCueDown(e, cue, 'move')}
      >
        <span className="vw-ed-region-text">{cue.text.replace(/\n/g, ' ')}</span>
        <div
          className="vw-ed-handle start"
          data-testid="timeline-handle-start"
          onPointerDown={(e) => onCueDown(e, cue, 'start')}
        />
        <div
          className="vw-ed-handle end"
          data-testid="timeline-handle-end"
          onPointerDown={(e) => onCueDown(e, cue, 'end')}
        />
      </div>
    );
  });
}

/**
 * Dubbing projects: the dub track under the original, each line's chosen take as it is placed (a
 * line that runs past the next one is cut there, as the render does).
 */
function DubClips({ pps, span }: { pps: number; span: Span }) {
  const { cues, state } = useEditor();
  const dub = state.doc?.dub ? state.doc : null;
  if (!dub) return null;
  return cues.map((cue, i) => {
    const take = chosenTake(cue);
    if (!take || cue.mark) return null;
    const next = cues.slice(i + 1).find((c) => !c.mark && chosenTake(c));
    const end = Math.min(cue.start_ms + take.duration_ms, next?.start_ms ?? Number.POSITIVE_INFINITY);
    if (end < span.from || cue.start_ms > span.to) return null;
    return (
      <div
        key={`dub-${cue.id}`}
        className={`vw-ed-dubclip is-${lineFlag(cue) ?? cue.fit?.status ?? 'fits'}${isStale(dub, cue) ? ' is-stale' : ''}`}
        data-testid="timeline-dub"
        data-cue-id={cue.id}
        style={{
          left: (cue.start_ms / 1000) * pps,
          width: Math.max(2, ((end - cue.start_ms) / 1000) * pps),
          top: RULER_H + 6 + 86 + 3,
        }}
        title={cue.fit?.summary ?? ''}
      />
    );
  });
}

/** The playhead follows the clock without re-rendering; while playing, the view follows it. */
function Playhead({ pps, scrollRef }: { pps: number; scrollRef: ScrollRef }) {
  const { clock } = useEditor();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const place = (ms: number, playing: boolean) => {
      const x = (ms / 1000) * pps;
      if (ref.current) ref.current.style.transform = `translateX(${x}px)`;
      const el = scrollRef.current;
      if (el && playing && (x < el.scrollLeft || x > el.scrollLeft + el.clientWidth - 40)) {
        el.scrollLeft = Math.max(0, x - 40);
      }
    };
    place(clock.getState().ms, false);
    return clock.subscribe((c) => place(c.ms, c.playing));
  }, [clock, pps, scrollRef]);
  return <div className="vw-ed-playhead" ref={ref} data-testid="timeline-playhead" />;
}
