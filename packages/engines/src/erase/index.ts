export { checkErased, DAMAGE_DELTA, DARK_RESIDUE_DELTA, damageOf, eraseAgain, lumaDelta } from './check.ts';
export { type Difference, renderDifference } from './difference.ts';
export { eraseFilterGraph, eraseVideo, spansFromCues, videoEncodeArgs } from './erase.ts';
export type { InpaintMethod } from './inpaint.ts';
export { findLamaModel } from './lama.ts';
export * from './types.ts';
export {
  type FindWatermarksOptions,
  findWatermarks,
  spansFromWatermarks,
  type WatermarkSegment,
} from './watermark.ts';
export { eraseWatermark, type WatermarkEraseResult } from './watermark-erase.ts';
