import { creditSourceNames, ExportTaskStatus } from '@vw/contract';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { defineJob } from '../../jobs/index.ts';
import { businessDate } from './calendar.ts';
import { findConsumptions } from './details.service.ts';
import { deleteExport, findExport, findLatestExport, insertExport, updateExport } from './export.repo.ts';

const EXPORT_URL_TTL_SECONDS = 3600;
const MAX_RANGE_MS = 366 * 24 * 3600_000;

const formatTime = (unixSeconds: number) => {
  const iso = new Date(unixSeconds * 1000 + 8 * 3600_000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
};

/** The consumption rows of a range as an .xlsx workbook (Chinese headers, one row per consumption). */
export async function buildConsumptionWorkbook(
  ctx: AppContext,
  userId: string,
  startMs: number,
  endMs: number,
) {
  const rows = await findConsumptions(ctx, userId, { startMs, endMs });
  const book = new ExcelJS.Workbook();
  book.creator = '声音工作台';
  const sheet = book.addWorksheet('积分消耗明细');
  sheet.columns = [
    { header: '时间', key: 'time', width: 22 },
    { header: '工具', key: 'tool', width: 14 },
    { header: '任务', key: 'task', width: 36 },
    { header: '消耗积分', key: 'credits', width: 12 },
    { header: '扣除批次', key: 'lots', width: 48 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    sheet.addRow({
      time: formatTime(row.created_time),
      tool: row.tool_name,
      task: row.task_name || row.task_id,
      credits: row.credits,
      lots: row.lots.map((l) => `${creditSourceNames[l.source]} ${l.lot_id}：${l.credits}`).join('；'),
    });
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

export const creditExportJob = defineJob({
  name: 'credits.export',
  payload: z.object({ exportId: z.string() }),
  maxAttempts: 3,
  backoffMs: 2_000,
  handler: async ({ exportId }, job) => {
    const ctx = job.app;
    const row = await findExport(ctx.db, exportId);
    const bytes = await buildConsumptionWorkbook(ctx, row.user_id, row.start_time, row.end_time);
    const key = `exports/${row.user_id}/${row.id}.xlsx`;
    await ctx.storage.put(key, bytes, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    await updateExport(ctx.db, row.id, { file_key: key });
    await job.progress(100);
    return { key };
  },
});

/** Starts an export of the consumption in [start, end) (unix seconds); one at a time per user. */
export async function startConsumptionExport(
  ctx: AppContext,
  userId: string,
  range: { start_time: number; end_time: number },
): Promise<{ task_id: string }> {
  const startMs = range.start_time * 1000;
  const endMs = range.end_time * 1000;
  if (endMs <= startMs || endMs - startMs > MAX_RANGE_MS) {
    throw AppError.named('err_invalid_param', '导出时间范围需在一年以内，且结束时间晚于开始时间');
  }
  const latest = await findLatestExport(ctx.db, userId);
  if (latest?.job_id) {
    const job = await ctx.jobs.getJobForOwner(latest.job_id, userId);
    if (job.status === 'queued' || job.status === 'running')
      throw AppError.named('err_task_running', '已有导出任务进行中');
  }
  const id = newId('exp');
  const fileName = `积分消耗明细_${businessDate(startMs)}_${businessDate(endMs - 1)}.xlsx`;
  // The row first: the worker may pick the job up before enqueue returns.
  await insertExport(ctx.db, {
    id,
    user_id: userId,
    job_id: '',
    start_time: startMs,
    end_time: endMs,
    file_key: null,
    file_name: fileName,
    created_at: ctx.clock.now(),
  });
  try {
    const job = await ctx.jobs.enqueue(
      creditExportJob,
      { exportId: id },
      { ownerId: userId, idempotencyKey: `credit-export:${id}` },
    );
    await updateExport(ctx.db, id, { job_id: job.id });
  } catch (error) {
    await deleteExport(ctx.db, id);
    throw error;
  }
  return { task_id: id };
}

/**
 * Status of the user's latest export: 0 waiting, 2 done (with a signed link), 3 failed or none.
 * A status 3 comes with a message for the client to show (spec §4: "3 failed, show message").
 */
export async function getExportStatus(
  ctx: AppContext,
  userId: string,
): Promise<{ status: number; download_url?: string; file_name?: string; message?: string }> {
  const latest = await findLatestExport(ctx.db, userId);
  if (!latest) return { status: ExportTaskStatus.Failed, message: '没有进行中的导出，请重新导出' };
  if (!latest.job_id) return { status: ExportTaskStatus.Waiting };
  const job = await ctx.jobs.getJobForOwner(latest.job_id, userId);
  if (job.status === 'succeeded' && latest.file_key) {
    return {
      status: ExportTaskStatus.Done,
      file_name: latest.file_name,
      download_url: await ctx.storage.signedUrl(latest.file_key, {
        expiresInSeconds: EXPORT_URL_TTL_SECONDS,
        downloadName: latest.file_name,
      }),
    };
  }
  if (job.status === 'failed') return { status: ExportTaskStatus.Failed, message: '导出失败，请重新导出' };
  return { status: ExportTaskStatus.Waiting };
}
