import { rm } from 'node:fs/promises';
import type { CreditTool, TaskEvent, TaskEventType, TaskStageView, TaskTool, TaskView } from '@vw/contract';
import type { AppContext } from '../context.ts';
import type { CreditHold, TaskRow } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import { limitAccount } from '../modules/accounts/account-limits.ts';
import { handOverHold, newHoldLease } from '../modules/credits/hold-leases.ts';
import { holdCredits, releaseCredits } from '../modules/credits/ledger.service.ts';
import type { TaskEventMessage } from './events.ts';
import { type Pipeline, stagesOf } from './pipeline.ts';
import {
  ACTIVE_STATUSES,
  enqueueStage,
  finishTask,
  firstUnfinishedStage,
  recordTaskEvent,
  scratchDirOf,
  stageWeights,
} from './runner.ts';
import {
  deleteTaskRows,
  findEventsAfter,
  findStages,
  findTaskOfOwner,
  findTaskPage,
  findTasksOfProject,
  insertTask,
  updateStage,
  updateTask,
} from './tasks.repo.ts';

const OUTPUT_LINK_SECONDS = 3600;
const sec = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/**
 * Starts a task: counts it against the account's tasks per minute (429 past the limit), holds its
 * credits (1010 when short, before anything is written), records the task and its stages, and
 * enqueues the first stage.
 */
export async function createTask<I>(
  ctx: AppContext,
  pipeline: Pipeline<I>,
  opts: {
    ownerId: string;
    title: string;
    input: I;
    inputAssetIds?: string[];
    projectId?: string | null;
    credits?: { tool: CreditTool; amount: number } | null;
    apiKeyId?: string | null;
    /**
     * Writes the tool's own rows knowing the task (after the hold and the task row, before the first
     * stage is enqueued); when it throws, the task fails, its credits go back and the error is rethrown.
     */
    prepare?: (task: TaskRow) => Promise<void>;
  },
): Promise<TaskRow> {
  const input = pipeline.input.parse(opts.input);
  await limitAccount(ctx, opts.ownerId, 'tasks');
  const ownStages = stagesOf(pipeline, input);
  const id = newId('task');
  const amount = opts.credits?.amount ?? 0;
  const holdKey = opts.credits && amount > 0 ? `task:${id}` : null;
  if (holdKey) {
    const apiKey = opts.apiKeyId
      ? await ctx.db
          .selectFrom('api_keys')
          .select(['id', 'credit_limit'])
          .where('id', '=', opts.apiKeyId)
          .executeTakeFirst()
      : undefined;
    await holdCredits(ctx, {
      userId: opts.ownerId,
      holdKey,
      amount,
      tool: opts.credits!.tool,
      taskId: id,
      taskName: opts.title,
      apiKey: apiKey && { id: apiKey.id, creditLimit: apiKey.credit_limit },
      // Until its first stage is queued only this process can settle the hold: a crash before then
      // leaves a lease that runs out, and the lease sweep refunds it and fails the task.
      lease: newHoldLease(ctx),
    });
  }
  const now = ctx.clock.now();
  const task: TaskRow = {
    id,
    owner_id: opts.ownerId,
    tool: pipeline.tool,
    title: opts.title,
    status: 'queued',
    stage: ownStages[0]!.name,
    progress: 0,
    error_code: 0,
    error: null,
    pause_point: null,
    credits_estimated: amount,
    credits_held: holdKey ? amount : 0,
    credits_captured: 0,
    hold_key: holdKey,
    api_key_id: opts.apiKeyId ?? null,
    input: JSON.stringify(input),
    input_asset_ids: JSON.stringify(opts.inputAssetIds ?? []),
    outputs: '[]',
    project_id: opts.projectId ?? null,
    created_at: now,
    started_at: null,
    stage_started_at: null,
    self_check: null,
    finished_at: null,
    updated_at: now,
  };
  const stages = ownStages.map((s) => ({
    task_id: id,
    name: s.name,
    seq: pipeline.stages.indexOf(s),
    status: 'pending' as const,
    progress: 0,
    attempts: 0,
    result: null,
    artifacts: '[]',
    error: null,
    started_at: null,
    finished_at: null,
  }));
  try {
    await insertTask(ctx.db, task, stages);
  } catch (err) {
    if (holdKey) await releaseCredits(ctx, holdKey).catch(() => {});
    throw err;
  }
  await recordTaskEvent(ctx, 'task.created', task);
  const p = pipeline as Pipeline<unknown>;
  if (opts.prepare) {
    try {
      await opts.prepare(task);
    } catch (err) {
      await finishTask(ctx, p, id, 'failed', {
        code: 1,
        message: err instanceof AppError ? err.message : '任务无法开始',
      });
      throw err;
    }
  }
  try {
    await enqueueStage(ctx, p, task, { name: stages[0].name, row: { ...stages[0] } });
  } catch (err) {
    await finishTask(ctx, p, id, 'failed', { code: 1, message: '任务无法开始' });
    throw err;
  }
  // From here the task's stages settle the hold (their failures fail the task and refund).
  if (holdKey) await handOverHold(ctx, holdKey);
  return task;
}

// A process that died between holding a task's credits and queueing its first stage: the sweep
// released the hold; the task, still queued with no job, fails (code 1, refunded).
/** The hold of a task whose creating process died before enqueueing it was released: the task fails. */
export async function failTaskOfAbandonedHold(ctx: AppContext, hold: CreditHold): Promise<void> {
  const task = await ctx.db.selectFrom('tasks').selectAll().where('id', '=', hold.task_id).executeTakeFirst();
  if (task && task.hold_key === hold.hold_key && task.status === 'queued') {
    await finishTask(ctx, ctx.pipelines.get(task.tool), task.id, 'failed', {
      code: 1,
      message: '任务无法开始',
    });
  }
}

/** The contract view. Stage states follow from the task row, so an event's snapshot shows the same. */
export async function toTaskView(ctx: AppContext, row: TaskRow): Promise<TaskView> {
  const pipeline = ctx.pipelines.get(row.tool);
  const input = pipeline?.input.safeParse(JSON.parse(row.input));
  const stageDefs =
    pipeline && input?.success
      ? stagesOf(pipeline, input.data)
      : (pipeline?.stages ?? [{ name: row.stage, label: row.stage, weight: 1 }]);
  const weights = stageWeights(stageDefs);
  const current = Math.max(
    0,
    stageDefs.findIndex((s) => s.name === row.stage),
  );
  let before = 0;
  const stages: TaskStageView[] = stageDefs.map((s, i) => {
    const weight = weights.get(s.name) ?? 0;
    let status: TaskStageView['status'] = 'pending';
    let progress = 0;
    if (row.status === 'succeeded' || i < current) {
      status = 'done';
      progress = 100;
    } else if (i === current) {
      status =
        row.status === 'running'
          ? 'running'
          : row.status === 'failed'
            ? 'failed'
            : row.status === 'paused'
              ? 'done'
              : 'pending';
      progress =
        status === 'done'
          ? 100
          : weight > 0
            ? Math.min(100, Math.max(0, Math.round(((row.progress / 100 - before) / weight) * 1000) / 10))
            : 0;
    }
    before += weight;
    return { name: s.name, label: s.label, status, progress, weight };
  });
  const outputs = JSON.parse(row.outputs) as Array<{
    name: string;
    kind: string;
    format: string;
    key: string;
    size: number;
  }>;
  const eta = row.status === 'running' ? timeLeft(row, stages, ctx.clock.now()) : null;
  return {
    task_id: row.id,
    tool: row.tool as TaskTool,
    title: row.title,
    status: row.status,
    stage: row.stage,
    stages,
    progress: row.progress,
    error_code: row.error_code,
    error: row.error,
    self_check: row.self_check ? (JSON.parse(row.self_check) as TaskView['self_check']) : null,
    credits_estimated: row.credits_estimated,
    credits_held: row.credits_held,
    credits_captured: row.credits_captured,
    input_asset_ids: JSON.parse(row.input_asset_ids) as string[],
    outputs: await Promise.all(
      outputs.map(async (o) => ({
        name: o.name,
        kind: o.kind,
        format: o.format,
        size: o.size,
        url: await ctx.storage.signedUrl(o.key, {
          expiresInSeconds: OUTPUT_LINK_SECONDS,
          downloadName: o.name,
        }),
      })),
    ),
    project_id: row.project_id,
    pause_point: row.pause_point,
    eta_seconds: eta,
    created_time: sec(row.created_at)!,
    started_time: sec(row.started_at),
    finished_time: sec(row.finished_at),
  };
}

/**
 * Seconds left, from the running stage's own pace (its run so far over its progress) applied to what
 * is left of it and of the later stages by weight; null until the stage has moved.
 */
function timeLeft(row: TaskRow, stages: TaskStageView[], now: number): number | null {
  const at = stages.findIndex((s) => s.name === row.stage);
  const stage = stages[at];
  const since = row.stage_started_at ?? null;
  if (!stage || since === null || stage.progress <= 0 || stage.weight <= 0) return null;
  const done = (stage.progress / 100) * stage.weight;
  const perWeight = Math.max(0, now - since) / 1000 / done;
  const left = stage.weight - done + stages.slice(at + 1).reduce((a, s) => a + s.weight, 0);
  return Math.round(perWeight * left);
}

/** The owner's task row; err_not_found for anyone else's, so ids of others reveal nothing. */
export async function getOwnedTask(ctx: AppContext, ownerId: string, taskId: string): Promise<TaskRow> {
  const row = await findTaskOfOwner(ctx.db, ownerId, taskId);
  if (!row) throw AppError.named('err_not_found');
  return row;
}

export async function getTaskView(ctx: AppContext, ownerId: string, taskId: string): Promise<TaskView> {
  return toTaskView(ctx, await getOwnedTask(ctx, ownerId, taskId));
}

export async function listTaskViews(
  ctx: AppContext,
  ownerId: string,
  query: { tool?: TaskTool; page: number; page_size: number },
): Promise<{ total: number; list: TaskView[] }> {
  const { total, rows } = await findTaskPage(ctx.db, ownerId, query.tool, query.page, query.page_size);
  return { total, list: await Promise.all(rows.map((r) => toTaskView(ctx, r))) };
}

/**
 * Cancels a queued, running or paused task: the status changes at once (and the credits go back);
 * the running stage sees it within half a second wherever it runs and stops its processes.
 */
export async function cancelTask(ctx: AppContext, ownerId: string, taskId: string): Promise<TaskView> {
  const row = await getOwnedTask(ctx, ownerId, taskId);
  if (!(ACTIVE_STATUSES as readonly string[]).includes(row.status)) return toTaskView(ctx, row);
  const cancelled = await finishTask(ctx, ctx.pipelines.get(row.tool), taskId, 'cancelled');
  return toTaskView(ctx, cancelled ?? (await getOwnedTask(ctx, ownerId, taskId)));
}

const RETRYABLE = ['failed', 'cancelled'] as const;

/**
 * Runs a failed or cancelled task again from its first unfinished stage; finished stages keep their
 * results. A cancelled stage still stopping (its row still running) is waited for: refused until then.
 */
export async function retryTask(ctx: AppContext, ownerId: string, taskId: string): Promise<TaskView> {
  const row = await getOwnedTask(ctx, ownerId, taskId);
  const pipeline = ctx.pipelines.get(row.tool);
  if (!(RETRYABLE as readonly string[]).includes(row.status) || !pipeline) {
    throw AppError.named('err_task_not_retryable');
  }
  const next = firstUnfinishedStage(pipeline, await findStages(ctx.db, taskId));
  if (!next) throw AppError.named('err_task_not_retryable');
  if (next.row.status === 'running')
    throw AppError.named('err_task_not_retryable', '任务正在停止，请稍后重试');
  // The first hold was released when the task failed: a retry holds again, under a key of its own.
  let holdKey = row.hold_key;
  if (row.credits_estimated > 0 && row.hold_key) {
    const retries = Number(/:r(\d+)$/.exec(row.hold_key)?.[1] ?? 0);
    holdKey = `task:${taskId}:r${retries + 1}`;
    const apiKey = row.api_key_id
      ? await ctx.db
          .selectFrom('api_keys')
          .select(['id', 'credit_limit'])
          .where('id', '=', row.api_key_id)
          .executeTakeFirst()
      : undefined;
    await holdCredits(ctx, {
      userId: ownerId,
      holdKey,
      amount: row.credits_estimated,
      tool: (await ctx.db
        .selectFrom('credit_holds')
        .select('tool')
        .where('hold_key', '=', row.hold_key)
        .executeTakeFirst())!.tool as CreditTool,
      taskId,
      taskName: row.title,
      apiKey: apiKey && { id: apiKey.id, creditLimit: apiKey.credit_limit },
    });
  }
  const now = ctx.clock.now();
  const queued = await updateTask(
    ctx.db,
    taskId,
    {
      status: 'queued',
      error: null,
      error_code: 0,
      finished_at: null,
      hold_key: holdKey,
      credits_held: row.credits_estimated > 0 ? row.credits_estimated : row.credits_held,
      credits_captured: 0,
      updated_at: now,
    },
    [row.status],
  );
  if (!queued) {
    if (holdKey && holdKey !== row.hold_key) await releaseCredits(ctx, holdKey).catch(() => {});
    throw AppError.named('err_task_not_retryable');
  }
  await updateStage(ctx.db, taskId, next.name, { status: 'pending', error: null });
  await recordTaskEvent(ctx, 'task.progress', queued);
  await enqueueStage(ctx, pipeline, queued, { name: next.name, row: { ...next.row, status: 'pending' } });
  return toTaskView(ctx, queued);
}

/** Continues a task waiting at a pause point with its next stage. */
export async function resumeTask(ctx: AppContext, ownerId: string, taskId: string): Promise<TaskView> {
  const row = await getOwnedTask(ctx, ownerId, taskId);
  const pipeline = ctx.pipelines.get(row.tool);
  if (row.status !== 'paused' || !pipeline) throw AppError.named('err_task_not_paused');
  const next = firstUnfinishedStage(pipeline, await findStages(ctx.db, taskId));
  const queued = await updateTask(
    ctx.db,
    taskId,
    { status: 'queued', pause_point: null, updated_at: ctx.clock.now() },
    ['paused'],
  );
  if (!queued || !next) throw AppError.named('err_task_not_paused');
  await recordTaskEvent(ctx, 'task.progress', queued);
  await enqueueStage(ctx, pipeline, queued, next);
  return toTaskView(ctx, queued);
}

/** Deletes a task with its files (stage artifacts and outputs); a running task is cancelled first. */
export async function deleteTask(ctx: AppContext, ownerId: string, taskId: string): Promise<number> {
  let row = await getOwnedTask(ctx, ownerId, taskId);
  if ((ACTIVE_STATUSES as readonly string[]).includes(row.status)) {
    row = (await finishTask(ctx, ctx.pipelines.get(row.tool), taskId, 'cancelled')) ?? row;
    await stageStopped(ctx, taskId);
  }
  const keys = new Set<string>();
  for (const stage of await findStages(ctx.db, taskId)) {
    for (const key of JSON.parse(stage.artifacts) as string[]) keys.add(key);
  }
  for (const output of JSON.parse(row.outputs) as Array<{ key: string }>) keys.add(output.key);
  // Files first: a failure leaves the rows, so deleting again finds the rest.
  for (const key of keys) await ctx.storage.remove(key);
  await rm(scratchDirOf(ctx, taskId), { recursive: true, force: true });
  const deleted = await deleteTaskRows(ctx.db, taskId);
  // The files are gone: the event shows the task without them.
  if (deleted > 0) {
    await recordTaskEvent(ctx, 'task.deleted', { ...row, outputs: '[]', updated_at: ctx.clock.now() });
  }
  return deleted;
}

/**
 * Waits (a few seconds at most) for a cancelled task's running stage to stop, wherever it runs, so
 * it does not write items or files after the task's rows and files are gone.
 */
async function stageStopped(ctx: AppContext, taskId: string): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline) {
    const running = await ctx.db
      .selectFrom('jobs')
      .select('id')
      .where('idempotency_key', 'like', `task:${taskId}:%`)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (!running) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Removes every task of an editor project (the project is being deleted). */
export async function deleteTasksOfProject(
  ctx: AppContext,
  ownerId: string,
  projectId: string,
): Promise<number> {
  let deleted = 0;
  for (const task of await findTasksOfProject(ctx.db, ownerId, projectId)) {
    deleted += await deleteTask(ctx, ownerId, task.id);
  }
  return deleted;
}

/**
 * The owner's task events: those after `afterSeq` from the table (a reconnect), then live ones.
 * Resolves once listening (so nothing published after it is missed); iterate `events`, and
 * `close()` ends it (the route calls it when the client goes away).
 */
export async function openTaskEventStream(
  ctx: AppContext,
  ownerId: string,
  afterSeq: number | null,
): Promise<{ events: AsyncIterable<TaskEvent>; close(): void }> {
  const pending: TaskEventMessage[] = [];
  let wake: (() => void) | null = null;
  let closed = false;
  // Listening starts before the replay, so nothing written meanwhile falls between the two.
  const unsubscribe = await ctx.taskEvents.subscribe(ownerId, (m) => {
    pending.push(m);
    wake?.();
  });
  const close = () => {
    closed = true;
    unsubscribe();
    wake?.();
  };
  const toEvent = async (m: { seq: number; type: TaskEventType; task: TaskRow }): Promise<TaskEvent> => ({
    id: m.seq,
    type: m.type,
    task: await toTaskView(ctx, m.task),
  });

  async function* run(): AsyncGenerator<TaskEvent> {
    try {
      let cursor = afterSeq ?? -1;
      if (afterSeq !== null) {
        for (;;) {
          const page = await findEventsAfter(ctx.db, ownerId, cursor, 200);
          for (const e of page) {
            if (closed) return;
            cursor = Number(e.seq);
            if (e.task === null) continue;
            yield await toEvent({ seq: cursor, type: e.type as TaskEventType, task: JSON.parse(e.task) });
          }
          if (page.length < 200) break;
        }
      }
      while (!closed) {
        const next = pending.shift();
        if (!next) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = null;
          continue;
        }
        // Replayed already (it was written while the replay ran).
        if (next.seq <= cursor) continue;
        yield await toEvent(next);
      }
    } finally {
      close();
    }
  }
  return { events: run(), close };
}
