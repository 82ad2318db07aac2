import { SwapOutlined } from '@ant-design/icons';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/Button.tsx';
import { usePreviewStore } from '@/features/voices/preview.ts';
import { useVoiceLibrary } from '@/features/voices/useVoiceLibrary.tsx';
import {
  EngineLabel,
  PreviewButton,
  VoiceAvatar,
  VoiceName,
  VoiceTags,
} from '@/features/voices/VoiceParts.tsx';
import { zhCN } from '@/locales/zh-CN.ts';

const t = zhCN.tts;
// The dialog (filters, tabs, the voice list) is off the first paint of /tts.
const VoicePickerDialog = lazy(() => import('./VoicePickerDialog.tsx'));

/** The current voice plus a dialog to choose another (search, filters, favourites, preview). */
export function VoicePicker({ value, onChange }: { value: string; onChange: (voiceId: string) => void }) {
  const library = useVoiceLibrary();
  const { voices, languageName } = library;
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps its animation and the dialog its tab and filters.
  const [mounted, setMounted] = useState(false);
  const stopPreview = usePreviewStore((s) => s.stop);
  const current = voices.find((v) => v.voice_id === value);

  const close = () => {
    stopPreview();
    setOpen(false);
  };

  return (
    <>
      <div className="vw-voice-current" data-testid="voice-current" data-voice-id={current?.voice_id ?? ''}>
        {current ? (
          <>
            <VoiceAvatar voice={current} size={44} />
            <div className="vw-voice-current-main">
              <VoiceName voice={current} />
              <VoiceTags voice={current} languageName={languageName} />
              <EngineLabel voice={current} />
            </div>
            <PreviewButton voice={current} size="small" />
          </>
        ) : (
          <span className="vw-voice-current-empty">{t.chooseVoice}</span>
        )}
      </div>
      <Button
        block
        icon={<SwapOutlined />}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
        data-testid="voice-picker-open"
      >
        {current ? t.changeVoice : t.chooseVoice}
      </Button>
      {mounted && (
        <Suspense fallback={null}>
          <VoicePickerDialog open={open} value={value} library={library} onPick={onChange} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
