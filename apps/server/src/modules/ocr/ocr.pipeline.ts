import { ocrCalls, toSrt } from '@vw/contract';
import type { RecognizeVideoResult } from '@vw/engines';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { definePipeline } from '../../tasks/pipeline.ts';
import { readProjectDocument, writeToolResult } from '../projects/projects.service.ts';
import { sourceVideo } from '../projects/stages/media.ts';
import { recognizeText } from '../projects/stages/recognize-text.ts';
import { writeSubtitleOutputs } from '../projects/stages/subtitle-outputs.ts';
import { countChars, ocrToDocument, SOURCE_TRACK_ID } from '../projects/stages/text-document.ts';

export const ocrInput = ocrCalls.ocrOptions.extend({
  asset_id: z.string(),
  project_id: z.string(),
});
export type OcrInput = z.infer<typeof ocrInput>;

export const ocrPipeline = definePipeline<OcrInput>({
  tool: 'ocr',
  input: ocrInput,
  stages: [
    {
      // Frames sampled at the chosen rate and read in chunks (each chunk a task item, so a restarted
      // task resumes after the last chunk done); unchanged bands are not read again.
      name: 'recognize',
      label: '识别画面字幕',
      lane: 'heavy',
      weight: 9,
      async run(ctx): Promise<RecognizeVideoResult> {
        const result = await recognizeText(ctx, await sourceVideo(ctx), {
          regions: ctx.input.regions,
          fps: ctx.input.fps,
          minScore: ctx.input.min_score,
          convert: ctx.input.convert,
        });
        // Nothing legible in the regions: the task fails with the named error, the credits go back.
        if (countChars(result) === 0) throw AppError.named('err_video_without_subtitle');
        return result;
      },
    },
    {
      name: 'build',
      label: '生成字幕',
      lane: 'light',
      weight: 1,
      async run(ctx) {
        const result = ctx.results.recognize as RecognizeVideoResult;
        const { owner_id: ownerId } = ctx.task;
        const base = await readProjectDocument(ctx.app, ownerId, ctx.input.project_id);
        const document = ocrToDocument(result, base, ctx.input.language);
        const label = `${result.engine_label} · 画面字幕识别`;
        await writeToolResult(ctx.app, ownerId, ctx.input.project_id, document, label);
        const main = document.tracks.find((t) => t.id === SOURCE_TRACK_ID)?.cues ?? [];
        await writeSubtitleOutputs(ctx, { srt: toSrt(main) });
        return {
          tracks: document.tracks.map((t) => ({
            id: t.id,
            kind: t.kind,
            language: t.language,
            cues: t.cues.length,
          })),
          chars: countChars(result),
          frames_sampled: result.frames_sampled,
          frames_recognised: result.frames_recognised,
          engine_label: result.engine_label,
        };
      },
    },
  ],
});
