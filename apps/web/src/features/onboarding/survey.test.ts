import { describe, expect, it } from 'vitest';
import { serverQuestion } from './questions.fixture.ts';
import {
  canSwipeForward,
  fromServer,
  needsLongLayout,
  nextVisible,
  outcomeOf,
  progressKey,
  restoreProgress,
  type SurveyQuestion,
  saveProgress,
  submission,
  toggleOption,
} from './survey.ts';

const QS = fromServer([
  serverQuestion(1, '身份', 1, ['a', 'b']),
  serverQuestion(2, '用途', 2, ['x', 'y', 'z']),
  serverQuestion(3, '渠道', 1, ['p', 'q']),
  serverQuestion(4, '规模', 1, ['m', 'n']),
]);
const sel = (qs: SurveyQuestion[], i: number) =>
  qs[i].question_options.filter((o) => o.selected).map((o) => o.id);
const pick = (qs: SurveyQuestion[], i: number, id: number) => toggleOption(qs, i, id).questions;

describe('survey rules', () => {
  it('single choice selects one, deselects the others, toggles off, and auto-advances only when not last', () => {
    let r = toggleOption(QS, 0, 11);
    expect(sel(r.questions, 0)).toEqual([11]);
    expect(r.advance).toBe(true);
    r = toggleOption(r.questions, 0, 12);
    expect(sel(r.questions, 0)).toEqual([12]);
    r = toggleOption(r.questions, 0, 12);
    expect(sel(r.questions, 0)).toEqual([]);
    expect(r.advance).toBe(false); // deselecting does not move on
    // the last question never auto-advances
    expect(toggleOption(QS, 3, 41).advance).toBe(false);
  });

  it('multiple choice toggles each option independently and never auto-advances', () => {
    let r = toggleOption(QS, 1, 21);
    r = toggleOption(r.questions, 1, 23);
    expect(sel(r.questions, 1)).toEqual([21, 23]);
    expect(r.advance).toBe(false);
    r = toggleOption(r.questions, 1, 21);
    expect(sel(r.questions, 1)).toEqual([23]);
    // the original list is untouched
    expect(sel(QS, 1)).toEqual([]);
  });

  it('next shows only when answered: for multiple choice and on the last question, never for single choice before it', () => {
    expect(nextVisible(QS, 0)).toBe(false);
    expect(nextVisible(pick(QS, 0, 11), 0)).toBe(false); // single, not last: auto-advance instead
    expect(nextVisible(QS, 1)).toBe(false);
    expect(nextVisible(pick(QS, 1, 22), 1)).toBe(true);
    expect(nextVisible(QS, 3)).toBe(false);
    expect(nextVisible(pick(QS, 3, 42), 3)).toBe(true);
  });

  it('forward swipe only when the current question is answered', () => {
    expect(canSwipeForward(QS, 0)).toBe(false);
    expect(canSwipeForward(pick(QS, 0, 11), 0)).toBe(true);
    expect(canSwipeForward(pick(QS, 3, 41), 3)).toBe(false); // nothing after the last
  });

  it('submission needs at least one answer and sends only answered questions', () => {
    expect(submission(QS)).toBeNull();
    const qs = pick(pick(pick(QS, 0, 12), 1, 21), 1, 22);
    expect(submission(qs)).toEqual({
      questionnaire: [
        { id: 1, answer: [{ id: 12 }] },
        { id: 2, answer: [{ id: 21 }, { id: 22 }] },
      ],
    });
  });

  it('codes: 0 closes with reward, 4001 and 1002 close without, others stay open', () => {
    expect(outcomeOf(0)).toBe('reward');
    expect(outcomeOf(4001)).toBe('close');
    expect(outcomeOf(1002)).toBe('close');
    expect(outcomeOf(422)).toBe('stay');
    expect(outcomeOf(500)).toBe('stay');
  });

  it('uses the long-text layout when an option is wider than 142 px at 14 px', () => {
    const q = fromServer([
      {
        id: 9,
        question_content: '?',
        select_type: 1,
        question_options: [
          { id: 1, content: '短' },
          { id: 2, content: '短视频与影视后期从业者' },
        ],
      },
    ])[0];
    expect(needsLongLayout(q)).toBe(true); // 11 CJK characters ≈ 154 px
    expect(needsLongLayout(QS[0])).toBe(false);
    expect(needsLongLayout(q, () => 142)).toBe(false);
    expect(needsLongLayout(q, () => 143)).toBe(true);
  });
});

describe('survey progress', () => {
  it('is saved per user under surveyPage + uid, clearing answers after the first unanswered question', () => {
    // 1 and 3 answered, 2 not: only 1 is kept
    const qs = pick(pick(QS, 0, 11), 2, 31);
    saveProgress(localStorage, 'u_1', qs);
    expect(JSON.parse(localStorage.getItem('surveyPageu_1')!)).toEqual({
      answers: [{ id: 1, answer: [11] }],
    });
    expect(progressKey('u_2')).toBe('surveyPageu_2');
    expect(localStorage.getItem('surveyPageu_2')).toBeNull();
  });

  it('restores answers and jumps to the last answered question, or the next after a single choice', () => {
    // last answered is multiple choice (question 2): stay on it
    saveProgress(localStorage, 'u', pick(pick(QS, 0, 11), 1, 23));
    let r = restoreProgress(localStorage, 'u', QS);
    expect(sel(r.questions, 0)).toEqual([11]);
    expect(sel(r.questions, 1)).toEqual([23]);
    expect(r.index).toBe(1);
    // last answered is single choice and not last (question 3): the one after it
    saveProgress(localStorage, 'u', pick(pick(pick(QS, 0, 12), 1, 21), 2, 32));
    r = restoreProgress(localStorage, 'u', QS);
    expect(r.index).toBe(3);
    // everything answered: the last question
    saveProgress(localStorage, 'u', pick(pick(pick(pick(QS, 0, 12), 1, 21), 2, 32), 3, 41));
    expect(restoreProgress(localStorage, 'u', QS).index).toBe(3);
    // nothing saved, or garbage: the first question, nothing selected
    expect(restoreProgress(localStorage, 'nobody', QS)).toEqual({ questions: QS, index: 0 });
    localStorage.setItem('surveyPagebad', '{oops');
    expect(restoreProgress(localStorage, 'bad', QS).index).toBe(0);
  });

  it('ignores saved options that no longer exist', () => {
    localStorage.setItem('surveyPageu', JSON.stringify({ answers: [{ id: 1, answer: [99] }] }));
    const r = restoreProgress(localStorage, 'u', QS);
    expect(sel(r.questions, 0)).toEqual([]);
    expect(r.index).toBe(0);
  });
});
