import {
  MAX_SPEED_STEP,
  MIN_SPEED_STEP,
  rateToSpeedStep,
  speedStepToRate,
} from '@vw/contract/helpers/speed.ts';
import { Slider } from '@/components/ui/Slider.tsx';
import { zhCN } from '@/locales/zh-CN.ts';

const t = zhCN.tts;

/** "1.05x"; the normal speed reads 1.0x. */
export const formatRate = (rate: number) => `${rate === 1 ? '1.0' : rate}x`;

/** The slider's value for a synthesis speed (nearest of the 11 steps). */
export const sliderValue = (rate: number) => rateToSpeedStep(rate);
/** The synthesis speed for a slider value. */
export const sliderRate = (step: number) => speedStepToRate(Math.round(step));

const marks = {
  [MIN_SPEED_STEP]: t.slower,
  0: t.normal,
  [MAX_SPEED_STEP]: t.faster,
};

/** Speed in the 11 steps of spec §3/§9 (-5..5 ↔ 0.79…1.21); the value is the rate itself. */
export function SpeedSlider({ value, onChange }: { value: number; onChange: (rate: number) => void }) {
  const step = sliderValue(value);
  return (
    <div className="vw-tts-slider" data-testid="speed-slider" data-step={step} data-rate={sliderRate(step)}>
      <div className="vw-tts-slider-head">
        <span>{t.speed}</span>
        <strong>{formatRate(sliderRate(step))}</strong>
      </div>
      <Slider
        min={MIN_SPEED_STEP}
        max={MAX_SPEED_STEP}
        step={1}
        marks={marks}
        value={step}
        tip={(v) => formatRate(sliderRate(v))}
        valueText={formatRate(sliderRate(step))}
        onChange={(v) => onChange(sliderRate(v))}
        aria-label={t.speed}
      />
    </div>
  );
}

/** Volume (dB gain) and pitch (semitones) sliders share this look. */
export function LevelSlider({
  label,
  value,
  min,
  max,
  unit,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  unit: string;
  onChange: (v: number) => void;
  testId: string;
}) {
  const shown = value > 0 ? `+${value}` : String(value);
  return (
    <div className="vw-tts-slider" data-testid={testId}>
      <div className="vw-tts-slider-head">
        <span>{label}</span>
        <strong>
          {shown}
          {unit}
        </strong>
      </div>
      <Slider
        min={min}
        max={max}
        step={1}
        value={value}
        marks={{ [min]: String(min), 0: '0', [max]: `+${max}` }}
        valueText={`${shown}${unit}`}
        onChange={onChange}
        aria-label={label}
      />
    </div>
  );
}
