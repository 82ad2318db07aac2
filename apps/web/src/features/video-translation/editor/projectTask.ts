import type { TaskView } from '@vw/contract';
import { useEffect } from 'react';
import { create } from 'zustand';
import { startDownloads } from '@/features/downloads/center.ts';
import { useTask } from '@/lib/tasks/useTask.ts';
import { taskOutputDownload } from '../dubbing/TaskOutputs.tsx';

/*
 * The task an editor started on its project (a regeneration, a re-translation, a render), per
 * project: it survives the reload that follows its end. One follower (`useFollowProjectTask`, in the
 * workspace) reloads the project once when the task ends — and hands the files an export asked for
 * to the download center; panels read the task to show its progress.
 */
export const useProjectTasks = create<{
  byProject: Record<string, string>;
  /** Task id → output formats to download when it succeeds (an export that renders). */
  downloads: Record<string, string[]>;
  /** Tasks whose end has been handled (so a remounted workspace does not reload again). */
  handled: Record<string, true>;
  set: (projectId: string, taskId: string, downloadFormats?: string[]) => void;
}>((set) => ({
  byProject: {},
  downloads: {},
  handled: {},
  set: (p, t, formats) =>
    set((s) => ({
      byProject: { ...s.byProject, [p]: t },
      downloads: formats ? { ...s.downloads, [t]: formats } : s.downloads,
    })),
}));

/** The project's editor task (null before one is started) and whether it is still running. */
export function useProjectTask(projectId: string) {
  const taskId = useProjectTasks((s) => s.byProject[projectId]) ?? null;
  const remember = useProjectTasks((s) => s.set);
  const { task } = useTask(taskId);
  const running = !!task && (task.status === 'queued' || task.status === 'running');
  return {
    task,
    running,
    remember: (id: string, downloadFormats?: string[]) => remember(projectId, id, downloadFormats),
  };
}

/** The outputs of a finished task that an export asked for (by format), in the task's order. */
export function wantedOutputs(task: TaskView, formats: string[] | undefined) {
  if (!formats || task.status !== 'succeeded') return [];
  return task.outputs.filter((o) => formats.includes(o.format));
}

/**
 * Reloads the project once when its editor task ends (also when it ended before its first load
 * arrived); the workspace that remounts after the reload finds it handled.
 */
export function useFollowProjectTask(
  projectId: string,
  onEnd: (status: string) => void,
): ReturnType<typeof useProjectTask> {
  const current = useProjectTask(projectId);
  const { task, running } = current;
  useEffect(() => {
    if (!task || running || task.status === 'paused') return;
    const store = useProjectTasks.getState();
    if (store.handled[task.task_id]) return;
    useProjectTasks.setState({ handled: { ...store.handled, [task.task_id]: true } });
    const files = wantedOutputs(task as TaskView, store.downloads[task.task_id]);
    if (files.length > 0) startDownloads(files.map((o) => taskOutputDownload(task as TaskView, o)));
    onEnd(task.status);
  }, [task, running, onEnd]);
  return current;
}
