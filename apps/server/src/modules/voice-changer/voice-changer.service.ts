import {
  ErrorCode,
  namedErrorMessages,
  VOICE_CHANGER_MAX_BYTES,
  VOICE_CHANGER_MAX_SECONDS,
  type voiceChangerCalls,
} from '@vw/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { findStages } from '../../tasks/tasks.repo.ts';
import { createTask, getOwnedTask } from '../../tasks/tasks.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import { getMediaLimits, type ToolChecks } from '../features/features.service.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';
import { pickVcEngine } from './voice-changer.engines.ts';
import {
  type ConvertResult,
  type EncodeResult,
  readPeaks,
  type VoiceChangerInput,
  voiceChangerPipeline,
} from './voice-changer.pipeline.ts';
import { listTargets, resolveTarget } from './voice-changer.targets.ts';

type CreateBody = z.output<NonNullable<typeof voiceChangerCalls.voiceChangerCreate.body>>;

const RESULT_LINK_SECONDS = 3600;

/** The tool's cap (50 MB / 5 minutes) within the plan's media limits: the smaller of the two. */
export async function voiceChangerLimits(ctx: AppContext, userId: string) {
  const plan = await getMediaLimits(ctx, userId);
  return {
    max_bytes: Math.min(plan.max_upload_bytes, VOICE_CHANGER_MAX_BYTES),
    max_seconds: Math.min(plan.max_duration_seconds, VOICE_CHANGER_MAX_SECONDS),
  };
}

/**
 * A voice-changer task from one of the user's assets: checks the engine, the asset (audio, size,
 * length), the target voice (visible, usable at the user's plan), then holds the price of its
 * seconds. Short of credits → err_sts_balance_insufficient (spec §8's name for this tool), nothing held.
 */
export async function createVoiceChangerTask(ctx: AppContext, userId: string, body: CreateBody) {
  const engine = await pickVcEngine(ctx, body.engine);
  const asset = await getOwnedAsset(ctx, userId, body.asset_id);
  if (!asset.has_audio) throw AppError.named('err_file_not_supported', '该素材没有音轨，无法变声');
  const limits = await voiceChangerLimits(ctx, userId);
  if (Number(asset.size) > limits.max_bytes) {
    throw AppError.named(
      'err_file_too_large',
      `变声文件不能超过 ${Math.round(limits.max_bytes / 1048576)} MB`,
    );
  }
  const durationMs = Number(asset.duration_ms ?? 0);
  if (durationMs > limits.max_seconds * 1000) {
    throw AppError.named(
      'err_media_too_long',
      `变声音频不能超过 ${Math.round(limits.max_seconds / 60)} 分钟，请先剪短`,
    );
  }
  let target: VoiceChangerInput['target'] = { kind: 'manual' };
  if (body.voice_id) {
    const t = await resolveTarget(ctx, userId, body.voice_id);
    target =
      t.kind === 'clone'
        ? { kind: 'clone', voice_id: t.voice_id, name: t.name, median_hz: t.pitch.median_hz }
        : { kind: 'voice', voice_id: t.voice_id, name: t.name };
  } else if (body.pitch_shift === 0 && body.formant_shift === 0 && !body.denoise) {
    throw AppError.named('err_invalid_param', '请选择目标声音，或设置音高/共振峰偏移');
  }
  const seconds = Math.max(1, Math.ceil(durationMs / 1000));
  const credits = await priceTask(ctx, 'voice_changer', { seconds });
  const title = body.name ?? (asset.name.replace(/\.[^.]{1,8}$/, '') || asset.name);
  try {
    const task = await createTask(ctx, voiceChangerPipeline, {
      ownerId: userId,
      title,
      input: {
        asset_id: asset.id,
        target,
        voice_id: body.voice_id,
        pitch_shift: body.pitch_shift,
        formant_shift: body.formant_shift,
        denoise: body.denoise,
        keep_timing: body.keep_timing,
        format: body.format,
        engine: engine.id,
      },
      inputAssetIds: [asset.id],
      credits: { tool: 'voice_changer', amount: credits },
    });
    return { task_id: task.id, credits };
  } catch (err) {
    if (err instanceof AppError && err.code === ErrorCode.InsufficientBalance) {
      throw AppError.named(
        'err_sts_balance_insufficient',
        `${namedErrorMessages.err_sts_balance_insufficient}：本次变声需要 ${credits} 积分，请充值积分或升级套餐`,
      );
    }
    throw err;
  }
}

/** Original and converted audio of a finished task, with peaks and the engine that made it. */
export async function getVoiceChangerResult(ctx: AppContext, userId: string, taskId: string) {
  const task = await getOwnedTask(ctx, userId, taskId);
  if (task.tool !== 'voice_changer') throw AppError.named('err_not_found');
  if (task.status !== 'succeeded') {
    throw AppError.named(
      task.status === 'failed' || task.status === 'cancelled' ? 'err_not_found' : 'err_task_running',
      task.status === 'failed' || task.status === 'cancelled' ? '该任务没有结果' : undefined,
    );
  }
  const stages = await findStages(ctx.db, task.id);
  const result = (name: string) => JSON.parse(stages.find((s) => s.name === name)?.result ?? 'null');
  const prepare = result('prepare') as { target_name: string };
  // Results stored before the measurement existed lack `method` and `measured`.
  const convert = result('convert') as Partial<Pick<ConvertResult, 'method' | 'measured'>> &
    Omit<ConvertResult, 'method' | 'measured'>;
  const encode = result('encode') as EncodeResult;
  const audio = async (which: 'original' | 'converted') => {
    const a = encode[which];
    const name = encode.names[which];
    return {
      url: await ctx.storage.signedUrl(a.key, { expiresInSeconds: RESULT_LINK_SECONDS, downloadName: name }),
      name,
      format: a.format,
      size: a.size,
      peaks: await readPeaks(ctx, a.peaks_key),
    };
  };
  return {
    task_id: task.id,
    engine: convert.engine,
    engine_label: convert.label,
    target_name: prepare.target_name,
    semitones: convert.semitones,
    formant_semitones: convert.formant_semitones,
    source_f0_hz: convert.source_f0_hz,
    target_f0_hz: convert.target_f0_hz,
    output_f0_hz: convert.output_f0_hz,
    denoised: convert.denoised,
    duration_ms: encode.converted.duration_ms,
    engine_kind: convert.method,
    measured: convert.measured,
    original: await audio('original'),
    converted: await audio('converted'),
  };
}

export async function getVoiceChangerTargets(ctx: AppContext, userId: string) {
  return { targets: await listTargets(ctx, userId) };
}

// /v1/tools/capabilities: the page shows the reason instead of a start button.
export const voiceChangerAvailability: ToolChecks = {
  voice_changer: async (ctx) => {
    const reg = await ctx.engines.vc();
    const engines = reg.list().map((e) => ({ id: e.id, label: e.label }));
    return {
      tool: 'voice_changer',
      available: engines.length > 0,
      reason: engines.length ? '' : reg.problem,
      error_type: engines.length ? '' : 'err_interface_unavailable',
      engines,
    };
  },
};
