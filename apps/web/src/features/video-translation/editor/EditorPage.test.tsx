import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/http/errors.ts';
import type { ProjectDocument } from './document.ts';
import { EditorWorkspace } from './EditorPage.tsx';
import type { ProjectData } from './editorApi.ts';
import { DEFAULT_RULES } from './RulesDialog.tsx';
import type { SaveFn } from './useAutosave.ts';

beforeAll(() => {
  // jsdom has no PointerEvent: a MouseEvent carries clientX the same way.
  globalThis.PointerEvent ??= MouseEvent as unknown as typeof PointerEvent;
  HTMLCanvasElement.prototype.getContext = (() => null) as never;
});

const document0: ProjectDocument = {
  speakers: [{ id: 'spk1', name: '说话人 1' }],
  tracks: [
    {
      id: 'src',
      kind: 'source',
      language: 'en',
      cues: [
        { id: 'a', start_ms: 1000, end_ms: 3000, text: 'Hello world', speaker_id: 'spk1' },
        { id: 'b', start_ms: 4000, end_ms: 6000, text: 'hello again', speaker_id: 'spk1' },
      ],
    },
  ],
  rules: DEFAULT_RULES,
};

const data = (version = 3): ProjectData => ({
  project: {
    project_id: 'p1',
    tool: 'stt',
    name: '会议记录',
    status: 'succeeded',
    progress: 100,
    task_id: 't1',
    source_asset_id: null,
    duration_ms: 10_000,
    cover_url: '',
    engine_label: 'whisper-1',
    created_time: 0,
    updated_time: 0,
  },
  document: document0,
  version,
  media: null,
});

function setup(save: SaveFn, onReload = () => {}) {
  // The editor's hooks use the app's query client: no provider needed.
  render(
    <MemoryRouter>
      <App>
        <EditorWorkspace data={data()} onReload={onReload} save={save} peaks={null} />
      </App>
    </MemoryRouter>,
  );
}

const status = () => screen.getByTestId('save-status').textContent;
const texts = () => screen.getAllByLabelText('字幕文本').map((t) => (t as HTMLTextAreaElement).value);

function editText(i: number, value: string) {
  const area = screen.getAllByLabelText('字幕文本')[i]!;
  fireEvent.focus(area);
  fireEvent.change(area, { target: { value } });
  fireEvent.blur(area);
}

afterEach(() => vi.restoreAllMocks());

// Rendering the whole workspace with antd in jsdom is slow on a shared machine.
describe('editor workspace', { timeout: 40_000 }, () => {
  it('autosaves 1.5 s after the last edit with the version, then with the new one', async () => {
    const save = vi.fn<SaveFn>(async (version) => ({ version: version + 1 }));
    setup(save);
    expect(status()).toBe('已保存');
    editText(0, 'Hi world');
    expect(status()).toBe('未保存');
    expect(save).not.toHaveBeenCalled();
    await waitFor(() => expect(status()).toBe('已保存'), { timeout: 4000 });
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0]![0]).toBe(3);
    expect(save.mock.calls[0]![1].tracks[0]!.cues[0]!.text).toBe('Hi world');

    // Ctrl+S saves at once, with the version the server returned.
    editText(1, 'again');
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await waitFor(() => expect(save).toHaveBeenCalledTimes(2), { timeout: 5000 });
    expect(save.mock.calls[1]![0]).toBe(4);
  });

  it('text typed without Enter or leaving the box is saved; the status says 未保存 until it is', async () => {
    const save = vi.fn<SaveFn>(async (version) => ({ version: version + 1 }));
    setup(save);
    const area = screen.getAllByLabelText('字幕文本')[0]! as HTMLTextAreaElement;
    area.focus();
    fireEvent.change(area, { target: { value: 'still typing' } });
    expect(status()).toBe('未保存');
    await waitFor(() => expect(status()).toBe('已保存'), { timeout: 4000 });
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0]![1].tracks[0]!.cues[0]!.text).toBe('still typing');
    expect(document.activeElement).toBe(area);
  });

  it('Ctrl+S while typing saves the text, the box keeps its focus', async () => {
    const save = vi.fn<SaveFn>(async (version) => ({ version: version + 1 }));
    setup(save);
    const area = screen.getAllByLabelText('字幕文本')[1]! as HTMLTextAreaElement;
    area.focus();
    fireEvent.change(area, { target: { value: 'typed, not committed' } });
    fireEvent.keyDown(area, { key: 's', ctrlKey: true });
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1), { timeout: 5000 });
    expect(save.mock.calls[0]![1].tracks[0]!.cues[1]!.text).toBe('typed, not committed');
    expect(document.activeElement).toBe(area);
    await waitFor(() => expect(status()).toBe('已保存'), { timeout: 5000 });
  });

  it('a version conflict stops autosaving, says so, and offers a reload', async () => {
    const conflict = new ApiError({
      kind: 'business',
      code: 422,
      type: 'err_project_version_conflict',
      display: { kind: 'message', text: '项目已在其他窗口或设备上修改，请刷新后再编辑' },
    });
    const save = vi.fn<SaveFn>(async () => {
      throw conflict;
    });
    const onReload = vi.fn();
    setup(save, onReload);
    editText(0, 'mine');
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    const alert = await screen.findByTestId('conflict-alert', {}, { timeout: 5000 });
    expect(status()).toBe('版本冲突');
    expect(alert.textContent).toMatch(/其他窗口或设备/);
    editText(1, 'more');
    await new Promise((r) => setTimeout(r, 1800));
    expect(save).toHaveBeenCalledTimes(1); // never retried over the other version
    fireEvent.click(within(alert).getByRole('button', { name: /重新加载/ }));
    expect(onReload).toHaveBeenCalled();
  });

  it('undo and redo through the buttons and Ctrl+Z / Ctrl+Y', () => {
    setup(async (v) => ({ version: v + 1 }));
    editText(0, 'one');
    editText(0, 'two');
    const undo = screen.getByRole('button', { name: '撤销' });
    fireEvent.click(undo);
    expect(texts()[0]).toBe('one');
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(texts()[0]).toBe('Hello world');
    expect(undo).toHaveProperty('disabled', true);
    fireEvent.keyDown(window, { key: 'y', ctrlKey: true });
    expect(texts()[0]).toBe('one');
    fireEvent.keyDown(window, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(texts()[0]).toBe('two');
  });

  it('find and replace: case-insensitive by default, replace one, replace all', async () => {
    setup(async (v) => ({ version: v + 1 }));
    fireEvent.keyDown(window, { key: 'f', ctrlKey: true });
    const bar = await screen.findByTestId('find-bar', {}, { timeout: 5000 });
    fireEvent.change(within(bar).getByLabelText('查找'), { target: { value: 'hello' } });
    expect(within(bar).getByTestId('find-count').textContent).toBe('第 1 / 2 个');
    fireEvent.click(within(bar).getByLabelText('区分大小写'));
    expect(within(bar).getByTestId('find-count').textContent).toBe('第 1 / 1 个');
    fireEvent.click(within(bar).getByLabelText('区分大小写'));
    fireEvent.change(within(bar).getByLabelText('替换为'), { target: { value: 'Bye' } });
    fireEvent.click(within(bar).getByRole('button', { name: /^替\s*换$/ }));
    expect(texts()).toEqual(['Bye world', 'hello again']);
    fireEvent.click(within(bar).getByRole('button', { name: '全部替换' }));
    expect(texts()).toEqual(['Bye world', 'Bye again']);
  });

  it('rules dialog: edited rules go into the document and the flags follow', async () => {
    setup(async (v) => ({ version: v + 1 }));
    const flags = () => screen.getAllByTestId('cue-flag').map((f) => f.dataset.ok);
    expect(flags()).toEqual(['true', 'true']);
    fireEvent.click(screen.getByRole('button', { name: /字幕规则/ }));
    const input = await screen.findByLabelText('每行最多字数', {}, { timeout: 5000 });
    fireEvent.change(input, { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(flags()).toEqual(['false', 'false']), { timeout: 5000 });
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(flags()).toEqual(['true', 'true']);
  });

  it('timeline: dragging a region moves the cue (clamped by the neighbour); an edge resizes it', async () => {
    setup(async (v) => ({ version: v + 1 }));
    const region = (id: string) => screen.getAllByTestId('timeline-cue').find((r) => r.dataset.cueId === id)!;
    const pps = Number(screen.getByTestId('timeline-scale').dataset.pps);
    // Move a by +0.5 s.
    fireEvent.pointerDown(region('a'), { button: 0, clientX: 100 });
    fireEvent.pointerMove(window, { clientX: 100 + 0.5 * pps });
    fireEvent.pointerUp(window, { clientX: 100 + 0.5 * pps });
    const starts = () => screen.getAllByLabelText('开始时间').map((i) => (i as HTMLInputElement).value);
    const ends = () => screen.getAllByLabelText('结束时间').map((i) => (i as HTMLInputElement).value);
    expect(starts()[0]).toBe('00:00:01.500');
    expect(ends()[0]).toBe('00:00:03.500');
    // Move it far right: stops at b's start.
    fireEvent.pointerDown(region('a'), { button: 0, clientX: 100 });
    fireEvent.pointerMove(window, { clientX: 100 + 5 * pps });
    fireEvent.pointerUp(window, { clientX: 100 + 5 * pps });
    expect(ends()[0]).toBe('00:00:04.000');
    // Resize b's end by +1 s.
    const handle = within(region('b')).getByTestId('timeline-handle-end');
    fireEvent.pointerDown(handle, { button: 0, clientX: 300 });
    fireEvent.pointerMove(window, { clientX: 300 + pps });
    fireEvent.pointerUp(window, { clientX: 300 + pps });
    expect(ends()[1]).toBe('00:00:07.000');
    // One undo step per drag.
    fireEvent.click(screen.getByRole('button', { name: '撤销' }));
    expect(ends()[1]).toBe('00:00:06.000');
    // A click without movement selects and seeks.
    act(() => {
      fireEvent.pointerDown(region('b'), { button: 0, clientX: 10 });
      fireEvent.pointerUp(window, { clientX: 10 });
    });
    expect(screen.getAllByTestId('cue-row')[1]!.dataset.selected).toBe('true');
  });

  it('keyboard: arrows select, S splits at the playhead, Alt+→ moves, Delete deletes — not while typing', () => {
    setup(async (v) => ({ version: v + 1 }));
    const starts = () => screen.getAllByLabelText('开始时间').map((i) => (i as HTMLInputElement).value);
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    expect(screen.getAllByTestId('cue-row')[0]!.dataset.selected).toBe('true');
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    expect(screen.getAllByTestId('cue-row')[1]!.dataset.selected).toBe('true');
    // The playhead went to b's start (4 s); move it inside b and split there.
    const area = screen.getAllByLabelText('字幕文本')[1]!;
    fireEvent.keyDown(area, { key: 's' }); // typing: nothing happens
    expect(screen.getAllByTestId('cue-row')).toHaveLength(2);
    expect(screen.getByTestId('player-time').textContent).toMatch(/^00:00:04\.000/);
    fireEvent.keyDown(window, { key: 's' }); // on the cue's edge: refused quietly
    expect(screen.getAllByTestId('cue-row')).toHaveLength(2);
    // Seek to 5 s with a click on the timeline's background, then S splits b there.
    const pps = Number(screen.getByTestId('timeline-scale').dataset.pps);
    fireEvent.pointerDown(screen.getByTestId('timeline-content'), { button: 0, clientX: 5 * pps });
    expect(screen.getByTestId('player-time').textContent).toMatch(/^00:00:05\.000/);
    fireEvent.keyDown(window, { key: 's' });
    expect(starts()).toEqual(['00:00:01.000', '00:00:04.000', '00:00:05.000']);
    expect(texts()).toEqual(['Hello world', 'hello', 'again']);
    // The new cue is selected: Alt+→ moves it by 0.1 s, Alt+← back and on (down to b's end).
    fireEvent.keyDown(window, { key: 'ArrowRight', altKey: true });
    expect(starts()[2]).toBe('00:00:05.100');
    fireEvent.keyDown(window, { key: 'ArrowLeft', altKey: true });
    fireEvent.keyDown(window, { key: 'ArrowLeft', altKey: true });
    expect(starts()[2]).toBe('00:00:05.000');
    fireEvent.keyDown(window, { key: 'Delete' });
    expect(texts()).toEqual(['Hello world', 'hello']);
  });
});
