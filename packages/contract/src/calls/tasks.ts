import { z } from 'zod';
import { defineCall } from '../call.ts';
import { TASK_EVENT_TYPES, TASK_STATUSES, type TaskTool as Tool, taskToolNames } from '../constants/tasks.ts';

export * from '../constants/tasks.ts';

/*
 * Long tasks (design §9): one user-facing record for every long job of every tool.
 * Times are unix seconds unless a field says `_ms`.
 */

export const TaskTool = z.enum(Object.keys(taskToolNames) as [Tool, ...Tool[]]);
export const TaskStatus = z.enum(TASK_STATUSES);

export const taskStageView = z.object({
  name: z.string(),
  /** Chinese label shown in the progress display, e.g. 识别语音. */
  label: z.string(),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  /** 0–100 within the stage. */
  progress: z.number(),
  /** Share of the whole task (weights of all stages add up to 1). */
  weight: z.number(),
});
export type TaskStageView = z.infer<typeof taskStageView>;

export const taskOutput = z.object({
  /** File name offered for download. */
  name: z.string(),
  /** 'audio' | 'video' | 'srt' | 'file'… what the download center shows. */
  kind: z.string(),
  format: z.string(),
  size: z.number().int(),
  /** Signed link, valid for an hour. */
  url: z.string(),
});
export type TaskOutput = z.infer<typeof taskOutput>;

/** The speech self-check of one synthesised sentence (a TTS sentence, a dubbed line, a paragraph). */
export const sentenceCheck = z.object({
  /** flagged: still wrong after the regenerations; kept, marked, its credits refunded (failure code 5). */
  status: z.enum(['passed', 'flagged']),
  /** Character error rate of the take kept, after numbers and punctuation are read alike. */
  cer: z.number().min(0),
  /** What the recognizer heard in the take kept. */
  heard: z.string().max(2000),
  problem: z.enum(['dropped', 'repeated', 'extra', 'different']).nullable(),
  /** Takes made (1 + regenerations). */
  attempts: z.number().int().min(1),
  /** Recognition time over all takes (ms). */
  ms: z.number().min(0),
  /** 5 on a flagged item: its failure code (文本相似度不匹配, refunded); the job itself succeeds. */
  failure_code: z.literal(5).optional(),
});
export type SentenceCheck = z.infer<typeof sentenceCheck>;

/** A job's figures of the speech self-check; ran false: no recognizer was installed, nothing was checked. */
export const selfCheckFigures = z.object({
  ran: z.boolean(),
  checked: z.number().int().min(0),
  regenerated: z.number().int().min(0),
  flagged: z.number().int().min(0),
  mean_cer: z.number().min(0),
  /** Time spent recognising (ms). */
  ms: z.number().min(0),
});
export type SelfCheckFigures = z.infer<typeof selfCheckFigures>;

export const taskView = z.object({
  task_id: z.string(),
  tool: TaskTool,
  title: z.string(),
  status: TaskStatus,
  /** Name of the current (or last) stage. */
  stage: z.string(),
  stages: z.array(taskStageView),
  /** 0–100 over the whole task. */
  progress: z.number(),
  /** Task failure code of spec §8 (1, 3, 4, 5 are refunded); 0 when none. */
  error_code: z.number().int(),
  error: z.string().nullable(),
  credits_estimated: z.number(),
  credits_held: z.number(),
  credits_captured: z.number(),
  input_asset_ids: z.array(z.string()),
  outputs: z.array(taskOutput),
  /** The editor project the task works on, if any (opened at /video-translation/editor?id=). */
  project_id: z.string().nullable(),
  /** Set while paused at a pause point: what the user is asked to check before resuming. */
  pause_point: z.string().nullable(),
  /** Seconds left, estimated from the progress so far; null when unknown. */
  eta_seconds: z.number().nullable(),
  /** Figures of the speech self-check for tools that synthesise speech; null for the others. */
  self_check: selfCheckFigures.nullable().optional(),
  created_time: z.number().int(),
  started_time: z.number().int().nullable(),
  finished_time: z.number().int().nullable(),
});
export type TaskView = z.infer<typeof taskView>;

const taskId = z.object({ task_id: z.string().min(1).max(64) });

export const getTask = defineCall({
  operationId: 'getTask',
  method: 'GET',
  path: '/v1/tasks/get',
  summary: '查询任务（仅限本人）',
  tags: ['tasks'],
  auth: 'user',
  query: taskId,
  data: z.object({ task: taskView }),
});

export const listTasks = defineCall({
  operationId: 'listTasks',
  method: 'GET',
  path: '/v1/tasks/list',
  summary: '任务列表（按工具分页，新的在前）',
  tags: ['tasks'],
  auth: 'user',
  query: z.object({
    tool: TaskTool.optional(),
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  data: z.object({ total: z.number().int(), list: z.array(taskView) }),
});

export const cancelTask = defineCall({
  operationId: 'cancelTask',
  method: 'POST',
  path: '/v1/tasks/cancel',
  summary: '取消任务（停止处理并退还冻结积分）',
  tags: ['tasks'],
  auth: 'user',
  body: taskId,
  data: z.object({ task: taskView }),
});

export const retryTask = defineCall({
  operationId: 'retryTask',
  method: 'POST',
  path: '/v1/tasks/retry',
  summary: '从失败的阶段重试任务',
  tags: ['tasks'],
  auth: 'user',
  body: taskId,
  data: z.object({ task: taskView }),
});

export const resumeTask = defineCall({
  operationId: 'resumeTask',
  method: 'POST',
  path: '/v1/tasks/resume',
  summary: '确认暂停点后继续任务',
  tags: ['tasks'],
  auth: 'user',
  body: taskId,
  data: z.object({ task: taskView }),
});

export const deleteTask = defineCall({
  operationId: 'deleteTask',
  method: 'DELETE',
  path: '/v1/tasks/delete',
  summary: '删除任务及其文件（进行中的任务先取消）',
  tags: ['tasks'],
  auth: 'user',
  body: taskId,
  data: z.object({ deleted: z.number().int() }),
});

/**
 * `GET /v1/tasks/events`: Server-Sent Events of the caller's tasks. Each event's `id` is its
 * sequence number; send it back as `Last-Event-ID` (header, or `last_event_id` query) to resume.
 * `event` is the type, `data` this JSON. The stream sends a `: ping` comment every 15 s.
 */
export const TASK_EVENTS_PATH = '/v1/tasks/events';
export const taskEvent = z.object({
  id: z.number().int(),
  type: z.enum(TASK_EVENT_TYPES),
  task: taskView,
});
export type TaskEvent = z.infer<typeof taskEvent>;
