import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as jobsNowTasks from '../src/db/migrations/026_jobs_now_tasks.ts';
import type { VoiceCloneRow } from '../src/db/schema.ts';
import { releaseAbandonedHolds } from '../src/modules/credits/hold-leases.ts';
import { holdCredits } from '../src/modules/credits/ledger.service.ts';
import { professionalClonePipeline } from '../src/modules/voice-clone/professional.pipeline.ts';
import { insertClone } from '../src/modules/voices/clones.repo.ts';
import { createTask, runTaskInline } from '../src/tasks/index.ts';
import { insertItem, updateStage } from '../src/tasks/tasks.repo.ts';
import { type FakeCloneServers, startFakeCloneServers } from './fake-clone.ts';
import { createTestServer, fund, signIn, type TestServer } from './harness.ts';

/*
 * Professional cloning on the task spine: a worker that died while the trainer trained resumes by
 * polling the same training (no second one), and jobs of the kinds that became tasks end at upgrade.
 */

let server: TestServer;
let fakes: FakeCloneServers;

beforeAll(async () => {
  fakes = await startFakeCloneServers();
  server = await createTestServer({
    GPT_SOVITS_URL: fakes.gptSovitsUrl,
    VOICE_CLONE_TRAINER_URL: fakes.trainerUrl,
    VOICE_CLONE_TRAINER_POLL_MS: '20',
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fakes?.close();
});

async function userId(phone: string): Promise<string> {
  return (await signIn(server.app, phone, `10.17.0.${phone.slice(-2)}`)).user_info.uid;
}

function cloneRow(ownerId: string, id: string, status: VoiceCloneRow['status']): VoiceCloneRow {
  const now = server.clock.now();
  return {
    id,
    owner_id: ownerId,
    name: '专业声音',
    kind: 'professional',
    status,
    language: 'en-US',
    engine: 'trainer',
    engine_label: '训练服务',
    profile: JSON.stringify({ median_hz: 0, p10_hz: 0, p90_hz: 0, rate: 0, gender: 'female' }),
    samples: JSON.stringify([
      { key: 'voice-clones/x/sample-0.wav', name: '数据集.wav', duration_ms: 1_805_000 },
    ]),
    reference_clips: '[]',
    candidates: '[]',
    chosen: 0,
    consent: JSON.stringify({ accepted_at: now, sentence: 's' }),
    check_report: null,
    note: '',
    error: null,
    trainer_job: null,
    created_at: now,
    updated_at: now,
  };
}

describe('professional cloning as a task', () => {
  it('resumes polling the training it started instead of starting another', async () => {
    const owner = await userId('13900001701');
    await insertClone(server.ctx.db, cloneRow(owner, 'vc_resume', 'training'));
    fakes.trainedVoice = {
      engine: 'gpt-sovits',
      params: { ref_audio_path: '/nowhere.wav', prompt_lang: 'en' },
    };
    // The worker that died had started the training (and stored its job id) before the sweep ran.
    const started = (await (
      await fetch(`${fakes.trainerUrl}/train`, { method: 'POST', body: '{}' })
    ).json()) as {
      job_id: string;
    };
    const task = await createTask(server.ctx, professionalClonePipeline, {
      ownerId: owner,
      title: '专业声音',
      input: { clone_id: 'vc_resume', trainer: true },
    });
    const built = {
      profile: { median_hz: 200, p10_hz: 180, p90_hz: 220, rate: 4, gender: 'female' },
      references: [],
      candidate: {
        index: 0,
        engine: 'gpt-sovits',
        engine_label: 'GPT-SoVITS',
        tts_engine: 'gpt-sovits',
        voice: { engine: 'gpt-sovits' },
        note: '',
        files: [],
        reference: 0,
      },
      engine_label: 'GPT-SoVITS',
      note: '',
    };
    for (const [name, result] of [
      ['check', { usable: [0] }],
      ['references', built],
    ] as const) {
      await updateStage(server.ctx.db, task.id, name, {
        status: 'done',
        progress: 1,
        result: JSON.stringify(result),
      });
    }
    await insertItem(server.ctx.db, {
      task_id: task.id,
      stage: 'train',
      item: 'trainer-job',
      result: JSON.stringify(started.job_id),
      created_at: server.clock.now(),
    });
    const trainings = fakes.requests.filter((r) => r.path === '/train').length;

    const done = await runTaskInline(server.ctx, professionalClonePipeline as never, task.id);

    expect(done?.status).toBe('succeeded');
    expect(fakes.requests.filter((r) => r.path === '/train')).toHaveLength(trainings);
    const row = await server.ctx.db
      .selectFrom('voice_clones')
      .selectAll()
      .where('id', '=', 'vc_resume')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ready', engine_label: '训练服务（gpt-sovits）', error: null });
  });

  it('fails a clone whose task fails, with the error the stage gave', async () => {
    const owner = await userId('13900001702');
    await insertClone(server.ctx.db, cloneRow(owner, 'vc_gone', 'queued'));
    const task = await createTask(server.ctx, professionalClonePipeline, {
      ownerId: owner,
      title: '专业声音',
      input: { clone_id: 'vc_gone', trainer: true },
    });
    // Its only sample is not in storage: the check stage cannot read it.
    const done = await runTaskInline(server.ctx, professionalClonePipeline as never, task.id);
    expect(done?.status).toBe('failed');
    const row = await server.ctx.db
      .selectFrom('voice_clones')
      .selectAll()
      .where('id', '=', 'vc_gone')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    expect(row.error).toBe(done?.error);
  });

  it('ends jobs of the kinds that became tasks at upgrade (migration 026), a synthesis refunded', async () => {
    const owner = await userId('13900001703');
    const db = server.ctx.db;
    const now = server.clock.now();
    await fund(server, owner, 100);
    await insertClone(db, cloneRow(owner, 'vc_legacy', 'training'));
    await holdCredits(server.ctx, {
      userId: owner,
      holdKey: 'tts:legacy',
      amount: 40,
      tool: 'tts',
      taskId: 'h_legacy',
      taskName: '旧的合成',
    });
    await db
      .insertInto('tts_history')
      .values({
        id: 'h_legacy',
        user_id: owner,
        tool: 'tts',
        name: '旧的合成',
        text: '你好',
        text_md5: 'x',
        voice_id: 'v',
        voice_name: 'v',
        model_id: 'm',
        speed: 1,
        pitch: 0,
        volume: 1,
        format: 'mp3',
        characters: 2,
        credits: 40,
        cache_key: 'c',
        options_key: 'o',
        options: '{}',
        hold_key: 'tts:legacy',
        task_id: null,
        status: 'running',
        progress: 0,
        sentences_total: 1,
        sentences_done: 0,
        failure_code: null,
        error: null,
        duration_ms: 0,
        is_stale: 0,
        audio_key: null,
        audio_size: 0,
        srt_key: null,
        srt_size: 0,
        wav_key: null,
        wav_size: 0,
        sentences: null,
        created_at: now,
        updated_at: now,
        api_key_id: null,
      })
      .execute();
    const job = (id: string, name: string, payload: object) => ({
      id,
      name,
      owner_id: owner,
      idempotency_key: null,
      payload: JSON.stringify(payload),
      status: 'queued' as const,
      progress: 0,
      result: null,
      error: null,
      attempts: 0,
      max_attempts: 1,
      run_at: now,
      locked_by: null,
      locked_until: null,
      created_at: now,
      updated_at: now,
    });
    await db
      .insertInto('jobs')
      .values([
        job('job_legacy_tts', 'tts.synthesize', { history_id: 'h_legacy' }),
        job('job_legacy_clone', 'voice-clone.professional', { clone_id: 'vc_legacy' }),
        job('job_legacy_export', 'credits.export', { exportId: 'ex_legacy' }),
      ])
      .execute();

    await jobsNowTasks.up(db as never);

    const jobs = await db
      .selectFrom('jobs')
      .select('status')
      .where('id', 'in', ['job_legacy_tts', 'job_legacy_clone', 'job_legacy_export'])
      .execute();
    expect(jobs.map((j) => j.status)).toEqual(['failed', 'failed', 'failed']);
    const history = await db
      .selectFrom('tts_history')
      .selectAll()
      .where('id', '=', 'h_legacy')
      .executeTakeFirstOrThrow();
    expect(history).toMatchObject({ status: 'failed', error: '服务已升级，请重新生成' });
    const clone = await db
      .selectFrom('voice_clones')
      .selectAll()
      .where('id', '=', 'vc_legacy')
      .executeTakeFirstOrThrow();
    expect(clone).toMatchObject({ status: 'failed', error: '服务已升级，请重新创建专业克隆' });
    // The lease sweep gives the synthesis's credits back.
    await releaseAbandonedHolds(server.ctx);
    const hold = await db
      .selectFrom('credit_holds')
      .select('status')
      .where('hold_key', '=', 'tts:legacy')
      .executeTakeFirstOrThrow();
    expect(hold.status).toBe('released');
  });
});
