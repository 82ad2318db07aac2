export { checkErased, DARK_RESIDUE_DELTA, eraseAgain, lumaDelta } from './check.ts';
export { eraseFilterGraph, eraseVideo, spansFromCues, videoEncodeArgs } from './erase.ts';
export * from './types.ts';
