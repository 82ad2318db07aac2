import {
  dubSettings,
  type ProjectDocument,
  projectsCalls,
  subtitleRulesFor,
  type TranslationBody,
  translationSettings,
  type videoTranslationCalls,
} from '@vw/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Pipeline } from '../../tasks/pipeline.ts';
import { createTask, resumeTask } from '../../tasks/tasks.service.ts';
import { getBalance } from '../credits/ledger.service.ts';
import { priceLines, priceTask } from '../credits/pricing.service.ts';
import { assertFeature, type ToolChecks } from '../features/features.service.ts';
import { attachTask, createProject, deleteProject, lineActionState } from '../projects/projects.service.ts';
import type { DubInput } from '../projects/stages/dub.ts';
import { assertVoices, regenerateState, startRegenerate } from '../projects/stages/dub-actions.ts';
import { dubbingDocument, parseDubbingSubtitles } from '../projects/stages/dub-document.ts';
import { readDubProject, updateDubDocument } from '../projects/stages/dub-project.ts';
import { recognizerStatus } from '../projects/stages/recognize-speech.ts';
import { getSetting } from '../settings/settings.service.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';
import { pickCloneEngine } from '../voices/cloning.ts';
import {
  assertTarget,
  DEFAULT_TARGETS,
  defaultVoiceFor,
  SOURCE_LANGUAGES,
  targetLanguages,
} from './video-translation.languages.ts';
import { LIPSYNC_MISSING } from './video-translation.lipsync.ts';
import { type TranslateInput, targetTrack, translatePipeline } from './video-translation.pipeline.ts';
import { readPreferences } from './video-translation.profile.ts';
import { findPausedTask, saveSpeakerVoices } from './video-translation.repo.ts';

type Body<K extends keyof typeof videoTranslationCalls> = (typeof videoTranslationCalls)[K] extends {
  body?: infer B;
}
  ? B extends z.ZodType
    ? z.output<B>
    : never
  : never;

export const SOURCE_TRACK = 'source';
export const TARGET_TRACK = 'target';
const CLONE_OFF = '声音克隆暂未开放：管理员打开「声音克隆」开关后可按说话人克隆音色';
const CONSENT_MISSING = '按说话人克隆音色前，请先确认拥有该视频中说话人声音的使用授权';
const baseName = (name: string) => name.replace(/\.[^.]{1,8}$/, '') || name;

/** dub.clone_speakers: the voice-clone switch and the engine the clones are made with (or why not). */
export async function cloneAvailability(ctx: AppContext) {
  if (!(await getSetting(ctx, 'voice_clone_switch'))) return { available: false, reason: CLONE_OFF };
  try {
    return { available: true, reason: '', engine_label: pickCloneEngine(ctx).label };
  } catch (err) {
    return { available: false, reason: err instanceof AppError ? err.message : String(err) };
  }
}

export async function languages(ctx: AppContext) {
  const { llm, embed, lipsync: lip } = ctx.engines;
  return {
    source: SOURCE_LANGUAGES,
    target: targetLanguages(ctx),
    llm: {
      configured: Boolean(llm),
      model: llm?.model ?? '',
      reason: llm ? '' : '自动翻译暂未开放：识别后请在编辑器中手动翻译，其余步骤照常进行',
    },
    embedding: {
      configured: Boolean(embed),
      model: embed ? ctx.config.LLM_EMBEDDING_MODEL! : '',
    },
    lip_sync: { available: Boolean(lip), reason: lip ? '' : LIPSYNC_MISSING },
    asr: recognizerStatus(ctx),
    ocr_label: ctx.engines.ocr.label,
    clone: await cloneAvailability(ctx),
  };
}

/** Everything a create checks before holding credits; the asset and the per-target price. */
async function check(ctx: AppContext, userId: string, body: TranslationBody) {
  await assertFeature(ctx, userId, 'video_translate');
  const targets = [...new Set(body.target_languages.map((code) => assertTarget(ctx, code)))];
  const asset = await getOwnedAsset(ctx, userId, body.asset_id);
  if (!asset.has_video) throw AppError.named('err_file_not_supported', '请选择视频文件（该素材没有画面）');
  if (body.subtitle_source === 'asr') {
    const status = recognizerStatus(ctx);
    if (!status.available) throw AppError.named('err_interface_unavailable', status.reason);
    if (!asset.has_audio) throw AppError.named('err_file_not_supported', '该视频没有音轨，无法识别语音');
  }
  let cues: ReturnType<typeof parseDubbingSubtitles>['cues'] = [];
  if (body.subtitle_source === 'subtitle') {
    if (!body.subtitle) throw AppError.named('err_invalid_param', '请上传字幕文件');
    cues = parseDubbingSubtitles(body.subtitle.name, body.subtitle.text).cues;
    if (!cues.some((c) => c.text.trim()))
      throw AppError.named('err_video_without_subtitle', '字幕文件中没有文字');
  }
  if (body.erase.enabled) await assertFeature(ctx, userId, 'subtitle_erase');
  if (body.lip_sync) {
    await assertFeature(ctx, userId, 'lip_sync');
    if (!ctx.engines.lipsync) throw AppError.named('err_interface_unavailable', LIPSYNC_MISSING);
  }
  if (body.dub.enabled && body.dub.clone_speakers) {
    if (!body.dub.clone_consent) throw AppError.named('err_invalid_param', CONSENT_MISSING);
    if (!(await getSetting(ctx, 'voice_clone_switch')))
      throw AppError.named('err_permission_deny', CLONE_OFF);
    pickCloneEngine(ctx);
    if (!asset.has_audio)
      throw AppError.named('err_file_not_supported', '该视频没有音轨，无法克隆说话人的声音');
  }
  // Speaker voices are remembered for later projects: usable ones only, dub or not.
  const voices = [...Object.values(body.dub.speaker_voices)];
  if (body.dub.enabled) {
    for (const t of targets) voices.push(body.dub.default_voice_id ?? (await defaultVoiceFor(ctx, t)));
  }
  await assertVoices(ctx, userId, voices);
  const seconds = Math.ceil((asset.duration_ms ?? 0) / 1000);
  const perTarget = await priceTask(ctx, 'video_translation', { seconds });
  return { targets, asset, cues, seconds, perTarget };
}

export async function estimate(ctx: AppContext, userId: string, body: TranslationBody) {
  const { targets, seconds, perTarget } = await check(ctx, userId, body);
  const credits = perTarget * targets.length;
  const { balance } = await getBalance(ctx, userId);
  return { credits, per_target: perTarget, seconds, balance, sufficient: balance >= credits };
}

/** One target's document: the source track (from the file, or filled by recognition), settings. */
function documentFor(
  body: TranslationBody,
  target: string,
  assetId: string,
  cues: ReturnType<typeof parseDubbingSubtitles>['cues'],
  preferences: z.output<typeof translationSettings>['preferences'],
  defaultVoice: string,
): ProjectDocument {
  const sub = body.subtitles;
  const dub = dubSettings.parse({
    ...body.dub.options,
    default_voice_id: body.dub.default_voice_id ?? defaultVoice,
    media_asset_id: assetId,
    spoken_track: 'translation',
    // The dub stage's recognizer check compares in the source language's recognizer: off here.
    check: false,
    subtitle_mode: sub.lines === 'none' ? 'none' : sub.mode,
    subtitle_lines: sub.lines === 'bilingual' ? 'bilingual' : 'single',
    subtitle_style: projectsCalls.subtitleStyle.parse(sub.style ?? {}),
    // Without a dub the original audio plays as it is.
    ...(body.dub.enabled ? {} : { background: 'keep' }),
    outputs: ['mp4', 'srt'],
  });
  const doc = dubbingDocument(cues, {}, body.dub.speaker_voices, body.source_language);
  return {
    speakers: doc.speakers,
    tracks: [
      { ...doc.tracks[0]!, id: SOURCE_TRACK },
      { id: TARGET_TRACK, kind: 'translation', language: target, cues: [] },
    ],
    // The editor checks the spoken (target) track: the rules of its language.
    rules: subtitleRulesFor(target),
    dub,
    translation: translationSettings.parse({
      source_language: body.source_language,
      target_language: target,
      source_track_id: SOURCE_TRACK,
      target_track_id: TARGET_TRACK,
      preferences,
      use_glossary: body.use_glossary,
      split: body.split,
      subtitle_source: body.subtitle_source,
      erase_regions: [],
      erase_method: body.erase.method,
      subtitle_lines: sub.lines,
      dub_enabled: body.dub.enabled,
      lip_sync: body.lip_sync,
      clone_speakers: body.dub.enabled && body.dub.clone_speakers,
    }),
  };
}

export async function createTranslation(ctx: AppContext, userId: string, body: TranslationBody) {
  const { targets, asset, cues, seconds, perTarget } = await check(ctx, userId, body);
  // Every target's credits must be there before the first is held (nothing half-made).
  const { balance } = await getBalance(ctx, userId);
  if (balance < perTarget * targets.length) throw AppError.named('err_balance_insufficient');
  const preferences = body.preferences ?? (await readPreferences(ctx, userId));
  const name = body.name ?? baseName(asset.name);
  const items: Array<{ target_language: string; task_id: string; project_id: string }> = [];
  try {
    for (const target of targets) {
      const title = targets.length > 1 ? `${name}（${target}）` : name;
      const project = await createProject(ctx, {
        ownerId: userId,
        tool: 'translate',
        name: title,
        sourceAssetId: asset.id,
        document: documentFor(body, target, asset.id, cues, preferences, await defaultVoiceFor(ctx, target)),
      });
      items.push({ target_language: target, task_id: '', project_id: project.id });
      const input: TranslateInput = {
        project_id: project.id,
        scope: 'create',
        source: {
          kind: body.subtitle_source,
          language: body.source_language,
          ...(body.ocr_regions ? { regions: body.ocr_regions } : {}),
        },
        ...(body.erase.enabled ? { erase: body.erase.regions ? { regions: body.erase.regions } : {} } : {}),
        pauses: body.review,
        ...(body.dub.enabled && body.dub.clone_speakers
          ? { clone: { accepted_at: ctx.clock.now(), default_voice: !body.dub.default_voice_id } }
          : {}),
        priced_ms: seconds * 1000,
      };
      const task = await createTask(ctx, translatePipeline, {
        ownerId: userId,
        title,
        input,
        inputAssetIds: [asset.id],
        projectId: project.id,
        credits: { tool: 'video_translation', amount: perTarget },
      });
      items[items.length - 1]!.task_id = task.id;
      await attachTask(ctx, userId, project.id, task.id);
    }
  } catch (err) {
    // A later target refused: the earlier ones go again (their tasks cancelled, credits released).
    for (const item of items) await deleteProject(ctx, userId, item.project_id).catch(() => {});
    throw err;
  }
  await saveSpeakerVoices(ctx.db, userId, body.dub.speaker_voices, ctx.clock.now());
  return { ...items[0]!, credits: perTarget * targets.length, items };
}

/** A translation project of this user, else err_dubbing_task_not_found (never someone else's). */
export async function translationProject(ctx: AppContext, userId: string, projectId: string) {
  const project = await readDubProject(ctx, userId, projectId).catch(() => null);
  if (project?.row.tool !== 'translate' || !project.document.translation) {
    throw AppError.named('err_dubbing_task_not_found', '视频翻译项目不存在');
  }
  return project;
}

async function lineTask(
  ctx: AppContext,
  userId: string,
  projectId: string,
  scope: 'retranslate' | 'back_translate',
  cueIds: string[] | undefined,
  instructions?: string,
) {
  const { row, document } = await translationProject(ctx, userId, projectId);
  if (!ctx.engines.llm) {
    throw AppError.named('err_interface_unavailable', '自动翻译暂未开放：请在编辑器中手动翻译');
  }
  const cues = targetTrack(document)?.cues ?? [];
  const known = new Set(cues.map((c) => c.id));
  if (cueIds?.some((id) => !known.has(id))) throw AppError.named('err_not_found', '句子不存在');
  const lines = cueIds ? cues.filter((c) => cueIds.includes(c.id)) : cues.filter((c) => !c.locked);
  if (lines.length === 0) throw AppError.named('err_invalid_param', '没有可处理的句子');
  // Never the project's task: the project keeps following its own (a paused one stays paused).
  await lineActionState(ctx, userId, row);
  const pricedMs = lines.reduce((s, c) => s + (c.end_ms - c.start_ms), 0);
  const credits = await priceLines(ctx, 'video_translation', pricedMs);
  const task = await createTask(ctx, translatePipeline, {
    ownerId: userId,
    title: row.name,
    input: {
      project_id: row.id,
      scope,
      ...(cueIds ? { cue_ids: cueIds } : {}),
      ...(instructions ? { instructions } : {}),
      priced_ms: pricedMs,
    },
    inputAssetIds: document.dub?.media_asset_id ? [document.dub.media_asset_id] : [],
    projectId: row.id,
    credits: { tool: 'video_translation', amount: credits },
  });
  return { task_id: task.id, credits, lines: lines.length };
}

export const retranslate = (ctx: AppContext, userId: string, body: Body<'videoTranslationRetranslate'>) =>
  lineTask(ctx, userId, body.project_id, 'retranslate', body.cue_ids, body.instructions);

export const backTranslateAgain = (
  ctx: AppContext,
  userId: string,
  body: Body<'videoTranslationBackTranslate'>,
) => lineTask(ctx, userId, body.project_id, 'back_translate', body.cue_ids);

/** Re-dub (dubbing's regenerate on the translation track), with this render's subtitles if given. */
export async function redub(ctx: AppContext, userId: string, body: Body<'videoTranslationRedub'>) {
  const project = await translationProject(ctx, userId, body.project_id);
  // Refused (running; a render at a review pause) before anything below changes the document.
  await regenerateState(ctx, userId, project.row, body.scope);
  if (body.fix === 'slow_video' && project.document.translation?.erase_regions.length) {
    throw AppError.named('err_invalid_param', '擦除原字幕的项目不能放慢画面：请改用缩写、借用间隙或加速');
  }
  if (body.scope !== 'render' && project.document.translation?.dub_enabled === false) {
    await updateDubDocument(ctx, userId, body.project_id, (doc) => {
      doc.translation = { ...doc.translation!, dub_enabled: true };
      return doc;
    });
  }
  if (body.subtitles) {
    const sub = body.subtitles;
    await updateDubDocument(ctx, userId, body.project_id, (doc) => {
      doc.dub = {
        ...dubSettings.parse(doc.dub ?? {}),
        subtitle_mode: sub.lines === 'none' ? 'none' : sub.mode,
        subtitle_lines: sub.lines === 'bilingual' ? 'bilingual' : 'single',
        ...(sub.style
          ? {
              subtitle_style: projectsCalls.subtitleStyle.parse({ ...doc.dub?.subtitle_style, ...sub.style }),
            }
          : {}),
      };
      doc.translation = { ...doc.translation!, subtitle_lines: sub.lines };
      return doc;
    });
  }
  const fresh = await translationProject(ctx, userId, body.project_id);
  // The same speaker name keeps the voice chosen here in this user's later projects.
  const named = Object.fromEntries(
    fresh.document.speakers.filter((s) => s.voice_id && s.name).map((s) => [s.name, s.voice_id!]),
  );
  await saveSpeakerVoices(ctx.db, userId, named, ctx.clock.now());
  const { cue_id, fix, outputs, scope, project_id } = body;
  return startRegenerate(
    ctx,
    userId,
    fresh,
    {
      project_id,
      scope,
      ...(cue_id ? { cue_id } : {}),
      ...(fix ? { fix } : {}),
      ...(outputs ? { outputs } : {}),
    },
    translatePipeline as unknown as Pipeline<DubInput>,
  );
}

/** Continues the project's task paused for review. */
export async function continueTranslation(ctx: AppContext, userId: string, projectId: string) {
  const { row } = await translationProject(ctx, userId, projectId);
  const task = await findPausedTask(ctx.db, userId, row.id);
  if (!task) throw AppError.named('err_task_not_paused');
  await resumeTask(ctx, userId, task.id);
  // The editor follows the project's task: the resumed one again.
  await attachTask(ctx, userId, row.id, task.id);
  return { task_id: task.id };
}

// /v1/tools/capabilities: the tool runs (recognition, OCR, ffmpeg here); the engines say what translates.
export const translateAvailability: ToolChecks = {
  translate: async (ctx) => {
    const l = await languages(ctx);
    return {
      tool: 'translate',
      available: true,
      reason: '',
      error_type: '',
      engines: [
        { id: 'llm', label: l.llm.configured ? `翻译：${l.llm.model}` : l.llm.reason },
        {
          id: 'drift',
          label: l.embedding.configured
            ? `回译校对：向量相似度 · ${l.embedding.model}`
            : '回译校对：词语重合度',
        },
        { id: 'ocr', label: `画面字幕识别：${l.ocr_label}` },
        { id: 'asr', label: l.asr.available ? '语音识别' : '语音识别暂未开放' },
        { id: 'opencc', label: '繁体中文：OpenCC' },
        ...(l.lip_sync.available ? [{ id: 'lip_sync', label: '口型同步' }] : []),
        ...(l.clone.available ? [{ id: 'clone', label: `说话人克隆：${l.clone.engine_label}` }] : []),
      ],
    };
  },
};

export { DEFAULT_TARGETS };
