import { creditSourceNames, ExportTaskStatus } from '@vw/contract';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { createTask, definePipeline } from '../../tasks/index.ts';
import { findTaskOfOwner } from '../../tasks/tasks.repo.ts';
import { businessDate } from './calendar.ts';
import { findConsumptions } from './details.service.ts';
import { findExport, findLatestExport, insertExport, updateExport } from './export.repo.ts';

const EXPORT_URL_TTL_SECONDS = 3600;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
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

const exportInput = z.object({ export_id: z.string() });

/** The export is a one-stage task: the workbook is its artifact and its download. */
export const creditExportPipeline = definePipeline({
  tool: 'credits_export',
  input: exportInput,
  stages: [
    {
      name: 'export',
      label: '生成表格',
      lane: 'light',
      weight: 1,
      attempts: 3,
      async run(ctx) {
        const { app } = ctx;
        const row = await findExport(app.db, ctx.input.export_id);
        const bytes = await buildConsumptionWorkbook(app, row.user_id, row.start_time, row.end_time);
        const key = await ctx.saveArtifact({ bytes }, { name: 'consumption.xlsx', contentType: XLSX });
        await updateExport(app.db, row.id, { file_key: key });
        await ctx.addOutput({ name: row.file_name, kind: 'file', format: 'xlsx', key, size: bytes.length });
        return { key };
      },
    },
  ],
});

/**
 * Where an export stands: by its task (`job_id` holds the task id), or by its queue job for exports
 * made before tasks.
 */
async function exportState(
  ctx: AppContext,
  userId: string,
  id: string,
): Promise<'waiting' | 'done' | 'failed'> {
  if (!id) return 'waiting';
  const task = await findTaskOfOwner(ctx.db, userId, id);
  const status = task?.status ?? (await ctx.jobs.getJobForOwner(id, userId).catch(() => undefined))?.status;
  if (status === 'succeeded') return 'done';
  if (status === 'failed' || status === 'cancelled' || status === undefined) return 'failed';
  return 'waiting';
}

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
  if (latest && (await exportState(ctx, userId, latest.job_id)) === 'waiting') {
    throw AppError.named('err_task_running', '已有导出任务进行中');
  }
  const id = newId('exp');
  const fileName = `积分消耗明细_${businessDate(startMs)}_${businessDate(endMs - 1)}.xlsx`;
  await createTask(ctx, creditExportPipeline, {
    ownerId: userId,
    title: fileName,
    input: { export_id: id },
    // The row is written before the stage can run, with the task it belongs to.
    prepare: (task) =>
      insertExport(ctx.db, {
        id,
        user_id: userId,
        job_id: task.id,
        start_time: startMs,
        end_time: endMs,
        file_key: null,
        file_name: fileName,
        created_at: ctx.clock.now(),
      }),
  });
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
  const state = await exportState(ctx, userId, latest.job_id);
  if (state === 'done' && latest.file_key) {
    return {
      status: ExportTaskStatus.Done,
      file_name: latest.file_name,
      download_url: await ctx.storage.signedUrl(latest.file_key, {
        expiresInSeconds: EXPORT_URL_TTL_SECONDS,
        downloadName: latest.file_name,
      }),
    };
  }
  if (state === 'failed') return { status: ExportTaskStatus.Failed, message: '导出失败，请重新导出' };
  return { status: ExportTaskStatus.Waiting };
}
