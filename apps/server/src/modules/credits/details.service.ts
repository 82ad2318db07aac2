import {
  type Consumption,
  type CreditLot as CreditLotView,
  type CreditSource,
  type CreditTool,
  creditSourceNames,
  creditToolNames,
} from '@vw/contract';
import type { AppContext } from '../../context.ts';
import type { CreditHold, CreditLot } from '../../db/schema.ts';
import { businessDate } from './calendar.ts';
import {
  findCapturedHolds,
  findDrawsOfHolds,
  findHoldsPage,
  findLotsPage,
  type Range,
} from './details.repo.ts';
import { getCreditSummary } from './ledger.service.ts';

const seconds = (ms: number) => Math.floor(ms / 1000);
const toMs = (s?: number) => (s === undefined ? undefined : s * 1000);

export function toLotView(lot: CreditLot): CreditLotView {
  return {
    lot_id: lot.id,
    source: lot.source,
    source_name: creditSourceNames[lot.source],
    amount: lot.amount,
    remaining: lot.remaining,
    effective_time: seconds(lot.effective_at),
    expired_time: seconds(lot.expires_at),
    created_time: seconds(lot.created_at),
    remark: lot.remark,
  };
}

export async function getBalanceByLot(ctx: AppContext, userId: string) {
  const { balance, held, lots } = await getCreditSummary(ctx, userId);
  return { balance, held, lots: lots.map(toLotView) };
}

export interface PageQuery {
  page: number;
  page_size: number;
  start_time?: number;
  end_time?: number;
}

export async function findEarnDetails(
  ctx: AppContext,
  userId: string,
  query: PageQuery & { source?: CreditSource },
) {
  const { total, rows } = await findLotsPage(ctx.db, userId, {
    startMs: toMs(query.start_time),
    endMs: toMs(query.end_time),
    source: query.source,
    page: query.page,
    pageSize: query.page_size,
  });
  return { total, list: rows.map(toLotView) };
}

async function withDraws(ctx: AppContext, holds: CreditHold[]): Promise<Consumption[]> {
  const draws = await findDrawsOfHolds(
    ctx.db,
    holds.map((h) => h.id),
  );
  return holds.map((hold) => ({
    id: hold.id,
    tool: hold.tool as CreditTool,
    tool_name: creditToolNames[hold.tool as CreditTool] ?? hold.tool,
    task_id: hold.task_id,
    task_name: hold.task_name,
    credits: hold.status === 'held' ? hold.amount : (hold.captured ?? 0),
    status: hold.status,
    created_time: seconds(hold.created_at),
    lots: draws
      .filter((d) => d.hold_id === hold.id)
      .map((d) => ({ lot_id: d.lot_id, source: d.source, credits: d.amount })),
  }));
}

export async function findConsumeDetails(
  ctx: AppContext,
  userId: string,
  query: PageQuery & { tool?: CreditTool },
) {
  const { total, rows } = await findHoldsPage(ctx.db, userId, {
    startMs: toMs(query.start_time),
    endMs: toMs(query.end_time),
    tool: query.tool,
    page: query.page,
    pageSize: query.page_size,
  });
  return { total, list: await withDraws(ctx, rows) };
}

/** Captured consumption in a range with the lots each drew from (the export's rows). */
export async function findConsumptions(
  ctx: AppContext,
  userId: string,
  range: Range,
): Promise<Consumption[]> {
  return withDraws(ctx, await findCapturedHolds(ctx.db, userId, range));
}

/** Spent credits summed by business day and tool (default: the last 30 days). */
export async function getUsage(
  ctx: AppContext,
  userId: string,
  filter: { start_time?: number; end_time?: number; tool?: CreditTool },
) {
  const endMs = toMs(filter.end_time) ?? ctx.clock.now();
  const startMs = toMs(filter.start_time) ?? endMs - 30 * 24 * 3600_000;
  const holds = await findCapturedHolds(ctx.db, userId, { startMs, endMs, tool: filter.tool });
  const buckets = new Map<string, { date: string; tool: CreditTool; credits: number }>();
  let total = 0;
  for (const hold of holds) {
    const date = businessDate(hold.created_at);
    const key = `${date}|${hold.tool}`;
    const bucket = buckets.get(key) ?? { date, tool: hold.tool as CreditTool, credits: 0 };
    bucket.credits += hold.captured ?? 0;
    total += hold.captured ?? 0;
    buckets.set(key, bucket);
  }
  return { days: [...buckets.values()], total };
}
