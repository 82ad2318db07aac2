import type { Box } from '@vw/contract';
import {
  detectSubtitleRegions,
  type RecognizeVideoOptions,
  type RecognizeVideoResult,
  recognizeVideo,
} from '@vw/engines';
import type { StageContext } from '../../../tasks/pipeline.ts';
import { progressOf, videoError } from './media.ts';

/*
 * The recognizeText stage: on-screen text of a video read by the OCR engine, for subtitle
 * recognition, erasing where subtitles are shown, and dubbing or translating on-screen subtitles.
 */

/**
 * The text shown in `regions`, frames read in chunks (each chunk a task item under `itemPrefix`, so a
 * restarted task resumes after the last chunk done; unchanged bands are not read again).
 */
export async function recognizeText(
  ctx: StageContext<unknown>,
  video: string,
  options: Pick<RecognizeVideoOptions, 'regions' | 'fps' | 'minScore' | 'convert'> & { itemPrefix?: string },
): Promise<RecognizeVideoResult> {
  const { itemPrefix = '', ...read } = options;
  try {
    return await recognizeVideo(video, {
      engine: ctx.app.engines.ocr,
      ...read,
      signal: ctx.signal,
      onProgress: progressOf(ctx),
      checkpoint: (key, fn) => ctx.item(`${itemPrefix}${key}`, fn),
    });
  } catch (err) {
    throw videoError(err);
  }
}

/** The given subtitle regions, else the detected subtitle bands (at most two; a checkpoint of the stage). */
export async function subtitleRegions(
  ctx: StageContext<unknown>,
  file: string,
  given: Box[] | undefined,
): Promise<Box[]> {
  if (given?.length) return given;
  const detected = await ctx.item('ocr-regions', () =>
    detectSubtitleRegions(file, { engine: ctx.app.engines.ocr, samples: 8, signal: ctx.signal }),
  );
  const subtitle = detected.regions.filter((r) => r.kind === 'subtitle');
  return (subtitle.length ? subtitle : detected.regions)
    .slice(0, 2)
    .map(({ x, y, w, h }) => ({ x, y, w, h }));
}
