import { LeftOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { type PointerEvent, useEffect, useMemo, useRef, useState } from 'react';
import { BrandMark } from '@/components/BrandMark.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import {
  canSwipeForward,
  isMultiple,
  needsLongLayout,
  nextVisible,
  OPTION_FADE_STEP_S,
  SURVEY_AUTO_ADVANCE_MS,
  type SurveyQuestion,
  saveProgress,
  submission,
  toggleOption,
} from './survey.ts';
import './onboarding.css';

const t = zhCN.survey;
/** A drag this far (px) counts as a swipe. */
const SWIPE_PX = 50;

export interface SurveyOverlayProps {
  uid: string;
  questions: SurveyQuestion[];
  initialIndex: number;
  /** Sends the answers; resolves with the response code (network failures reject). */
  submit: (body: NonNullable<ReturnType<typeof submission>>) => Promise<number>;
  /** Called with the response code once the survey is done with. */
  onDone: (code: number) => void;
  isFinalCode: (code: number) => boolean;
}

/** One question: the welcome (first) or the logo, a way back, and its options. */
function SurveySlide({
  question: q,
  position,
  active,
  long,
  onBack,
  onChoose,
}: {
  question: SurveyQuestion;
  position: number;
  active: boolean;
  long: boolean;
  onBack: () => void;
  onChoose: (optionId: number) => void;
}) {
  return (
    <section
      className="vw-survey-slide"
      aria-hidden={!active}
      data-testid="survey-slide"
      data-active={active}
    >
      {position === 0 ? (
        <header className="vw-survey-welcome" data-testid="survey-welcome">
          <BrandMark size={40} />
          <h2>{t.welcome}</h2>
          <p>{t.welcomeSub}</p>
        </header>
      ) : (
        <header className="vw-survey-logo" data-testid="survey-logo">
          <BrandMark size={24} />
          <span>{zhCN.app.name}</span>
        </header>
      )}
      <div className="vw-survey-body">
        {position > 0 && (
          <button
            type="button"
            className="vw-survey-back"
            data-testid="survey-back"
            tabIndex={active ? 0 : -1}
            onClick={onBack}
          >
            <LeftOutlined /> {t.back}
          </button>
        )}
        <h3 className="vw-survey-question">
          {q.question_content}
          {isMultiple(q) && <span className="vw-survey-multi">{t.multiple}</span>}
        </h3>
        <ul
          className={`vw-survey-options ${long ? 'is-long' : ''}`}
          data-testid="survey-options"
          data-long={long}
        >
          {q.question_options.map((o, oi) => (
            <li key={o.id}>
              <button
                type="button"
                className={`vw-survey-option ${o.selected ? 'is-selected' : ''}`}
                aria-pressed={o.selected}
                data-testid="survey-option"
                tabIndex={active ? 0 : -1}
                onClick={() => onChoose(o.id)}
              >
                {o.icon && (
                  <img
                    src={o.icon}
                    alt=""
                    className="vw-survey-icon"
                    style={{ animationDelay: `${oi * OPTION_FADE_STEP_S}s` }}
                  />
                )}
                <span>{o.content}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The first-login survey of spec §2/§4: one question per slide, swipe or buttons. */
export function SurveyOverlay({
  uid,
  questions: initial,
  initialIndex,
  submit,
  onDone,
  isFinalCode,
}: SurveyOverlayProps) {
  const [questions, setQuestions] = useState(initial);
  const [index, setIndex] = useState(initialIndex);
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);
  const advanceTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const drag = useRef<{ x: number; id: number } | null>(null);
  const last = questions.length - 1;
  const longLayout = useMemo(() => questions.map((q) => needsLongLayout(q)), [questions]);

  useEffect(
    () => () => {
      if (advanceTimer.current) clearTimeout(advanceTimer.current);
    },
    [],
  );

  const go = (to: number) => {
    if (advanceTimer.current) clearTimeout(advanceTimer.current);
    advanceTimer.current = null;
    setIndex(Math.max(0, Math.min(last, to)));
  };

  const choose = (qIndex: number, optionId: number) => {
    const { questions: next, advance } = toggleOption(questions, qIndex, optionId);
    setQuestions(next);
    saveProgress(localStorage, uid, next);
    if (advanceTimer.current) clearTimeout(advanceTimer.current);
    advanceTimer.current = advance ? setTimeout(() => go(qIndex + 1), SURVEY_AUTO_ADVANCE_MS) : null;
  };

  const doSubmit = async () => {
    const body = submission(questions);
    if (!body || inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    try {
      const code = await submit(body);
      if (isFinalCode(code)) onDone(code);
      else console.warn('survey submit refused', code);
    } catch (e) {
      console.warn('survey submit failed', e);
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  };

  const onPointerDown = (e: PointerEvent) => {
    drag.current = { x: e.clientX, id: e.pointerId };
  };
  const onPointerUp = (e: PointerEvent) => {
    const start = drag.current;
    drag.current = null;
    if (!start || start.id !== e.pointerId) return;
    const dx = e.clientX - start.x;
    if (dx <= -SWIPE_PX && canSwipeForward(questions, index)) go(index + 1);
    else if (dx >= SWIPE_PX && index > 0) go(index - 1);
  };

  return (
    <div className="vw-survey-mask" data-testid="survey">
      <div
        className="vw-survey"
        role="dialog"
        aria-modal="true"
        aria-label={t.welcome}
        data-index={index}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
      >
        <div className="vw-survey-track" style={{ transform: `translateX(-${index * 100}%)` }}>
          {questions.map((q, qi) => (
            <SurveySlide
              key={q.id}
              question={q}
              position={qi}
              active={qi === index}
              long={longLayout[qi]}
              onBack={() => go(qi - 1)}
              onChoose={(optionId) => choose(qi, optionId)}
            />
          ))}
        </div>
        <footer className="vw-survey-foot">
          <div className="vw-survey-dots" data-testid="survey-pagination" aria-hidden>
            {questions.map((q, i) => (
              <span key={q.id} className={i === index ? 'is-active' : ''} />
            ))}
          </div>
          {nextVisible(questions, index) && (
            <Button
              type="primary"
              size="large"
              shape="round"
              className="vw-survey-next"
              data-testid="survey-next"
              loading={submitting}
              onClick={() => (index === last ? void doSubmit() : go(index + 1))}
            >
              {index === last ? t.submit : t.next}
            </Button>
          )}
        </footer>
      </div>
    </div>
  );
}
