import { DEFAULT_SUBTITLE_RULES, namedErrorMessages, type sttCalls } from '@vw/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { createTask } from '../../tasks/tasks.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import { assertFeature, getFeatures, type ToolChecks } from '../features/features.service.ts';
import { createProjectWithTask, emptyDocument } from '../projects/projects.service.ts';
import { pickRecognizer, recognizerStatus } from '../projects/stages/recognize-speech.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';
import { sttPipeline } from './stt.pipeline.ts';

type SttCreateBody = z.output<NonNullable<typeof sttCalls.sttCreate.body>>;

/**
 * Speech to text from one of the user's assets: a new editor project (empty until the task writes the
 * recognised track) and a task holding the credits for the asset's length.
 */
export async function createSttTask(ctx: AppContext, userId: string, body: SttCreateBody) {
  await assertFeature(ctx, userId, 'subtitle_generate');
  // Refused before anything is held or written when no recognizer is configured.
  const recognizer = pickRecognizer(ctx);
  if (
    body.language !== 'auto' &&
    recognizer.languages !== 'any' &&
    !recognizer.languages.includes(body.language)
  ) {
    throw AppError.named(
      'err_invalid_param',
      `当前识别引擎（${recognizer.label}）不支持该语言：${body.language}；可选：${recognizer.languages.join('、')} 或自动识别`,
    );
  }
  const asset = await getOwnedAsset(ctx, userId, body.asset_id);
  if (!asset.has_audio) throw AppError.named('err_file_not_supported', '该素材没有音轨，无法识别语音');
  const seconds = Math.ceil(Number(asset.duration_ms ?? 0) / 1000);
  const credits = await priceTask(ctx, 'speech_to_text', { seconds });
  const name = body.name ?? (asset.name.replace(/\.[^.]{1,8}$/, '') || asset.name);
  const { projectId, taskId } = await createProjectWithTask(
    ctx,
    {
      ownerId: userId,
      tool: 'stt',
      name,
      sourceAssetId: asset.id,
      document: emptyDocument(DEFAULT_SUBTITLE_RULES),
    },
    (projectId) =>
      createTask(ctx, sttPipeline, {
        ownerId: userId,
        title: name,
        input: {
          asset_id: asset.id,
          project_id: projectId,
          language: body.language,
          speakers: body.speakers,
          punctuation: body.punctuation,
          split_cues: body.split_cues,
        },
        inputAssetIds: [asset.id],
        projectId,
        credits: { tool: 'speech_to_text', amount: credits },
      }),
  );
  return { task_id: taskId, project_id: projectId, credits };
}

// /v1/tools/capabilities: the page shows the reason instead of a start button.
export const sttAvailability: ToolChecks = {
  stt: async (ctx, userId) => {
    const engines = ctx.engines.asr
      .list()
      .map((p) => ({ id: p.id, label: p.label, diarization: p.diarization }));
    if (!(await getFeatures(ctx, userId)).subtitle_generate) {
      return {
        tool: 'stt',
        available: false,
        reason: namedErrorMessages.err_subtitle_generate_not_allowed,
        error_type: 'err_subtitle_generate_not_allowed',
        engines,
      };
    }
    const status = recognizerStatus(ctx);
    return {
      tool: 'stt',
      available: status.available,
      reason: status.reason,
      error_type: status.available ? '' : 'err_interface_unavailable',
      engines,
    };
  },
};
