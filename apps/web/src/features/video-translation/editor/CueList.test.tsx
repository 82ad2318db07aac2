import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { DEFAULT_SUBTITLE_RULES } from '@vw/contract/calls/projects.ts';
import { App } from 'antd';
import { describe, expect, it } from 'vitest';
import { CueList } from './CueList.tsx';
import { type Editor, EditorProvider, useEditorController } from './context.tsx';
import { editCues, type ProjectDocument } from './document.ts';
import { DEFAULT_RULES } from './RulesDialog.tsx';

const doc = (): ProjectDocument => ({
  speakers: [
    { id: 'spk1', name: '主持人' },
    { id: 'spk2', name: '嘉宾' },
  ],
  tracks: [
    {
      id: 'src',
      kind: 'source',
      language: 'zh',
      cues: [
        { id: 'a', start_ms: 1000, end_ms: 3000, text: '今天天气很好', speaker_id: 'spk1' },
        { id: 'b', start_ms: 3500, end_ms: 5500, text: '我们去公园散步', speaker_id: null },
        {
          id: 'c',
          start_ms: 6000,
          end_ms: 6300,
          text: '这一条太短而且字数太多了超过了十六个字的限制',
          speaker_id: null,
        },
      ],
    },
  ],
  rules: DEFAULT_RULES,
});

let editor: Editor;
function Harness({ initial }: { initial: ProjectDocument }) {
  editor = useEditorController({ initial, durationMs: 10_000 });
  return (
    <EditorProvider editor={editor}>
      <CueList />
    </EditorProvider>
  );
}

function setup(initial = doc()) {
  render(
    <App>
      <Harness initial={initial} />
    </App>,
  );
  const rows = () => screen.getAllByTestId('cue-row');
  const row = (i: number) => within(rows()[i]!);
  const cues = () => editCues(editor.state.doc!);
  return { rows, row, cues };
}

describe('cue list', () => {
  it('the local default rules mirror the contract', () => {
    expect(DEFAULT_RULES).toEqual(DEFAULT_SUBTITLE_RULES);
  });

  it('shows one row per cue with rule flags: green passes, red lists the issues', () => {
    const { rows, row } = setup();
    expect(rows()).toHaveLength(3);
    expect(row(0).getByTestId('cue-flag').dataset.ok).toBe('true');
    expect(row(2).getByTestId('cue-flag').dataset.ok).toBe('false');
    expect(row(2).getByTestId('cue-issues').textContent).toMatch(/超过 16 字/);
    expect(row(2).getByTestId('cue-issues').textContent).toMatch(/短于 1 秒/);
    expect(screen.getByTestId('cue-count').textContent).toBe('共 3 条 · 1 条不符合规则');
  });

  it('edits text as typed (one undo step per typing), Enter leaves the box, Escape reverts', () => {
    const { row, cues } = setup();
    const area = row(0).getByLabelText('字幕文本') as HTMLTextAreaElement;
    fireEvent.focus(area);
    fireEvent.change(area, { target: { value: '今天天气' } });
    // In the document at once (the autosave sees it), without Enter or leaving the box.
    expect(cues()[0]!.text).toBe('今天天气');
    fireEvent.change(area, { target: { value: '今天天气\n真好' } });
    fireEvent.keyDown(area, { key: 'Enter', shiftKey: true }); // a line break, nothing else
    expect(cues()[0]!.text).toBe('今天天气\n真好');
    expect(editor.state.past).toHaveLength(1);
    fireEvent.keyDown(area, { key: 'Enter' });
    fireEvent.blur(area);
    expect(cues()[0]!.text).toBe('今天天气\n真好');
    expect(editor.state.past).toHaveLength(1);

    const other = row(1).getByLabelText('字幕文本') as HTMLTextAreaElement;
    fireEvent.focus(other);
    fireEvent.change(other, { target: { value: '不要' } });
    expect(cues()[1]!.text).toBe('不要');
    fireEvent.keyDown(other, { key: 'Escape' });
    fireEvent.blur(other);
    expect(cues()[1]!.text).toBe('我们去公园散步');
    expect(other.value).toBe('我们去公园散步');
    // Escape undid that typing's step: only the first typing is left to undo.
    expect(editor.state.past).toHaveLength(1);
  });

  it('typed times: invalid input turns red and is not applied; valid input is applied and clamped', () => {
    const { row, cues } = setup();
    const start = row(1).getByLabelText('开始时间') as HTMLInputElement;
    expect(start.value).toBe('00:00:03.500');
    fireEvent.focus(start);
    fireEvent.change(start, { target: { value: '00:00:3x' } });
    fireEvent.keyDown(start, { key: 'Enter' });
    expect(start.getAttribute('aria-invalid')).toBe('true');
    fireEvent.blur(start);
    expect(start.getAttribute('aria-invalid')).toBe('true');
    expect(cues()[1]!.start_ms).toBe(3500);

    fireEvent.focus(start);
    fireEvent.change(start, { target: { value: '00:00:04,250' } }); // SRT comma accepted (spec §5)
    expect(start.getAttribute('aria-invalid')).toBe('false');
    fireEvent.blur(start);
    expect(cues()[1]!.start_ms).toBe(4250);
    expect(start.value).toBe('00:00:04.250');

    // Past the previous cue's end: clamped to it, and the box shows the clamped time.
    fireEvent.focus(start);
    fireEvent.change(start, { target: { value: '00:00:01.000' } });
    fireEvent.blur(start);
    expect(cues()[1]!.start_ms).toBe(3000);
    expect(start.value).toBe('00:00:03.000');
  });

  it('±0.1 s nudges', () => {
    const { row, cues } = setup();
    fireEvent.click(row(0).getByLabelText('结束时间 +0.1 秒'));
    fireEvent.click(row(0).getByLabelText('开始时间 -0.1 秒'));
    expect([cues()[0]!.start_ms, cues()[0]!.end_ms]).toEqual([900, 3100]);
  });

  it('split at the player cursor (text at the proportional position), then merge back', () => {
    const { rows, row, cues } = setup();
    act(() => editor.clock.setState({ ms: 1500 }));
    fireEvent.click(row(0).getByLabelText('在光标处拆分'));
    expect(rows()).toHaveLength(4);
    // The text is cut at the time fraction: a quarter of six characters rounds to two.
    expect(
      cues()
        .slice(0, 2)
        .map((c) => [c.start_ms, c.end_ms, c.text]),
    ).toEqual([
      [1000, 1500, '今天'],
      [1500, 3000, '天气很好'],
    ]);
    expect(editor.state.selected).toEqual([cues()[1]!.id]);

    fireEvent.click(row(0).getByLabelText('与下一条合并'));
    expect(rows()).toHaveLength(3);
    expect(cues()[0]).toMatchObject({ start_ms: 1000, end_ms: 3000, text: '今天天气很好' });
    expect(row(2).getByLabelText('与下一条合并')).toHaveProperty('disabled', true);
  });

  it('split while editing cuts at the caret with the typed text', () => {
    const { row, cues } = setup();
    const area = row(1).getByLabelText('字幕文本') as HTMLTextAreaElement;
    area.focus();
    fireEvent.change(area, { target: { value: '我们去 公园散步吧' } });
    area.setSelectionRange(3, 3);
    fireEvent.click(row(1).getByLabelText('在光标处拆分'));
    expect(
      cues()
        .slice(1, 3)
        .map((c) => c.text),
    ).toEqual(['我们去', '公园散步吧']);
    // The cursor was outside the cue: split in the middle.
    expect(cues()[1]!.end_ms).toBe(4500);
  });

  it('adds after the selected cue, refuses a gap under 200 ms, deletes', async () => {
    const { rows, cues } = setup();
    fireEvent.mouseDown(rows()[1]!.querySelector('.vw-ed-cue-index')!);
    expect(editor.state.selected).toEqual(['b']);
    expect(editor.clock.getState().ms).toBe(3500); // click seeks
    fireEvent.click(screen.getByRole('button', { name: /添加字幕/ }));
    // The gap 5.5 → 6.0 s is 500 ms: it fits, and the new cue is selected.
    expect(cues()[2]).toMatchObject({ start_ms: 5500, end_ms: 6000, text: '' });
    expect(rows()).toHaveLength(4);
    expect(editor.state.selected).toEqual([cues()[2]!.id]);
    // After the new cue there is no gap left: refused.
    fireEvent.click(screen.getByRole('button', { name: /添加字幕/ }));
    expect(rows()).toHaveLength(4);
    expect(await screen.findByText('间隔不足 0.2 秒，无法插入新字幕', {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(within(rows()[2]!).getByLabelText('删除'));
    expect(rows()).toHaveLength(3);
  });

  it('multi-select with ctrl/shift, then reassign the speaker of all selected', () => {
    const { rows, cues } = setup();
    fireEvent.mouseDown(rows()[0]!.querySelector('.vw-ed-cue-index')!);
    fireEvent.mouseDown(rows()[2]!.querySelector('.vw-ed-cue-index')!, { ctrlKey: true });
    expect(editor.state.selected).toEqual(['a', 'c']);
    fireEvent.mouseDown(rows()[1]!.querySelector('.vw-ed-cue-index')!, { shiftKey: true });
    expect(editor.state.selected).toEqual(['a', 'b']);
    // The row's speaker picker applies to the whole selection.
    fireEvent.change(within(rows()[1]!).getByLabelText('说话人'), { target: { value: 'spk2' } });
    expect(cues().map((c) => c.speaker_id)).toEqual(['spk2', 'spk2', null]);
    expect(editor.state.past).toHaveLength(1);
  });
});
