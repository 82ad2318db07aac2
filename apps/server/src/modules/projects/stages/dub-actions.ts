import type { dubbingCalls, ProjectDocument } from '@vw/contract';
import type { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { AppError } from '../../../errors.ts';
import type { Pipeline } from '../../../tasks/pipeline.ts';
import { createTask } from '../../../tasks/tasks.service.ts';
import { priceLines, priceTask } from '../../credits/pricing.service.ts';
import { getOwnedAsset } from '../../uploads/uploads.service.ts';
import { getUsableVoice, getUserLevel } from '../../voices/voices.service.ts';
import { attachTask, lineActionState } from '../projects.service.ts';
import type { DubInput } from './dub.ts';
import { dubTrack, needsAudio } from './dub-document.ts';
import { assertBackground } from './separator.ts';

/*
 * Line actions on a dub project (AI配音, SRT配音, 视频合成, 视频翻译): 生成过期音频, one line again
 * with a one-click fix, every line, or only the render, as a task of the project's pipeline.
 */

type RegenerateBody = z.output<NonNullable<(typeof dubbingCalls)['dubbingRegenerate']['body']>>;

/** Every voice the project names must be usable by this user before anything is held or written. */
export async function assertVoices(ctx: AppContext, userId: string, ids: string[]) {
  let level: number | undefined;
  const userLevel = async () => (level ??= await getUserLevel(ctx, userId));
  for (const id of new Set(ids.filter(Boolean))) await getUsableVoice(ctx, userId, id, undefined, userLevel);
}

const FIXES = {
  shorten: { condense: true },
  borrow_gap: { min_gap_ms: 0 },
  speed: { max_rate: 1.6 },
  slow_video: { slow_video: true },
  // The whole line as written: no shortening, a faster pace and a longer slot (the gap, slower video).
  keep_text: { keep_text: true, max_rate: 1.6, min_gap_ms: 0, slow_video: true },
} as const;

/**
 * Whether a regenerate may start now (refused while the project's task runs), and whether it makes
 * takes only: while that task waits at a review pause it renders nothing and stays the project's task.
 */
export async function regenerateState(
  ctx: AppContext,
  userId: string,
  row: { task_id: string | null },
  scope: RegenerateBody['scope'],
) {
  const state = await lineActionState(ctx, userId, row);
  if (state === 'paused' && scope === 'render') {
    throw AppError.named('err_invalid_param', '项目正在等待校对：点「确认并继续」后会生成成片');
  }
  return state;
}

/** The regenerate task of a project whose ownership and tool were checked (视频翻译 runs it too). */
export async function startRegenerate(
  ctx: AppContext,
  userId: string,
  {
    row,
    document,
  }: { row: { id: string; name: string; tool: string; task_id: string | null }; document: ProjectDocument },
  body: RegenerateBody,
  pipeline: Pipeline<DubInput>,
) {
  const paused = (await regenerateState(ctx, userId, row, body.scope)) === 'paused';
  assertBackground(ctx, document.dub?.background);
  const tool = row.tool;
  const cues = dubTrack(document)?.cues ?? [];
  let lines = cues.filter((c) => !c.mark && c.text.trim() !== '');
  if (body.scope === 'line') {
    const cue = cues.find((c) => c.id === body.cue_id);
    if (!cue) throw AppError.named('err_not_found', '句子不存在');
    if (cue.mark || cue.text.trim() === '')
      throw AppError.named('err_invalid_param', '这一句标记为静音或保留原声');
    if (body.fix === 'slow_video') {
      const mediaId = document.dub?.media_asset_id;
      const media = mediaId ? await getOwnedAsset(ctx, userId, mediaId) : null;
      if (!media?.has_video) {
        throw AppError.named(
          'err_invalid_param',
          '这个项目没有视频画面，无法放慢画面：请改用缩写、借用间隙或加速',
        );
      }
    }
    if (body.fix === 'shorten' && !ctx.engines.llm) {
      throw AppError.named(
        'err_interface_unavailable',
        '自动缩写暂未开放：请手动改短译文，或改用借用间隙、加速',
      );
    }
    lines = [cue];
  } else if (body.scope === 'stale') {
    lines = lines.filter((c) => !c.locked && needsAudio(document, c));
    if (lines.length === 0) throw AppError.named('err_invalid_param', '没有过期的句子');
  } else if (body.scope === 'all') {
    lines = lines.filter((c) => !c.locked);
  } else {
    lines = [];
  }
  if (tool === 'synthesis' && body.scope !== 'render') {
    throw AppError.named('err_invalid_param', '视频合成项目没有配音句子，请直接渲染');
  }
  if (body.scope !== 'render') {
    await assertVoices(ctx, userId, [
      ...new Set(
        lines.map(
          (c) =>
            c.voice_id ||
            document.speakers.find((s) => s.id === c.speaker_id)?.voice_id ||
            document.dub!.default_voice_id,
        ),
      ),
    ]);
  }
  const pricedMs = lines.reduce((s, c) => s + (c.end_ms - c.start_ms), 0);
  // Lines cost their own seconds; a render alone costs the clip's floor.
  const credits =
    body.scope === 'render'
      ? await priceTask(ctx, 'dubbing', { seconds: 0 })
      : await priceLines(ctx, 'dubbing', pricedMs);
  const task = await createTask(ctx, pipeline, {
    ownerId: userId,
    title: row.name,
    input: {
      project_id: row.id,
      scope: body.scope,
      ...(body.cue_id ? { cue_id: body.cue_id } : {}),
      ...(body.outputs ? { outputs: body.outputs } : {}),
      // A one-click fix travels with the task and applies to this line's generation only.
      ...(body.scope === 'line' && body.fix ? { fix: FIXES[body.fix] } : {}),
      ...(paused ? { takes_only: true } : {}),
      priced_ms: pricedMs,
    },
    inputAssetIds: document.dub?.media_asset_id ? [document.dub.media_asset_id] : [],
    projectId: row.id,
    credits: { tool: 'dubbing', amount: credits },
  });
  // A re-dub that renders is the project's task (its outputs are the project's result).
  if (!paused) await attachTask(ctx, userId, row.id, task.id);
  return { task_id: task.id, credits, lines: lines.length };
}
