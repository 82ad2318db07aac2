/** Normalised box: 0..1 of the frame's width (x, w) and height (y, h), origin top-left. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** One recognised text line. `box` is normalised to the image that was recognised. */
export interface OcrLine {
  text: string;
  /** Mean character confidence 0..1. */
  score: number;
  box: Box;
}

export interface OcrRecognizeOptions {
  signal?: AbortSignal;
}

export interface OcrEngine {
  /** Stable id, e.g. 'ppocr-v4'. */
  id: string;
  /** Honest label shown with results, e.g. 'PP-OCRv4 (离线)'. */
  label: string;
  /** Recognises every text line of one PNG/JPEG file. */
  recognize(image: string, opts?: OcrRecognizeOptions): Promise<OcrLine[]>;
  /** Stops the helpers; pending calls fail with an EngineError('aborted'). */
  close(): Promise<void>;
}

export interface OcrPoolOptions {
  /** Helper processes; default min(2, cores) and at least 1. */
  size?: number;
}

export type RegionKind = 'subtitle' | 'title';

export interface DetectedRegion extends Box {
  kind: RegionKind;
  /** Share of sampled frames in which text was found in this region, 0..1. */
  confidence: number;
}

export interface DetectRegionsOptions {
  engine: OcrEngine;
  /** Frames sampled evenly over the video (default 12). */
  samples?: number;
  signal?: AbortSignal;
}

export interface DetectRegionsResult {
  regions: DetectedRegion[];
  /** The times of the sampled frames (ms), usable for preview frames. */
  frame_ms: number[];
}

/** Resume helper: runs `fn` once per key and returns the stored result on a later attempt. */
export type Checkpoint = <T>(key: string, fn: () => Promise<T>) => Promise<T>;

export type ScriptConversion = 'none' | 't2s' | 's2t';

export interface RecognizeVideoOptions {
  engine: OcrEngine;
  /** Regions (normalised) to read; each gives its own track(s). */
  regions: Box[];
  /** Sampling rate in frames per second (default 4). */
  fps?: number;
  /** Lines below this confidence are dropped (default 0.75). */
  minScore?: number;
  convert?: ScriptConversion;
  signal?: AbortSignal;
  /** Fraction 0..1 done. */
  onProgress?: (f: number) => void;
  /** Pass the task's `ctx.item` so a restarted task resumes by chunks of frames. */
  checkpoint?: Checkpoint;
  /** Seconds of video per chunk (one ffmpeg pass, one checkpoint); default 60. */
  chunkSeconds?: number;
}

export interface OcrCue {
  start_ms: number;
  end_ms: number;
  text: string;
  /** Normalised to the whole frame. */
  box: Box;
  score: number;
}

export interface OcrTrack {
  /** Index into `regions`. */
  region: number;
  script: 'zh' | 'latin';
  /** BCP-47-ish: 'zh-Hans', 'zh-Hant', 'zh' or 'en'. */
  language: string;
  cues: OcrCue[];
}

export interface RecognizeVideoResult {
  tracks: OcrTrack[];
  frames_sampled: number;
  /** Frames actually sent to OCR (unchanged bands are skipped). */
  frames_recognised: number;
  engine_label: string;
}
