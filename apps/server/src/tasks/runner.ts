import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { refundedTaskFailureCodes, type TaskEventType, taskFailureMessages } from '@vw/contract';
import type { AppContext } from '../context.ts';
import type { TaskRow, TaskStageRow } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { JobContext } from '../jobs/index.ts';
// pipeline.ts imports this module too; stagesOf is only called at run time, after both loaded.
import { type Pipeline, type StageContext, type StageDef, stagesOf } from './pipeline.ts';
import {
  findItem,
  findStages,
  findTask,
  insertEvent,
  insertItem,
  updateStage,
  updateTask,
} from './tasks.repo.ts';

/** How often a running stage looks at its task row for a cancel (made by any process). */
const CANCEL_POLL_MS = 400;
/** Progress is written at most this often (and once at the end of a stage). */
const PROGRESS_EVERY_MS = 500;
const INTERRUPTED = '任务因进程中断而失败';
const CANCELLED = '任务已取消';

export const ACTIVE_STATUSES = ['queued', 'running', 'paused'] as const;

export const scratchDirOf = (ctx: AppContext, taskId: string) =>
  path.join(ctx.config.dataDir, 'scratch', 'tasks', taskId);

/** Weights of a task's stages, normalised to add up to 1. */
export function stageWeights(stages: Pick<StageDef<unknown>, 'name' | 'weight'>[]): Map<string, number> {
  const total = stages.reduce((a, s) => a + Math.max(0, s.weight), 0) || 1;
  return new Map(stages.map((s) => [s.name, Math.max(0, s.weight) / total]));
}

/** Stores the event (with the task as it is now) and hands it to the streams. */
export async function recordTaskEvent(ctx: AppContext, type: TaskEventType, task: TaskRow): Promise<void> {
  const seq = await insertEvent(ctx.db, {
    owner_id: task.owner_id,
    task_id: task.id,
    type,
    task: JSON.stringify(task),
    created_at: ctx.clock.now(),
  });
  ctx.taskEvents.publish({ seq, type, task });
}

/** The first stage not done yet: where a started, resumed or retried task goes on. */
export function firstUnfinishedStage(
  pipeline: Pipeline<unknown>,
  rows: TaskStageRow[],
): { name: string; row: TaskStageRow } | undefined {
  for (const stage of pipeline.stages) {
    const row = rows.find((r) => r.name === stage.name);
    if (row && row.status !== 'done') return { name: stage.name, row };
  }
  return undefined;
}

/**
 * Enqueues a stage's job. The key names the stage's run (its attempts so far), so a stage already
 * enqueued is not enqueued twice by a job that re-ran after a crash, while a retry gets a new job.
 */
export async function enqueueStage(
  ctx: AppContext,
  pipeline: Pipeline<unknown>,
  task: TaskRow,
  stage: { name: string; row: TaskStageRow },
): Promise<void> {
  await ctx.jobs.enqueue(
    pipeline.jobs[stage.name],
    { task_id: task.id },
    { ownerId: task.owner_id, idempotencyKey: `task:${task.id}:${stage.name}:${stage.row.attempts}` },
  );
}

function failureOf(err: unknown): { code: number; message: string } {
  if (err instanceof AppError && (refundedTaskFailureCodes as readonly number[]).includes(err.code)) {
    return { code: err.code, message: err.message };
  }
  const message = err instanceof AppError ? err.message : taskFailureMessages[1];
  return { code: 1, message };
}

/** A task failure (spec §8 codes 1, 3, 4, 5; all refunded) thrown by a stage. */
export function taskFailure(code: 1 | 3 | 4 | 5, message?: string): AppError {
  return new AppError(code, message ?? taskFailureMessages[code]);
}

/**
 * Ends a task once: the status change is a compare-and-set, so of a cancel and a success that race
 * only one happens, and only its winner tells the task-finished listeners (the ledger among them:
 * capture on success, release otherwise).
 */
export async function finishTask(
  ctx: AppContext,
  pipeline: Pipeline<unknown> | undefined,
  taskId: string,
  outcome: 'succeeded' | 'failed' | 'cancelled',
  failure?: { code: number; message: string },
): Promise<TaskRow | undefined> {
  const now = ctx.clock.now();
  const from = outcome === 'succeeded' ? (['running'] as const) : ACTIVE_STATUSES;
  const before = await findTask(ctx.db, taskId);
  if (!before || !(from as readonly string[]).includes(before.status)) return undefined;
  const results = pipeline && outcome === 'succeeded' ? await resultsOf(ctx, taskId) : {};
  // What a success captures is known before the change, so the row never shows it succeeded
  // with nothing captured; the capture (settleTaskCredits) is idempotent by the task's hold key.
  const captured =
    outcome === 'succeeded' && before.hold_key
      ? Math.max(
          0,
          Math.min(
            before.credits_held,
            Math.round(pipeline?.finalCredits?.(results, before.credits_held) ?? before.credits_held),
          ),
        )
      : 0;
  const task = await updateTask(
    ctx.db,
    taskId,
    {
      status: outcome,
      finished_at: now,
      updated_at: now,
      pause_point: null,
      credits_captured: captured,
      ...(outcome === 'succeeded' ? { progress: 100, error_code: 0, error: null } : {}),
      ...(outcome === 'failed' ? { error_code: failure?.code ?? 1, error: failure?.message ?? null } : {}),
      ...(outcome === 'cancelled' ? { error: CANCELLED } : {}),
    },
    from,
  );
  if (!task) return undefined;
  // The ledger settles the hold, webhooks and Web Push tell the owner (AppContext.onTaskFinished).
  for (const listener of ctx.onTaskFinished) await listener({ app: ctx, task, pipeline, at: now });
  await recordTaskEvent(ctx, `task.${outcome}`, task);
  await rm(scratchDirOf(ctx, taskId), { recursive: true, force: true }).catch(() => {});
  await pipeline
    ?.onFinished?.({ app: ctx, task, results })
    .catch((err) => ctx.log.error({ err, taskId }, 'task onFinished failed'));
  return task;
}

async function resultsOf(ctx: AppContext, taskId: string): Promise<Record<string, unknown>> {
  const results: Record<string, unknown> = {};
  for (const row of await findStages(ctx.db, taskId)) {
    if (row.status === 'done') results[row.name] = row.result === null ? null : JSON.parse(row.result);
  }
  return results;
}

/** The queue gave a stage job up (its workers kept dying): the task fails and its credits go back. */
export async function abandonTask(ctx: AppContext, taskId: string): Promise<void> {
  const task = await findTask(ctx.db, taskId);
  if (!task) return;
  await finishTask(ctx, ctx.pipelines.get(task.tool), taskId, 'failed', { code: 1, message: INTERRUPTED });
}

/** After a stage is done: pause, enqueue the next stage, or finish the task. Safe to repeat. */
async function advance(ctx: AppContext, pipeline: Pipeline<unknown>, taskId: string, stageName: string) {
  const index = pipeline.stages.findIndex((s) => s.name === stageName);
  const def = pipeline.stages[index];
  const rows = await findStages(ctx.db, taskId);
  const next = firstUnfinishedStage(pipeline, rows);
  if (!next) {
    await finishTask(ctx, pipeline, taskId, 'succeeded');
    return;
  }
  // Only a next stage nobody started yet; a running or failed one is someone else's business.
  if (next.row.status !== 'pending') return;
  const doneRow = rows.find((r) => r.name === stageName);
  const pause = def.pauseAfter && (!def.pauseWhen || def.pauseWhen(JSON.parse(doneRow?.result ?? 'null')));
  if (pause) {
    const now = ctx.clock.now();
    const paused = await updateTask(
      ctx.db,
      taskId,
      { status: 'paused', pause_point: def.pauseAfter, updated_at: now },
      ['running'],
    );
    if (paused) await recordTaskEvent(ctx, 'task.paused', paused);
    return;
  }
  const task = await findTask(ctx.db, taskId);
  if (task && (task.status === 'running' || task.status === 'queued')) {
    await enqueueStage(ctx, pipeline, task, next);
  }
}

/** What a stage's run may do: report progress, checkpoint items, store artifacts and outputs. */
function stageContext(stage: {
  app: AppContext;
  task: TaskRow;
  stageName: string;
  input: unknown;
  signal: AbortSignal;
  scratchDir: string;
  results: Record<string, unknown>;
  /** The stage's artifact keys so far (from its row); saveArtifact adds to it. */
  artifacts: string[];
  /** The task's progress (percent) when this stage is `fraction` done. */
  overallProgress: (fraction: number) => number;
}): StageContext<unknown> {
  const { app: ctx, task, stageName, artifacts, overallProgress } = stage;
  const db = ctx.db;
  const taskId = task.id;
  let lastProgress = 0;
  return {
    task,
    input: stage.input,
    app: ctx,
    signal: stage.signal,
    scratchDir: stage.scratchDir,
    results: stage.results,
    async progress(fraction) {
      const f = Math.min(1, Math.max(0, fraction));
      const at = Date.now();
      if (f < 1 && at - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = at;
      await updateStage(db, taskId, stageName, { progress: f });
      const row = await updateTask(
        db,
        taskId,
        { progress: overallProgress(f), updated_at: ctx.clock.now() },
        ['running'],
      );
      if (row) await recordTaskEvent(ctx, 'task.progress', row);
    },
    async item(key, run) {
      const done = await findItem(db, taskId, stageName, key);
      if (done) return JSON.parse(done.result);
      const result = await run();
      await insertItem(db, {
        task_id: taskId,
        stage: stageName,
        item: key,
        result: JSON.stringify(result ?? null),
        created_at: ctx.clock.now(),
      });
      return result;
    },
    async saveArtifact(from, opts) {
      // Storage keys keep to a narrow alphabet: the name is for telling files apart, not for display.
      const safe = opts.name.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^\.+/, '_');
      const key = `tasks/${task.owner_id}/${taskId}/${stageName}/${safe}`;
      // Recorded before the write, so a crash mid-write still leaves the key to be removed with the task.
      if (!artifacts.includes(key)) {
        artifacts.push(key);
        await updateStage(db, taskId, stageName, { artifacts: JSON.stringify(artifacts) });
      }
      if ('bytes' in from) await ctx.storage.put(key, from.bytes, opts.contentType);
      else {
        await stat(from.path);
        await ctx.storage.put(key, createReadStream(from.path), opts.contentType);
      }
      return key;
    },
    async addOutput(output) {
      const current = await findTask(db, taskId);
      if (!current) return;
      const outputs = (JSON.parse(current.outputs) as Array<{ key: string }>).filter(
        (o) => o.key !== output.key,
      );
      outputs.push(output);
      await updateTask(db, taskId, { outputs: JSON.stringify(outputs), updated_at: ctx.clock.now() });
    },
  };
}

/**
 * A stage's run threw (not on shutdown). The stage of a task no longer running (cancelled) is marked
 * so; one with runs left goes back to pending and the error is rethrown, for the queue to retry;
 * otherwise the stage and the task fail.
 */
async function stageFailed(
  ctx: AppContext,
  pipeline: Pipeline<unknown>,
  def: StageDef<unknown>,
  taskId: string,
  attempts: number,
  err: unknown,
): Promise<{ cancelled: true } | { failed: true }> {
  const current = await findTask(ctx.db, taskId);
  if (current?.status !== 'running') {
    await updateStage(ctx.db, taskId, def.name, { status: 'failed', error: CANCELLED });
    return { cancelled: true };
  }
  const final = err instanceof AppError && [3, 4, 5].includes(err.code);
  if (!final && attempts < (def.attempts ?? 1)) {
    ctx.log.warn({ err, taskId, stage: def.name, attempts }, 'task stage failed; trying again');
    await updateStage(ctx.db, taskId, def.name, { status: 'pending', error: String(err) });
    throw err;
  }
  ctx.log.warn({ err, taskId, stage: def.name }, 'task stage failed');
  const failure = failureOf(err);
  await updateStage(ctx.db, taskId, def.name, {
    status: 'failed',
    error: failure.message,
    finished_at: ctx.clock.now(),
  });
  await finishTask(ctx, pipeline, taskId, 'failed', failure);
  return { failed: true };
}

/**
 * Runs one stage of a task (the handler of its job). Starts only when every earlier stage is done
 * and the task is still wanted; the stage's result is stored before the next stage is enqueued, so a
 * crash anywhere resumes at the first unfinished stage (and inside it, at the first unfinished item).
 */
export async function runStage(
  pipeline: Pipeline<unknown>,
  stageName: string,
  taskId: string,
  job: JobContext,
): Promise<unknown> {
  const ctx = job.app;
  const db = ctx.db;
  const task0 = await findTask(db, taskId);
  if (!task0 || (task0.status !== 'queued' && task0.status !== 'running')) return { skipped: true };
  const rows = await findStages(db, taskId);
  const stageRow = rows.find((r) => r.name === stageName);
  if (!stageRow) return { skipped: true };
  if (stageRow.status === 'done') {
    // Its worker died between storing the result and enqueueing the next stage.
    await advance(ctx, pipeline, taskId, stageName);
    return { resumed: true };
  }
  if (firstUnfinishedStage(pipeline, rows)?.name !== stageName) return { skipped: true };

  const def = pipeline.stages.find((s) => s.name === stageName)!;
  const input = pipeline.input.parse(JSON.parse(task0.input));
  const weights = stageWeights(stagesOf(pipeline, input));
  const doneWeight = stagesOf(pipeline, input)
    .filter((s) => rows.find((r) => r.name === s.name)?.status === 'done')
    .reduce((a, s) => a + weights.get(s.name)!, 0);
  const now = ctx.clock.now();
  const wasQueued = task0.status === 'queued';
  const task = await updateTask(
    db,
    taskId,
    {
      status: 'running',
      stage: stageName,
      started_at: task0.started_at ?? now,
      stage_started_at: now,
      progress: Math.round(doneWeight * 1000) / 10,
      updated_at: now,
    },
    ['queued', 'running'],
  );
  if (!task) return { skipped: true };
  const attempts = stageRow.attempts + 1;
  await updateStage(db, taskId, stageName, {
    status: 'running',
    attempts,
    started_at: stageRow.started_at ?? now,
    error: null,
  });
  if (wasQueued || task0.stage !== stageName) await recordTaskEvent(ctx, 'task.progress', task);

  // The stage stops on cancel (polled from the row, so a cancel in any process counts) or shutdown.
  const cancel = new AbortController();
  const watch = setInterval(() => {
    findTask(db, taskId).then(
      (row) => {
        if (!row || row.status === 'cancelled' || row.status === 'failed') cancel.abort();
      },
      (err) => ctx.log.warn({ err, taskId }, 'cancel check failed'),
    );
  }, CANCEL_POLL_MS);
  const signal = AbortSignal.any([job.signal, cancel.signal]);
  const scratchDir = scratchDirOf(ctx, taskId);
  await mkdir(scratchDir, { recursive: true });
  const stageCtx = stageContext({
    app: ctx,
    task,
    stageName,
    input,
    signal,
    scratchDir,
    results: await resultsOf(ctx, taskId),
    artifacts: JSON.parse(stageRow.artifacts),
    overallProgress: (f) => Math.round((doneWeight + (weights.get(stageName) ?? 0) * f) * 1000) / 10,
  });

  let result: unknown;
  try {
    // A task made before its stage had a `when` still has the row: the stage is passed over.
    result = def.when && !def.when(input) ? { skipped: true } : await def.run(stageCtx);
  } catch (err) {
    if (job.signal.aborted && !cancel.signal.aborted) throw err; // shutdown: the job runs again elsewhere
    return await stageFailed(ctx, pipeline, def, taskId, attempts, err);
  } finally {
    clearInterval(watch);
  }
  await updateStage(db, taskId, stageName, {
    status: 'done',
    progress: 1,
    result: JSON.stringify(result ?? null),
    finished_at: ctx.clock.now(),
  });
  await advance(ctx, pipeline, taskId, stageName);
  return { stage: stageName };
}

/**
 * Runs a task's remaining stages here and now, without the queue (tools' own entry points and
 * tests drive a task this way). Throws what a stage throws while it still has runs left.
 */
export async function runTaskInline(
  ctx: AppContext,
  pipeline: Pipeline<unknown>,
  taskId: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<TaskRow | undefined> {
  for (;;) {
    const task = await findTask(ctx.db, taskId);
    if (!task || (task.status !== 'queued' && task.status !== 'running')) return task;
    const next = firstUnfinishedStage(pipeline, await findStages(ctx.db, taskId));
    if (!next) return task;
    await runStage(pipeline, next.name, taskId, {
      id: `inline:${taskId}`,
      ownerId: task.owner_id,
      attempt: 1,
      maxAttempts: 1,
      signal,
      app: ctx,
      progress: async () => {},
    });
    const after = await findStages(ctx.db, taskId);
    // A stage that did not finish (cancelled, or waiting for a pause point) ends the run.
    if (after.find((r) => r.name === next.name)?.status !== 'done') return findTask(ctx.db, taskId);
    const now = await findTask(ctx.db, taskId);
    if (now?.status === 'paused') return now;
  }
}
