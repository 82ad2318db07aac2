import { SELECT_TYPE_MULTIPLE } from '@vw/contract/constants/onboarding.ts';

/** Survey rules of spec §4/§5/§9. */
export const SURVEY_AUTO_ADVANCE_MS = 300;
export const OPTION_FADE_STEP_S = 0.2;
export const LONG_TEXT = { widthPx: 142, fontPx: 14 };

export interface SurveyOption {
  id: number;
  content: string;
  icon?: string;
  /** client-side */
  selected: boolean;
}
export interface SurveyQuestion {
  id: number;
  question_content: string;
  select_type: number;
  question_options: SurveyOption[];
}

export const isMultiple = (q: Pick<SurveyQuestion, 'select_type'>) => q.select_type === SELECT_TYPE_MULTIPLE;
export const isAnswered = (q: SurveyQuestion) => q.question_options.some((o) => o.selected);
export const selectedIds = (q: SurveyQuestion) =>
  q.question_options.filter((o) => o.selected).map((o) => o.id);

/** The questions as served, none selected. */
export function fromServer(
  questionnaire: {
    id: number;
    question_content: string;
    select_type: number;
    question_options: { id: number; content: string; icon?: string }[];
  }[],
): SurveyQuestion[] {
  return questionnaire.map((q) => ({
    ...q,
    question_options: q.question_options.map((o) => ({ ...o, selected: false })),
  }));
}

/**
 * Selecting an option: single choice toggles it and deselects the others; multiple choice toggles
 * it alone. `advance` says the view should move on after 300 ms (a single choice just made on a
 * question that is not the last).
 */
export function toggleOption(
  questions: SurveyQuestion[],
  index: number,
  optionId: number,
): { questions: SurveyQuestion[]; advance: boolean } {
  const q = questions[index];
  const target = q.question_options.find((o) => o.id === optionId);
  if (!target) return { questions, advance: false };
  const turnOn = !target.selected;
  const options = q.question_options.map((o) => {
    if (o.id === optionId) return { ...o, selected: turnOn };
    return isMultiple(q) ? o : { ...o, selected: false };
  });
  const next = questions.map((x, i) => (i === index ? { ...x, question_options: options } : x));
  return { questions: next, advance: !isMultiple(q) && turnOn && index < questions.length - 1 };
}

/** Next is shown only when the question is answered, and not for single choice before the last (it auto-advances). */
export function nextVisible(questions: SurveyQuestion[], index: number): boolean {
  const q = questions[index];
  if (!q || !isAnswered(q)) return false;
  return isMultiple(q) || index === questions.length - 1;
}

/** A forward swipe needs an answer; going back is always allowed. */
export const canSwipeForward = (questions: SurveyQuestion[], index: number) =>
  index < questions.length - 1 && !!questions[index] && isAnswered(questions[index]);

/** The submission body; null when nothing is answered (spec §4: submit needs at least one answer). */
export function submission(questions: SurveyQuestion[]) {
  const answered = questions.filter(isAnswered);
  if (answered.length === 0) return null;
  return { questionnaire: answered.map((q) => ({ id: q.id, answer: selectedIds(q).map((id) => ({ id })) })) };
}

export const progressKey = (uid: string) => `surveyPage${uid}`;

interface SavedProgress {
  answers: { id: number; answer: number[] }[];
}

/** Saves progress after a selection; answers after the first unanswered question are left out. */
export function saveProgress(storage: Storage, uid: string, questions: SurveyQuestion[]): void {
  const answers: SavedProgress['answers'] = [];
  for (const q of questions) {
    if (!isAnswered(q)) break;
    answers.push({ id: q.id, answer: selectedIds(q) });
  }
  storage.setItem(progressKey(uid), JSON.stringify({ answers } satisfies SavedProgress));
}

export const clearProgress = (storage: Storage, uid: string) => storage.removeItem(progressKey(uid));

/**
 * Restores saved answers (only options that still exist) and the slide to show: the last answered
 * question, or the one after it when that was a single choice and not the last.
 */
export function restoreProgress(
  storage: Storage,
  uid: string,
  questions: SurveyQuestion[],
): { questions: SurveyQuestion[]; index: number } {
  let saved: SavedProgress | null = null;
  try {
    saved = JSON.parse(storage.getItem(progressKey(uid)) ?? 'null') as SavedProgress | null;
  } catch {
    saved = null;
  }
  if (!saved || !Array.isArray(saved.answers)) return { questions, index: 0 };
  const byId = new Map(saved.answers.map((a) => [a.id, new Set(a.answer)]));
  const restored = questions.map((q) => {
    const picked = byId.get(q.id);
    if (!picked) return q;
    const options = q.question_options.map((o) => ({ ...o, selected: picked.has(o.id) }));
    // A single choice keeps one option at most, whatever was stored.
    if (!isMultiple(q)) {
      let seen = false;
      for (const o of options) {
        if (o.selected && seen) o.selected = false;
        if (o.selected) seen = true;
      }
    }
    return { ...q, question_options: options };
  });
  let last = -1;
  for (let i = 0; i < restored.length && isAnswered(restored[i]); i++) last = i;
  if (last < 0) return { questions: restored, index: 0 };
  const q = restored[last];
  const index = !isMultiple(q) && last < restored.length - 1 ? last + 1 : last;
  return { questions: restored, index };
}

/** What the survey does with a submission's code (spec §8). */
export function outcomeOf(code: number): 'reward' | 'close' | 'stay' {
  if (code === 0) return 'reward';
  if (code === 4001 || code === 1002) return 'close';
  return 'stay';
}

/** Width of a text at 14 px: canvas when there is one, else an estimate (CJK full width, others ~0.55 em). */
export function textWidth(text: string, fontPx = LONG_TEXT.fontPx): number {
  if (typeof document !== 'undefined' && !navigator.userAgent.includes('jsdom')) {
    try {
      const ctx = document.createElement('canvas').getContext('2d');
      if (ctx) {
        ctx.font = `${fontPx}px "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif`;
        return ctx.measureText(text).width;
      }
    } catch {
      // jsdom has no canvas: estimate below
    }
  }
  let w = 0;
  for (const ch of text) w += /[\u2e80-\uffff]/.test(ch) ? fontPx : fontPx * 0.55;
  return w;
}

/** Options wider than 142 px at 14 px use the long-text layout. */
export const needsLongLayout = (q: SurveyQuestion, measure: (t: string) => number = textWidth) =>
  q.question_options.some((o) => measure(o.content) > LONG_TEXT.widthPx);

/** The video-translation preview is shown once per user: the flag is set when it is shown. */
export const previewKey = (uid: string) => `videoTranslationPreview${uid}`;
