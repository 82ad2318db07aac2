import { access, copyFile } from 'node:fs/promises';
import path from 'node:path';
import type { EraseReport } from '@vw/contract';
import { eraseCalls } from '@vw/contract';
import {
  type CheckErasedResult,
  checkErased,
  eraseAgain,
  eraseVideo,
  eraseWatermark,
  findWatermarks,
  type Span,
  spansFromWatermarks,
  type WatermarkEraseResult,
} from '@vw/engines';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { localPathOf } from '../../media/files.ts';
import { definePipeline, type PipelineDef, type StageContext } from '../../tasks/pipeline.ts';
import { readProjectDocument } from '../projects/projects.service.ts';
import {
  customSpans,
  documentChars,
  spansFromDocument,
  spansFromRecognition,
  wholeSpans,
} from '../projects/stages/erase-spans.ts';
import { progressOf, sourceVideo, videoError } from '../projects/stages/media.ts';
import { recognizeText } from '../projects/stages/recognize-text.ts';
import { countChars } from '../projects/stages/text-document.ts';
import { registerAsset } from '../uploads/register.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';

/*
 * One pipeline for the two tools `erase` (字幕擦除) and `watermark` (去水印):
 * locate (where and when: whole video, custom ranges, or where subtitles are shown — from an OCR
 * project or recognised here; a watermark: found inside the boxes per segment of time) → erase (fill: the text's pixels from nearby frames / inpainted by LaMa when installed, else Telea; fast,
 * blur: ffmpeg delogo / blur per box with time enables; audio copied) → check (OCR reads the boxes
 * again and measures the damage against the source; what remains is erased once more when
 * second_pass is on, then checked again) → output (MP4 as the task's output and as a new asset of
 * the user).
 */

export const eraseInput = eraseCalls.eraseOptions.extend({
  asset_id: z.string(),
  project_id: z.string(),
  duration_ms: z.number().int(),
});
export type EraseInput = z.infer<typeof eraseInput>;

interface Located {
  spans: Span[];
  /** Characters recognised before erasing (mode subtitles), 0 otherwise. */
  original_chars: number;
  /** 去水印: the watermark per segment, as found (before padding). */
  watermarks?: EraseReport['watermarks'];
  /** Moments worth looking at in the damage view (each cue's or segment's middle, ms), in order. */
  moments?: number[];
}

const middles = (ranges: Array<{ start_ms: number; end_ms: number }>) =>
  ranges.map((r) => Math.round((r.start_ms + r.end_ms) / 2)).sort((a, b) => a - b);

/** Found watermark boxes are grown by this (of the picture) for the anti-aliased edge. */
const WATERMARK_PAD = 0.005;
/** Both segments' boxes are erased for this long either side of a change (the frame found ±1). */
const WATERMARK_MARGIN_MS = 80;

/**
 * 去水印: the watermark looked for inside each of the user's boxes, per segment of time (one that
 * moves between corners is found in each box while it is there); a box where nothing that stays put
 * shows (a still shot shows every edge in every frame) is erased as drawn, over the whole video.
 */
async function locateWatermarks(ctx: StageContext<EraseInput>, video: string): Promise<Located> {
  const { boxes, duration_ms: durationMs } = ctx.input;
  const found = await findWatermarks(video, {
    areas: boxes,
    signal: ctx.signal,
    onProgress: progressOf(ctx),
  }).catch((err) => {
    throw videoError(err);
  });
  const spans = spansFromWatermarks(found, {
    padBox: WATERMARK_PAD,
    marginMs: WATERMARK_MARGIN_MS,
    durationMs,
  });
  const drawn = boxes.filter((_, i) => !found.some((s) => s.area === i));
  return {
    spans: [...spans, ...wholeSpans(drawn)],
    original_chars: 0,
    moments: middles(found),
    watermarks: [
      ...found.map((s) => ({ box: s.box, start_ms: s.start_ms, end_ms: s.end_ms })),
      ...drawn.map((box) => ({ box, start_ms: 0, end_ms: durationMs })),
    ],
  };
}

interface Checked {
  report: EraseReport;
  /** Storage key of the final video (the first pass, or the second when it ran). */
  key: string;
}

/** A stored artifact as a local path: the scratch copy when this machine made it, else from storage. */
async function artifactPath(ctx: StageContext<EraseInput>, key: string, name: string): Promise<string> {
  const local = path.join(ctx.scratchDir, name);
  const there = await access(local).then(
    () => true,
    () => false,
  );
  return there ? local : localPathOf(ctx.app, key, ctx.scratchDir);
}

const toReport = (
  check: CheckErasedResult,
  erased: WatermarkEraseResult,
  located: Located,
  secondPass: boolean,
  engineLabel: string,
): EraseReport => ({
  residual: check.residual,
  residual_chars: check.residual_chars,
  dark_residue: check.dark_residue,
  original_chars: located.original_chars,
  second_pass: secondPass,
  method: erased.method,
  ...(erased.temporal_share !== undefined ? { temporal_share: erased.temporal_share } : {}),
  ...(erased.unblended_share ? { unblended_share: erased.unblended_share } : {}),
  ...(erased.inpaint ? { inpaint: erased.inpaint } : {}),
  ...(check.damage ? { damage: check.damage } : {}),
  ...(located.watermarks ? { watermarks: located.watermarks } : {}),
  engine_label: engineLabel,
});

interface Erased {
  key: string;
  result: WatermarkEraseResult;
}

const stages: PipelineDef<EraseInput>['stages'] = [
  {
    name: 'locate',
    label: '定位字幕',
    lane: 'heavy',
    weight: 3,
    async run(ctx): Promise<Located> {
      const { boxes, range_mode: mode, duration_ms: durationMs, margin_ms: margin } = ctx.input;
      if (ctx.task.tool === 'watermark') return locateWatermarks(ctx, await sourceVideo(ctx));
      if (mode === 'whole') return { spans: wholeSpans(boxes), original_chars: 0 };
      if (mode === 'custom')
        return { spans: customSpans(boxes, ctx.input.ranges, durationMs), original_chars: 0 };
      if (ctx.input.ocr_project_id) {
        const doc = await readProjectDocument(ctx.app, ctx.task.owner_id, ctx.input.ocr_project_id);
        const spans = spansFromDocument(boxes, doc, margin, durationMs);
        if (spans.length === 0) throw AppError.named('err_video_without_subtitle');
        const cues = doc.tracks.flatMap((t) => t.cues);
        return { spans, original_chars: documentChars(doc), moments: middles(cues) };
      }
      const result = await recognizeText(ctx, await sourceVideo(ctx), { regions: boxes, fps: 4 });
      const spans = spansFromRecognition(boxes, result, margin, durationMs);
      // No subtitle anywhere in the boxes: nothing to erase; the task fails and the credits go back.
      if (spans.length === 0) throw AppError.named('err_video_without_subtitle');
      const cues = result.tracks.flatMap((t) => t.cues);
      return { spans, original_chars: countChars(result), moments: middles(cues) };
    },
  },
  {
    name: 'erase',
    label: '擦除',
    lane: 'heavy',
    weight: 5,
    async run(ctx): Promise<Erased> {
      const { spans } = ctx.results.locate as Located;
      const video = await sourceVideo(ctx);
      const out = path.join(ctx.scratchDir, 'erased.mp4');
      let result: WatermarkEraseResult;
      // A watermark: un-blended where it can be, the rest filled (watermark-erase.ts).
      const erase = ctx.task.tool === 'watermark' ? eraseWatermark : eraseVideo;
      try {
        result = await erase(video, out, {
          method: ctx.input.method,
          spans,
          // A watermark tints its whole box; subtitles are strokes.
          mask: ctx.task.tool === 'watermark' ? 'box' : 'text',
          // What no frame shows: LaMa while its model is installed, else Telea (the report says which).
          lamaModel: ctx.input.method === 'fill' ? await ctx.app.engines.inpaintModel() : null,
          signal: ctx.signal,
          onProgress: progressOf(ctx),
        });
      } catch (err) {
        throw videoError(err);
      }
      const key = await ctx.saveArtifact({ path: out }, { name: 'erased.mp4', contentType: 'video/mp4' });
      return { key, result };
    },
  },
  {
    name: 'check',
    label: '检查残留',
    lane: 'heavy',
    weight: 3,
    async run(ctx): Promise<Checked> {
      const located = ctx.results.locate as Located;
      const { key: first, result: made } = ctx.results.erase as Erased;
      // An erase stage done before its result was kept (a task resumed across an upgrade): the input's method.
      const result = made ?? { method: ctx.input.method };
      const erased = await artifactPath(ctx, first, 'erased.mp4');
      const source = await sourceVideo(ctx);
      const label = ctx.app.engines.ocr.label;
      const check = (file: string, spans: Span[], from: number, to: number) =>
        checkErased(file, {
          engine: ctx.app.engines.ocr,
          source,
          regions: ctx.input.boxes,
          spans,
          // A watermark's whole box is erased: what changed around it is the damage.
          wholeBox: ctx.task.tool === 'watermark',
          signal: ctx.signal,
        }).then(
          (r) => {
            progressOf(ctx)(to);
            return r;
          },
          (err) => {
            progressOf(ctx)(from);
            throw videoError(err);
          },
        );
      const found = await check(erased, located.spans, 0, 0.5);
      const leftovers = found.residual.length > 0 || found.dark_residue.length > 0;
      if (!ctx.input.second_pass || !leftovers) {
        return { report: toReport(found, result, located, false, label), key: first };
      }
      // Second pass over what the check found, on top of the first result.
      const again = path.join(ctx.scratchDir, 'erased-2.mp4');
      let extra: Span[];
      try {
        extra = await eraseAgain(erased, again, {
          check: found,
          method: ctx.input.method,
          marginMs: ctx.input.margin_ms,
          signal: ctx.signal,
        });
      } catch (err) {
        throw videoError(err);
      }
      if (extra.length === 0) return { report: toReport(found, result, located, false, label), key: first };
      const key = await ctx.saveArtifact({ path: again }, { name: 'erased-2.mp4', contentType: 'video/mp4' });
      const after = await check(again, [...located.spans, ...extra], 0.5, 1);
      return { report: toReport(after, result, located, true, label), key };
    },
  },
  {
    name: 'output',
    label: '生成成品',
    lane: 'light',
    weight: 1,
    async run(ctx) {
      const { key } = ctx.results.check as Checked;
      const { size } = (await ctx.app.storage.stat(key)) ?? { size: 0 };
      await ctx.addOutput({ name: `${ctx.task.title}.mp4`, kind: 'video', format: 'mp4', key, size });
      // The result as one of the user's assets too (played on the page, usable by the other tools).
      const assetId = await ctx.item('asset', async () => {
        const source = await getOwnedAsset(ctx.app, ctx.task.owner_id, ctx.input.asset_id).catch(() => null);
        const local = await localPathOf(ctx.app, key, ctx.scratchDir);
        // registerAsset moves its file: give it a copy, never the stored artifact itself.
        const copy = path.join(ctx.scratchDir, 'result-asset.mp4');
        await copyFile(local, copy);
        const base = (source?.name ?? ctx.task.title).replace(/\.[^.]{1,8}$/, '');
        const suffix = ctx.task.tool === 'watermark' ? '去水印' : '已擦除';
        const row = await registerAsset(ctx.app, ctx.task.owner_id, {
          file: copy,
          name: `${base}（${suffix}）.mp4`,
        });
        return row.id;
      });
      return { asset_id: assetId, key };
    },
  },
];

export const erasePipeline = definePipeline<EraseInput>({ tool: 'erase', input: eraseInput, stages });
export const watermarkPipeline = definePipeline<EraseInput>({
  tool: 'watermark',
  input: eraseInput,
  stages: stages.map((s) => (s.name === 'locate' ? { ...s, label: '查找水印' } : s)),
});
