import { describe, expect, it } from 'vitest';
import { deleteCues, type ProjectDocument, setCueText } from './document.ts';
import { clickSelection, editorReducer, HISTORY_LIMIT, initialEditorState, isDirty } from './history.ts';

const base: ProjectDocument = {
  speakers: [],
  tracks: [
    {
      id: 's',
      kind: 'source',
      language: 'zh',
      cues: [
        { id: 'a', start_ms: 0, end_ms: 1000, text: '甲', speaker_id: null },
        { id: 'b', start_ms: 1500, end_ms: 2500, text: '乙', speaker_id: null },
      ],
    },
  ],
  rules: {
    max_chars_per_line: 16,
    max_lines: 2,
    max_cps: 9,
    min_duration_ms: 1000,
    max_duration_ms: 7000,
    min_gap_ms: 80,
  },
};

const loaded = editorReducer(initialEditorState, { type: 'load', doc: base });
const text = (s: typeof loaded, i = 0) => s.doc!.tracks[0]!.cues[i]!.text;

describe('editor history', () => {
  it('load starts clean with no history', () => {
    expect(loaded.doc).toBe(base);
    expect(loaded.past).toEqual([]);
    expect(isDirty(loaded)).toBe(false);
  });

  it('edits with the same coalesce key (one typing) are one undo step; each still bumps the revision', () => {
    const type = (st: typeof loaded, value: string, key: string) =>
      editorReducer(st, { type: 'edit', doc: setCueText(st.doc!, 'a', value), coalesce: key });
    let s = type(loaded, '一', 'text:1');
    s = type(s, '一二', 'text:1');
    s = type(s, '一二三', 'text:1');
    expect(s.past).toHaveLength(1);
    expect(s.revision).toBe(3);
    s = type(s, '四', 'text:2'); // another focus of the box: a step of its own
    expect(s.past).toHaveLength(2);
    s = editorReducer(s, { type: 'undo' });
    expect(text(s)).toBe('一二三');
    s = type(s, '一二三五', 'text:2'); // after an undo the key starts a new step
    expect(s.past).toHaveLength(2);
    s = editorReducer(s, { type: 'undo' });
    s = editorReducer(s, { type: 'undo' });
    expect(text(s)).toBe('甲');
  });

  it('every edit can be undone and redone; a new edit clears the redo stack', () => {
    let s = editorReducer(loaded, { type: 'edit', doc: setCueText(base, 'a', '一') });
    s = editorReducer(s, { type: 'edit', doc: setCueText(s.doc!, 'a', '二') });
    expect(text(s)).toBe('二');
    expect(isDirty(s)).toBe(true);
    s = editorReducer(s, { type: 'undo' });
    expect(text(s)).toBe('一');
    s = editorReducer(s, { type: 'undo' });
    expect(text(s)).toBe('甲');
    expect(editorReducer(s, { type: 'undo' })).toBe(s);
    s = editorReducer(s, { type: 'redo' });
    expect(text(s)).toBe('一');
    s = editorReducer(s, { type: 'edit', doc: setCueText(s.doc!, 'a', '三') });
    expect(s.future).toEqual([]);
    expect(editorReducer(s, { type: 'redo' })).toBe(s);
  });

  it('a no-op edit adds no history step', () => {
    const s = editorReducer(loaded, { type: 'edit', doc: base });
    expect(s).toBe(loaded);
  });

  it('undo and redo count as changes for the autosave', () => {
    let s = editorReducer(loaded, { type: 'edit', doc: setCueText(base, 'a', '一') });
    s = editorReducer(s, { type: 'saved', revision: s.revision });
    expect(isDirty(s)).toBe(false);
    s = editorReducer(s, { type: 'undo' });
    expect(isDirty(s)).toBe(true);
  });

  it('the selection drops cues that are gone (delete, undo of an add)', () => {
    let s = editorReducer(loaded, { type: 'select', ids: ['a', 'b'] });
    s = editorReducer(s, { type: 'edit', doc: deleteCues(s.doc!, ['b']) });
    expect(s.selected).toEqual(['a']);
    s = editorReducer(s, { type: 'edit', doc: s.doc!, select: ['a', 'zzz'] });
    expect(s.selected).toEqual(['a']);
  });

  it('keeps at most HISTORY_LIMIT steps', () => {
    let s = loaded;
    for (let i = 0; i < HISTORY_LIMIT + 10; i++) {
      s = editorReducer(s, { type: 'edit', doc: setCueText(s.doc!, 'a', String(i)) });
    }
    expect(s.past).toHaveLength(HISTORY_LIMIT);
  });
});

describe('clickSelection', () => {
  const order = ['a', 'b', 'c', 'd'];
  it('click selects one, ctrl toggles, shift selects a range from the anchor', () => {
    expect(clickSelection(order, ['a'], 'c', {})).toEqual(['c']);
    expect(clickSelection(order, ['a'], 'c', { toggle: true })).toEqual(['a', 'c']);
    expect(clickSelection(order, ['a', 'c'], 'c', { toggle: true })).toEqual(['a']);
    expect(clickSelection(order, ['b'], 'd', { shift: true })).toEqual(['b', 'c', 'd']);
    expect(clickSelection(order, ['c'], 'a', { shift: true })).toEqual(['c', 'a', 'b']);
    expect(clickSelection(order, [], 'a', { shift: true })).toEqual(['a']);
  });
});
