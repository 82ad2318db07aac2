import type { Kysely } from 'kysely';

/**
 * Work that ran on plain queue jobs before it became tasks: long syntheses (`tts.synthesize`),
 * professional cloning (`voice-clone.professional`) and consumption exports (`credits.export`, whose
 * export then reads as failed: 导出失败，请重新导出). A worker refuses to start while jobs it has no
 * definition for wait, so those still waiting end here, their items failed with a word to start
 * again. A synthesis's hold gets a lease that has run out: the lease sweep gives its credits back
 * (a professional clone held none). Names and texts are frozen here, not read from the tools.
 */
const SYNTHESIS_JOB = 'tts.synthesize';
const PROFESSIONAL_CLONE_JOB = 'voice-clone.professional';
const EXPORT_JOB = 'credits.export';
const GENERATION_FAILED = 1;
const LEASE_OWNER = 'migration:026_jobs_now_tasks';

interface Tables {
  jobs: {
    id: string;
    name: string;
    payload: string;
    status: string;
    error: string | null;
    updated_at: number;
  };
  tts_history: {
    id: string;
    status: string;
    hold_key: string | null;
    failure_code: number | null;
    error: string | null;
    updated_at: number;
  };
  voice_clones: { id: string; status: string; error: string | null; updated_at: number };
  credit_holds: { hold_key: string; status: string; lease_owner: string | null; lease_until: number | null };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const k = db as Kysely<Tables>;
  const now = Date.now();
  const waiting = await k
    .selectFrom('jobs')
    .select(['id', 'name', 'payload'])
    .where('name', 'in', [SYNTHESIS_JOB, PROFESSIONAL_CLONE_JOB, EXPORT_JOB])
    .where('status', 'in', ['queued', 'running'])
    .execute();
  for (const job of waiting) {
    const payload = JSON.parse(job.payload) as { history_id?: string; clone_id?: string };
    if (job.name === SYNTHESIS_JOB && payload.history_id) {
      const row = await k
        .selectFrom('tts_history')
        .select('hold_key')
        .where('id', '=', payload.history_id)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      await k
        .updateTable('tts_history')
        .set({
          status: 'failed',
          failure_code: GENERATION_FAILED,
          error: '服务已升级，请重新生成',
          updated_at: now,
        })
        .where('id', '=', payload.history_id)
        .where('status', 'in', ['queued', 'running'])
        .execute();
      if (row?.hold_key) {
        await k
          .updateTable('credit_holds')
          .set({ lease_owner: LEASE_OWNER, lease_until: 0 })
          .where('hold_key', '=', row.hold_key)
          .where('status', '=', 'held')
          .execute();
      }
    }
    if (job.name === PROFESSIONAL_CLONE_JOB && payload.clone_id) {
      await k
        .updateTable('voice_clones')
        .set({ status: 'failed', error: '服务已升级，请重新创建专业克隆', updated_at: now })
        .where('id', '=', payload.clone_id)
        .where('status', 'in', ['queued', 'training'])
        .execute();
    }
    await k
      .updateTable('jobs')
      .set({ status: 'failed', error: 'replaced by tasks (migration 026)', updated_at: now })
      .where('id', '=', job.id)
      .execute();
  }
}

export async function down(): Promise<void> {
  // The failed items stay failed: their owners start them again.
}
