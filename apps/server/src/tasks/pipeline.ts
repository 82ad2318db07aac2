import type { TaskTool } from '@vw/contract';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { TaskRow } from '../db/schema.ts';
import { defineJob, type JobDefinition } from '../jobs/index.ts';
import { abandonTask, runStage } from './runner.ts';

/** What a stage's `run` gets: the task, its input, earlier results, checkpoints, files. */
export interface StageContext<I> {
  task: TaskRow;
  input: I;
  app: AppContext;
  /** Aborted on cancel (in whichever process asked) and on worker shutdown: pass it to every process spawned. */
  signal: AbortSignal;
  /** Per-task scratch folder (exists; removed when the task finishes or is deleted). */
  scratchDir: string;
  /** JSON results of the earlier, finished stages, by stage name. */
  results: Record<string, unknown>;
  /** 0..1 within this stage (throttled writes, one event per write). */
  progress(fraction: number): Promise<void>;
  /** Item-level checkpoint: returns the stored JSON result when the item was done before (a resumed stage). */
  item<T>(key: string, run: () => Promise<T>): Promise<T>;
  /** Stores a file under the task's prefix → storage key, recorded on the stage and removed with the task. */
  saveArtifact(
    from: { path: string } | { bytes: Buffer },
    opts: { name: string; contentType: string },
  ): Promise<string>;
  /** A downloadable result shown on the task (its key should be an artifact of this task). */
  addOutput(output: { name: string; kind: string; format: string; key: string; size: number }): Promise<void>;
}

export interface StageDef<I> {
  name: string;
  /** Chinese, e.g. 识别语音. */
  label: string;
  /** heavy = ffmpeg/engines (own concurrency), light = quick work. */
  lane: 'heavy' | 'light';
  /** Share of the whole progress (normalised over the pipeline's stages). */
  weight: number;
  /** The task goes to status paused after this stage, with pause_point = this name, until resumed. */
  pauseAfter?: string;
  /** Pause only when this says so, given the stage's result (default: always). */
  pauseWhen?(result: unknown): boolean;
  /**
   * How many runs an error may take before the task fails (default 1: the first error fails it).
   * A task failure other than 1 (refused content, language, mismatch) is final at once.
   */
  attempts?: number;
  /**
   * Whether a task of this input has the stage (default: always). A stage it does not have is not
   * made, run, weighed or shown: a line action lists only the stages it runs.
   */
  when?(input: I): boolean;
  run(ctx: StageContext<I>): Promise<unknown>;
}

export interface PipelineDef<I> {
  tool: TaskTool;
  input: z.ZodType<I>;
  stages: StageDef<I>[];
  /** Credits to capture on success (≤ held); default: all held. */
  finalCredits?(results: Record<string, unknown>, held: number): number;
  /** Called once after success/failure/cancel (e.g. to update a project). */
  onFinished?(ctx: { app: AppContext; task: TaskRow; results: Record<string, unknown> }): Promise<void>;
  /** Its onFinished tells the owner in its own words: no generic "long task finished" push as well. */
  notifiesOwner?: boolean;
  /** Extra fields for the task's webhook events (e.g. TTS: history id and characters). */
  webhookData?(app: AppContext, task: TaskRow): Promise<Record<string, unknown>>;
}

export interface Pipeline<I> extends PipelineDef<I> {
  /** The job that runs each stage (one per stage, named task.<tool>.<stage>, in the stage's lane). */
  readonly jobs: Record<string, JobDefinition>;
}

export const stageJobPayload = z.object({ task_id: z.string() });

/**
 * Declares a tool's pipeline, a plain value: each stage becomes a job, so a worker given the pipeline
 * (the app's are listed in modules/jobs.ts) runs its stages, and a worker without it refuses to start
 * while such jobs wait (jobs/queue.ts).
 */
export function definePipeline<I>(def: PipelineDef<I>): Pipeline<I> {
  if (def.stages.length === 0) throw new Error(`Pipeline "${def.tool}" has no stages`);
  const jobs: Record<string, JobDefinition> = {};
  const pipeline: Pipeline<I> = { ...def, jobs };
  for (const stage of def.stages) {
    jobs[stage.name] = defineJob({
      name: `task.${def.tool}.${stage.name}`,
      lane: stage.lane,
      payload: stageJobPayload,
      // Attempts count starts, including runs cut short by a dead worker (resume after a crash);
      // a stage's own errors are counted on its task_stages row instead.
      maxAttempts: (stage.attempts ?? 1) + 4,
      backoffMs: 1_000,
      handler: ({ task_id }, job) => runStage(pipeline as Pipeline<unknown>, stage.name, task_id, job),
      onAbandoned: ({ task_id }, app) => abandonTask(app, task_id),
    });
  }
  return pipeline;
}

/** The pipelines an app runs, by tool; two pipelines of one tool are a mistake. */
export function pipelinesByTool(list: Iterable<Pipeline<unknown>>): ReadonlyMap<string, Pipeline<unknown>> {
  const byTool = new Map<string, Pipeline<unknown>>();
  for (const pipeline of list) {
    if (byTool.has(pipeline.tool)) throw new Error(`Pipeline "${pipeline.tool}" is defined twice`);
    byTool.set(pipeline.tool, pipeline);
  }
  return byTool;
}

/** The job of every stage of these pipelines. */
export function stageJobs(pipelines: Iterable<Pipeline<unknown>>): JobDefinition[] {
  return [...pipelines].flatMap((p) => Object.values(p.jobs));
}

/** The stages a task of this input has, in the pipeline's order. */
export function stagesOf<I>(pipeline: Pick<PipelineDef<I>, 'stages'>, input: I): StageDef<I>[] {
  const stages = pipeline.stages.filter((s) => !s.when || s.when(input));
  return stages.length ? stages : pipeline.stages;
}
