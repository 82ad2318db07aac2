import {
  type ProjectDocument,
  type ProjectView,
  projectDocument,
  type projectsCalls,
  type SubtitleTrack,
  type TaskStatus,
  type TaskTool,
} from '@vw/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { ProjectRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { findTaskOfOwner } from '../../tasks/tasks.repo.ts';
import { deleteTasksOfProject } from '../../tasks/tasks.service.ts';
import { findAssetOfOwner } from '../uploads/uploads.repo.ts';
import { toAssetView } from '../uploads/uploads.service.ts';
import { type ExportFormat, renderExport } from './projects.export.ts';
import {
  deleteProjectRow,
  findProject,
  findProjectListRow,
  findProjectPage,
  insertProject,
  type ProjectListRow,
  replaceDocument,
  updateDocumentAtVersion,
  updateProject,
} from './projects.repo.ts';

const LINK_SECONDS = 3600;
const sec = (ms: number) => Math.floor(ms / 1000);

const notFound = () => AppError.named('err_not_found');

// ---------------------------------------------------------------- views

async function toProjectView(ctx: AppContext, row: ProjectListRow): Promise<ProjectView> {
  const status = (row.task_status ?? 'succeeded') as TaskStatus;
  return {
    project_id: row.id,
    tool: row.tool as TaskTool,
    name: row.name,
    // A project without a task (made by hand, or its task deleted) is simply there to edit.
    status,
    progress: row.task_status ? taskPercent(row.task_progress ?? 0, status) : 100,
    task_id: row.latest_task_id ?? row.task_id,
    source_asset_id: row.source_asset_id,
    duration_ms: row.asset_duration_ms === null ? null : Number(row.asset_duration_ms),
    cover_url: row.asset_thumbnail_key
      ? await ctx.storage.signedUrl(row.asset_thumbnail_key, { expiresInSeconds: LINK_SECONDS })
      : '',
    engine_label: row.engine_label,
    created_time: sec(row.created_at),
    updated_time: sec(row.updated_at),
  };
}

/** The tasks row keeps progress as a percentage (0–100). */
function taskPercent(progress: number, status: TaskStatus): number {
  if (status === 'succeeded') return 100;
  return Math.round(Math.min(100, Math.max(0, progress)) * 10) / 10;
}

async function viewOf(ctx: AppContext, ownerId: string, projectId: string): Promise<ProjectView> {
  const row = await findProjectListRow(ctx.db, ownerId, projectId);
  if (!row) throw notFound();
  return toProjectView(ctx, row);
}

// ---------------------------------------------------------------- documents

export const emptyDocument = (rules: ProjectDocument['rules']): ProjectDocument => ({
  speakers: [],
  tracks: [],
  rules,
});

/**
 * What is stored: valid by the contract, cues in time order with end ≥ start, and no cue pointing at
 * a speaker the document does not have (the editor shows the name by id).
 */
export function normalizeDocument(input: ProjectDocument): ProjectDocument {
  const parsed = projectDocument.safeParse(input);
  if (!parsed.success) throw AppError.named('err_invalid_param', '项目文档格式不正确');
  const doc = parsed.data;
  const speakers = new Set(doc.speakers.map((s) => s.id));
  return {
    ...doc,
    tracks: doc.tracks.map((t) => ({
      ...t,
      cues: t.cues
        .map((c) => ({
          ...c,
          end_ms: Math.max(c.start_ms, c.end_ms),
          speaker_id: c.speaker_id && speakers.has(c.speaker_id) ? c.speaker_id : null,
        }))
        .sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms),
    })),
  };
}

function readDocument(row: ProjectRow): ProjectDocument {
  return projectDocument.parse(JSON.parse(row.document));
}

// ---------------------------------------------------------------- calls

export async function listProjects(
  ctx: AppContext,
  ownerId: string,
  query: z.output<NonNullable<typeof projectsCalls.listProjects.query>>,
) {
  const { total, rows } = await findProjectPage(ctx.db, ownerId, query.tool, query.page, query.page_size);
  return { total, list: await Promise.all(rows.map((r) => toProjectView(ctx, r))) };
}

export async function getProject(ctx: AppContext, ownerId: string, projectId: string) {
  const row = await findProject(ctx.db, ownerId, projectId);
  if (!row) throw notFound();
  // A deleted source asset leaves the project editable, without a player.
  const asset = row.source_asset_id
    ? await findAssetOfOwner(ctx.db, ownerId, row.source_asset_id)
    : undefined;
  return {
    project: await viewOf(ctx, ownerId, projectId),
    document: readDocument(row),
    version: row.version,
    media: asset ? await toAssetView(ctx, asset) : null,
  };
}

/** Saves the whole document if nobody saved since `version`; answers the new version. */
export async function saveProject(
  ctx: AppContext,
  ownerId: string,
  input: { project_id: string; version: number; document: ProjectDocument },
) {
  const document = normalizeDocument(input.document);
  const now = ctx.clock.now();
  const saved = await updateDocumentAtVersion(
    ctx.db,
    ownerId,
    input.project_id,
    input.version,
    JSON.stringify(document),
    now,
  );
  if (!saved) {
    // Tell "gone (or not yours)" from "someone saved first".
    if (!(await findProject(ctx.db, ownerId, input.project_id))) throw notFound();
    throw AppError.named('err_project_version_conflict');
  }
  return { version: input.version + 1, updated_time: sec(now) };
}

export async function renameProject(ctx: AppContext, ownerId: string, projectId: string, name: string) {
  const renamed = await updateProject(ctx.db, ownerId, projectId, { name, updated_at: ctx.clock.now() });
  if (!renamed) throw notFound();
  return { project: await viewOf(ctx, ownerId, projectId) };
}

/** Deletes the project, its tasks (with their files) and its exports; the source asset stays in the library. */
export async function deleteProject(ctx: AppContext, ownerId: string, projectId: string) {
  const row = await findProject(ctx.db, ownerId, projectId);
  if (!row) throw notFound();
  await deleteTasksOfProject(ctx, ownerId, projectId);
  await Promise.all(exportKeys(ownerId, projectId).map((key) => ctx.storage.remove(key)));
  // Files a tool keeps with the project (dubbing takes, dub track and mix).
  for await (const object of ctx.storage.list(projectFilesPrefix(ownerId, projectId))) {
    await ctx.storage.remove(object.key);
  }
  return { deleted: await deleteProjectRow(ctx.db, ownerId, projectId) };
}

/** Where tools keep files that belong to a project (removed with it). */
export const projectFilesPrefix = (ownerId: string, projectId: string) => `projects/${ownerId}/${projectId}/`;

const EXPORT_FORMATS: ExportFormat[] = ['txt', 'srt', 'vtt', 'json', 'docx'];
const FLAG_SETS = ['', '-s', '-t', '-st'];
/**
 * One file per format and option set, overwritten by the next export of the same kind (the link is
 * fetched at once by the download center), so exports never pile up and deleting a project can name
 * every file it may have left.
 */
const exportKey = (ownerId: string, projectId: string, format: ExportFormat, flags: string) =>
  `exports/${ownerId}/${projectId}/subtitles${flags}.${format}`;
const exportKeys = (ownerId: string, projectId: string) =>
  EXPORT_FORMATS.flatMap((f) => FLAG_SETS.map((flags) => exportKey(ownerId, projectId, f, flags)));

const UNSAFE_IN_FILE_NAMES = /[\\/:*?"<>|]/g;

export function safeFileName(name: string): string {
  // Control characters out too (code points below 32), without a regex biome would flag.
  const visible = [...name].map((ch) => (ch.charCodeAt(0) < 32 ? '_' : ch)).join('');
  return visible.replace(UNSAFE_IN_FILE_NAMES, '_').trim().slice(0, 100) || 'subtitles';
}

export async function exportProject(
  ctx: AppContext,
  ownerId: string,
  input: z.output<NonNullable<typeof projectsCalls.exportProject.body>>,
) {
  const row = await findProject(ctx.db, ownerId, input.project_id);
  if (!row) throw notFound();
  const document = readDocument(row);
  const track: SubtitleTrack | undefined = input.track_id
    ? document.tracks.find((t) => t.id === input.track_id)
    : (document.tracks.find((t) => t.kind === 'source') ?? document.tracks[0]);
  if (!track) {
    if (input.track_id) throw notFound();
    throw AppError.named('err_invalid_param', '项目还没有字幕可以导出');
  }
  const options = { speakers: input.speakers, timestamps: input.timestamps };
  const file = await renderExport(row.name, document, track, input.format, options);
  const flags = `${input.speakers || input.timestamps ? '-' : ''}${input.speakers ? 's' : ''}${input.timestamps ? 't' : ''}`;
  const key = exportKey(ownerId, row.id, input.format, flags);
  await ctx.storage.put(key, file.bytes, file.contentType);
  const fileName = `${safeFileName(row.name)}.${file.extension}`;
  const url = await ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS, downloadName: fileName });
  return { url, file_name: fileName, size: file.bytes.length };
}

// ---------------------------------------------------------------- for the tools

/** A new project of a tool (the tool's task is attached with `attachTask`). */
export async function createProject(
  ctx: AppContext,
  input: {
    ownerId: string;
    tool: TaskTool;
    name: string;
    sourceAssetId: string | null;
    document: ProjectDocument;
  },
): Promise<ProjectRow> {
  const now = ctx.clock.now();
  const row: ProjectRow = {
    id: newId('prj'),
    owner_id: input.ownerId,
    tool: input.tool,
    name: input.name,
    source_asset_id: input.sourceAssetId,
    task_id: null,
    engine_label: '',
    document: JSON.stringify(normalizeDocument(input.document)),
    version: 0,
    created_at: now,
    updated_at: now,
  };
  await insertProject(ctx.db, row);
  return row;
}

export async function attachTask(ctx: AppContext, ownerId: string, projectId: string, taskId: string) {
  await updateProject(ctx.db, ownerId, projectId, { task_id: taskId, updated_at: ctx.clock.now() });
}

/**
 * Where the project's own task is, for a line action (a line re-translated, re-dubbed or checked):
 * refused while the task runs (it writes the lines); 'paused' while it waits at a review pause — the
 * action then changes its lines only and its task never becomes the project's, so the project stays
 * paused (finished only when its own task is) and 确认并继续 goes on with that task.
 */
export async function lineActionState(
  ctx: AppContext,
  ownerId: string,
  project: { task_id: string | null },
): Promise<'paused' | 'idle'> {
  const task = project.task_id ? await findTaskOfOwner(ctx.db, ownerId, project.task_id) : undefined;
  if (task?.status === 'queued' || task?.status === 'running') {
    throw AppError.named('err_task_running', '项目正在处理中：完成或暂停后再修改单句');
  }
  return task?.status === 'paused' ? 'paused' : 'idle';
}

/** The stored document of one of the owner's projects (a tool reads the rules it should follow). */
export async function readProjectDocument(ctx: AppContext, ownerId: string, projectId: string) {
  const row = await findProject(ctx.db, ownerId, projectId);
  if (!row) throw notFound();
  return readDocument(row);
}

/**
 * A tool's new project and the task that fills it: the project first (the task names it), then the
 * task; a refused task (short of credits, queue down) leaves no empty project in the list.
 */
export async function createProjectWithTask(
  ctx: AppContext,
  input: Parameters<typeof createProject>[1],
  start: (projectId: string) => Promise<{ id: string }>,
): Promise<{ projectId: string; taskId: string }> {
  const project = await createProject(ctx, input);
  let taskId: string;
  try {
    taskId = (await start(project.id)).id;
  } catch (err) {
    await discardProject(ctx, input.ownerId, project.id);
    throw err;
  }
  await attachTask(ctx, input.ownerId, project.id, taskId);
  return { projectId: project.id, taskId };
}

/** Removes a project that never got its task (e.g. the task was refused for want of credits). */
export async function discardProject(ctx: AppContext, ownerId: string, projectId: string): Promise<void> {
  await deleteProjectRow(ctx.db, ownerId, projectId);
}

/**
 * A tool's result replaces the document (a new version, so an editor open on the old one is told to
 * reload rather than overwrite it) and says honestly which engine made it.
 */
export async function writeToolResult(
  ctx: AppContext,
  ownerId: string,
  projectId: string,
  document: ProjectDocument,
  engineLabel: string,
): Promise<boolean> {
  const json = JSON.stringify(normalizeDocument(document));
  return replaceDocument(ctx.db, ownerId, projectId, json, engineLabel, ctx.clock.now());
}
