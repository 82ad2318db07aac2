import type { Db } from '../../db/database.ts';
import type { ProjectsTable } from '../../db/schema.ts';

/** A project with what its list row shows: the latest task's state and the source asset's cover and length. */
export interface ProjectListRow {
  id: string;
  owner_id: string;
  tool: string;
  name: string;
  source_asset_id: string | null;
  task_id: string | null;
  engine_label: string;
  version: number;
  created_at: number;
  updated_at: number;
  latest_task_id: string | null;
  task_status: string | null;
  task_progress: number | null;
  asset_duration_ms: number | null;
  asset_thumbnail_key: string | null;
}

// Every read joins the task and the asset of the same owner only, so a stray id cannot leak another's row.
function listQuery(db: Db, ownerId: string) {
  return (
    db
      .selectFrom('projects')
      // The project's task; in the moment between a tool creating the task and attaching it to the
      // project, the task that names the project (so a new project never shows as finished).
      .leftJoin('tasks', (join) =>
        join
          .on('tasks.owner_id', '=', ownerId)
          .on((eb) =>
            eb.or([
              eb('tasks.id', '=', eb.ref('projects.task_id')),
              eb.and([
                eb('projects.task_id', 'is', null),
                eb('tasks.project_id', '=', eb.ref('projects.id')),
              ]),
            ]),
          ),
      )
      .leftJoin('media_assets', (join) =>
        join
          .onRef('media_assets.id', '=', 'projects.source_asset_id')
          .on('media_assets.owner_id', '=', ownerId),
      )
      .select([
        'projects.id',
        'projects.owner_id',
        'projects.tool',
        'projects.name',
        'projects.source_asset_id',
        'projects.task_id',
        'projects.engine_label',
        'projects.version',
        'projects.created_at',
        'projects.updated_at',
        'tasks.id as latest_task_id',
        'tasks.status as task_status',
        'tasks.progress as task_progress',
        'media_assets.duration_ms as asset_duration_ms',
        'media_assets.thumbnail_key as asset_thumbnail_key',
      ])
      .where('projects.owner_id', '=', ownerId)
  );
}

export async function findProjectPage(
  db: Db,
  ownerId: string,
  tool: string,
  page: number,
  pageSize: number,
): Promise<{ total: number; rows: ProjectListRow[] }> {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('projects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', ownerId)
      .where('tool', '=', tool)
      .executeTakeFirstOrThrow(),
    listQuery(db, ownerId)
      .where('projects.tool', '=', tool)
      // The id breaks ties between projects made in the same millisecond, so pages never overlap.
      .orderBy('projects.created_at', 'desc')
      .orderBy('projects.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ]);
  return { total: Number(count.n), rows: rows as ProjectListRow[] };
}

export async function findProjectListRow(db: Db, ownerId: string, projectId: string) {
  return (await listQuery(db, ownerId).where('projects.id', '=', projectId).executeTakeFirst()) as
    | ProjectListRow
    | undefined;
}

export async function findProject(db: Db, ownerId: string, projectId: string) {
  return db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

export async function insertProject(db: Db, row: ProjectsTable): Promise<void> {
  await db.insertInto('projects').values(row).execute();
}

/**
 * Writes the document only if nobody saved since `version` was read (optimistic concurrency);
 * false when the version moved on (or the project is not the owner's).
 */
export async function updateDocumentAtVersion(
  db: Db,
  ownerId: string,
  projectId: string,
  version: number,
  document: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set({ document, version: version + 1, updated_at: now })
    .where('id', '=', projectId)
    .where('owner_id', '=', ownerId)
    .where('version', '=', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateProject(
  db: Db,
  ownerId: string,
  projectId: string,
  set: Partial<Pick<ProjectsTable, 'name' | 'task_id' | 'engine_label' | 'updated_at'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set(set)
    .where('id', '=', projectId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A tool's result: the whole document, a new version whatever the current one is. */
export async function replaceDocument(
  db: Db,
  ownerId: string,
  projectId: string,
  document: string,
  engineLabel: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('projects')
    .set((eb) => ({ document, version: eb('version', '+', 1), engine_label: engineLabel, updated_at: now }))
    .where('id', '=', projectId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteProjectRow(db: Db, ownerId: string, projectId: string): Promise<number> {
  const result = await db
    .deleteFrom('projects')
    .where('id', '=', projectId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
