import { act, fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serverQuestion } from './questions.fixture.ts';
import { SurveyOverlay } from './SurveyOverlay.tsx';
import { fromServer, outcomeOf } from './survey.ts';

const QS = fromServer([
  serverQuestion(1, '身份', 1, ['甲', '乙', '丙'], ['/i/a.svg', '/i/b.svg', '/i/c.svg']),
  serverQuestion(2, '用途', 2, ['x', 'y']),
  serverQuestion(3, '渠道', 1, ['p', 'q']),
]);

function mount(submit: (b: unknown) => Promise<number>, onDone = vi.fn(), initialIndex = 0) {
  render(
    <App>
      <SurveyOverlay
        uid="u_t"
        questions={QS}
        initialIndex={initialIndex}
        submit={submit}
        onDone={onDone}
        isFinalCode={(c) => outcomeOf(c) !== 'stay'}
      />
    </App>,
  );
  return onDone;
}
const slide = (i: number) => screen.getAllByTestId('survey-slide')[i];
const options = (i: number) => slide(i).querySelectorAll<HTMLButtonElement>('[data-testid="survey-option"]');
const index = () => Number(screen.getByRole('dialog').getAttribute('data-index'));

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('survey overlay', () => {
  it('welcome header on the first slide, logo header and back link after it; icons fade in 0.2 s apart', () => {
    mount(async () => 0);
    expect(slide(0).querySelector('[data-testid="survey-welcome"]')).not.toBeNull();
    expect(slide(0).querySelector('[data-testid="survey-back"]')).toBeNull();
    expect(slide(1).querySelector('[data-testid="survey-logo"]')).not.toBeNull();
    expect(slide(1).querySelector('[data-testid="survey-back"]')).not.toBeNull();
    const delays = [...slide(0).querySelectorAll('img')].map((img) => img.style.animationDelay);
    expect(delays).toEqual(['0s', '0.2s', '0.4s']);
    // pagination dots are not buttons
    expect(screen.getByTestId('survey-pagination').querySelectorAll('button')).toHaveLength(0);
  });

  it('a single choice auto-advances after 300 ms and saves progress; multiple choice shows next', () => {
    mount(async () => 0);
    expect(screen.queryByTestId('survey-next')).toBeNull();
    fireEvent.click(options(0)[1]);
    expect(JSON.parse(localStorage.getItem('surveyPageu_t')!)).toEqual({
      answers: [{ id: 1, answer: [12] }],
    });
    act(() => vi.advanceTimersByTime(299));
    expect(index()).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(index()).toBe(1);
    expect(screen.queryByTestId('survey-next')).toBeNull();
    fireEvent.click(options(1)[0]);
    fireEvent.click(options(1)[1]);
    act(() => vi.advanceTimersByTime(1000));
    expect(index()).toBe(1); // no auto-advance on multiple choice
    fireEvent.click(screen.getByTestId('survey-next'));
    expect(index()).toBe(2);
    expect(screen.queryByTestId('survey-next')).toBeNull(); // the last question is not answered yet
  });

  it('swipes forward only when answered; back link goes back', () => {
    mount(async () => 0);
    const dialog = screen.getByRole('dialog');
    const swipe = (dx: number) => {
      fireEvent.pointerDown(dialog, { clientX: 300, pointerId: 1 });
      fireEvent.pointerUp(dialog, { clientX: 300 + dx, pointerId: 1 });
    };
    swipe(-120);
    expect(index()).toBe(0);
    fireEvent.click(options(0)[0]);
    swipe(-120);
    expect(index()).toBe(1);
    fireEvent.click(slide(1).querySelector('[data-testid="survey-back"]')!);
    expect(index()).toBe(0);
  });

  it('submits on the last question once while in flight; 0 closes; other codes keep it open', async () => {
    let resolve!: (code: number) => void;
    const submit = vi.fn(() => new Promise<number>((r) => (resolve = r)));
    const onDone = mount(submit, vi.fn(), 2);
    fireEvent.click(options(2)[0]);
    const next = screen.getByTestId('survey-next');
    expect(next.textContent).toContain('提');
    fireEvent.click(next);
    fireEvent.click(next);
    expect(submit).toHaveBeenCalledTimes(1);
    expect(submit.mock.calls[0]).toEqual([{ questionnaire: [{ id: 3, answer: [{ id: 31 }] }] }]);
    await act(async () => resolve(500));
    expect(onDone).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('survey-next'));
    expect(submit).toHaveBeenCalledTimes(2);
    await act(async () => resolve(0));
    expect(onDone).toHaveBeenCalledWith(0);
  });
});
