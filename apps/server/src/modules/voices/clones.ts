import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { VoiceStatus, voiceCloneQuota } from '@vw/contract';
import type { CloneEngine, SampleCheck } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import type { VoiceCloneRow } from '../../db/schema.ts';
import { cloneReferenceDir } from '../../engines/engines.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { getSetting } from '../settings/settings.service.ts';
import { countClonesOfKind, findClonesOfOwner, insertClone, upsertCloneVoice } from './clones.repo.ts';
import {
  buildCandidates,
  type CandidateRecord,
  pickCloneEngine,
  removeLocalFiles,
  runSampleCheck,
  synthesizePreview,
} from './cloning.ts';
import { ESPEAK_MODEL_ID } from './voices.seed.ts';
import { getUserLevel } from './voices.service.ts';

/*
 * Cloned voices in the library: whether cloning is open, the fast clone shared by the clone wizard
 * and 视频翻译's speakers (a clone row and its speakable voice), and the clones other tools list.
 */

const PREVIEW_TEXT: Record<'zh' | 'en', string> = {
  zh: '你好，这是我的克隆声音，听起来像我吗？',
  en: 'Hello, this is my cloned voice. Does it sound like me?',
};
export const previewText = (language: string) =>
  language.startsWith('zh') || language === 'yue' ? PREVIEW_TEXT.zh : PREVIEW_TEXT.en;

/** Every clone call: refused while voice_clone_switch is off (not only the web route). */
export async function assertCloneOn(ctx: AppContext): Promise<void> {
  if (!(await getSetting(ctx, 'voice_clone_switch'))) {
    throw AppError.named('err_permission_deny', '声音克隆暂未开放');
  }
}

/** Clones usable as a target (voice changer): ready ones of this user, with their measured pitch. */
export async function listUsableClones(
  ctx: AppContext,
  userId: string,
): Promise<
  Array<{ voice_id: string; name: string; profile: { median_hz: number; p10_hz: number; p90_hz: number } }>
> {
  if (!(await getSetting(ctx, 'voice_clone_switch'))) return [];
  const rows = await findClonesOfOwner(ctx.db, userId);
  return rows
    .filter((r) => r.status === 'ready')
    .map((r) => {
      const p = JSON.parse(r.profile) as { median_hz: number; p10_hz: number; p90_hz: number };
      return {
        voice_id: r.id,
        name: r.name,
        profile: { median_hz: p.median_hz, p10_hz: p.p10_hz, p90_hz: p.p90_hz },
      };
    });
}

export async function accountName(ctx: AppContext, userId: string): Promise<string> {
  const user = await ctx.db
    .selectFrom('users')
    .select(['phone', 'email'])
    .where('id', '=', userId)
    .executeTakeFirst();
  return user?.phone || user?.email || userId;
}

/** Copies of the sample files under the clone's folder (the clone keeps them for rechecks). */
export async function keepSamples(
  ctx: AppContext,
  userId: string,
  cloneId: string,
  files: Array<{ path: string; name: string; ext: string; mime: string | null; duration_ms: number }>,
) {
  const out: Array<{ key: string; name: string; duration_ms: number }> = [];
  for (const [i, f] of files.entries()) {
    const key = `voice-clones/${userId}/${cloneId}/sample-${i}${f.ext || '.bin'}`;
    await ctx.storage.put(key, await readFile(f.path), f.mime || 'application/octet-stream');
    out.push({ key, name: f.name, duration_ms: f.duration_ms });
  }
  return out;
}

export async function removeCloneFiles(ctx: AppContext, userId: string, cloneId: string): Promise<number> {
  let removed = 0;
  for await (const obj of ctx.storage.list(`voice-clones/${userId}/${cloneId}/`)) {
    await ctx.storage.remove(obj.key);
    removed++;
  }
  return removed;
}

export function voiceRowFor(
  row: Pick<VoiceCloneRow, 'id' | 'owner_id' | 'name' | 'language' | 'engine_label' | 'note' | 'created_at'>,
  candidate: CandidateRecord,
  gender: string,
  previewKey: string | null,
  now: number,
) {
  return {
    voice_id: row.id,
    owner_id: row.owner_id,
    engine: candidate.tts_engine,
    engine_params: JSON.stringify(candidate.voice),
    model_ids: JSON.stringify([candidate.tts_engine === 'espeak' ? ESPEAK_MODEL_ID : candidate.tts_engine]),
    name: row.name,
    description: candidate.note,
    gender,
    language: row.language,
    age: 'middle',
    accent: '',
    style: '克隆',
    use_case: '克隆声音',
    preview_text: previewText(row.language),
    preview_key: previewKey,
    required_level: 100,
    is_disabled: 0,
    status: VoiceStatus.Published,
    sort: 0,
    created_at: row.created_at,
    updated_at: now,
  };
}

/** The library's preview clip of a clone: the candidate's preview, made now when there is none yet. */
export async function previewKeyFor(
  ctx: AppContext,
  row: Pick<VoiceCloneRow, 'id' | 'owner_id' | 'language'>,
  candidate: CandidateRecord,
) {
  const key = `voice-clones/${row.owner_id}/${row.id}/preview-${candidate.index}.mp3`;
  if (await ctx.storage.stat(key)) return key;
  try {
    return await synthesizePreview(ctx, {
      ownerId: row.owner_id,
      cloneId: row.id,
      candidate,
      text: previewText(row.language),
      language: row.language,
    });
  } catch (err) {
    ctx.log.warn({ err, clone: row.id }, 'clone preview failed');
    return null;
  }
}

/** The statement a user accepts in 视频翻译 to clone the speakers of a video (no read sentence). */
export const SPEAKER_CONSENT_STATEMENT = '我确认拥有该视频中说话人声音的使用授权';

const sampleFailure = (check: SampleCheck) => {
  const failed = [...check.overall, ...check.files.flatMap((f) => f.items)].find((i) => i.status === 'fail');
  return `样本未通过检测：${failed?.label}（${failed?.measured}）${failed?.advice ?? ''}`;
};

/**
 * The core of a fast clone, shared by the wizard and 视频翻译's speakers: sample check → consent and
 * stored samples (`keep`) → candidates → the clone row and its library voice in one transaction that
 * checks the quota again (two racing creates cannot both take the last slot) → preview. Throws an
 * AppError when the samples fail or the quota is used up; nothing is left behind on any failure.
 */
export async function makeFastClone(
  ctx: AppContext,
  userId: string,
  opts: {
    name: string;
    language: string;
    engine: CloneEngine;
    count: number;
    files: Array<{ name: string; path: string }>;
    dir: string;
    signal?: AbortSignal;
    keep: (cloneId: string, check: SampleCheck) => Promise<{ consent: object; samples: object[] }>;
  },
): Promise<VoiceCloneRow> {
  const { engine, files, dir } = opts;
  const limit = voiceCloneQuota(await getUserLevel(ctx, userId)).fast;
  if ((await countClonesOfKind(ctx.db, userId, 'fast')) >= limit) {
    throw AppError.named('err_voice_clone_ivc_insufficient_times');
  }
  const cloneId = newId('vc');
  try {
    const check = await runSampleCheck(ctx, files, 'fast', opts.language);
    if (!check.ok) throw AppError.named('err_invalid_param', sampleFailure(check));
    const { consent, samples } = await opts.keep(cloneId, check);
    const built = await buildCandidates(ctx, {
      ownerId: userId,
      cloneId,
      files,
      language: opts.language,
      engine,
      count: opts.count,
      dir,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const now = ctx.clock.now();
    const row: VoiceCloneRow = {
      id: cloneId,
      owner_id: userId,
      name: opts.name,
      kind: 'fast',
      status: 'ready',
      language: opts.language,
      engine: engine.id,
      engine_label: engine.label,
      profile: JSON.stringify(built.profile),
      samples: JSON.stringify(samples),
      reference_clips: JSON.stringify(built.references),
      candidates: JSON.stringify(built.candidates),
      chosen: 0,
      consent: JSON.stringify(consent),
      check_report: JSON.stringify(check),
      note: built.candidates[0]!.note,
      error: null,
      trainer_job: null,
      created_at: now,
      updated_at: now,
    };
    const previewKey = await previewKeyFor(ctx, row, built.candidates[0]!);
    await ctx.db.transaction().execute(async (trx) => {
      const used = await countClonesOfKind(trx, userId, 'fast');
      if (used >= limit) throw AppError.named('err_voice_clone_ivc_insufficient_times');
      await insertClone(trx, row);
      await upsertCloneVoice(
        trx,
        voiceRowFor(row, built.candidates[0]!, built.profile.gender, previewKey, now),
      );
    });
    return row;
  } catch (err) {
    // Nothing is left behind: stored copies and the engines' reference files go.
    await removeCloneFiles(ctx, userId, cloneId).catch(() => {});
    await removeLocalFiles(await referenceFilesOf(ctx, cloneId)).catch(() => {});
    throw err;
  }
}

export type SpeakerClone =
  | { ok: true; clone_id: string; voice_id: string; engine_label: string }
  | { ok: false; reason: string };

/**
 * A fast clone of a speaker cut from a video (视频翻译): consent is the user's attestation for the
 * project, not a read sentence. Needs voice_clone_switch and a fast-clone slot; when the switch is
 * off, the quota is used up or the speech fails the sample check, the answer says why ({ ok: false })
 * and the speaker keeps its voice.
 */
export async function cloneSpeakerVoice(
  ctx: AppContext,
  userId: string,
  opts: {
    name: string;
    language: string;
    wavPath: string;
    dir: string;
    signal?: AbortSignal;
    projectId: string;
    acceptedAt: number;
  },
): Promise<SpeakerClone> {
  try {
    await assertCloneOn(ctx);
    const engine = pickCloneEngine(ctx);
    const files = [{ name: `${opts.name}.wav`, path: opts.wavPath }];
    const row = await makeFastClone(ctx, userId, {
      name: opts.name,
      language: opts.language,
      engine,
      count: 1,
      files,
      dir: opts.dir,
      ...(opts.signal ? { signal: opts.signal } : {}),
      keep: async (cloneId, check) => ({
        consent: {
          kind: 'attestation',
          statement: SPEAKER_CONSENT_STATEMENT,
          accepted_at: opts.acceptedAt,
          account: await accountName(ctx, userId),
          project_id: opts.projectId,
        },
        samples: await keepSamples(ctx, userId, cloneId, [
          {
            path: opts.wavPath,
            name: files[0]!.name,
            ext: '.wav',
            mime: 'audio/wav',
            duration_ms: check.total_duration_ms,
          },
        ]),
      }),
    });
    return { ok: true, clone_id: row.id, voice_id: row.id, engine_label: row.engine_label };
  } catch (err) {
    if (err instanceof AppError) return { ok: false, reason: err.message };
    throw err;
  }
}

/** Reference copies the engines wrote for a clone (named `<clone id>-c<n>-<i>.wav`). */
async function referenceFilesOf(ctx: AppContext, cloneId: string): Promise<string[]> {
  const root = cloneReferenceDir(ctx.config);
  const out: string[] = [];
  for (const sub of ['gpt-sovits', 'cosyvoice', 'sherpa']) {
    const names = await readdir(path.join(root, sub)).catch(() => [] as string[]);
    for (const n of names) if (n.startsWith(`${cloneId}-`)) out.push(path.join(root, sub, n));
  }
  return out;
}
