export { elapsedSeconds, formatDuration, remainingSeconds, stageLabel } from './format.ts';
export { type SseFrame, SseParser } from './sse.ts';
export {
  applyTaskEvent,
  type StreamMode,
  TASK_EVENTS_PATH,
  TaskStream,
  type TaskStreamOptions,
  taskStream,
} from './stream.ts';
export { failureText, TaskProgress, type TaskProgressProps } from './TaskProgress.tsx';
export { isFinished, type UseTaskResult, useTask, useTaskEvents, useTaskStream } from './useTask.ts';
