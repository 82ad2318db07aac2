import type { MediaAsset } from '@vw/contract';
import { Button, Checkbox } from 'antd';
import { useEffect } from 'react';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { Recorder } from '@/lib/upload/Recorder.tsx';
import { useUpload } from '@/lib/upload/useUpload.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const t = zhCN.voiceCloning.consent;

export interface ConsentState {
  accepted: boolean;
  sentence: string;
  recording: MediaAsset | null;
}

/** Consent: a checkbox that the voice is the user's to clone, and the shown sentence read aloud. */
export function ConsentStep({
  language,
  value,
  onChange,
  asrLabel,
}: {
  language: string;
  value: ConsentState;
  onChange: (v: ConsentState) => void;
  asrLabel: string;
}) {
  const upload = useUpload();
  const sentence = useCall(api.voiceCloneConsentSentence, { query: { language } }, { staleTime: Infinity });
  const text = sentence.data?.sentence ?? '';
  // A new sentence needs a new recording.
  useEffect(() => {
    if (text && text !== value.sentence) onChange({ ...value, sentence: text, recording: null });
  }, [text, value, onChange]);
  return (
    <div className="vw-clone-consent" data-testid="clone-consent">
      <Checkbox
        checked={value.accepted}
        onChange={(e) => onChange({ ...value, accepted: e.target.checked })}
        data-testid="clone-consent-check"
      >
        {t.accept}
      </Checkbox>
      <p>{t.readAloud}</p>
      <blockquote className="vw-clone-sentence" data-testid="clone-consent-sentence">
        {text || t.loading}
      </blockquote>
      <p className="vw-vt-muted">{asrLabel ? t.verifiedBy(asrLabel) : t.unverified}</p>
      {value.recording ? (
        <div className="vw-clone-file-head" data-testid="clone-consent-recorded">
          <span>{t.recorded(value.recording.name)}</span>
          {/* biome-ignore lint/a11y/useMediaCaption: a consent recording has no captions */}
          <audio controls src={value.recording.url} preload="none" />
          <Button size="small" type="link" onClick={() => onChange({ ...value, recording: null })}>
            {t.again}
          </Button>
        </div>
      ) : upload.active ? (
        <span className="vw-vt-muted">{t.uploading}</span>
      ) : (
        <Recorder
          disabled={!text}
          onFile={(file) =>
            upload.start(file).then(
              (a) => onChange({ ...value, recording: a }),
              () => undefined,
            )
          }
        />
      )}
      <Button
        size="small"
        type="link"
        onClick={() => void sentence.refetch()}
        data-testid="clone-consent-another"
      >
        {t.another}
      </Button>
    </div>
  );
}
