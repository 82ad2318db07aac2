/**
 * What must hold after every fault and at the end of a load run, read from the database: every
 * task the clients were given is there (none lost), finished or failed with its credits settled
 * (none stuck, none done twice), the ledger adds up per user, no hold is open past its owner, and
 * every upload became the asset that was sent or can still be resumed.
 */
import { FINISHED_TASK_STATUSES } from '@vw/contract';
import type { Db } from '../../src/db/database.ts';

export interface TrackedUpload {
  uploadId: string;
  ownerId: string;
  sha256: string;
  size: number;
  /** The asset the client was given when it completed, if it did. */
  assetId?: string;
  /** When the ticket was asked for (ms). */
  startedAt: number;
  /** The client is done with it (completed, or gave up and left it to resume later). */
  clientDone: boolean;
}

export interface InvariantReport {
  tasks: { tracked: number; finished: number; succeeded: number; failed: number; open: number };
  holds: { open: number; openPastOwner: number };
  uploads: { completed: number; resumable: number; answerLost: number; inProgress: number };
  users: number;
  violations: string[];
}

const FINAL = new Set<string>(FINISHED_TASK_STATUSES);

/**
 * `settled` true: every tracked task must be final by now (the end of a run). false (just after a
 * fault): tasks may still run, but whatever is final must be settled and the ledger must add up.
 */
export async function checkInvariants(
  db: Db,
  tracked: { taskIds: Iterable<string>; uploads: Iterable<TrackedUpload> },
  options: { settled: boolean; now?: number },
): Promise<InvariantReport> {
  const now = options.now ?? Date.now();
  const violations: string[] = [];
  const ids = [...new Set(tracked.taskIds)];
  const tasks = ids.length
    ? await db
        .selectFrom('tasks')
        .select(['id', 'status', 'hold_key', 'credits_captured', 'outputs'])
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(tasks.map((t) => [t.id, t]));
  for (const id of ids)
    if (!byId.has(id)) violations.push(`task ${id} was given to a client but is not in the database (lost)`);

  // Final events: exactly one per finished task (a second one means it was finished twice).
  const finals = ids.length
    ? await db
        .selectFrom('task_events')
        .select(['task_id', (eb) => eb.fn.countAll<string>().as('n')])
        .where('task_id', 'in', ids)
        .where(
          'type',
          'in',
          FINISHED_TASK_STATUSES.map((s) => `task.${s}`),
        )
        .groupBy('task_id')
        .execute()
    : [];
  const finalCount = new Map(finals.map((f) => [f.task_id, Number(f.n)]));
  const holds = ids.length
    ? await db.selectFrom('credit_holds').selectAll().where('task_id', 'in', ids).execute()
    : [];
  let finished = 0;
  let succeeded = 0;
  let failed = 0;
  for (const task of tasks) {
    const isFinal = FINAL.has(task.status);
    const events = finalCount.get(task.id) ?? 0;
    const own = holds.filter((h) => h.task_id === task.id);
    if (!isFinal) {
      if (options.settled) violations.push(`task ${task.id} is still ${task.status} (stuck)`);
      continue;
    }
    finished++;
    if (task.status === 'succeeded') succeeded++;
    else failed++;
    if (events > 1) violations.push(`task ${task.id} finished ${events} times`);
    // The final event is written after the settlement: a task between the two is not judged yet.
    if (events === 0) {
      if (options.settled) violations.push(`task ${task.id} is ${task.status} without its final event`);
      continue;
    }
    for (const h of own) {
      if (h.status === 'held')
        violations.push(`task ${task.id} is ${task.status} but its hold ${h.hold_key} is open`);
    }
    const captured = own.filter((h) => h.status === 'captured');
    const capturedSum = captured.reduce((s, h) => s + (h.captured ?? 0), 0);
    if (task.status === 'succeeded' && capturedSum !== task.credits_captured) {
      violations.push(
        `task ${task.id} captured ${capturedSum} credits in holds but records ${task.credits_captured}`,
      );
    }
    if (task.status !== 'succeeded' && capturedSum > 0) {
      violations.push(`task ${task.id} is ${task.status} yet ${capturedSum} credits were captured`);
    }
  }

  // The ledger per user: balance = sum of entries = sum of lots; each lot adds up and stays in range.
  const lots = await db.selectFrom('credit_lots').select(['id', 'user_id', 'amount', 'remaining']).execute();
  const sums = await db
    .selectFrom('credit_ledger')
    .select(['lot_id', (eb) => eb.fn.sum<string>('delta').as('sum')])
    .groupBy('lot_id')
    .execute();
  const lotSum = new Map(sums.map((s) => [s.lot_id, Number(s.sum)]));
  const users = new Set<string>();
  for (const lot of lots) {
    users.add(lot.user_id);
    const sum = lotSum.get(lot.id) ?? 0;
    if (sum !== lot.remaining)
      violations.push(`lot ${lot.id}: ledger adds up to ${sum}, lot has ${lot.remaining}`);
    if (lot.remaining < 0 || lot.remaining > lot.amount)
      violations.push(`lot ${lot.id}: ${lot.remaining} of ${lot.amount} left`);
  }
  const perUserLedger = await db
    .selectFrom('credit_ledger')
    .select(['user_id', (eb) => eb.fn.sum<string>('delta').as('sum')])
    .groupBy('user_id')
    .execute();
  const lotsPerUser = new Map<string, number>();
  for (const lot of lots) lotsPerUser.set(lot.user_id, (lotsPerUser.get(lot.user_id) ?? 0) + lot.remaining);
  for (const row of perUserLedger) {
    if (Number(row.sum) !== (lotsPerUser.get(row.user_id) ?? 0)) {
      violations.push(
        `user ${row.user_id}: balance ${Number(row.sum)} ≠ lots ${lotsPerUser.get(row.user_id) ?? 0}`,
      );
    }
  }
  // Each hold's lot draws add up to it; no open hold past its owner (an ended task, or a lapsed lease).
  const open = await db.selectFrom('credit_holds').selectAll().where('status', '=', 'held').execute();
  const openTasks = new Map(
    (open.length
      ? await db
          .selectFrom('tasks')
          .select(['id', 'status'])
          .where(
            'id',
            'in',
            open.map((h) => h.task_id),
          )
          .execute()
      : []
    ).map((t) => [t.id, t.status]),
  );
  let openPastOwner = 0;
  for (const h of open) {
    const taskStatus = openTasks.get(h.task_id);
    const lapsed = h.lease_until !== null && h.lease_until < now;
    const ended = taskStatus !== undefined && FINAL.has(taskStatus);
    // A lapsed lease is released by the next lease sweep: only at the end is it a violation.
    if (ended || (lapsed && options.settled)) {
      openPastOwner++;
      violations.push(
        `hold ${h.hold_key} is open past its owner (${ended ? `task ${taskStatus}` : 'lease lapsed'})`,
      );
    }
  }

  // Uploads: completed into the asset that was sent, or still resumable (its upload row is kept).
  let completed = 0;
  let resumable = 0;
  let answerLost = 0;
  let inProgress = 0;
  for (const up of tracked.uploads) {
    // An upload the client is still sending or completing is judged once it is done with it.
    if (!up.clientDone && !options.settled) {
      inProgress++;
      continue;
    }
    if (up.assetId) {
      const asset = await db
        .selectFrom('media_assets')
        .select(['sha256', 'size', 'owner_id', 'status'])
        .where('id', '=', up.assetId)
        .executeTakeFirst();
      if (!asset) violations.push(`upload ${up.uploadId}: its asset ${up.assetId} is gone`);
      else if (asset.sha256 !== up.sha256 || asset.size !== up.size || asset.owner_id !== up.ownerId) {
        violations.push(`upload ${up.uploadId}: the asset differs from what was sent`);
      } else completed++;
      continue;
    }
    const row = await db
      .selectFrom('media_uploads')
      .select('id')
      .where('id', '=', up.uploadId)
      .executeTakeFirst();
    if (row) {
      resumable++;
      continue;
    }
    // Completed on the server while the client's retry came too early (the first attempt was still
    // registering the file): the asset is in the owner's library; the retry got a clear not-found.
    const asset = await db
      .selectFrom('media_assets')
      .select('id')
      .where('owner_id', '=', up.ownerId)
      .where('sha256', '=', up.sha256)
      .where('size', '=', up.size)
      .where('created_at', '>=', up.startedAt)
      .executeTakeFirst();
    if (asset) answerLost++;
    // Just after a fault an earlier attempt of the client's may still be completing it on the
    // server (its retry was told the upload is gone): only the settled check can call it lost.
    else if (!options.settled) inProgress++;
    else violations.push(`upload ${up.uploadId} neither completed nor resumable`);
  }

  return {
    tasks: { tracked: ids.length, finished, succeeded, failed, open: ids.length - finished },
    holds: { open: open.length, openPastOwner },
    uploads: { completed, resumable, answerLost, inProgress },
    users: users.size,
    violations,
  };
}
