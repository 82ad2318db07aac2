import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type FileCheck,
  type SampleCheckView,
  type VoiceCloneView,
  type voiceCloneCalls,
  voiceCloneQuota,
} from '@vw/contract';
import {
  applySampleFix,
  compareSpeech,
  fixesFor,
  measureLevels,
  type SampleCheck,
  toFileCheck,
} from '@vw/engines';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { MediaAssetRow, VoiceCloneRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { localPathOf } from '../../media/files.ts';
import { withScratchDir } from '../../media/scratch.ts';
import { createTask } from '../../tasks/index.ts';
import { registerAsset } from '../uploads/register.ts';
import { getOwnedAsset, toAssetView } from '../uploads/uploads.service.ts';
import {
  countClonesOfKind,
  deleteCloneRow,
  deleteCloneVoice,
  findCloneOfOwner,
  findClonesOfOwner,
  insertClone,
  markSynthesesStale,
  renameCloneVoice,
  updateClone,
  upsertCloneVoice,
} from '../voices/clones.repo.ts';
import {
  accountName,
  assertCloneOn,
  keepSamples,
  makeFastClone,
  previewKeyFor,
  previewText,
  removeCloneFiles,
  voiceRowFor,
} from '../voices/clones.ts';
import {
  type CandidateRecord,
  localFiles,
  optionalRecognizer,
  pickCloneEngine,
  type ReferenceRecord,
  removeLocalFiles,
  runSampleCheck,
  synthesizePreview,
  transcribeText,
} from '../voices/cloning.ts';
import { getUserLevel } from '../voices/voices.service.ts';
import { professionalClonePipeline } from './professional.pipeline.ts';

type Body<K extends keyof typeof voiceCloneCalls> = (typeof voiceCloneCalls)[K] extends { body?: infer B }
  ? B extends z.ZodType
    ? z.output<B>
    : never
  : never;

const LINK_SECONDS = 3600;
/**
 * Most a consent recording's character error rate (what the recognizer heard against the shown
 * sentence, punctuation, case and width ignored) may be: room for a recognizer's slips on a read
 * sentence, none for another sentence or a different text.
 */
export const CONSENT_MAX_CER = 0.3;

export const CONSENT_SENTENCES: Record<'zh' | 'en', string[]> = {
  zh: [
    '我确认这是我本人的声音，并同意用它生成克隆声音。',
    '我是这段声音的主人，我授权声音工作台克隆我的声音。',
    '这是我自己的声音，我同意把它用于声音克隆。',
    '我本人录制了这些样本，并同意创建克隆声音。',
    '今天是我亲自朗读，我同意用我的声音生成新的语音。',
  ],
  en: [
    'I confirm this is my own voice and I agree to create a cloned voice from it.',
    'I own this voice and I allow Voice Workbench to clone it.',
    'These recordings are my own voice and I consent to voice cloning.',
  ],
};

const sentencesFor = (language: string) =>
  language.startsWith('zh') || language === 'yue' ? CONSENT_SENTENCES.zh : CONSENT_SENTENCES.en;

async function toView(ctx: AppContext, row: VoiceCloneRow): Promise<VoiceCloneView> {
  const samples = JSON.parse(row.samples) as Array<{ duration_ms: number }>;
  const refs = JSON.parse(row.reference_clips) as ReferenceRecord[];
  const candidates = JSON.parse(row.candidates) as CandidateRecord[];
  // A read sentence (the wizard), or an attestation (a speaker cloned in 视频翻译).
  const consent = JSON.parse(row.consent) as {
    kind?: 'attestation';
    accepted_at: number;
    sentence?: string;
    statement?: string;
    recognised_text?: string | null;
    project_id?: string;
  };
  return {
    clone_id: row.id,
    voice_id: row.id,
    name: row.name,
    kind: row.kind,
    status: row.status,
    language: row.language,
    engine: row.engine,
    engine_label: row.engine_label,
    profile: JSON.parse(row.profile),
    sample_count: samples.length,
    sample_duration_ms: samples.reduce((n, s) => n + s.duration_ms, 0),
    candidates: await Promise.all(
      candidates.map(async (c) => {
        const ref = refs[c.reference];
        return {
          index: c.index,
          engine: c.engine,
          engine_label: c.engine_label,
          note: c.note,
          reference: {
            source: ref?.source ?? '',
            start_ms: ref?.start_ms ?? 0,
            end_ms: ref?.end_ms ?? 0,
            url: ref ? await ctx.storage.signedUrl(ref.key, { expiresInSeconds: LINK_SECONDS }) : '',
          },
        };
      }),
    ),
    chosen: row.chosen,
    note: row.note,
    error: row.error,
    consent: {
      accepted_at: Math.floor(consent.accepted_at / 1000),
      sentence: consent.sentence ?? consent.statement ?? '',
      recognised_text: consent.recognised_text ?? null,
      verified_by:
        consent.kind === 'attestation' ? 'attestation' : consent.recognised_text == null ? 'kept' : 'asr',
      ...(consent.project_id ? { project_id: consent.project_id } : {}),
    },
    created_time: Math.floor(row.created_at / 1000),
    updated_time: Math.floor(row.updated_at / 1000),
  };
}

async function getOwnedClone(ctx: AppContext, userId: string, cloneId: string): Promise<VoiceCloneRow> {
  const row = await findCloneOfOwner(ctx.db, userId, cloneId);
  if (!row) throw AppError.named('err_not_found', '克隆声音不存在');
  return row;
}

async function quotaOf(ctx: AppContext, userId: string) {
  const limits = voiceCloneQuota(await getUserLevel(ctx, userId));
  return {
    fast: { used: await countClonesOfKind(ctx.db, userId, 'fast'), limit: limits.fast },
    professional: {
      used: await countClonesOfKind(ctx.db, userId, 'professional'),
      limit: limits.professional,
    },
  };
}

export async function getOverview(ctx: AppContext, userId: string) {
  await assertCloneOn(ctx);
  const rows = await findClonesOfOwner(ctx.db, userId);
  const { engines, problems } = ctx.engines.clone;
  const asr = optionalRecognizer(ctx);
  return {
    clones: await Promise.all(rows.map((r) => toView(ctx, r))),
    quota: await quotaOf(ctx, userId),
    engines: [
      ...engines.map((e) => ({ id: e.id, label: e.label, kind: e.kind, available: true, reason: '' })),
      ...problems.map((p) => ({
        id: p.id,
        label: p.label,
        kind: p.id === 'standard' ? ('fitted' as const) : ('zero-shot' as const),
        available: false,
        reason: '暂未开放',
      })),
    ],
    asr_label: asr?.label ?? '',
    trainer_label: ctx.engines.trainer?.label ?? '',
  };
}

export async function listClones(ctx: AppContext, userId: string) {
  await assertCloneOn(ctx);
  const rows = await findClonesOfOwner(ctx.db, userId);
  return { clones: await Promise.all(rows.map((r) => toView(ctx, r))) };
}

function fileCheckView(
  asset: MediaAssetRow,
  url: string,
  check: Omit<FileCheck, 'asset_id' | 'url'>,
): FileCheck {
  return { ...check, asset_id: asset.id, name: asset.name, url } as FileCheck;
}

async function ownedAudioAssets(ctx: AppContext, userId: string, ids: string[]): Promise<MediaAssetRow[]> {
  const out: MediaAssetRow[] = [];
  for (const id of [...new Set(ids)]) {
    const asset = await getOwnedAsset(ctx, userId, id);
    if (!asset.has_audio) throw AppError.named('err_file_not_supported', `「${asset.name}」没有音轨`);
    out.push(asset);
  }
  return out;
}

function checkView(check: SampleCheck, assets: MediaAssetRow[], urls: string[]): SampleCheckView {
  return {
    ...check,
    files: check.files.map((f, i) => fileCheckView(assets[i]!, urls[i]!, f as never)),
  } as SampleCheckView;
}

export async function checkAssets(ctx: AppContext, userId: string, body: Body<'voiceCloneCheck'>) {
  await assertCloneOn(ctx);
  const assets = await ownedAudioAssets(ctx, userId, body.asset_ids);
  return withScratchDir(ctx, `clone-check-${newId('c')}`, async (dir) => {
    const files = await localFiles(
      ctx,
      assets.map((a) => ({ key: a.storage_key, name: a.name })),
      dir,
    );
    const check = await runSampleCheck(ctx, files, body.kind, body.language);
    const urls = await Promise.all(assets.map(async (a) => (await toAssetView(ctx, a)).url));
    return { check: checkView(check, assets, urls) };
  });
}

/** Applies the fixes in the working order and registers the result as a new asset (the original stays). */
export async function fixAsset(ctx: AppContext, userId: string, body: Body<'voiceCloneFix'>) {
  await assertCloneOn(ctx);
  const [asset] = await ownedAudioAssets(ctx, userId, [body.asset_id]);
  return withScratchDir(ctx, `clone-fix-${newId('c')}`, async (dir) => {
    const source = await localPathOf(ctx, asset!.storage_key, dir);
    const beforeLevels = await measureLevels(source);
    const order = (['denoise', 'trim', 'normalize'] as const).filter((f) => body.fixes.includes(f));
    let current = source;
    for (const [i, fix] of order.entries()) {
      const next = path.join(dir, `fix-${i}-${fix}.wav`);
      try {
        await applySampleFix(fix, current, next);
      } catch (err) {
        ctx.log.warn({ err, fix }, 'sample fix failed');
        throw AppError.named('err_file_not_supported', '修复失败：无法处理该音频');
      }
      current = next;
    }
    const afterLevels = await measureLevels(current);
    const base = asset!.name.replace(/\.[^.]{1,8}$/, '');
    const fixedName = `${base}（${order.map((f) => ({ denoise: '降噪', trim: '裁剪静音', normalize: '标准化' })[f]).join('+')}）.wav`;
    const fixed = await registerAsset(ctx, userId, { file: current, name: fixedName });
    const before = toFileCheck(asset!.name, beforeLevels);
    const after = toFileCheck(fixedName, afterLevels);
    return {
      before: fileCheckView(asset!, (await toAssetView(ctx, asset!)).url, before as never),
      after: fileCheckView(fixed, (await toAssetView(ctx, fixed)).url, {
        ...after,
        fixes: fixesFor(after.items),
      } as never),
    };
  });
}

export function consentSentence(language: string): { sentence: string } {
  const list = sentencesFor(language);
  return { sentence: list[randomInt(list.length)]! };
}

interface ConsentInput {
  accepted: true;
  sentence: string;
  recording_asset_id: string;
}

/**
 * The consent record: the sentence must be one the server hands out. With a recognizer installed the
 * recording is recognised and compared with the sentence (character error rate ≤ CONSENT_MAX_CER, else
 * refused); without one it is kept with the voice unverified ('kept').
 */
async function recordConsent(
  ctx: AppContext,
  userId: string,
  cloneId: string,
  consent: ConsentInput,
  language: string,
  dir: string,
) {
  if (!Object.values(CONSENT_SENTENCES).flat().includes(consent.sentence)) {
    throw AppError.named('err_invalid_param', '授权句子无效：请刷新页面获取新的句子后重新朗读');
  }
  const [recording] = await ownedAudioAssets(ctx, userId, [consent.recording_asset_id]);
  const file = await localPathOf(ctx, recording!.storage_key, dir);
  const heard = await transcribeText(ctx, file, language);
  let cer: number | null = null;
  if (heard !== null) {
    cer = compareSpeech(consent.sentence, heard, { language }).cer;
    if (cer > CONSENT_MAX_CER) {
      throw AppError.named('err_invalid_param', `朗读内容与授权句子不一致（识别为「${heard}」），请重新朗读`);
    }
  }
  const ext = path.extname(recording!.storage_key) || '.bin';
  const audioKey = `voice-clones/${userId}/${cloneId}/consent${ext}`;
  await ctx.storage.put(audioKey, await readFile(file), recording!.mime || 'application/octet-stream');
  return {
    accepted_at: ctx.clock.now(),
    account: await accountName(ctx, userId),
    sentence: consent.sentence,
    audio_key: audioKey,
    recognised_text: heard,
    cer,
  };
}

/** The uploaded sample assets with their local copies, as `keepSamples` stores them. */
const samplesOf = (assets: MediaAssetRow[], files: Array<{ path: string }>) =>
  assets.map((a, i) => ({
    path: files[i]!.path,
    name: a.name,
    ext: path.extname(a.storage_key),
    mime: a.mime,
    duration_ms: Number(a.duration_ms ?? 0),
  }));

export async function createFastClone(ctx: AppContext, userId: string, body: Body<'voiceCloneCreate'>) {
  await assertCloneOn(ctx);
  const quota = await quotaOf(ctx, userId);
  if (quota.fast.used >= quota.fast.limit) throw AppError.named('err_voice_clone_ivc_insufficient_times');
  const engine = pickCloneEngine(ctx, body.engine);
  const assets = await ownedAudioAssets(ctx, userId, body.asset_ids);
  return withScratchDir(ctx, `clone-${newId('c')}`, async (dir) => {
    const files = await localFiles(
      ctx,
      assets.map((a) => ({ key: a.storage_key, name: a.name })),
      dir,
    );
    const row = await makeFastClone(ctx, userId, {
      name: body.name,
      language: body.language,
      engine,
      count: body.candidates,
      files,
      dir,
      keep: async (cloneId) => ({
        consent: await recordConsent(ctx, userId, cloneId, body.consent, body.language, dir),
        samples: await keepSamples(ctx, userId, cloneId, samplesOf(assets, files)),
      }),
    });
    return { clone: await toView(ctx, row) };
  });
}

export async function previewCandidate(ctx: AppContext, userId: string, body: Body<'voiceClonePreview'>) {
  await assertCloneOn(ctx);
  const row = await getOwnedClone(ctx, userId, body.clone_id);
  if (row.status !== 'ready') throw AppError.named('err_task_pending', '克隆声音尚未就绪');
  const candidates = JSON.parse(row.candidates) as CandidateRecord[];
  const candidate = candidates[body.candidate];
  if (!candidate) throw AppError.named('err_invalid_param', '没有这个候选声音');
  const text = body.text ?? previewText(row.language);
  const key = await synthesizePreview(ctx, {
    ownerId: userId,
    cloneId: row.id,
    candidate,
    text,
    language: row.language,
  });
  return {
    url: await ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS }),
    engine_label: candidate.engine_label,
    text,
  };
}

export async function chooseCandidate(ctx: AppContext, userId: string, body: Body<'voiceCloneChoose'>) {
  await assertCloneOn(ctx);
  const row = await getOwnedClone(ctx, userId, body.clone_id);
  const candidates = JSON.parse(row.candidates) as CandidateRecord[];
  const candidate = candidates[body.candidate];
  if (!candidate) throw AppError.named('err_invalid_param', '没有这个候选声音');
  const now = ctx.clock.now();
  const profile = JSON.parse(row.profile) as { gender: string };
  await updateClone(ctx.db, row.id, { chosen: body.candidate, note: candidate.note, updated_at: now });
  const previewKey = await previewKeyFor(ctx, row, candidate);
  await upsertCloneVoice(ctx.db, voiceRowFor(row, candidate, profile.gender, previewKey, now));
  await markSynthesesStale(ctx.db, userId, row.id);
  return {
    clone: await toView(ctx, { ...row, chosen: body.candidate, note: candidate.note, updated_at: now }),
  };
}

export async function renameClone(ctx: AppContext, userId: string, body: Body<'voiceCloneRename'>) {
  await assertCloneOn(ctx);
  const row = await getOwnedClone(ctx, userId, body.clone_id);
  const now = ctx.clock.now();
  await updateClone(ctx.db, row.id, { name: body.name, updated_at: now });
  await renameCloneVoice(ctx.db, userId, row.id, body.name, now);
  return { clone: await toView(ctx, { ...row, name: body.name, updated_at: now }) };
}

export async function deleteClone(ctx: AppContext, userId: string, body: Body<'voiceCloneDelete'>) {
  await assertCloneOn(ctx);
  const row = await getOwnedClone(ctx, userId, body.clone_id);
  const candidates = JSON.parse(row.candidates) as CandidateRecord[];
  await deleteCloneVoice(ctx.db, userId, row.id);
  await deleteCloneRow(ctx.db, userId, row.id);
  let removed = await removeCloneFiles(ctx, userId, row.id);
  const local = candidates.flatMap((c) => c.files);
  await removeLocalFiles(local);
  removed += local.length;
  return { deleted: true, files_removed: removed };
}

export async function recheckClone(ctx: AppContext, userId: string, body: Body<'voiceCloneRecheck'>) {
  await assertCloneOn(ctx);
  const row = await getOwnedClone(ctx, userId, body.clone_id);
  const samples = JSON.parse(row.samples) as Array<{ key: string; name: string }>;
  return withScratchDir(ctx, `clone-recheck-${newId('c')}`, async (dir) => {
    const files = await localFiles(ctx, samples, dir);
    const check = await runSampleCheck(ctx, files, row.kind, row.language);
    await updateClone(ctx.db, row.id, { check_report: JSON.stringify(check), updated_at: ctx.clock.now() });
    const urls = await Promise.all(
      samples.map((s) => ctx.storage.signedUrl(s.key, { expiresInSeconds: LINK_SECONDS })),
    );
    return {
      check: {
        ...check,
        files: check.files.map((f, i) => ({ ...f, asset_id: '', name: samples[i]!.name, url: urls[i]! })),
      } as SampleCheckView,
    };
  });
}

/** A professional dataset must hold at least this much audio. */
export const PROFESSIONAL_MIN_MS = 30 * 60_000;

/**
 * Professional clone: ≥ 30 min in many files. The row is made at once (queued) with a task of the
 * professional pipeline (professional.pipeline.ts) that checks every file, picks the best reference
 * clips, then trains through VOICE_CLONE_TRAINER_URL or, without a trainer, keeps the best
 * multi-reference zero-shot voice the configured engines allow. The user is notified either way.
 */
export async function createProfessionalClone(
  ctx: AppContext,
  userId: string,
  body: Body<'voiceCloneProfessionalCreate'>,
) {
  await assertCloneOn(ctx);
  const quota = await quotaOf(ctx, userId);
  if (quota.professional.used >= quota.professional.limit) {
    throw AppError.named('err_voice_clone_pvc_insufficient_times');
  }
  const assets = await ownedAudioAssets(ctx, userId, body.asset_ids);
  const total = assets.reduce((n, a) => n + Number(a.duration_ms ?? 0), 0);
  if (total < PROFESSIONAL_MIN_MS) {
    throw AppError.named(
      'err_invalid_param',
      `专业克隆需要至少 30 分钟的音频，当前 ${(total / 60_000).toFixed(1)} 分钟：请继续上传`,
    );
  }
  const engine = pickCloneEngine(ctx);
  const cloneId = newId('vc');
  try {
    const created: VoiceCloneRow = await withScratchDir(ctx, `clone-${cloneId}`, async (dir) => {
      const files = await localFiles(
        ctx,
        assets.map((a) => ({ key: a.storage_key, name: a.name })),
        dir,
      );
      const consent = await recordConsent(ctx, userId, cloneId, body.consent, body.language, dir);
      const samples = await keepSamples(ctx, userId, cloneId, samplesOf(assets, files));
      const now = ctx.clock.now();
      return {
        id: cloneId,
        owner_id: userId,
        name: body.name,
        kind: 'professional',
        status: 'queued',
        language: body.language,
        engine: ctx.engines.trainer ? 'trainer' : engine.id,
        engine_label: ctx.engines.trainer?.label ?? engine.label,
        profile: JSON.stringify({ median_hz: 0, p10_hz: 0, p90_hz: 0, rate: 0, gender: 'female' }),
        samples: JSON.stringify(samples),
        reference_clips: '[]',
        candidates: '[]',
        chosen: 0,
        consent: JSON.stringify(consent),
        check_report: null,
        note: '',
        error: null,
        trainer_job: null,
        created_at: now,
        updated_at: now,
      };
    });
    // Made once the request's scratch folder is gone (the task has its own).
    await createTask(ctx, professionalClonePipeline, {
      ownerId: userId,
      title: body.name,
      input: { clone_id: cloneId, trainer: created.engine === 'trainer' },
      prepare: () =>
        ctx.db.transaction().execute(async (trx) => {
          const used = await countClonesOfKind(trx, userId, 'professional');
          if (used >= quota.professional.limit)
            throw AppError.named('err_voice_clone_pvc_insufficient_times');
          await insertClone(trx, created);
        }),
    });
    return { clone: await toView(ctx, created) };
  } catch (err) {
    await removeCloneFiles(ctx, userId, cloneId).catch(() => {});
    throw err;
  }
}
