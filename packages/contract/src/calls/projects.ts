import { z } from 'zod';
import { defineCall } from '../call.ts';
import { mediaAsset } from './media.ts';
import { TaskStatus, TaskTool } from './tasks.ts';

/*
 * Editor projects (design §10): every video/voice tool's result opens in the one editor at
 * /video-translation/editor?id=<project_id>. A project is a document (speakers, subtitle tracks,
 * checker rules) saved whole with a version, so two tabs cannot silently overwrite each other.
 * Later tools add fields to cues (translation, voice, fit) and tracks; they stay optional.
 */

export const subtitleCue = z.object({
  id: z.string().min(1).max(64),
  start_ms: z.number().int().min(0),
  end_ms: z.number().int().min(0),
  text: z.string().max(2000),
  speaker_id: z.string().max(64).nullable(),
});
export type SubtitleCue = z.infer<typeof subtitleCue>;

export const speaker = z.object({ id: z.string().min(1).max(64), name: z.string().max(64) });
export type Speaker = z.infer<typeof speaker>;

export const subtitleTrack = z.object({
  id: z.string().min(1).max(64),
  kind: z.enum(['source', 'translation']),
  /** Language code, e.g. zh, en; 'auto' when unknown. */
  language: z.string().max(16),
  cues: z.array(subtitleCue).max(20_000),
});
export type SubtitleTrack = z.infer<typeof subtitleTrack>;

/** The rule checker's settings (Netflix zh-Hans defaults; each project may edit them). */
export const subtitleRules = z.object({
  max_chars_per_line: z.number().int().min(1).max(200),
  max_lines: z.number().int().min(1).max(5),
  /** Reading speed: characters per second. */
  max_cps: z.number().min(1).max(100),
  min_duration_ms: z.number().int().min(0),
  max_duration_ms: z.number().int().min(1),
  min_gap_ms: z.number().int().min(0),
});
export type SubtitleRules = z.infer<typeof subtitleRules>;

export const DEFAULT_SUBTITLE_RULES: SubtitleRules = {
  max_chars_per_line: 16,
  max_lines: 2,
  max_cps: 9,
  min_duration_ms: 1000,
  max_duration_ms: 7000,
  min_gap_ms: 80,
};

export const projectDocument = z.object({
  speakers: z.array(speaker).max(100),
  tracks: z.array(subtitleTrack).max(10),
  rules: subtitleRules,
});
export type ProjectDocument = z.infer<typeof projectDocument>;

export const projectView = z.object({
  project_id: z.string(),
  tool: TaskTool,
  name: z.string(),
  /** The status of the project's latest task. */
  status: TaskStatus,
  progress: z.number(),
  task_id: z.string().nullable(),
  source_asset_id: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  /** Signed thumbnail link; '' for audio. */
  cover_url: z.string(),
  /** What made the result, e.g. 'sherpa-onnx · sense_voice' — shown honestly in the editor. */
  engine_label: z.string(),
  created_time: z.number().int(),
  updated_time: z.number().int(),
});
export type ProjectView = z.infer<typeof projectView>;

const projectId = z.object({ project_id: z.string().min(1).max(64) });

export const listProjects = defineCall({
  operationId: 'listProjects',
  method: 'GET',
  path: '/v1/projects/list',
  summary: '工具的项目列表（分页，新的在前）',
  tags: ['projects'],
  auth: 'user',
  query: z.object({
    tool: TaskTool,
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
  }),
  data: z.object({ total: z.number().int(), list: z.array(projectView) }),
});

export const getProject = defineCall({
  operationId: 'getProject',
  method: 'GET',
  path: '/v1/projects/get',
  summary: '打开项目：文档、版本与源媒体',
  tags: ['projects'],
  auth: 'user',
  query: projectId,
  data: z.object({
    project: projectView,
    document: projectDocument,
    version: z.number().int(),
    /** The source media (player and waveform); null when the project has none. */
    media: mediaAsset.nullable(),
  }),
});

export const saveProject = defineCall({
  operationId: 'saveProject',
  method: 'POST',
  path: '/v1/projects/save',
  summary: '保存项目文档（版本不符时拒绝：err_project_version_conflict）',
  tags: ['projects'],
  auth: 'user',
  body: projectId.extend({ version: z.number().int().min(0), document: projectDocument }),
  data: z.object({ version: z.number().int(), updated_time: z.number().int() }),
});

export const renameProject = defineCall({
  operationId: 'renameProject',
  method: 'POST',
  path: '/v1/projects/rename',
  summary: '重命名项目',
  tags: ['projects'],
  auth: 'user',
  body: projectId.extend({ name: z.string().trim().min(1).max(100) }),
  data: z.object({ project: projectView }),
});

export const deleteProject = defineCall({
  operationId: 'deleteProject',
  method: 'DELETE',
  path: '/v1/projects/delete',
  summary: '删除项目、它的任务与文件',
  tags: ['projects'],
  auth: 'user',
  body: projectId,
  data: z.object({ deleted: z.number().int() }),
});

export const ExportFormat = z.enum(['txt', 'srt', 'vtt', 'json', 'docx']);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const exportProject = defineCall({
  operationId: 'exportProject',
  method: 'POST',
  path: '/v1/projects/export',
  summary: '导出字幕（TXT / SRT / VTT / JSON / DOCX），返回下载链接',
  tags: ['projects'],
  auth: 'user',
  body: projectId.extend({
    format: ExportFormat,
    /** Which track; the first source track when omitted. */
    track_id: z.string().max(64).optional(),
    /** TXT/DOCX/JSON: put speaker names before lines; timestamps before lines. */
    speakers: z.boolean().default(false),
    timestamps: z.boolean().default(false),
  }),
  data: z.object({ url: z.string(), file_name: z.string(), size: z.number().int() }),
});
