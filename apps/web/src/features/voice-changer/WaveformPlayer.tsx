import type { MediaPeaks } from '@vw/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { drawWaveform } from '@/features/tts/waveform.ts';

const BARS = 200;

/** min/max pairs per bucket → BARS amplitudes 0..1. */
export function barsOf(peaks: MediaPeaks, bars = BARS): number[] {
  const buckets = Math.floor(peaks.peaks.length / 2);
  if (buckets === 0) return [];
  const n = Math.min(bars, buckets);
  const out = new Array<number>(n).fill(0);
  for (let b = 0; b < buckets; b++) {
    const i = Math.min(n - 1, Math.floor((b * n) / buckets));
    const amp = Math.max(Math.abs(peaks.peaks[2 * b]), Math.abs(peaks.peaks[2 * b + 1]));
    if (amp > out[i]) out[i] = amp;
  }
  const max = Math.max(...out, 1e-6);
  return out.map((v) => v / max);
}

/** A labelled <audio> with its waveform (from the server's peaks); clicking the waveform seeks. */
export function WaveformPlayer({
  label,
  src,
  peaks,
  color,
  audioRef,
  testId,
}: {
  label: string;
  src: string;
  peaks: MediaPeaks;
  color: string;
  audioRef: React.RefObject<HTMLAudioElement | null>;
  testId: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [progress, setProgress] = useState(0);
  const bars = useMemo(() => barsOf(peaks), [peaks]);
  useEffect(() => {
    if (canvas.current) drawWaveform(canvas.current, bars, progress, { played: color, rest: '#d4d7e3' });
  }, [bars, progress, color]);
  useEffect(() => {
    const a = audioRef.current;
    if (!a) return;
    const update = () => setProgress(a.duration > 0 ? a.currentTime / a.duration : 0);
    a.addEventListener('timeupdate', update);
    a.addEventListener('seeked', update);
    return () => {
      a.removeEventListener('timeupdate', update);
      a.removeEventListener('seeked', update);
    };
  }, [audioRef]);
  return (
    <div className="vw-vc-player" data-testid={testId}>
      <div className="vw-vc-player-label">{label}</div>
      <canvas
        ref={canvas}
        className="vw-vc-wave"
        onClick={(e) => {
          const a = audioRef.current;
          if (!a || !(a.duration > 0)) return;
          const rect = e.currentTarget.getBoundingClientRect();
          a.currentTime = ((e.clientX - rect.left) / rect.width) * a.duration;
        }}
      />
      {/* biome-ignore lint/a11y/useMediaCaption: speech audio without a transcript */}
      <audio ref={audioRef} src={src} controls preload="metadata" />
    </div>
  );
}
