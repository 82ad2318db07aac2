import type { TaskView } from '@vw/contract';

/** 75 → "1:15", 3725 → "1:02:05". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(sec)}` : `${m}:${pad(sec)}`;
}

/** Seconds since the task started (or was created, while queued), up to its end. */
export function elapsedSeconds(task: TaskView, nowMs = Date.now()): number {
  const from = task.started_time ?? task.created_time;
  const to = task.finished_time ?? Math.floor(nowMs / 1000);
  return Math.max(0, to - from);
}

/**
 * Seconds left: the server's estimate (from the running stage's own pace); null while unknown or when
 * the task is not running. The whole task's pace is no guide: quick early stages make a long render
 * look nearly done.
 */
export function remainingSeconds(task: TaskView): number | null {
  if (task.status !== 'running' || task.eta_seconds == null) return null;
  return Math.max(0, task.eta_seconds);
}

/** The Chinese label of the task's current stage ('' when it has none). */
export function stageLabel(task: TaskView): string {
  return task.stages.find((s) => s.name === task.stage)?.label ?? '';
}
