import { DeleteOutlined, MergeCellsOutlined, PlusOutlined, ScissorOutlined } from '@ant-design/icons';
import { Button, Checkbox, Select, Tooltip } from 'antd';
import {
  Fragment,
  type MouseEvent,
  memo,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { setSourceText } from '../translate/model.ts';
import { useActiveCueId, useClock, useEditor } from './context.tsx';
import { type CueColumns, type CuePlace, PLAIN_COLUMNS } from './cueColumns.tsx';
import {
  addCue,
  deleteCues,
  MIN_CUE_MS,
  mergeWithNext,
  NUDGE_MS,
  nudgeCue,
  type Speaker,
  type SubtitleCue,
  setCueText,
  setCueTimes,
  setSpeaker,
  splitCue,
} from './document.ts';
import { setCueVoice } from './dub.ts';
import { clickSelection } from './history.ts';
import { TimeInput } from './TimeInput.tsx';
import { useLiveText } from './useLiveText.ts';

const s = zhCN.editor;

export interface CueActions {
  pick(id: string, mods: { shift?: boolean; toggle?: boolean; seek?: boolean }): void;
  /** `typing` names one focus of the text box (its keystrokes are one undo step). */
  setText(id: string, text: string, typing?: string): void;
  setTime(id: string, edge: 'start' | 'end', ms: number): void;
  nudge(id: string, edge: 'start' | 'end', delta: number): void;
  split(id: string, caret: number | null, draft?: string): void;
  merge(id: string): void;
  remove(id: string): void;
  setSpeaker(id: string, speakerId: string | null): void;
  /** Translation projects: the source text of a target line, and a line's voice. */
  setSourceText(id: string, text: string, typing?: string): void;
  /** Undoes a typing's edits when they are still the last step (Escape); false when they are not. */
  undoTyping(typing: string): boolean;
  setVoice(id: string, voiceId: string | null): void;
}

/** The row actions over the editor: stable (they read the latest state when they run). */
export function useCueActions(): CueActions {
  const editor = useEditor();
  const ref = useRef(editor);
  ref.current = editor;
  return useMemo<CueActions>(() => {
    const doc = () => ref.current.current().doc!;
    const find = (id: string) => ref.current.cues.find((c) => c.id === id);
    return {
      pick(id, mods) {
        const e = ref.current;
        const order = e.cues.map((c) => c.id);
        e.dispatch({ type: 'select', ids: clickSelection(order, e.current().selected, id, mods) });
        const cue = find(id);
        if (cue && mods.seek !== false && !mods.shift && !mods.toggle) e.seek(cue.start_ms);
      },
      setText: (id, text, typing) => ref.current.edit(setCueText(doc(), id, text), undefined, typing),
      setTime(id, edge, ms) {
        const cue = find(id);
        if (!cue) return;
        const [start, end] = edge === 'start' ? [ms, cue.end_ms] : [cue.start_ms, ms];
        ref.current.edit(setCueTimes(doc(), id, start, end, ref.current.durationMs));
      },
      nudge: (id, edge, delta) => ref.current.edit(nudgeCue(doc(), id, edge, delta, ref.current.durationMs)),
      split(id, caret, draft) {
        const cue = find(id);
        if (!cue) return;
        // At the playhead when it is inside the cue, else in the middle.
        const at = ref.current.clock.getState().ms;
        const inside = at >= cue.start_ms + MIN_CUE_MS && at <= cue.end_ms - MIN_CUE_MS;
        const ms = inside ? at : Math.round((cue.start_ms + cue.end_ms) / 2);
        ref.current.run(splitCue(doc(), id, ms, { caret, text: draft }), (newId) => (newId ? [newId] : []));
      },
      merge: (id) => ref.current.run(mergeWithNext(doc(), id), () => [id]),
      remove: (id) => ref.current.edit(deleteCues(doc(), [id])),
      setSpeaker(id, speakerId) {
        const { selected } = ref.current.current();
        // A speaker chosen on a selected row applies to the whole selection.
        const ids = selected.includes(id) ? selected : [id];
        ref.current.edit(setSpeaker(doc(), ids, speakerId));
      },
      setSourceText(id, text, typing) {
        const cue = find(id);
        const next = cue ? setSourceText(doc(), cue, text) : null;
        if (next) ref.current.edit(next, undefined, typing && `source:${typing}`);
      },
      setVoice: (id, voiceId) => ref.current.edit(setCueVoice(doc(), id, voiceId)),
      undoTyping(typing) {
        const last = ref.current.current().coalesce;
        if (last !== typing && last !== `source:${typing}`) return false;
        ref.current.dispatch({ type: 'undo' });
        return true;
      },
    };
  }, []);
}

const isControl = (el: EventTarget) =>
  el instanceof Element && el.closest('button, select, input, textarea, [role="button"]') !== null;

interface CueRowProps {
  cue: SubtitleCue;
  index: number;
  /** The rule checker's messages, one a line ('' = passes). */
  issueText: string;
  selected: boolean;
  active: boolean;
  speakers: Speaker[];
  hasNext: boolean;
  actions: CueActions;
  /** The tool's columns, and each one's value for this cue (index-aligned). */
  layout: CueColumns;
  values: unknown[];
}

/** One cue: its head (flag, times, speaker, actions), its text box and the tool's columns around it. */
export const CueRow = memo(function CueRow(props: CueRowProps) {
  const { cue, issueText, selected, actions, layout, values } = props;
  const text = useLiveText(
    cue.text,
    (value, typing) => actions.setText(cue.id, value, typing),
    actions.undoTyping,
  );
  const textRef = useRef<HTMLTextAreaElement>(null);

  const onSplit = () => {
    const area = textRef.current;
    if (area && document.activeElement === area) {
      // Split at the caret with the text as typed; the blur that follows must not commit it again.
      const caret = [...area.value.slice(0, area.selectionStart)].length;
      text.skipNextCommit();
      actions.split(cue.id, caret, text.draft);
      area.blur();
    } else actions.split(cue.id, null);
  };

  const bad = issueText !== '';
  const onRowDown = (e: MouseEvent) => {
    if (isControl(e.target) && !(e.target instanceof HTMLTextAreaElement)) return;
    actions.pick(cue.id, {
      shift: e.shiftKey,
      toggle: e.ctrlKey || e.metaKey,
      seek: !(e.target instanceof HTMLTextAreaElement) || !selected,
    });
  };
  const cells = (place: CuePlace) =>
    layout.columns.map(
      (c, i) => c.place === place && <Fragment key={c.key}>{c.cell(cue, values[i], actions)}</Fragment>,
    );
  const textBox = (
    <textarea
      ref={textRef}
      className="vw-ed-text"
      aria-label={layout.text.label}
      placeholder={layout.text.placeholder}
      rows={Math.min(4, Math.max(1, text.draft.split('\n').length))}
      spellCheck={false}
      {...text.props}
    />
  );
  const beside = layout.columns.some((c) => c.place === 'before' || c.place === 'after');

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the row is picked with the mouse; its inputs and buttons have the keyboard
    <div
      className={`vw-ed-cue${selected ? ' is-selected' : ''}${props.active ? ' is-active' : ''}${bad ? ' is-bad' : ''}`}
      data-testid="cue-row"
      data-cue-id={cue.id}
      data-selected={selected}
      onMouseDown={onRowDown}
    >
      <CueHead {...props} cells={cells} onSplit={onSplit} />
      {beside ? (
        <div className="vw-ed-tr-grid">
          {cells('before')}
          {textBox}
          {cells('after')}
        </div>
      ) : (
        textBox
      )}
      {cells('below')}
      {bad && (
        <div className="vw-ed-issues" data-testid="cue-issues">
          {issueText}
        </div>
      )}
    </div>
  );
}, sameRow);

/** Rows render again when a prop changes, or a column's value (compared field by field). */
function sameRow(a: CueRowProps, b: CueRowProps): boolean {
  return (Object.keys(a) as Array<keyof CueRowProps>).every((k) =>
    k === 'values' ? a.values.every((v, i) => sameValue(v, b.values[i])) : a[k] === b[k],
  );
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || !a || !b) return false;
  const ka = Object.keys(a);
  return (
    ka.length === Object.keys(b).length &&
    ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** A row's first line: index, rule flag, times with ±0.1 s, duration, speaker, the line's buttons. */
function CueHead({
  cue,
  index,
  issueText,
  speakers,
  hasNext,
  actions,
  cells,
  onSplit,
}: CueRowProps & { cells: (place: CuePlace) => ReactNode; onSplit: () => void }) {
  const bad = issueText !== '';
  const keepFocus = (e: MouseEvent) => e.preventDefault();
  return (
    <div className="vw-ed-cue-head">
      <span className="vw-ed-cue-index">{index + 1}</span>
      <Tooltip title={bad ? <span style={{ whiteSpace: 'pre-line' }}>{issueText}</span> : s.ruleOk}>
        <span
          className={`vw-ed-flag ${bad ? 'bad' : 'ok'}`}
          data-testid="cue-flag"
          data-ok={!bad}
          role="img"
          aria-label={bad ? issueText : s.ruleOk}
        />
      </Tooltip>
      {cells('status')}
      <CueTime cue={cue} edge="start" actions={actions} />
      <span className="vw-ed-arrow">→</span>
      <CueTime cue={cue} edge="end" actions={actions} />
      <span className="vw-ed-duration">{((cue.end_ms - cue.start_ms) / 1000).toFixed(1)}s</span>
      <select
        className="vw-ed-speaker"
        aria-label={s.speakerOf}
        value={cue.speaker_id ?? ''}
        onChange={(e) => actions.setSpeaker(cue.id, e.target.value || null)}
      >
        <option value="">{s.noSpeaker}</option>
        {speakers.map((sp) => (
          <option key={sp.id} value={sp.id}>
            {sp.name}
          </option>
        ))}
      </select>
      {cells('head')}
      <span className="vw-ed-cue-actions">
        {cells('actions')}
        <Tooltip title={s.split}>
          <button
            type="button"
            className="vw-ed-icon"
            aria-label={s.split}
            onMouseDown={keepFocus}
            onClick={onSplit}
          >
            <ScissorOutlined />
          </button>
        </Tooltip>
        <Tooltip title={s.merge}>
          <button
            type="button"
            className="vw-ed-icon"
            aria-label={s.merge}
            disabled={!hasNext}
            onClick={() => actions.merge(cue.id)}
          >
            <MergeCellsOutlined />
          </button>
        </Tooltip>
        <Tooltip title={s.remove}>
          <button
            type="button"
            className="vw-ed-icon danger"
            aria-label={s.remove}
            onClick={() => actions.remove(cue.id)}
          >
            <DeleteOutlined />
          </button>
        </Tooltip>
      </span>
    </div>
  );
}

/** A cue's start or end: typed, or nudged by ±0.1 s. */
function CueTime({ cue, edge, actions }: { cue: SubtitleCue; edge: 'start' | 'end'; actions: CueActions }) {
  const label = edge === 'start' ? s.start : s.end;
  return (
    <span className="vw-ed-timegroup">
      <button
        type="button"
        className="vw-ed-nudge"
        aria-label={`${label} ${s.minus}`}
        onClick={() => actions.nudge(cue.id, edge, -NUDGE_MS)}
      >
        −
      </button>
      <TimeInput
        value={edge === 'start' ? cue.start_ms : cue.end_ms}
        label={label}
        onCommit={(ms) => actions.setTime(cue.id, edge, ms)}
      />
      <button
        type="button"
        className="vw-ed-nudge"
        aria-label={`${label} ${s.plus}`}
        onClick={() => actions.nudge(cue.id, edge, NUDGE_MS)}
      >
        +
      </button>
    </span>
  );
}

/** The cue list: the toolbar (add, delete, reassign) and one row per cue, synced with the player. */
export function CueList({ layout = PLAIN_COLUMNS }: { layout?: CueColumns }) {
  const { cues, issues, state } = useEditor();
  const actions = useCueActions();
  const activeId = useActiveCueId();
  const [onlyIssues, setOnlyIssues] = useState(false);
  const selected = useMemo(() => new Set(state.selected), [state.selected]);
  const speakers = state.doc?.speakers ?? [];
  const issueTexts = useMemo(() => issues.map((list) => list.map((i) => i.message).join('\n')), [issues]);
  const playing = useClock((c) => c.playing);
  const doc = state.doc;

  // Only the rows in view are rendered (a long recording has thousands of cues).
  const shown = useMemo(
    () => (onlyIssues ? cues.map((_, i) => i).filter((i) => issueTexts[i]) : cues.map((_, i) => i)),
    [cues, issueTexts, onlyIssues],
  );
  const win = useWindow(shown.map((i) => cues[i]!.id));

  // The playing cue scrolls into view (unless the user is typing); so does a cue selected elsewhere.
  useEffect(() => {
    if (!activeId || !playing) return;
    const focus = document.activeElement;
    if (focus instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(focus.tagName)) return;
    win.reveal(activeId);
  }, [activeId, playing, win.reveal]);
  const first = state.selected[0];
  useEffect(() => {
    if (first) win.reveal(first);
  }, [first, win.reveal]);

  const titled = layout.columns.filter((c) => c.title);
  return (
    <section className="vw-ed-cues" aria-label={s.cues} data-playing={playing}>
      <CueToolbar
        selected={selected.size}
        badCount={issueTexts.filter(Boolean).length}
        onlyIssues={onlyIssues}
        onOnlyIssues={setOnlyIssues}
      />
      {titled.length > 0 && (
        <div className="vw-ed-tr-head" aria-hidden>
          {titled
            .filter((c) => c.place === 'before')
            .map((c) => (
              <span key={c.key}>{c.title}</span>
            ))}
          <span>{layout.text.label}</span>
          {titled
            .filter((c) => c.place === 'after')
            .map((c) => (
              <span key={c.key}>{c.title}</span>
            ))}
        </div>
      )}
      <div className="vw-ed-cues-scroll" ref={win.ref} onScroll={win.onScroll} data-testid="cue-scroll">
        {cues.length === 0 && <div className="vw-ed-empty">{s.empty}</div>}
        <div style={{ paddingTop: win.padTop, paddingBottom: win.padBottom }}>
          {shown.slice(win.from, win.to).map((i) => {
            const cue = cues[i]!;
            return (
              <CueRow
                key={cue.id}
                cue={cue}
                index={i}
                issueText={issueTexts[i] ?? ''}
                selected={selected.has(cue.id)}
                active={cue.id === activeId}
                speakers={speakers}
                hasNext={i + 1 < cues.length}
                actions={actions}
                layout={layout}
                values={layout.columns.map((c) => (doc ? c.value?.(doc, cue) : undefined))}
              />
            );
          })}
        </div>
      </div>
    </section>
  );
}

/** Above the rows: add, delete the selected, reassign their speaker; only the problems; the count. */
function CueToolbar({
  selected,
  badCount,
  onlyIssues,
  onOnlyIssues,
}: {
  selected: number;
  badCount: number;
  onlyIssues: boolean;
  onOnlyIssues: (on: boolean) => void;
}) {
  const editor = useEditor();
  const { cues, current, clock, durationMs, run, edit } = editor;
  const speakers = editor.state.doc?.speakers ?? [];
  const onAdd = () => {
    const { selected: sel, doc } = current();
    const after = sel[0] ?? null;
    run(addCue(doc!, { afterId: after, atMs: clock.getState().ms, durationMs }), (id) => (id ? [id] : []));
  };
  const onDeleteSelected = () => edit(deleteCues(current().doc!, current().selected));
  const onAssign = (speakerId: string) => {
    const ids = current().selected;
    edit(setSpeaker(current().doc!, ids, speakerId || null));
    const name = speakers.find((sp) => sp.id === speakerId)?.name ?? s.noSpeaker;
    editor.notify(s.reassignDone(ids.length, name), 'success');
  };
  return (
    <div className="vw-ed-cues-bar">
      <Button size="small" type="primary" icon={<PlusOutlined />} onClick={onAdd}>
        {s.add}
      </Button>
      <Button size="small" danger disabled={selected === 0} onClick={onDeleteSelected}>
        {s.deleteSelected(selected)}
      </Button>
      <Select
        size="small"
        className="vw-ed-assign"
        data-testid="assign-speaker"
        placeholder={s.assignSpeaker}
        disabled={selected === 0}
        value={null}
        onChange={onAssign}
        options={[
          { value: '', label: s.noSpeaker },
          ...speakers.map((sp) => ({ value: sp.id, label: sp.name })),
        ]}
        popupMatchSelectWidth={false}
      />
      <span className="vw-ed-spacer" />
      <Checkbox checked={onlyIssues} onChange={(e) => onOnlyIssues(e.target.checked)}>
        {s.onlyIssues}
      </Checkbox>
      <span className="vw-ed-count" data-testid="cue-count">
        {s.cueCount(cues.length, badCount)}
      </span>
    </div>
  );
}

/** A row's height before it has been measured. */
const ESTIMATED_ROW_PX = 76;
const OVERSCAN_PX = 600;

/**
 * Windowing for rows of varying height: heights are measured after each render (cached by id),
 * unmeasured rows count as ESTIMATED_ROW_PX; rows outside the view plus an overscan are left out,
 * replaced by padding. Where nothing can be measured (no layout, as in jsdom) every row renders.
 */
function useWindow(ids: string[]) {
  const ref = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [scroll, setScroll] = useState({ top: 0, height: 0 });
  const [measured, setMeasured] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `measured` re-sums after new measurements
  const offsets = useMemo(() => {
    const out = new Float64Array(ids.length + 1);
    for (let i = 0; i < ids.length; i++)
      out[i + 1] = out[i]! + (heights.current.get(ids[i]!) ?? ESTIMATED_ROW_PX);
    return out;
  }, [ids, measured]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setScroll({ top: el.scrollTop, height: el.clientHeight });
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // Measure the rendered rows; a changed height re-renders once with the better sums.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    let changed = false;
    for (const row of el.querySelectorAll<HTMLElement>('[data-cue-id]')) {
      const h = row.offsetHeight;
      const id = row.dataset.cueId!;
      if (h > 0 && heights.current.get(id) !== h) {
        heights.current.set(id, h);
        changed = true;
      }
    }
    if (changed) setMeasured((n) => n + 1);
  });

  const total = offsets[ids.length]!;
  let from = 0;
  let to = ids.length;
  if (scroll.height > 0) {
    const lo = scroll.top - OVERSCAN_PX;
    const hi = scroll.top + scroll.height + OVERSCAN_PX;
    from = Math.max(0, upperBound(offsets, lo) - 1);
    to = Math.min(ids.length, upperBound(offsets, hi));
  }

  const idsRef = useRef(ids);
  idsRef.current = ids;
  const offsetsRef = useRef(offsets);
  offsetsRef.current = offsets;
  /** Scrolls the least needed to show a row. */
  const reveal = useCallback((id: string) => {
    const el = ref.current;
    const i = idsRef.current.indexOf(id);
    if (!el || i < 0) return;
    const top = offsetsRef.current[i]!;
    const bottom = offsetsRef.current[i + 1]!;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (bottom > el.scrollTop + el.clientHeight) el.scrollTop = bottom - el.clientHeight;
  }, []);

  return {
    ref,
    from,
    to,
    padTop: offsets[from]!,
    padBottom: total - offsets[to]!,
    reveal,
    onScroll: () => {
      const el = ref.current;
      if (el) setScroll({ top: el.scrollTop, height: el.clientHeight });
    },
  };
}

/** The first index whose value is greater than `x` (offsets are ascending). */
function upperBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
