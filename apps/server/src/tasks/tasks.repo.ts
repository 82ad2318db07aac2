import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { TaskRow, TaskStageRow, TaskStagesTable, TasksTable } from '../db/schema.ts';

type Status = TaskRow['status'];

export async function insertTask(
  db: Db,
  task: TaskRow,
  stages: Insertable<TaskStagesTable>[],
): Promise<void> {
  await db.insertInto('tasks').values(task).execute();
  await db.insertInto('task_stages').values(stages).execute();
}

/** Any owner's task: for the runner, which works for whoever owns it. */
export async function findTask(db: Db, id: string): Promise<TaskRow | undefined> {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findTaskOfOwner(db: Db, ownerId: string, id: string): Promise<TaskRow | undefined> {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

export async function findTasksOfProject(db: Db, ownerId: string, projectId: string): Promise<TaskRow[]> {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('project_id', '=', projectId)
    .execute();
}

export async function findTaskPage(
  db: Db,
  ownerId: string,
  tool: string | undefined,
  page: number,
  pageSize: number,
): Promise<{ total: number; rows: TaskRow[] }> {
  const base = db
    .selectFrom('tasks')
    .where('owner_id', '=', ownerId)
    .$if(tool !== undefined, (q) => q.where('tool', '=', tool!));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { total: Number(total), rows };
}

/**
 * Changes a task only while its status is one of `from` (compare-and-set): of two racing
 * transitions (cancel and success, say) exactly one gets the row back.
 */
export async function updateTask(
  db: Db,
  id: string,
  set: Updateable<TasksTable>,
  from?: readonly Status[],
): Promise<TaskRow | undefined> {
  return db
    .updateTable('tasks')
    .set(set)
    .where('id', '=', id)
    .$if(from !== undefined, (q) => q.where('status', 'in', from!))
    .returningAll()
    .executeTakeFirst();
}

export async function findStages(db: Db, taskId: string): Promise<TaskStageRow[]> {
  return db.selectFrom('task_stages').selectAll().where('task_id', '=', taskId).orderBy('seq').execute();
}

export async function updateStage(
  db: Db,
  taskId: string,
  name: string,
  set: Updateable<TaskStagesTable>,
): Promise<void> {
  await db
    .updateTable('task_stages')
    .set(set)
    .where('task_id', '=', taskId)
    .where('name', '=', name)
    .execute();
}

export async function findItem(db: Db, taskId: string, stage: string, item: string) {
  return db
    .selectFrom('task_items')
    .select('result')
    .where('task_id', '=', taskId)
    .where('stage', '=', stage)
    .where('item', '=', item)
    .executeTakeFirst();
}

export async function insertItem(
  db: Db,
  row: { task_id: string; stage: string; item: string; result: string; created_at: number },
): Promise<void> {
  await db
    .insertInto('task_items')
    .values(row)
    .onConflict((oc) => oc.columns(['task_id', 'stage', 'item']).doNothing())
    .execute();
}

/** Removes a task's rows; its events stay until they age out (the stream replays `task.deleted`). */
export async function deleteTaskRows(db: Db, id: string): Promise<number> {
  await db.deleteFrom('task_items').where('task_id', '=', id).execute();
  await db.deleteFrom('task_stages').where('task_id', '=', id).execute();
  const res = await db.deleteFrom('tasks').where('id', '=', id).executeTakeFirst();
  // The task's earlier events would replay a task that no longer exists: keep only its deletion.
  await db.deleteFrom('task_events').where('task_id', '=', id).where('type', '!=', 'task.deleted').execute();
  return Number(res.numDeletedRows);
}

export async function insertEvent(
  db: Db,
  row: { owner_id: string; task_id: string; type: string; task: string; created_at: number },
): Promise<number> {
  const { seq } = await db.insertInto('task_events').values(row).returning('seq').executeTakeFirstOrThrow();
  return Number(seq);
}

export async function findEventsAfter(db: Db, ownerId: string, afterSeq: number, limit: number) {
  return db
    .selectFrom('task_events')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}
