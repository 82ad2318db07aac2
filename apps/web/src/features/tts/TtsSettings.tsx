import { ThunderboltFilled, UndoOutlined } from '@ant-design/icons';
import type { Model } from '@vw/contract';
import { memo, useCallback, useId } from 'react';
import { Button } from '@/components/ui/Button.tsx';
import { Select } from '@/components/ui/Select.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import { LevelSlider, SpeedSlider } from './SpeedSlider.tsx';
import { DEFAULT_SETTINGS, useTtsStore } from './store.ts';
import { VoicePicker } from './VoicePicker.tsx';

const t = zhCN.tts;
// Re-rendered with the page on every keystroke: the pickers and sliders only when their props change.
const Picker = memo(VoicePicker);
const Speed = memo(SpeedSlider);
const Level = memo(LevelSlider);

/** The side panel: voice, model, speed, volume and pitch, and the generate button. */
export function TtsSettings({
  model,
  voiceModels,
  busy,
  canGenerate,
  onGenerate,
}: {
  model: Model | undefined;
  voiceModels: Model[];
  busy: boolean;
  canGenerate: boolean;
  onGenerate: () => void;
}) {
  const s = useTtsStore();
  const modelLabelId = useId();
  const { setSettings } = s;
  const setSpeed = useCallback((speed: number) => setSettings({ speed }), [setSettings]);
  const setVolume = useCallback((volume: number) => setSettings({ volume }), [setSettings]);
  const setPitch = useCallback((pitch: number) => setSettings({ pitch }), [setSettings]);
  return (
    <section className="vw-card vw-tts-settings" data-testid="tts-settings">
      <div className="vw-tts-field">
        <div className="vw-tts-label">{t.voice}</div>
        <Picker value={s.voiceId} onChange={s.selectVoice} />
      </div>
      <div className="vw-tts-field">
        <div className="vw-tts-label" id={modelLabelId}>
          {t.model}
        </div>
        <Select
          value={model?.model_id}
          onChange={(v) => setSettings({ modelId: v })}
          options={voiceModels.map((m) => ({ value: m.model_id, label: m.name }))}
          aria-labelledby={modelLabelId}
          data-testid="model-select"
        />
        <div className="vw-tts-model-desc">{model?.description}</div>
      </div>
      <div className="vw-tts-field">
        <div className="vw-tts-label-row">
          <span className="vw-tts-label">{t.settings}</span>
          <Button
            type="link"
            size="small"
            icon={<UndoOutlined />}
            onClick={() => setSettings(DEFAULT_SETTINGS)}
          >
            {t.resetSettings}
          </Button>
        </div>
        <Speed value={s.speed} onChange={setSpeed} />
        <Level
          label={t.volume}
          value={s.volume}
          min={-20}
          max={10}
          unit={t.dB}
          onChange={setVolume}
          testId="volume-slider"
        />
        {(model?.capabilities.pitch ?? true) && (
          <Level
            label={t.pitch}
            value={s.pitch}
            min={-12}
            max={12}
            unit={t.semitones}
            onChange={setPitch}
            testId="pitch-slider"
          />
        )}
      </div>
      <Button
        type="primary"
        size="large"
        block
        icon={<ThunderboltFilled />}
        loading={busy}
        disabled={!canGenerate}
        onClick={onGenerate}
        className="vw-tts-generate"
        data-testid="generate"
      >
        {busy ? t.generating : t.generate}
      </Button>
    </section>
  );
}
