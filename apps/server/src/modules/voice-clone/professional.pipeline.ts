import { setTimeout as sleep } from 'node:timers/promises';
import { isEngineError, type TrainerStatus, type VoiceProfile } from '@vw/engines';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { VoiceCloneRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { definePipeline, type StageContext, taskFailure } from '../../tasks/index.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import { findClone, updateClone, upsertCloneVoice } from '../voices/clones.repo.ts';
import { previewKeyFor, voiceRowFor } from '../voices/clones.ts';
import {
  buildCandidates,
  type CandidateRecord,
  localFiles,
  pickCloneEngine,
  type ReferenceRecord,
  removeLocalFiles,
  runSampleCheck,
} from '../voices/cloning.ts';

/** Signed links handed to the trainer stay valid for as long as a training may wait and run. */
const TRAINER_LINK_SECONDS = 7 * 24 * 3600;

const input = z.object({
  clone_id: z.string(),
  /** A training server was configured when the clone was made (its row's engine is `trainer`). */
  trainer: z.boolean(),
});
type Input = z.infer<typeof input>;

interface Samples {
  key: string;
  name: string;
}

/** The voice made from the best reference clips (what the clone is when no trainer runs). */
interface Built {
  profile: VoiceProfile;
  references: ReferenceRecord[];
  candidate: CandidateRecord;
  engine_label: string;
  note: string;
}

type Trained = NonNullable<TrainerStatus['voice']>;

/**
 * A stage of the clone: reads its row, and words any failure as the clone's error (the clone row
 * shows the message itself, as the training server or the engine said it).
 */
function cloneStage<R>(run: (ctx: StageContext<Input>, row: VoiceCloneRow) => Promise<R>) {
  return async (ctx: StageContext<Input>): Promise<R> => {
    const row = await findClone(ctx.app.db, ctx.input.clone_id);
    if (!row) throw taskFailure(1, '克隆声音不存在');
    // A failed clone stays failed (a retried task does not bring it back past the quota).
    if (row.status === 'failed') throw taskFailure(1, row.error ?? '专业克隆失败');
    try {
      return await run(ctx, row);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw taskFailure(1, isEngineError(err) ? err.zh : err instanceof Error ? err.message : String(err));
    }
  };
}

const samplesOf = (row: VoiceCloneRow) => JSON.parse(row.samples) as Samples[];

/** Sends the dataset and reference clips to the trainer once (a resumed stage polls the same job). */
async function waitForTraining(ctx: StageContext<Input>, row: VoiceCloneRow, built: Built): Promise<Trained> {
  const { app } = ctx;
  const trainer = app.engines.trainer;
  if (!trainer) throw new Error('训练服务暂不可用，请联系管理员');
  const jobId = await ctx.item('trainer-job', async () => {
    const link = (key: string) => app.storage.signedUrl(key, { expiresInSeconds: TRAINER_LINK_SECONDS });
    const started = await trainer.train({
      voice_id: row.id,
      language: row.language,
      dataset: await Promise.all(samplesOf(row).map(async (s) => ({ url: await link(s.key), name: s.name }))),
      references: await Promise.all(
        built.references.map(async (r) => ({ url: await link(r.key), text: r.text })),
      ),
    });
    await updateClone(app.db, row.id, { trainer_job: started.job_id });
    return started.job_id;
  });
  for (;;) {
    const status = await trainer.status(jobId);
    if (status.status === 'ready' && status.voice) return status.voice;
    if (status.status === 'ready' || status.status === 'failed') throw new Error(status.error ?? '训练失败');
    await sleep(app.config.VOICE_CLONE_TRAINER_POLL_MS, undefined, { signal: ctx.signal });
  }
}

/** The trained voice, speaking through the TTS engine the trainer named. */
function trainedCandidate(
  app: AppContext,
  built: Built,
  voice: Trained,
  sampleCount: number,
): CandidateRecord {
  if (!app.engines.tts.has(voice.engine)) {
    throw new Error(`训练结果所需的语音引擎 ${voice.engine} 暂不可用，请联系管理员`);
  }
  return {
    ...built.candidate,
    engine: 'trainer',
    engine_label: `训练服务（${voice.engine}）`,
    tts_engine: voice.engine,
    voice: { ...voice.params, engine: voice.engine } as never,
    note: `训练服务完成训练（${sampleCount} 个文件）`,
    files: [],
  };
}

async function notifyOwner(app: AppContext, row: VoiceCloneRow, error: string | null): Promise<void> {
  await notifyUser(app, row.owner_id, {
    title: error === null ? '专业克隆已完成' : '专业克隆失败',
    body: error === null ? `「${row.name}」已可在我的声音中使用` : `「${row.name}」：${error}`,
  }).catch((err) => app.log.warn({ err }, 'clone notification failed'));
}

/**
 * Professional cloning (design §9: on the task spine). Checks every file, builds the best
 * multi-reference voice from the usable ones, trains it on VOICE_CLONE_TRAINER_URL when one is
 * configured (the trainer's job id is a checkpoint: a restarted worker polls the same training),
 * then registers the voice. The clone row stays the tool's own view (queued → training → ready or
 * failed with the error); the owner is told either way.
 */
export const professionalClonePipeline = definePipeline<Input>({
  tool: 'voice_clone',
  input,
  notifiesOwner: true,
  stages: [
    {
      name: 'check',
      label: '检测样本',
      lane: 'heavy',
      weight: 1,
      run: cloneStage(async (ctx, row) => {
        await updateClone(ctx.app.db, row.id, { status: 'training', updated_at: ctx.app.clock.now() });
        const files = await localFiles(ctx.app, samplesOf(row), ctx.scratchDir);
        const check = await runSampleCheck(ctx.app, files, 'professional', row.language);
        await updateClone(ctx.app.db, row.id, { check_report: JSON.stringify(check) });
        const usable = files.flatMap((_, i) => (check.files[i]!.ok ? [i] : []));
        if (usable.length === 0) throw new Error('没有通过检测的文件：请查看逐个文件的检测结果');
        return { usable };
      }),
    },
    {
      name: 'references',
      label: '挑选参考片段',
      lane: 'heavy',
      weight: 2,
      run: cloneStage(async (ctx, row): Promise<Built> => {
        const { usable } = ctx.results.check as { usable: number[] };
        const samples = samplesOf(row);
        const files = await localFiles(
          ctx.app,
          usable.map((i) => samples[i]!),
          ctx.scratchDir,
        );
        const engine = ctx.input.trainer ? pickCloneEngine(ctx.app) : pickCloneEngine(ctx.app, row.engine);
        const built = await buildCandidates(ctx.app, {
          ownerId: row.owner_id,
          cloneId: row.id,
          files,
          language: row.language,
          engine,
          count: 1,
          multiReference: true,
          dir: ctx.scratchDir,
          signal: ctx.signal,
        });
        const note =
          engine.kind === 'fitted'
            ? `本站未开启训练服务与零样本引擎：使用${engine.label}（按 ${usable.length} 个文件拟合的标准引擎声音）`
            : `本站未开启训练服务：使用 ${engine.label} 多参考零样本声音（${Math.min(engine.maxReferences, built.references.length)} 段最佳参考音频）`;
        return {
          profile: built.profile,
          references: built.references,
          candidate: built.candidates[0]!,
          engine_label: engine.label,
          note,
        };
      }),
    },
    {
      name: 'train',
      label: '训练声音',
      lane: 'heavy',
      weight: 6,
      when: (i) => i.trainer,
      run: cloneStage((ctx, row) => waitForTraining(ctx, row, ctx.results.references as Built)),
    },
    {
      name: 'register',
      label: '登记声音',
      lane: 'light',
      weight: 1,
      run: cloneStage(async (ctx, row) => {
        const { app } = ctx;
        const built = ctx.results.references as Built;
        const trained = ctx.results.train as Trained | undefined;
        let candidate = built.candidate;
        if (trained) {
          candidate = trainedCandidate(app, built, trained, samplesOf(row).length);
          await removeLocalFiles(built.candidate.files);
        }
        const note = trained ? candidate.note : built.note;
        const label = trained ? candidate.engine_label : built.engine_label;
        const now = app.clock.now();
        const previewKey = await previewKeyFor(app, row, candidate);
        const ready = { ...row, engine_label: label, note };
        await upsertCloneVoice(app.db, voiceRowFor(ready, candidate, built.profile.gender, previewKey, now));
        await updateClone(app.db, row.id, {
          status: 'ready',
          engine_label: label,
          profile: JSON.stringify(built.profile),
          reference_clips: JSON.stringify(built.references),
          candidates: JSON.stringify([candidate]),
          note,
          updated_at: app.clock.now(),
        });
        return null;
      }),
    },
  ],
  async onFinished({ app, task }) {
    const { clone_id } = input.parse(JSON.parse(task.input));
    const row = await findClone(app.db, clone_id);
    if (!row) return;
    if (task.status === 'succeeded') return notifyOwner(app, row, null);
    const error = task.error ?? '';
    await updateClone(app.db, row.id, { status: 'failed', error, updated_at: app.clock.now() });
    await notifyOwner(app, row, error);
  },
});
