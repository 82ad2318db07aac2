export { assertBox, grabFrame, pixelBox, probeVideo, type VideoInfo } from './frames.ts';
export { createOcrPool, MAX_OCR_WORKERS, PPOCR_ID, PPOCR_LABEL } from './pool.ts';
export { detectSubtitleRegions } from './regions.ts';
export { convertScript, editDistance, lineScript, textSimilarity } from './text.ts';
export { maskDistance, type TextMask, textMask } from './textmask.ts';
export type * from './types.ts';
export { recognizeVideo } from './video.ts';
