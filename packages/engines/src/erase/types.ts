import type { Box, OcrEngine } from '../ocr/types.ts';
import type { InpaintMethod } from './inpaint.ts';

/** A box erased over a time range; null start/end = from the beginning / to the end. */
export interface Span {
  box: Box;
  start_ms: number | null;
  end_ms: number | null;
}

/**
 * fast: ffmpeg delogo (interpolates the box from its border), blur: boxblur of the box — both fast,
 * over the whole box. fill: only the text's own pixels, taken from nearby frames where the picture
 * shows them, inpainted where none does (LaMa when installed, else OpenCV Telea: erase/fill.ts).
 */
export type EraseMethod = 'fast' | 'blur' | 'fill';

/** The methods that are one ffmpeg filter graph (and so can run inside another encode). */
export type FilterMethod = Exclude<EraseMethod, 'fill'>;

export const ERASE_METHODS: readonly EraseMethod[] = ['fast', 'blur', 'fill'];

/** What an erase did, for the page's label. */
export interface EraseResult {
  method: EraseMethod;
  /** fill: share (0..1) of the text's pixels taken from other frames; the rest was inpainted. */
  temporal_share?: number;
  /** fill: share (0..1) of the boxes' pixels that were text (and so changed). */
  mask_share?: number;
  /** fill: what inpainted the pixels no frame showed; absent when every pixel came from other frames. */
  inpaint?: InpaintMethod;
}

export interface EraseOptions {
  method: EraseMethod;
  spans: Span[];
  /** fill: text (default) fills the text's own pixels in each box, box the whole box (a watermark). */
  mask?: 'text' | 'box';
  /** fill: the installed LaMa model file (engines' inpaintModel()); without it, OpenCV Telea. */
  lamaModel?: string | null;
  signal?: AbortSignal;
  onProgress?: (f: number) => void;
}

export interface SpansFromCuesOptions {
  /** Added before start and after end (ms). */
  marginMs: number;
  /** Added on every side of the box (normalised, e.g. 0.01). */
  padBox: number;
}

export interface CheckErasedOptions {
  engine: OcrEngine;
  /** The video before erasing: with it the check also measures the damage (what changed besides the text). */
  source?: string;
  regions: Box[];
  spans: Span[];
  /** The whole box was erased (a watermark): the damage is measured on the ring around it only. */
  wholeBox?: boolean;
  fps?: number;
  signal?: AbortSignal;
}

export interface ResidualText {
  start_ms: number;
  end_ms: number;
  text: string;
  box: Box;
}

export interface DarkResidue {
  box: Box;
  start_ms: number;
  end_ms: number;
  /** Mean luma inside the box minus the mean of a ring around it (0..255); large |value| = visible patch. */
  mean_luma_delta: number;
}

/** What an erase changed outside the text, at the middle of one span. */
export interface Damage {
  box: Box;
  start_ms: number;
  end_ms: number;
  /** Share (0..1) of the pixels of the box and a ring around it, outside the text, that changed visibly. */
  changed_share: number;
  /** Mean |luma change| (0..255) over those pixels. */
  mean_change: number;
}

export interface CheckErasedResult {
  residual: ResidualText[];
  residual_chars: number;
  dark_residue: DarkResidue[];
  /** Only when the check was given the source. */
  damage?: Damage[];
}
