import { z } from 'zod';
import { defineCall } from '../call.ts';
import { appConfig } from '../entities.ts';

export const getAppConfig = defineCall({
  operationId: 'getAppConfig',
  method: 'GET',
  path: '/p1/appconfig/get_app_config',
  summary: '应用配置（声音克隆开关等）',
  tags: ['app'],
  auth: 'user',
  data: appConfig,
});

export const jobView = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  progress: z.number(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  result: z.unknown().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type JobView = z.infer<typeof jobView>;

export const getJob = defineCall({
  operationId: 'getJob',
  method: 'GET',
  path: '/v1/jobs/get',
  summary: '查询后台任务进度（仅限本人）',
  tags: ['jobs'],
  auth: 'user',
  query: z.object({ id: z.string().min(1).max(64) }),
  data: z.object({ job: jobView }),
});
