import type { AppContext } from '../../context.ts';
import { deleteTask } from '../../tasks/tasks.service.ts';
import { deleteFilesOf } from '../files/files.service.ts';
import { deleteProject } from '../projects/projects.service.ts';
import { deleteAllHistoryOf } from '../tts/history.service.ts';
import { deleteAsset } from '../uploads/uploads.service.ts';

/**
 * Everything a cancelled account stored, removed: TTS history, editor projects (with their tasks and
 * exports), remaining tasks (running ones are cancelled first, which refunds them), uploaded media,
 * and files (avatar). Projects and tasks go before the media they name, which is kept while in use.
 */
export async function deleteAllDataOf(ctx: AppContext, userId: string): Promise<void> {
  await deleteAllHistoryOf(ctx, userId);
  const ids = (table: 'projects' | 'tasks' | 'media_assets') =>
    ctx.db.selectFrom(table).select('id').where('owner_id', '=', userId).execute();
  for (const { id } of await ids('projects')) await deleteProject(ctx, userId, id);
  for (const { id } of await ids('tasks')) await deleteTask(ctx, userId, id);
  for (const { id } of await ids('media_assets')) await deleteAsset(ctx, userId, id);
  await deleteFilesOf(ctx, userId);
}
