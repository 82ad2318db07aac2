import { z } from 'zod';
import { defineCall } from '../call.ts';
import {
  creditSourceNames,
  creditToolNames,
  type CreditSource as Source,
  type CreditTool as Tool,
} from '../constants/credits.ts';
import { exportStatus, redeemResult, tenantBonus } from '../entities.ts';

export * from '../constants/credits.ts';

/** Where a lot of credits came from. */
export const CreditSource = z.enum(Object.keys(creditSourceNames) as [Source, ...Source[]]);
export type CreditSource = Source;
/** Tools that spend credits (task types of the pricing table). */
export const CreditTool = z.enum(Object.keys(creditToolNames) as [Tool, ...Tool[]]);
export type CreditTool = Tool;

const previousPlan = z.object({
  level: z.number().int(),
  title: z.string(),
  expired_time: z.number().int(),
  is_annual_package: z.number().int(),
});

export const tenantBonusWithPrevious = tenantBonus.extend({
  /** The plan in force before the current one, if any. */
  previous: previousPlan.nullable(),
  /** Credits currently held by running tasks (not spendable, not yet spent). */
  held_credits: z.number(),
});
export type TenantBonusWithPrevious = z.infer<typeof tenantBonusWithPrevious>;

export const getTenantBonus = defineCall({
  operationId: 'getTenantBonus',
  method: 'GET',
  path: '/v1/tenant/get_tenant_bonus',
  summary: '当前套餐与积分余额',
  tags: ['credits'],
  auth: 'user',
  data: tenantBonusWithPrevious,
});

export const creditLot = z.object({
  lot_id: z.string(),
  source: CreditSource,
  source_name: z.string(),
  amount: z.number(),
  remaining: z.number(),
  /** unix seconds */
  effective_time: z.number().int(),
  /** unix seconds */
  expired_time: z.number().int(),
  created_time: z.number().int(),
  remark: z.string(),
});
export type CreditLot = z.infer<typeof creditLot>;

export const getTenantBalance = defineCall({
  operationId: 'getTenantBalance',
  method: 'GET',
  path: '/v1/balance/get_tenant_balance',
  summary: '积分余额（按批次：来源、剩余、到期时间）',
  tags: ['credits'],
  auth: 'user',
  data: z.object({ balance: z.number(), held: z.number(), lots: z.array(creditLot) }),
});

const paging = {
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  /** unix seconds, inclusive */
  start_time: z.coerce.number().int().min(0).optional(),
  /** unix seconds, exclusive */
  end_time: z.coerce.number().int().min(0).optional(),
};

export const getEarnDetails = defineCall({
  operationId: 'getCreditEarnDetails',
  method: 'GET',
  path: '/v1/balance/credit/earn-details',
  summary: '积分获取明细（分页，可按时间与来源筛选）',
  tags: ['credits'],
  auth: 'user',
  query: z.object({ ...paging, source: CreditSource.optional() }),
  data: z.object({ total: z.number().int(), list: z.array(creditLot) }),
});

export const consumption = z.object({
  id: z.string(),
  tool: CreditTool,
  tool_name: z.string(),
  task_id: z.string(),
  task_name: z.string(),
  credits: z.number(),
  /** held: running; captured: spent; released: refunded in full */
  status: z.enum(['held', 'captured', 'released']),
  created_time: z.number().int(),
  lots: z.array(z.object({ lot_id: z.string(), source: CreditSource, credits: z.number() })),
});
export type Consumption = z.infer<typeof consumption>;

export const getConsumeDetails = defineCall({
  operationId: 'getCreditConsumeDetails',
  method: 'GET',
  path: '/v1/balance/credit/consume-details',
  summary: '积分消耗明细（分页，可按时间与工具筛选）',
  tags: ['credits'],
  auth: 'user',
  query: z.object({ ...paging, tool: CreditTool.optional() }),
  data: z.object({ total: z.number().int(), list: z.array(consumption) }),
});

export const getCreditUsage = defineCall({
  operationId: 'getCreditUsage',
  method: 'POST',
  path: '/p1/balance/credit_usage',
  summary: '积分用量（按天、按工具汇总，用于图表）',
  tags: ['credits'],
  auth: 'user',
  body: z
    .object({
      start_time: z.number().int().min(0).optional(),
      end_time: z.number().int().min(0).optional(),
      tool: CreditTool.optional(),
    })
    .optional(),
  data: z.object({
    days: z.array(z.object({ date: z.string(), tool: CreditTool, credits: z.number() })),
    total: z.number(),
  }),
});

export const estimateCredits = defineCall({
  operationId: 'estimateCredits',
  method: 'POST',
  path: '/v1/balance/credit/estimate',
  summary: '预估任务积分（与扣费使用同一价格表）',
  tags: ['credits'],
  auth: 'user',
  body: z.object({
    task_type: CreditTool,
    /** Task parameters the price depends on: characters, seconds… */
    params: z.object({
      characters: z.number().int().min(0).optional(),
      seconds: z.number().min(0).optional(),
    }),
  }),
  data: z.object({ credits: z.number(), balance: z.number(), sufficient: z.boolean() }),
});

export const downloadConsumeDetails = defineCall({
  operationId: 'exportCreditConsumeDetails',
  method: 'POST',
  path: '/v1/balance/credit/download-consume-details',
  summary: '导出积分消耗明细（异步生成 .xlsx）',
  tags: ['credits'],
  auth: 'user',
  body: z.object({ start_time: z.number().int().min(0), end_time: z.number().int().min(0) }),
  data: z.object({ task_id: z.string() }),
});

export const exportTaskStatus = defineCall({
  operationId: 'exportCreditTaskStatus',
  method: 'POST',
  path: '/v1/balance/credit/export-task-status',
  summary: '最近一次积分明细导出的状态',
  tags: ['credits'],
  auth: 'user',
  data: exportStatus,
});

export const useRedeemCode = defineCall({
  operationId: 'useRedeemCode',
  method: 'POST',
  path: '/v1/redeem/use',
  summary: '使用兑换码（会员或积分）',
  tags: ['credits'],
  auth: 'user',
  body: z.object({ code: z.string().trim().min(1).max(64) }),
  data: redeemResult,
});

export const plan = z.object({
  level: z.number().int(),
  title: z.string(),
  /** Credits issued every month of the plan. */
  monthly_credits: z.number(),
  features: z.array(z.string()),
});
export type Plan = z.infer<typeof plan>;

export const getPlans = defineCall({
  operationId: 'getPlans',
  method: 'GET',
  path: '/v1/tenant/get_plans',
  summary: '套餐等级与权益（会员中心对比表）',
  tags: ['credits'],
  auth: 'user',
  data: z.object({ plans: z.array(plan) }),
});

/** Development only: spends credits as a finished task would (no tool spends yet in a fresh install). */
export const devSpendCredits = defineCall({
  operationId: 'devSpendCredits',
  method: 'POST',
  path: '/dev/credits/spend',
  summary: '开发模式：模拟一次任务扣费',
  tags: ['dev'],
  auth: 'user',
  body: z.object({
    credits: z.number().int().min(1),
    tool: CreditTool.default('tts'),
    task_name: z.string().max(200).default('开发模式扣费'),
  }),
  data: z.object({ hold_id: z.string() }),
});
