import { type PointerEvent, type ReactNode, useEffect, useState } from 'react';
import './ui.css';

/** Half the handle's width: the input reaches this far past each end of the rail. */
const HANDLE_HALF_PX = 5;
/** The value tip shows while the pointer is this close to the handle's centre. */
const NEAR_HANDLE_PX = 8;

/**
 * A native range input (role slider, the browser's keyboard) drawn like antd's Slider: rail, track
 * from the minimum, dots and labels at the marks, and a tip with the value over the handle while it
 * is hovered, dragged or focused from the keyboard.
 */
export function Slider({
  min,
  max,
  step = 1,
  value,
  onChange,
  marks = {},
  tip = String,
  valueText,
  'aria-label': ariaLabel,
}: {
  min: number;
  max: number;
  step?: number;
  value: number;
  onChange: (value: number) => void;
  marks?: Record<number, ReactNode>;
  /** The tip's text for a value. */
  tip?: (value: number) => ReactNode;
  /** What a screen reader says for a value (aria-valuetext). */
  valueText?: string;
  'aria-label': string;
}) {
  const [nearHandle, setNearHandle] = useState(false);
  const [dragging, setDragging] = useState(false);
  const at = (v: number) => `${((v - min) / (max - min)) * 100}%`;

  useEffect(() => {
    if (!dragging) return;
    const stop = () => setDragging(false);
    window.addEventListener('pointerup', stop);
    return () => window.removeEventListener('pointerup', stop);
  }, [dragging]);

  const track = (e: PointerEvent<HTMLInputElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const centre = r.left + HANDLE_HALF_PX + ((value - min) / (max - min)) * (r.width - 2 * HANDLE_HALF_PX);
    setNearHandle(Math.abs(e.clientX - centre) <= NEAR_HANDLE_PX);
  };

  return (
    <div className={`vw-slider ${nearHandle || dragging ? 'is-tip-open' : ''}`}>
      <div className="vw-slider-rail">
        <div className="vw-slider-track" style={{ width: at(value) }} />
      </div>
      {Object.keys(marks).map((k) => (
        <span
          key={`dot${k}`}
          className={`vw-slider-dot ${Number(k) <= value ? 'is-active' : ''}`}
          style={{ left: at(Number(k)) }}
        />
      ))}
      <input
        type="range"
        className="vw-slider-input"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-label={ariaLabel}
        aria-valuetext={valueText}
        onChange={(e) => onChange(Number(e.target.value))}
        onPointerMove={track}
        onPointerLeave={() => setNearHandle(false)}
        onPointerDown={() => setDragging(true)}
      />
      <div className="vw-slider-marks" aria-hidden>
        {Object.entries(marks).map(([k, label]) => (
          <span key={k} className="vw-slider-mark" style={{ left: at(Number(k)) }}>
            {label}
          </span>
        ))}
      </div>
      <span className="vw-slider-tip" style={{ left: at(value) }} aria-hidden>
        {tip(value)}
      </span>
    </div>
  );
}
