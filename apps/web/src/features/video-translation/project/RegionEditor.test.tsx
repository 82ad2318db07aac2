import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type EditorBox, RegionEditor } from './RegionEditor.tsx';

/** The stage is 400×200 px at (0, 0), so a pixel maps to 1/400 and 1/200 of the frame. */
function mockStage() {
  const stage = screen.getByTestId('r-stage');
  stage.getBoundingClientRect = () =>
    ({ left: 0, top: 0, width: 400, height: 200, right: 400, bottom: 200, x: 0, y: 0 }) as DOMRect;
  // jsdom has no pointer capture.
  stage.setPointerCapture = vi.fn();
  return stage;
}

function Harness({ initial, onBoxes }: { initial: EditorBox[]; onBoxes: (b: EditorBox[]) => void }) {
  const [boxes, setBoxes] = useState(initial);
  return (
    <RegionEditor
      frameUrl="data:image/jpeg;base64,"
      aspect={2}
      boxes={boxes}
      onChange={(b) => {
        setBoxes(b);
        onBoxes(b);
      }}
      durationMs={4000}
      atMs={0}
      onSeek={() => undefined}
      testId="r"
    />
  );
}

const pointer = (el: Element, type: 'pointerDown' | 'pointerMove' | 'pointerUp', x: number, y: number) =>
  fireEvent[type](el, { clientX: x, clientY: y, button: 0, pointerId: 1 });

describe('RegionEditor', () => {
  it('draws a box by dragging on the frame, in normalised coordinates', () => {
    const onBoxes = vi.fn();
    render(<Harness initial={[]} onBoxes={onBoxes} />);
    const stage = mockStage();
    pointer(stage, 'pointerDown', 20, 160);
    pointer(stage, 'pointerMove', 380, 190);
    pointer(stage, 'pointerUp', 380, 190);
    expect(onBoxes).toHaveBeenLastCalledWith([{ x: 0.05, y: 0.8, w: 0.9, h: 0.15, kind: 'custom' }]);
    expect(screen.getAllByTestId('r-box')).toHaveLength(1);
  });

  it('ignores a click (a box too small), moves a box inside the frame and resizes it by a corner', () => {
    const onBoxes = vi.fn();
    render(<Harness initial={[{ x: 0.1, y: 0.7, w: 0.5, h: 0.2, kind: 'subtitle' }]} onBoxes={onBoxes} />);
    const stage = mockStage();
    pointer(stage, 'pointerDown', 100, 20);
    pointer(stage, 'pointerUp', 101, 21);
    expect(onBoxes).not.toHaveBeenCalled();

    // Move right by 0.2 and down far past the edge: it stops at the bottom.
    const box = screen.getByTestId('r-box');
    pointer(box, 'pointerDown', 80, 160);
    pointer(stage, 'pointerMove', 160, 400);
    pointer(stage, 'pointerUp', 160, 400);
    expect(onBoxes).toHaveBeenLastCalledWith([{ x: 0.3, y: 0.8, w: 0.5, h: 0.2, kind: 'subtitle' }]);

    // Drag the top-left corner up and left.
    pointer(screen.getByTestId('r-handle-nw'), 'pointerDown', 120, 160);
    pointer(stage, 'pointerMove', 40, 120);
    pointer(stage, 'pointerUp', 40, 120);
    expect(onBoxes).toHaveBeenLastCalledWith([{ x: 0.1, y: 0.6, w: 0.7, h: 0.4, kind: 'subtitle' }]);

    fireEvent.click(screen.getByTestId('r-remove'));
    expect(onBoxes).toHaveBeenLastCalledWith([]);
  });
});
