import type { MediaAsset } from '@vw/contract';
import { Button, Checkbox } from 'antd';
import { useEffect } from 'react';
import { Recorder } from '@/features/video-translation/Recorder.tsx';
import { api } from '@/lib/api.ts';
import { useCall } from '@/lib/query/hooks.ts';
import { useUpload } from '@/lib/upload/useUpload.ts';

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
        我确认这是我本人的声音，或我已获得声音主人的授权，并同意将其用于声音克隆
      </Checkbox>
      <p>请朗读下面这句话并录音，用于确认是本人授权：</p>
      <blockquote className="vw-clone-sentence" data-testid="clone-consent-sentence">
        {text || '正在获取句子…'}
      </blockquote>
      <p className="vw-vt-muted">
        {asrLabel
          ? `录音将由语音识别（${asrLabel}）核对是否读对了这句话。`
          : '本站暂未开启语音识别：录音不做自动核对，将与克隆声音一起保存备查。'}
      </p>
      {value.recording ? (
        <div className="vw-clone-file-head" data-testid="clone-consent-recorded">
          <span>已录制：{value.recording.name}</span>
          {/* biome-ignore lint/a11y/useMediaCaption: a consent recording has no captions */}
          <audio controls src={value.recording.url} preload="none" />
          <Button size="small" type="link" onClick={() => onChange({ ...value, recording: null })}>
            重新录制
          </Button>
        </div>
      ) : upload.active ? (
        <span className="vw-vt-muted">正在上传录音…</span>
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
        换一句
      </Button>
    </div>
  );
}
