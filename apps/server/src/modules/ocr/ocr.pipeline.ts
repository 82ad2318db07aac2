import { access } from 'node:fs/promises';
import path from 'node:path';
import { ocrCalls, toSrt } from '@vw/contract';
import { type RecognizeVideoResult, recognizeVideo } from '@vw/engines';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { localPathOf } from '../../media/files.ts';
import { definePipeline, type StageContext } from '../../tasks/pipeline.ts';
import { readProjectDocument, writeToolResult } from '../projects/projects.service.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';
import { countChars, ocrToDocument, SOURCE_TRACK_ID } from './ocr.document.ts';
import { mediaError } from './ocr.media.ts';

export const ocrInput = ocrCalls.ocrOptions.extend({
  asset_id: z.string(),
  project_id: z.string(),
});
export type OcrInput = z.infer<typeof ocrInput>;

/** The video as a local path (in place on local storage; downloaded into the task's scratch on S3). */
export async function sourceVideo(ctx: StageContext<{ asset_id: string }>): Promise<string> {
  const asset = await getOwnedAsset(ctx.app, ctx.task.owner_id, ctx.input.asset_id);
  const local = path.join(ctx.scratchDir, `src-${path.basename(asset.storage_key)}`);
  // An S3 object downloaded by an earlier stage on this machine is read again from the scratch folder.
  const there = await access(local).then(
    () => true,
    () => false,
  );
  return there ? local : localPathOf(ctx.app, asset.storage_key, ctx.scratchDir);
}

/** The progress callback of an engine: throttled writes by the task, errors only logged. */
export function progressOf(ctx: StageContext<unknown>, from = 0, to = 1) {
  return (f: number) => {
    ctx
      .progress(from + (to - from) * Math.max(0, Math.min(1, f)))
      .catch((err) => ctx.app.log.warn({ err, taskId: ctx.task.id }, 'progress write failed'));
  };
}

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
        const video = await sourceVideo(ctx);
        let result: RecognizeVideoResult;
        try {
          result = await recognizeVideo(video, {
            engine: ctx.app.ocr,
            regions: ctx.input.regions,
            fps: ctx.input.fps,
            minScore: ctx.input.min_score,
            convert: ctx.input.convert,
            signal: ctx.signal,
            onProgress: progressOf(ctx),
            checkpoint: (key, fn) => ctx.item(key, fn),
          });
        } catch (err) {
          throw mediaError(err);
        }
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
        const srt = Buffer.from(toSrt(main), 'utf8');
        const key = await ctx.saveArtifact(
          { bytes: srt },
          { name: 'subtitles.srt', contentType: 'application/x-subrip; charset=utf-8' },
        );
        await ctx.addOutput({
          name: `${ctx.task.title}.srt`,
          kind: 'srt',
          format: 'srt',
          key,
          size: srt.length,
        });
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
