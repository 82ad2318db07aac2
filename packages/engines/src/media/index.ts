export { createMediaInspector, type MediaInspector } from './inspector.ts';
export { type MediaProbe, type ProbedStream, probeFile } from './probe.ts';
export {
  ALLOWED_DEMUXERS,
  type MediaRunOptions,
  mediaErrors,
  runFfmpeg,
  runFfprobe,
  SAFE_PROTOCOLS,
  safeArgs,
  spawnMedia,
} from './run.ts';
export {
  makeSubtitledClip,
  type SubtitledClip,
  type SubtitledClipOptions,
  type TestCue,
} from './testclips.ts';
export {
  type ExtractFormat,
  extractAudio,
  type TranscodeFormat,
  thumbnail,
  transcodeStream,
  type WaveformPeaks,
  waveformPeaks,
} from './tools.ts';
