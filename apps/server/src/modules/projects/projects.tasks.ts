import type { AppContext } from '../../context.ts';
import { deleteTaskRows, findTaskFilesOfProject } from './projects.repo.ts';

/**
 * Deletes the tasks of a project with their files. The one place the projects module reaches into
 * tasks, so the merge can point it at the tasks slice's `deleteTasksOfProject(ctx, ownerId, projectId)`
 * (tasks/tasks.service.ts), which also stops a running task and sends `task.deleted`.
 */
export async function deleteTasksOfProjectRows(
  ctx: AppContext,
  ownerId: string,
  projectId: string,
): Promise<number> {
  const { taskIds, keys } = await findTaskFilesOfProject(ctx.db, ownerId, projectId);
  // Files first: a crash in between leaves rows that can be deleted again, never orphaned files.
  await Promise.all(keys.map((key) => ctx.storage.remove(key)));
  return deleteTaskRows(ctx.db, taskIds);
}
