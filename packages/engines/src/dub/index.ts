export { measureLoudness } from './ffmpeg-log.ts';
export { fitLine, fitSummary, MIN_VIDEO_RATE } from './fit.ts';
export { compareTranscript, parseSrtDubbingMarks, textUnits } from './marks.ts';
export { mixDub, mixGraph } from './mix.ts';
export { DUB_RATE, readPcm } from './pcm.ts';
export { placeLines } from './place.ts';
export { assColor, assTime, exportAudio, renderVideo, subtitlesText, toAss, writeStems } from './render.ts';
export { RUBBERBAND_LABEL, stretchToDuration } from './stretch.ts';
export {
  buildTimeMap,
  MAX_SLOW_FACTOR,
  mappedDuration,
  mapTime,
  type SlowStretch,
  slowAudio,
  slowVideoGraph,
  type TimeMap,
  timeSegments,
} from './timemap.ts';
export * from './types.ts';
