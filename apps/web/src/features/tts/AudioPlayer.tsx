import { CaretRightFilled, PauseOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/Button.tsx';
import { zhCN } from '@/locales/zh-CN.ts';
import { computePeaks, decodeSamples, drawWaveform } from './waveform.ts';

const t = zhCN.tts;
const BARS = 160;

export function formatClock(sec: number): string {
  if (!Number.isFinite(sec) || sec < 0) sec = 0;
  const m = Math.floor(sec / 60);
  const s = Math.floor(sec % 60);
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/**
 * The result player: a real <audio> element (it may be fed by a MediaSource while the audio
 * still streams in) and a waveform drawn from the decoded bytes once they are complete.
 */
export function AudioPlayer({
  src,
  bytes,
  autoPlay,
  audioRef,
}: {
  src: string | null;
  /** The complete encoded audio, for the waveform (null while it streams). */
  bytes: ArrayBuffer | null;
  autoPlay?: boolean;
  audioRef?: React.RefObject<HTMLAudioElement | null>;
}) {
  const ownRef = useRef<HTMLAudioElement | null>(null);
  const ref = audioRef ?? ownRef;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [peaks, setPeaks] = useState<number[]>([]);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);

  useEffect(() => {
    let live = true;
    setPeaks([]);
    if (!bytes) return;
    void decodeSamples(bytes).then((d) => {
      if (!live || !d) return;
      setPeaks(computePeaks(d.samples, BARS));
      if (d.duration > 0) setDuration((cur) => (Number.isFinite(cur) && cur > 0 ? cur : d.duration));
    });
    return () => {
      live = false;
    };
  }, [bytes]);

  const progress = duration > 0 ? Math.min(1, time / duration) : 0;
  const redraw = useCallback(() => {
    if (canvasRef.current)
      drawWaveform(canvasRef.current, peaks, progress, { played: '#4f46e5', rest: '#d4d7e3' });
  }, [peaks, progress]);
  useEffect(redraw, [redraw]);
  useEffect(() => {
    const ro = new ResizeObserver(redraw);
    if (canvasRef.current) ro.observe(canvasRef.current);
    return () => ro.disconnect();
  }, [redraw]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new source resets the clock
  useEffect(() => {
    setTime(0);
    setDuration(0);
    setPlaying(false);
  }, [src]);

  const toggle = () => {
    const a = ref.current;
    if (!a || !src) return;
    if (a.paused) void a.play().catch(() => undefined);
    else a.pause();
  };

  const seek = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const a = ref.current;
    if (!a || !duration) return;
    const r = e.currentTarget.getBoundingClientRect();
    a.currentTime = Math.max(0, Math.min(1, (e.clientX - r.left) / r.width)) * duration;
    setTime(a.currentTime);
  };

  return (
    <div className={`vw-player ${src ? '' : 'is-empty'}`} data-testid="tts-player">
      <Button
        type="primary"
        shape="circle"
        size="large"
        className="vw-player-btn"
        disabled={!src}
        aria-label={playing ? t.pause : t.play}
        icon={playing ? <PauseOutlined /> : <CaretRightFilled />}
        onClick={toggle}
        data-testid="player-toggle"
      />
      <div className="vw-player-wave">
        {peaks.length > 0 ? (
          <canvas ref={canvasRef} className="vw-player-canvas" onClick={seek} data-testid="waveform" />
        ) : (
          <div className="vw-player-line">
            <div className="vw-player-line-fill" style={{ width: `${progress * 100}%` }} />
          </div>
        )}
      </div>
      <span className="vw-player-time" data-testid="player-time">
        {formatClock(time)} / {formatClock(duration)}
      </span>
      {/* biome-ignore lint/a11y/useMediaCaption: subtitles are offered as an SRT download */}
      <audio
        ref={ref}
        src={src ?? undefined}
        autoPlay={autoPlay}
        preload="auto"
        data-testid="tts-audio"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
        onDurationChange={(e) => {
          const d = e.currentTarget.duration;
          if (Number.isFinite(d) && d > 0) setDuration(d);
        }}
      />
    </div>
  );
}
