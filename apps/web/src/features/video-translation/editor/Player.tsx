import { CaretRightFilled, PauseOutlined } from '@ant-design/icons';
import type { MediaAsset } from '@vw/contract/calls/media.ts';
import { formatTime } from '@vw/contract/helpers/time.ts';
import { Select } from 'antd';
import { useEffect, useRef } from 'react';
import { zhCN } from '@/locales/zh-CN.ts';
import { overlayLines } from '../translate/model.ts';
import { useActiveCueId, useClock, useEditor } from './context.tsx';

const s = zhCN.editor;

const RATES = [0.5, 0.75, 1, 1.25, 1.5, 2];

/**
 * The player: the project's video (or audio) with the cue under the playhead drawn over it. It
 * owns the play clock: while playing, the clock follows the media every animation frame.
 */
export function Player({
  media,
  audioSrc = null,
}: {
  media: MediaAsset | null;
  /** Dubbing: play this track (the dub or the mix) in sync instead of the media's own sound. */
  audioSrc?: string | null;
}) {
  const editor = useEditor();
  const { clock, player, durationMs } = editor;
  const mediaRef = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const playing = useClock((c) => c.playing);
  const ms = useClock((c) => Math.floor(c.ms / 100) * 100);
  const activeId = useActiveCueId();
  const active = editor.cues.find((c) => c.id === activeId);
  // A translation shows both languages: the translation, the source under it.
  const lines = overlayLines(editor.state.doc, active);
  const isVideo = !!media && media.kind === 'video' && media.has_video !== false;
  const overlayRef = useRef<HTMLAudioElement>(null);
  // Without media of its own (SRT配音 without a video), the dub track is what plays.
  const mainSrc = media?.url ?? audioSrc ?? undefined;
  const dubbed = !!media && !!audioSrc;

  // The dub/mix follows the media: same position, play and pause together; the media is muted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new track (audioSrc) is synced again
  useEffect(() => {
    const el = mediaRef.current;
    const over = overlayRef.current;
    if (!el) return;
    el.muted = dubbed;
    if (!dubbed || !over) return;
    const sync = () => {
      over.currentTime = el.currentTime;
    };
    const play = () => {
      sync();
      void over.play().catch(() => {});
    };
    const pause = () => over.pause();
    sync();
    if (!el.paused) play();
    el.addEventListener('play', play);
    el.addEventListener('pause', pause);
    el.addEventListener('seeked', sync);
    el.addEventListener('ratechange', () => {
      over.playbackRate = el.playbackRate;
    });
    return () => {
      over.pause();
      el.removeEventListener('play', play);
      el.removeEventListener('pause', pause);
      el.removeEventListener('seeked', sync);
    };
  }, [dubbed, audioSrc]);

  useEffect(() => {
    const el = mediaRef.current;
    player.current = {
      seek(to) {
        const at = Math.max(0, durationMs ? Math.min(to, durationMs) : to);
        if (el) el.currentTime = at / 1000;
        clock.setState({ ms: at });
      },
      toggle() {
        if (!el) return;
        if (el.paused) void el.play().catch(() => {});
        else el.pause();
      },
    };
  }, [player, clock, durationMs]);

  // While playing, follow the media every frame (timeupdate fires only ~4 times a second).
  useEffect(() => {
    const el = mediaRef.current;
    if (!playing || !el) return;
    let frame = 0;
    const tick = () => {
      clock.setState({ ms: Math.round(el.currentTime * 1000) });
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, clock]);

  const common = {
    ref: mediaRef,
    src: mainSrc,
    preload: 'auto',
    onPlay: () => clock.setState({ playing: true }),
    onPause: () =>
      clock.setState({ playing: false, ms: Math.round((mediaRef.current?.currentTime ?? 0) * 1000) }),
    onEnded: () => clock.setState({ playing: false }),
    'data-testid': 'editor-media',
  } as const;

  return (
    <section className="vw-ed-player" aria-label={s.player}>
      <div className={`vw-ed-stage${isVideo ? '' : ' is-audio'}`}>
        {mainSrc ? (
          isVideo ? (
            <video {...common} playsInline onClick={() => player.current.toggle()} />
          ) : (
            <audio {...common} />
          )
        ) : (
          <div className="vw-ed-nomedia">{s.noMedia}</div>
        )}
        {dubbed && (
          // biome-ignore lint/a11y/useMediaCaption: the dub track plays under the video, whose cues are drawn over it
          <audio ref={overlayRef} src={audioSrc!} preload="auto" data-testid="editor-dub-audio" />
        )}
        {lines.length > 0 && (
          <div className="vw-ed-overlay" data-testid="subtitle-overlay">
            <span>{lines[0]}</span>
            {lines[1] && <span className="is-second">{lines[1]}</span>}
          </div>
        )}
      </div>
      <div className="vw-ed-transport">
        <button
          type="button"
          className="vw-ed-play"
          aria-label={playing ? s.pause : s.play}
          onClick={() => player.current.toggle()}
          disabled={!mainSrc}
        >
          {playing ? <PauseOutlined /> : <CaretRightFilled />}
        </button>
        <span className="vw-ed-clock" data-testid="player-time">
          {formatTime(ms)} / {formatTime(durationMs ?? 0)}
        </span>
        <span className="vw-ed-spacer" />
        <Select
          size="small"
          aria-label={s.playbackRate}
          defaultValue={1}
          popupMatchSelectWidth={false}
          onChange={(rate: number) => {
            if (mediaRef.current) mediaRef.current.playbackRate = rate;
          }}
          options={RATES.map((r) => ({ value: r, label: `${r}×` }))}
        />
      </div>
    </section>
  );
}
