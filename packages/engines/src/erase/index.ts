export { checkErased, DARK_RESIDUE_DELTA, eraseAgain, lumaDelta } from './check.ts';
export { eraseVideo, spansFromCues, videoEncodeArgs } from './erase.ts';
export * from './types.ts';
