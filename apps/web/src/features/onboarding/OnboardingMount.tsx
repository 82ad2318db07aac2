import { CheckCircleFilled, CloseOutlined, GiftFilled } from '@ant-design/icons';
import { Button, Modal } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { trackClick } from '@/lib/analytics.ts';
import { api } from '@/lib/api.ts';
import { loadTenantBonus } from '@/lib/auth/session.ts';
import { saveUserInfo } from '@/lib/auth/storage.ts';
import { http } from '@/lib/http/client.ts';
import { isApiError } from '@/lib/http/errors.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { useUserStore } from '@/stores/user.ts';
import { SurveyOverlay } from './SurveyOverlay.tsx';
import {
  clearProgress,
  fromServer,
  outcomeOf,
  previewKey,
  restoreProgress,
  type SurveyQuestion,
  type submission,
} from './survey.ts';

const QuestionnaireStatus = { Done: 1, Pending: 2, Skipped: 3 } as const;

/** Shows the preview unless this user has seen it; the flag is set at show time (spec §4). */
export function claimPreview(storage: Storage, uid: string): boolean {
  if (storage.getItem(previewKey(uid))) return false;
  storage.setItem(previewKey(uid), '1');
  return true;
}

function RewardDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = zhCN.survey;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={400}
      centered
      maskClosable={false}
      closeIcon={<CloseOutlined data-testid="reward-close" />}
      classNames={{ content: 'vw-reward' }}
    >
      <div className="vw-reward-body" data-testid="reward-dialog">
        <GiftFilled className="vw-reward-icon" />
        <h3>{t.rewardTitle}</h3>
        <p>{t.rewardDesc}</p>
        <Button type="primary" size="large" block shape="round" data-testid="reward-start" onClick={onClose}>
          {t.startNow}
        </Button>
      </div>
    </Modal>
  );
}

function PreviewDialog({
  open,
  onClose,
  onStart,
}: {
  open: boolean;
  onClose: () => void;
  onStart: () => void;
}) {
  const t = zhCN.preview;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={720}
      centered
      maskClosable={false}
      closeIcon={<CloseOutlined data-testid="preview-close" />}
    >
      <div className="vw-preview" data-testid="preview-dialog">
        <div className="vw-preview-text">
          <h2>{t.title}</h2>
          <ul>
            {t.bullets.map((b) => (
              <li key={b}>
                <CheckCircleFilled /> {b}
              </li>
            ))}
          </ul>
          <p className="vw-preview-note">{t.creditNote}</p>
          <Button type="primary" size="large" shape="round" data-testid="preview-start" onClick={onStart}>
            {t.startNow}
          </Button>
        </div>
        <img
          className="vw-preview-image"
          src={`${import.meta.env.BASE_URL}onboarding/video-translation.svg`}
          alt={t.imageAlt}
        />
      </div>
    </Modal>
  );
}

type Phase = 'idle' | 'survey' | 'reward' | 'preview';

/**
 * First-login onboarding (spec §4): status 2 shows the survey; 1 or 3 try the video-translation
 * preview (once per user). The survey closing with the reward shows the reward dialog, whose close
 * tries the preview.
 */
export function OnboardingMount() {
  const user = useUserStore((s) => s.userInfo);
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>('idle');
  const [survey, setSurvey] = useState<{ questions: SurveyQuestion[]; index: number } | null>(null);
  const handled = useRef<string | null>(null);
  const uid = user?.uid;
  const status = user?.user_persona_questionnaire_status;

  const tryPreview = useCallback((id: string) => {
    setPhase(claimPreview(localStorage, id) ? 'preview' : 'idle');
  }, []);

  useEffect(() => {
    if (!uid || status === undefined) return;
    const seen = `${uid}:${status}`;
    if (handled.current === seen) return;
    handled.current = seen;
    if (status === QuestionnaireStatus.Pending) {
      let cancelled = false;
      let settled = false;
      http
        .request(api.getUserPersonaQuestionnaire, {}, { suppressError: true })
        .then((d) => {
          settled = true;
          if (cancelled || !d.questionnaire?.length) return;
          setSurvey(restoreProgress(localStorage, uid, fromServer(d.questionnaire)));
          setPhase('survey');
        })
        // Load failure is only logged (spec §8).
        .catch((e) => {
          settled = true;
          console.warn('survey load failed', e);
        });
      return () => {
        cancelled = true;
        // Unmounted before the questionnaire came (StrictMode's double effect): load it again next time.
        if (!settled) handled.current = null;
      };
    }
    if (status === QuestionnaireStatus.Done || status === QuestionnaireStatus.Skipped) tryPreview(uid);
  }, [uid, status, tryPreview]);

  if (!uid) return null;

  const submit = async (body: NonNullable<ReturnType<typeof submission>>) => {
    try {
      const d = await http.request(api.submitUserPersonaQuestionnaire, { body }, { suppressError: true });
      // A user who already had a paid plan gets no trial: close without the reward.
      return d.trial_granted === false ? 4001 : 0;
    } catch (e) {
      if (isApiError(e) && e.kind !== 'network' && e.code) return e.code;
      throw e;
    }
  };

  const surveyDone = (code: number) => {
    const outcome = outcomeOf(code);
    if (code === 0) clearProgress(localStorage, uid);
    // The survey does not come back: the server has the status too.
    const current = useUserStore.getState().userInfo;
    if (current) {
      const updated = { ...current, user_persona_questionnaire_status: QuestionnaireStatus.Done };
      handled.current = `${uid}:${QuestionnaireStatus.Done}`;
      useUserStore.getState().setUserInfo(updated);
      saveUserInfo(updated);
    }
    setSurvey(null);
    if (outcome === 'reward') {
      void loadTenantBonus();
      setPhase('reward');
    } else setPhase('idle');
  };

  return (
    <>
      {phase === 'survey' && survey && (
        <SurveyOverlay
          uid={uid}
          questions={survey.questions}
          initialIndex={survey.index}
          submit={submit}
          onDone={surveyDone}
          isFinalCode={(code) => outcomeOf(code) !== 'stay'}
        />
      )}
      <RewardDialog
        open={phase === 'reward'}
        onClose={() => {
          trackClick('survey_reward_close');
          tryPreview(uid);
        }}
      />
      <PreviewDialog
        open={phase === 'preview'}
        onClose={() => setPhase('idle')}
        onStart={() => {
          trackClick('video_translation_preview_start');
          setPhase('idle');
          navigate('/video-translation');
        }}
      />
    </>
  );
}
