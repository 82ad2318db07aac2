import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from './Button.tsx';
import { Checkbox } from './Checkbox.tsx';
import { placePanel } from './Floating.tsx';
import { MenuButton, nextEnabled } from './MenuButton.tsx';
import { Popconfirm, Popover } from './Popover.tsx';
import { Select } from './Select.tsx';
import { Slider } from './Slider.tsx';

afterEach(() => {
  vi.useRealTimers();
});

/** The panels focus their items in the next animation frame. */
const nextFrame = () => act(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
const pressOutside = () => fireEvent.mouseDown(document.body);
/** A click made from the keyboard (Enter or Space on a button) has detail 0. */
const keyboardClick = (el: Element) => fireEvent.click(el, { detail: 0 });
const mouseClick = (el: Element) => fireEvent.click(el, { detail: 1 });

describe('Button', () => {
  it('is a plain button unless told, with antd-like classes', () => {
    render(
      <Button type="primary" size="small">
        生成
      </Button>,
    );
    const b = screen.getByRole('button');
    expect(b.getAttribute('type')).toBe('button');
    expect(b.className).toContain('vw-btn-primary');
    expect(b.className).toContain('vw-btn-small');
  });

  it('spaces two Chinese characters on a bordered button without icon, like antd', () => {
    render(
      <>
        <Button>确定</Button>
        <Button type="text">清空</Button>
        <Button icon={<i />}>下载</Button>
      </>,
    );
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['确 定', '清空', '下载']);
  });

  it('ignores clicks while loading and says it is busy', () => {
    const onClick = vi.fn();
    const { rerender } = render(<Button onClick={onClick}>生成音频</Button>);
    fireEvent.click(screen.getByRole('button'));
    rerender(
      <Button onClick={onClick} loading>
        生成音频
      </Button>,
    );
    fireEvent.click(screen.getByRole('button'));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button').getAttribute('aria-busy')).toBe('true');
  });

  it('does not fire when disabled', () => {
    const onClick = vi.fn();
    render(
      <Button onClick={onClick} disabled>
        下载
      </Button>,
    );
    fireEvent.click(screen.getByRole('button'));
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe('placePanel', () => {
  const viewport = { width: 1000, height: 800 };
  const anchor = { top: 300, bottom: 332, left: 100, right: 200, width: 100, height: 32 };
  const panel = { width: 160, height: 120 };

  it('puts a top panel centred above its anchor, and below when there is no room above', () => {
    expect(placePanel(anchor, panel, 'top', 12, viewport)).toMatchObject({ top: 168, left: 70, side: 'top' });
    const high = { ...anchor, top: 40, bottom: 72 };
    expect(placePanel(high, panel, 'top', 12, viewport)).toMatchObject({ top: 84, side: 'bottom' });
  });

  it('puts a bottomLeft panel under its anchor, above when it would leave the viewport', () => {
    expect(placePanel(anchor, panel, 'bottomLeft', 4, viewport)).toMatchObject({
      top: 336,
      left: 100,
      side: 'bottom',
    });
    const low = { ...anchor, top: 700, bottom: 732 };
    expect(placePanel(low, panel, 'bottomLeft', 4, viewport)).toMatchObject({ top: 576, side: 'top' });
  });

  it('puts a rightBottom panel beside its anchor, bottoms aligned', () => {
    expect(placePanel(anchor, panel, 'rightBottom', 4, viewport)).toMatchObject({
      top: 212,
      left: 204,
      side: 'right',
    });
  });

  it('never leaves the viewport sideways, and says where the anchor centre is for the arrow', () => {
    const edge = { ...anchor, left: 0, right: 40, width: 40 };
    const p = placePanel(edge, panel, 'top', 12, viewport);
    expect(p.left).toBe(8);
    expect(p.arrowX).toBe(12);
  });
});

describe('Select', () => {
  const options = [
    { value: 'a', label: '标准引擎' },
    { value: 'b', label: '多语种引擎' },
    { value: 'c', label: '粤语引擎' },
  ];
  function renderSelect(props: { disabled?: boolean } = {}) {
    const onChange = vi.fn();
    render(<Select value="a" options={options} onChange={onChange} aria-label="模型" {...props} />);
    return { onChange, box: screen.getByRole('combobox', { name: '模型' }) };
  }

  it('shows the chosen option and opens a listbox with it selected', () => {
    const { box } = renderSelect();
    expect(box.textContent).toBe('标准引擎');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(box);
    expect(box.getAttribute('aria-expanded')).toBe('true');
    const selected = screen.getByRole('option', { selected: true });
    expect(selected.textContent).toBe('标准引擎');
    expect(box.getAttribute('aria-activedescendant')).toBe(selected.id);
  });

  it('moves with the arrows and chooses with Enter', () => {
    const { box, onChange } = renderSelect();
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(screen.getByRole('listbox')).toBeTruthy();
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' }); // stays on the last
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[2].id);
    fireEvent.keyDown(box, { key: 'Home' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith('b');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('closes on Escape or a press outside without choosing', () => {
    const { box, onChange } = renderSelect();
    fireEvent.keyDown(box, { key: ' ' });
    fireEvent.keyDown(box, { key: 'End' });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.click(box);
    pressOutside();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('chooses an option with the mouse; choosing the current one reports nothing', () => {
    const { box, onChange } = renderSelect();
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('option', { name: '粤语引擎' }));
    expect(onChange).toHaveBeenCalledWith('c');
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('option', { name: '标准引擎' }));
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('does not open when disabled and leaves the tab order', () => {
    const { box } = renderSelect({ disabled: true });
    fireEvent.click(box);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(box.getAttribute('tabindex')).toBe('-1');
    expect(box.getAttribute('aria-disabled')).toBe('true');
  });
});

describe('MenuButton', () => {
  const items = [
    { key: 'mp3', label: 'MP3 音频', testId: 'download-mp3' },
    { key: 'wav', label: 'WAV 音频', disabled: true },
    { key: 'srt', label: 'SRT 字幕' },
  ];
  function renderMenu(props: { disabled?: boolean } = {}) {
    const onSelect = vi.fn();
    render(
      <MenuButton items={items} onSelect={onSelect} {...props}>
        批量下载
      </MenuButton>,
    );
    return { onSelect, button: screen.getByRole('button', { name: '批量下载' }) };
  }

  it('finds the next enabled item, wrapping around', () => {
    expect(nextEnabled(items, -1, 1)).toBe(0);
    expect(nextEnabled(items, 0, 1)).toBe(2);
    expect(nextEnabled(items, 2, 1)).toBe(0);
    expect(nextEnabled(items, 0, -1)).toBe(2);
    expect(nextEnabled([{ disabled: true }], -1, 1)).toBe(-1);
  });

  it('opens from the keyboard on the first item; arrows skip disabled items; Enter picks and returns focus', async () => {
    const { button, onSelect } = renderMenu();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    keyboardClick(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await nextFrame();
    expect(document.activeElement).toBe(screen.getByTestId('download-mp3'));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    await nextFrame();
    expect(document.activeElement?.textContent).toBe('SRT 字幕');
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(onSelect).toHaveBeenCalledWith('srt');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('ArrowUp on the button opens on the last item; Escape closes back to the button', async () => {
    const { button, onSelect } = renderMenu();
    fireEvent.keyDown(button, { key: 'ArrowUp' });
    await nextFrame();
    expect(document.activeElement?.textContent).toBe('SRT 字幕');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('a mouse click opens it; a disabled item does nothing; a press outside closes', () => {
    const { button, onSelect } = renderMenu();
    mouseClick(button);
    const wav = screen.getByRole('menuitem', { name: 'WAV 音频' });
    expect(wav.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(wav);
    expect(onSelect).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeTruthy();
    pressOutside();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('stays shut while disabled', () => {
    const { button } = renderMenu({ disabled: true });
    mouseClick(button);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});

describe('Slider', () => {
  it('is a range input with the value text, and reports numbers', () => {
    const onChange = vi.fn();
    render(
      <Slider
        min={-20}
        max={10}
        value={0}
        onChange={onChange}
        marks={{ [-20]: '-20', 0: '0', 10: '+10' }}
        valueText="0dB"
        aria-label="音量"
      />,
    );
    const slider = screen.getByRole('slider', { name: '音量' });
    expect(slider).toMatchObject({ min: '-20', max: '10', value: '0' });
    expect(slider.getAttribute('aria-valuetext')).toBe('0dB');
    fireEvent.change(slider, { target: { value: '3' } });
    expect(onChange).toHaveBeenCalledWith(3);
    expect(document.querySelectorAll('.vw-slider-mark')).toHaveLength(3);
    // The dots at or below the value are drawn as reached.
    expect(document.querySelectorAll('.vw-slider-dot.is-active')).toHaveLength(2);
  });

  it('shows the value tip while the handle is dragged', () => {
    render(<Slider min={0} max={10} value={5} onChange={() => {}} tip={(v) => `${v}x`} aria-label="语速" />);
    const root = document.querySelector('.vw-slider')!;
    expect(root.textContent).toContain('5x');
    expect(root.className).not.toContain('is-tip-open');
    fireEvent.pointerDown(screen.getByRole('slider'));
    expect(root.className).toContain('is-tip-open');
    fireEvent.pointerUp(window);
    expect(root.className).not.toContain('is-tip-open');
  });
});

/** Content that opens a popup of its own, rendered elsewhere in the page. */
function Nested() {
  const [shown, setShown] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setShown(true)}>
        更多
      </button>
      {shown && createPortal(<div>嵌套弹层</div>, document.body)}
    </>
  );
}

describe('Popover', () => {
  it('a click one toggles, stays open for presses inside, closes outside', () => {
    render(
      <Popover content={<span>弹层内容</span>}>
        <button type="button">打开</button>
      </Popover>,
    );
    const trigger = screen.getByRole('button', { name: '打开' });
    mouseClick(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('dialog');
    expect(panel.textContent).toBe('弹层内容');
    fireEvent.mouseDown(screen.getByText('弹层内容'));
    expect(screen.queryByRole('dialog')).toBeTruthy();
    pressOutside();
    expect(screen.queryByRole('dialog')).toBeNull();
    mouseClick(trigger);
    mouseClick(trigger);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a popup opened from inside it (in another portal) counts as inside', () => {
    render(
      <Popover content={<Nested />}>
        <button type="button">打开</button>
      </Popover>,
    );
    mouseClick(screen.getByRole('button', { name: '打开' }));
    fireEvent.click(screen.getByRole('button', { name: '更多' }));
    fireEvent.mouseDown(screen.getByText('嵌套弹层'));
    expect(screen.queryByRole('dialog')).toBeTruthy();
  });

  it('opened from the keyboard it takes the focus; Escape closes it back to the trigger', async () => {
    render(
      <Popover content={<a href="#x">链接</a>}>
        <button type="button">打开</button>
      </Popover>,
    );
    const trigger = screen.getByRole('button', { name: '打开' });
    keyboardClick(trigger);
    await act(async () => {});
    expect(document.activeElement).toBe(screen.getByRole('dialog'));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('a hover one opens after 100 ms over the trigger (or on focus) and closes after leaving', () => {
    vi.useFakeTimers();
    render(
      <Popover trigger="hover" content="二维码">
        <button type="button">微信</button>
      </Popover>,
    );
    const trigger = screen.getByRole('button', { name: '微信' });
    fireEvent.mouseEnter(trigger);
    expect(screen.queryByRole('tooltip')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByRole('tooltip').textContent).toBe('二维码');
    expect(trigger.getAttribute('aria-describedby')).toBe(screen.getByRole('tooltip').id);
    fireEvent.mouseLeave(trigger);
    fireEvent.mouseEnter(screen.getByRole('tooltip')); // moving onto the panel keeps it
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole('tooltip')).toBeTruthy();
    fireEvent.mouseLeave(screen.getByRole('tooltip'));
    act(() => vi.advanceTimersByTime(100));
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.focus(trigger);
    act(() => vi.advanceTimersByTime(0));
    expect(screen.queryByRole('tooltip')).toBeTruthy();
  });
});

describe('Popconfirm', () => {
  function renderConfirm(onConfirm: () => unknown, disabled = false) {
    const onRowClick = vi.fn();
    render(
      // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a clickable row in the test
      <div onClick={onRowClick}>
        <Popconfirm
          title="删除这条记录？"
          okText="确定"
          cancelText="取消"
          okDanger
          disabled={disabled}
          onConfirm={onConfirm}
        >
          <button type="button">删除</button>
        </Popconfirm>
      </div>,
    );
    return { onRowClick, trigger: screen.getByRole('button', { name: '删除' }) };
  }

  it('asks first; OK runs the action and closes; clicks inside do not reach the row', async () => {
    const onConfirm = vi.fn(async () => {});
    const { trigger, onRowClick } = renderConfirm(onConfirm);
    mouseClick(trigger);
    expect(screen.getByRole('dialog').textContent).toContain('删除这条记录？');
    onRowClick.mockClear();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '确 定' }));
    });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onRowClick).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Cancel closes without acting; a disabled one never opens', () => {
    const onConfirm = vi.fn();
    const { trigger } = renderConfirm(onConfirm);
    mouseClick(trigger);
    fireEvent.click(screen.getByRole('button', { name: '取 消' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('a disabled one never opens', () => {
    const { trigger } = renderConfirm(vi.fn(), true);
    mouseClick(trigger);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Checkbox', () => {
  it('is a native checkbox with its label, the mixed state and a click that stays inside', () => {
    const onChange = vi.fn();
    const onRowClick = vi.fn();
    const { rerender } = render(
      // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: a clickable row in the test
      <div onClick={onRowClick}>
        <Checkbox checked={false} indeterminate onChange={onChange} onClick={(e) => e.stopPropagation()}>
          全选
        </Checkbox>
      </div>,
    );
    const box = screen.getByRole('checkbox', { name: '全选' }) as HTMLInputElement;
    expect(box.indeterminate).toBe(true);
    fireEvent.click(box);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onRowClick).not.toHaveBeenCalled();
    rerender(
      <div>
        <Checkbox checked onChange={onChange}>
          全选
        </Checkbox>
      </div>,
    );
    expect(box.checked).toBe(true);
    expect(box.indeterminate).toBe(false);
  });
});
