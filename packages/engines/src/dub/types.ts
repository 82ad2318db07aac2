import type { TimedText } from '@vw/contract';
import type { Span } from '../erase/types.ts';

/*
 * The dub stage's engine side (issue 17): timing fit per line, sample-accurate placement, mix and
 * render. Times are integer milliseconds, cues are the contract's `TimedText` (start_ms/end_ms/text).
 */

/** Caps of the closed-loop timing fit (KrillinAI 1.15 / 1.30, VideoLingo 1.2 / 1.4). */
export interface FitCaps {
  /** Speed-up applied without comment (default 1.15). */
  acceptRate: number;
  /** Hard cap of the speed-up (default 1.35); past it the text is condensed or the line is unfit. */
  maxRate: number;
  /** Silence kept before the next cue when borrowing its gap (default 80 ms). */
  minGapMs: number;
  /** How far past its slot (+ borrowed gap) a line may still end and count as fitting (default 50 ms). */
  toleranceMs: number;
}

export const DEFAULT_FIT_CAPS: FitCaps = { acceptRate: 1.15, maxRate: 1.35, minGapMs: 80, toleranceMs: 50 };

export type FitActionKind = 'trim' | 'borrow_gap' | 'speed' | 'condense' | 'slow_video';

/**
 * One thing the fit did to a line, in order. `trim`: ms of leading/trailing silence cut from the TTS
 * output; `borrow_gap`: ms taken from the silence before the next cue; `speed`: time-stretch `rate`
 * (Rubber Band R3, pitch kept); `condense`: the language model's rewrite `text`; `slow_video`: the video
 * of this stretch should play at `rate` (< 1) for `ms` more — a mark, the render applies it.
 */
export interface FitAction {
  kind: FitActionKind;
  ms?: number;
  rate?: number;
  text?: string;
}

export interface FitResult {
  /** 48 kHz mono 16-bit WAV, silence trimmed, exactly `duration_ms` long (written into workDir). */
  file: string;
  duration_ms: number;
  /** The text finally spoken (the condensed text when the language model rewrote it). */
  text: string;
  /** True when the line ends inside its slot (+ borrowed gap) + toleranceMs. */
  fits: boolean;
  /** How far the line still runs past its available window (0 when it fits within the slot). */
  overflow_ms: number;
  /** Window the line may use: slot start → slot end + borrowed gap. */
  available_ms: number;
  actions: FitAction[];
  /** Chinese summary for the editor: "超出 0.8 s → 借用间隙 0.3 s，语速 1.12×" or "时长合适". */
  summary: string;
  /** Why it does not fit (Chinese), when `fits` is false. */
  reason?: string;
  /** Engine labels of what processed the audio, e.g. ['Rubber Band R3']. */
  engines: string[];
}

export interface FitLineOptions {
  text: string;
  slot: { start_ms: number; end_ms: number };
  /** Start of the next cue, or null for the last line (it may borrow up to `trackEndMs` then). */
  nextStartMs: number | null;
  /** End of the track for the last line (default: no extra room after the slot). */
  trackEndMs?: number;
  /** Synthesises the text with the line's voice and returns a WAV/any audio path. */
  synthesize: (text: string, opts: { signal?: AbortSignal }) => Promise<string>;
  /**
   * Shortens the text (language model). `targetRatio` < 1: the wanted length relative to the current
   * text. Called at most twice per line.
   */
  condense?: (text: string, targetRatio: number, opts: { signal?: AbortSignal }) => Promise<string>;
  caps?: Partial<FitCaps>;
  /** Allow the last resort: mark the stretch for slower video (rate ≥ 0.8). */
  allowSlowVideo?: boolean;
  /** Where the result WAV (and temporary files) go. */
  workDir: string;
  /** Base name for files in workDir (default: a random id). */
  name?: string;
  signal?: AbortSignal;
}

export interface PlaceLine {
  /** Any audio file ffmpeg reads (fitLine's WAV is read directly). */
  file: string;
  start_ms: number;
}

export interface PlaceOptions {
  duration_ms: number;
  sampleRate?: number; // default 48000
  signal?: AbortSignal;
}

export interface PlaceReport {
  /** Lines cut short because the next line starts before they end (or the track ends). */
  clipped: Array<{ index: number; cut_ms: number }>;
  /** Exact sample offset each line was written at (index order). */
  offsets: number[];
  sampleRate: number;
  duration_ms: number;
}

/** A region where the dub stays silent and the original audio stays audible. */
export interface KeepRegion {
  start_ms: number;
  end_ms: number;
}

export type BackgroundMode = 'duck' | 'mute' | 'keep';
export type LoudnessPreset = 'online' | 'broadcast';
export const LOUDNESS_TARGETS: Record<LoudnessPreset, number> = { online: -16, broadcast: -23 };

export interface MixOptions {
  /** The placed dub track (placeLines output). */
  dub: string;
  /** Original audio or video (its first audio stream); required for 'duck' and 'keep' and for keep regions. */
  original?: string;
  background: BackgroundMode;
  loudness: LoudnessPreset;
  /** Output: .wav (48 kHz stereo 16-bit), .m4a (AAC) or .mp3. */
  out: string;
  keep?: KeepRegion[];
  /**
   * Also write the background as it sits in the mix (ducked/muted, same gain) to this WAV: the
   * background stem of the stems ZIP. Not written when there is no background (muted, no keep regions).
   */
  backgroundOut?: string;
  /** Optional background music under everything (ducked like the original). */
  music?: string;
  signal?: AbortSignal;
}

export interface MixResult {
  /** Integrated loudness of the output, measured after normalisation (ebur128). */
  lufs: number;
  target_lufs: number;
  /** Sample peak of the output, dBFS (the limiter holds it at −1 dBFS). */
  peak_db: number;
  /** The background stem when `backgroundOut` was asked for and there is a background. */
  background_file?: string;
  duration_ms: number;
}

export type SubtitlePosition = 'bottom' | 'top' | 'middle';

/** libass style of burned (or ASS-exported) subtitles. Colours are '#RRGGBB'. */
export interface SubtitleStyle {
  font: string; // default 'Noto Sans CJK SC'
  /** Font size in pixels of a 1080-line frame (scaled by libass to the real height). */
  size: number;
  color: string;
  outline_color: string;
  /** Outline width in pixels (0 = none). */
  outline: number;
  /** Opaque box behind the text instead of an outline. */
  box?: boolean;
  bold?: boolean;
  position: SubtitlePosition;
  /** Vertical margin in pixels of a 1080-line frame. */
  margin_v: number;
  /** Bilingual second line (the other language) style: size and colour. */
  second_size?: number;
  second_color?: string;
}

export const DEFAULT_SUBTITLE_STYLE: SubtitleStyle = {
  font: 'Noto Sans CJK SC',
  size: 56,
  color: '#FFFFFF',
  outline_color: '#000000',
  outline: 3,
  position: 'bottom',
  margin_v: 60,
  second_size: 40,
  second_color: '#FFE066',
};

export interface RenderSubtitles {
  cues: TimedText[];
  style?: Partial<SubtitleStyle>;
  mode: 'burn' | 'soft';
  /** Second language shown as a second line under each cue (bilingual). */
  bilingual?: TimedText[];
}

export interface RenderOptions {
  video: string;
  /** The mixed audio (mixDub output); replaces the video's audio. */
  audio: string;
  /**
   * Subtitles, in the OUTPUT timeline (map them with `mapTime` when `slow` is given). */
  subtitles?: RenderSubtitles;
  /**
   * Stretches of the original timeline whose video plays slower (fit step 4, `slow_video`); the
   * output lasts `mappedDuration` and `audio` must already be in the output timeline (`slowAudio`).
   */
  slow?: Array<{ start_ms: number; end_ms: number; add_ms: number }>;
  /**
   * Original burned-in subtitles to erase in the same encode (boxes × ranges of the ORIGINAL
   * timeline; not combined with `slow`): one x264 pass instead of erase + render.
   */
  erase?: { spans: Span[]; method: 'fast' | 'blur' };
  out: string; // .mp4
  /** x264 preset when re-encoding (default 'superfast', CRF 23). */
  preset?: string;
  crf?: number;
  signal?: AbortSignal;
  /** 0..1 as ffmpeg progresses. */
  onProgress?: (fraction: number) => void;
}

export interface RenderResult {
  /** 'copy' when the video stream was copied (nothing burned), else 'libx264'. */
  video_codec: 'copy' | 'libx264';
  duration_ms: number;
}

export interface StemsOptions {
  dub: string;
  background?: string;
  /** Extra files put in the ZIP as they are (e.g. subtitles.srt). */
  extra?: Array<{ name: string; path?: string; text?: string }>;
  out: string; // .zip
}

/** A line of an SRT read for dubbing: speaker prefix and marks stripped from the text. */
export interface DubbingMarks {
  speaker?: string;
  mark?: 'mute' | 'keep';
  text: string;
}
