/**
 * Plain task and media constants, free of zod so the web bundle can import them directly
 * (`@vw/contract/constants/tasks.ts`); the calls in calls/tasks.ts, media.ts and projects.ts build on them.
 */

/** Every long job is a task of one tool. */
export const taskToolNames = {
  tts: '文字转语音',
  credits_export: '积分明细导出',
  stt: '语音转文字',
  ocr: '字幕提取',
  erase: '字幕擦除',
  watermark: '去水印',
  voice_changer: '变声器',
  voice_clone: '声音克隆',
  dubbing: 'AI配音',
  srt_dubbing: 'SRT配音',
  synthesis: '视频合成',
  translate: '视频翻译',
  audiobook: '有声书',
} as const;
export type TaskTool = keyof typeof taskToolNames;

export const TASK_STATUSES = ['queued', 'running', 'paused', 'succeeded', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** A task in one of these states changes no more (until retried). */
export const FINISHED_TASK_STATUSES: readonly TaskStatus[] = ['succeeded', 'failed', 'cancelled'];

export const taskStatusNames: Record<TaskStatus, string> = {
  queued: '排队中',
  running: '处理中',
  paused: '待确认',
  succeeded: '已完成',
  failed: '失败',
  cancelled: '已取消',
};

/** Events of the task stream (`GET /v1/tasks/events`) and of webhooks. */
export const TASK_EVENT_TYPES = [
  'task.created',
  'task.progress',
  'task.paused',
  'task.succeeded',
  'task.failed',
  'task.cancelled',
  'task.deleted',
] as const;
export type TaskEventType = (typeof TASK_EVENT_TYPES)[number];

/** Kinds of uploaded media (sniffed from the bytes, never from the name). */
export const MEDIA_KINDS = ['video', 'audio', 'image', 'subtitle', 'document'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Per-account feature switches of spec §6, each refused with its own named error. */
export const featureSwitchErrors = {
  video_translate: 'err_video_translate_not_allowed',
  subtitle_erase: 'err_subtitle_erase_not_allowed',
  lip_sync: 'err_lip_sync_not_allowed',
  remove_watermark: 'err_remove_water_mark_not_allowed',
  subtitle_generate: 'err_subtitle_generate_not_allowed',
} as const;
export type FeatureSwitch = keyof typeof featureSwitchErrors;

/** The tabs of /video-translation/:tab? (design §10), in tab-bar order. */
export const VIDEO_TOOL_TABS = [
  'translate',
  'dubbing',
  'srt-dubbing',
  'synthesis',
  'erase',
  'ocr',
  'stt',
] as const;
export type VideoToolTab = (typeof VIDEO_TOOL_TABS)[number];
