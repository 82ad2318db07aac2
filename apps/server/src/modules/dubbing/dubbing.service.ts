import {
  type DubOptions,
  type dubbingCalls,
  dubSettings,
  type ProjectDocument,
  type TaskTool,
} from '@vw/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { MediaAssetRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Pipeline } from '../../tasks/pipeline.ts';
import { createTask } from '../../tasks/tasks.service.ts';
import { priceTask } from '../credits/pricing.service.ts';
import type { ToolChecks } from '../features/features.service.ts';
import { createProjectWithTask, readProjectDocument } from '../projects/projects.service.ts';
import type { DubInput } from '../projects/stages/dub.ts';
import { assertVoices, startRegenerate } from '../projects/stages/dub-actions.ts';
import {
  DUB_TRACK_ID,
  dubbingDocument,
  dubTrack,
  parseDubbingSubtitles,
  secondTrack,
  trackEndMs,
} from '../projects/stages/dub-document.ts';
import { readDubProject, updateDubDocument } from '../projects/stages/dub-project.ts';
import { recognizerStatus } from '../projects/stages/recognize-speech.ts';
import { assertBackground, SEPARATOR_MISSING } from '../projects/stages/separator.ts';
import { getOwnedAsset } from '../uploads/uploads.service.ts';
import { type DubTool, dubPipelines } from './dubbing.pipeline.ts';

type Body<K extends keyof typeof dubbingCalls> = (typeof dubbingCalls)[K] extends { body?: infer B }
  ? B extends z.ZodType
    ? z.output<B>
    : never
  : never;

const baseName = (name: string) => name.replace(/\.[^.]{1,8}$/, '') || name;

async function mediaAsset(ctx: AppContext, userId: string, assetId: string, need: 'video' | 'media') {
  const asset = await getOwnedAsset(ctx, userId, assetId);
  if (need === 'video' && !asset.has_video) {
    throw AppError.named('err_file_not_supported', '请选择视频文件（该素材没有画面）');
  }
  if (!asset.has_audio && !asset.has_video) throw AppError.named('err_file_not_supported');
  return asset;
}

/** The project and its task; the project is removed again when the task is refused (credits, queue). */
async function start(
  ctx: AppContext,
  userId: string,
  tool: DubTool,
  name: string,
  document: ProjectDocument,
  asset: MediaAssetRow | null,
  extra: Partial<DubInput>,
  inputAssetIds: string[],
  /** Another price than dubbing the track (a review run: the recognition only, or nothing). */
  creditTool: 'dubbing' | 'speech_to_text' | 'subtitle_ocr' | null = 'dubbing',
) {
  assertBackground(ctx, document.dub?.background);
  const pricedMs = trackEndMs(document, asset?.duration_ms ?? null);
  const credits = creditTool ? await priceTask(ctx, creditTool, { seconds: Math.ceil(pricedMs / 1000) }) : 0;
  const { projectId, taskId } = await createProjectWithTask(
    ctx,
    {
      ownerId: userId,
      tool,
      name,
      sourceAssetId: asset?.id ?? null,
      document,
    },
    (projectId) =>
      createTask(ctx, dubPipelines[tool], {
        ownerId: userId,
        title: name,
        input: { project_id: projectId, scope: 'create', priced_ms: pricedMs, ...extra },
        inputAssetIds,
        projectId: projectId,
        credits: creditTool ? { tool: creditTool, amount: credits } : null,
      }),
  );
  return { task_id: taskId, project_id: projectId, credits };
}

const settingsOf = (options: DubOptions, media: string | null, voice: string) => ({
  ...options,
  default_voice_id: voice,
  media_asset_id: media,
});

/** SRT配音: a subtitle file (and optionally a video or audio) → a timed voice track. */
export async function createSrtDubbing(ctx: AppContext, userId: string, body: Body<'srtDubbingCreate'>) {
  const { cues } = parseDubbingSubtitles(body.subtitle.name, body.subtitle.text);
  await assertVoices(ctx, userId, [body.default_voice_id, ...Object.values(body.speaker_voices)]);
  const asset = body.media_asset_id ? await mediaAsset(ctx, userId, body.media_asset_id, 'media') : null;
  const document = dubbingDocument(
    cues,
    settingsOf(body.options, asset?.id ?? null, body.default_voice_id),
    body.speaker_voices,
  );
  // A second file (another language): the second line of bilingual subtitles, paired by time overlap.
  if (body.second_subtitle) {
    const second = parseDubbingSubtitles(body.second_subtitle.name, body.second_subtitle.text).cues;
    document.tracks.push(secondTrack(second));
  }
  const name = body.name ?? baseName(body.subtitle.name);
  return start(ctx, userId, 'srt_dubbing', name, document, asset, {}, asset ? [asset.id] : []);
}

/** AI配音: a video → subtitles (recognition, an existing project, or a file) → dubbed → rendered. */
export async function createDubbing(ctx: AppContext, userId: string, body: Body<'dubbingCreate'>) {
  const asset = await mediaAsset(ctx, userId, body.asset_id, 'media');
  await assertVoices(ctx, userId, [body.default_voice_id, ...Object.values(body.speaker_voices)]);
  const settings = settingsOf(body.options, asset.id, body.default_voice_id);
  let document: ProjectDocument;
  let extra: Partial<DubInput> = {};
  if (body.source === 'subtitle') {
    if (!body.subtitle) throw AppError.named('err_invalid_param', '请上传字幕文件');
    document = dubbingDocument(
      parseDubbingSubtitles(body.subtitle.name, body.subtitle.text).cues,
      settings,
      body.speaker_voices,
    );
  } else if (body.source === 'project') {
    if (!body.source_project_id) throw AppError.named('err_invalid_param', '请选择字幕项目');
    const source = await readProjectDocument(ctx, userId, body.source_project_id);
    const track = source.tracks.find((t) => t.kind === 'source');
    if (!track || track.cues.every((c) => c.text.trim() === '')) {
      throw AppError.named('err_video_without_subtitle', '所选项目还没有字幕');
    }
    const byId = new Map(source.speakers.map((s) => [s.id, s.name]));
    document = dubbingDocument(
      track.cues
        .filter((c) => c.text.trim() !== '')
        .map((c) => ({
          start_ms: c.start_ms,
          end_ms: c.end_ms,
          text: c.text,
          speaker: c.speaker_id ? byId.get(c.speaker_id) : undefined,
        })),
      settings,
      body.speaker_voices,
      track.language,
    );
    // The source project's translation (e.g. a 字幕提取 project's second band) comes along for
    // bilingual subtitles.
    const translation = source.tracks.find((t) => t.kind === 'translation' && t.cues.length > 0);
    if (translation) document.tracks.push(secondTrack(translation.cues, translation.language));
  } else if (body.source === 'ocr') {
    if (!asset.has_video) throw AppError.named('err_file_not_supported', '请选择视频文件（该素材没有画面）');
    document = {
      speakers: [],
      tracks: [{ id: DUB_TRACK_ID, kind: 'source', language: body.language, cues: [] }],
      rules: dubbingDocument([], settings, {}).rules,
      dub: dubSettings.parse(settings),
    };
    extra = { ocr: { language: body.language, ...(body.ocr_regions ? { regions: body.ocr_regions } : {}) } };
  } else {
    const status = recognizerStatus(ctx);
    if (!status.available) throw AppError.named('err_interface_unavailable', status.reason);
    if (!asset.has_audio) throw AppError.named('err_file_not_supported', '该素材没有音轨，无法识别语音');
    document = {
      speakers: [],
      tracks: [{ id: DUB_TRACK_ID, kind: 'source', language: body.language, cues: [] }],
      rules: dubbingDocument([], settings, {}).rules,
      dub: dubSettings.parse(settings),
    };
    extra = { recognize: { language: body.language } };
  }
  const name = body.name ?? baseName(asset.name);
  if (body.review) {
    // Paused for review: this task makes the subtitles (priced as the recognition, if any); the
    // lines are dubbed (and priced) by 生成过期音频 after the check in the editor.
    const tool = extra.recognize ? 'speech_to_text' : extra.ocr ? 'subtitle_ocr' : null;
    return start(ctx, userId, 'dubbing', name, document, asset, { ...extra, review: true }, [asset.id], tool);
  }
  return start(ctx, userId, 'dubbing', name, document, asset, extra, [asset.id]);
}

/** 视频合成: a video + audio tracks + subtitles + background music → one MP4 (no synthesis). */
export async function createVideoSynthesis(
  ctx: AppContext,
  userId: string,
  body: Body<'videoSynthesisCreate'>,
) {
  const video = await mediaAsset(ctx, userId, body.video_asset_id, 'video');
  const ids = [video.id];
  for (const t of body.audio_tracks) {
    const a = await getOwnedAsset(ctx, userId, t.asset_id);
    if (!a.has_audio) throw AppError.named('err_file_not_supported', `素材「${a.name}」没有音轨`);
    ids.push(a.id);
  }
  if (body.music_asset_id) {
    const m = await getOwnedAsset(ctx, userId, body.music_asset_id);
    if (!m.has_audio) throw AppError.named('err_file_not_supported', `素材「${m.name}」没有音轨`);
    ids.push(m.id);
  }
  const cues = body.subtitle
    ? parseDubbingSubtitles(body.subtitle.name, body.subtitle.text, { voiced: false }).cues
    : [];
  const document = dubbingDocument(
    cues,
    {
      ...body.options,
      media_asset_id: video.id,
      audio_tracks: body.audio_tracks,
      music_asset_id: body.music_asset_id ?? null,
      music_volume_db: body.music_volume_db,
      outputs: ['mp4', ...(cues.length ? (['srt'] as const) : [])],
      background: body.options.background ?? (body.audio_tracks.length ? 'duck' : 'keep'),
      check: false,
    },
    {},
  );
  for (const cue of dubTrack(document)!.cues) cue.stale = false;
  const name = body.name ?? baseName(video.name);
  return start(ctx, userId, 'synthesis', name, document, video, {}, [...new Set(ids)]);
}

/** Tools whose projects carry a dub (视频翻译 speaks its translation track with the same stages). */
const DUB_TOOLS: readonly TaskTool[] = ['srt_dubbing', 'dubbing', 'synthesis', 'translate'];

async function dubProject(ctx: AppContext, userId: string, projectId: string) {
  const project = await readDubProject(ctx, userId, projectId);
  if (!DUB_TOOLS.includes(project.row.tool as TaskTool) || !project.document.dub) {
    throw AppError.named('err_invalid_param', '该项目不是配音项目');
  }
  return project;
}

/** 生成过期音频, one line again (with a one-click fix), every line, or only the render. */
export async function regenerate(ctx: AppContext, userId: string, body: Body<'dubbingRegenerate'>) {
  const { row, document } = await dubProject(ctx, userId, body.project_id);
  // The project's own pipeline (视频翻译's runs the dub stages after its own, skipped for these scopes).
  const pipeline =
    (dubPipelines as Record<string, Pipeline<DubInput>>)[row.tool] ?? ctx.pipelines.get(row.tool);
  if (!pipeline) throw AppError.named('err_invalid_param', '该项目不是配音项目');
  return startRegenerate(ctx, userId, { row, document }, body, pipeline as Pipeline<DubInput>);
}

export async function pickTake(ctx: AppContext, userId: string, body: Body<'dubbingPickTake'>) {
  const { version } = await dubProject(ctx, userId, body.project_id);
  if (version !== body.version) throw AppError.named('err_project_version_conflict');
  const next = await updateDubDocument(ctx, userId, body.project_id, (doc) => {
    const cue = dubTrack(doc)?.cues.find((c) => c.id === body.cue_id);
    if (!cue) throw AppError.named('err_not_found', '句子不存在');
    const take = cue.takes?.find((t) => t.id === body.take_id);
    if (!take) throw AppError.named('err_not_found', '该版本不存在');
    Object.assign(cue, { take_id: take.id, fit: take.fit, stale: take.source_text !== cue.text });
    return doc;
  });
  return { version: next };
}

export async function lockCues(ctx: AppContext, userId: string, body: Body<'dubbingLock'>) {
  const { version } = await dubProject(ctx, userId, body.project_id);
  if (version !== body.version) throw AppError.named('err_project_version_conflict');
  const ids = new Set(body.cue_ids);
  const next = await updateDubDocument(ctx, userId, body.project_id, (doc) => {
    for (const cue of dubTrack(doc)?.cues ?? []) if (ids.has(cue.id)) cue.locked = body.locked;
    return doc;
  });
  return { version: next };
}

const LINK_SECONDS = 3600;

export async function dubbingMedia(ctx: AppContext, userId: string, projectId: string) {
  const { document } = await dubProject(ctx, userId, projectId);
  const sign = (key: string | null | undefined) =>
    key ? ctx.storage.signedUrl(key, { expiresInSeconds: LINK_SECONDS }) : Promise.resolve('');
  const takes: Record<string, string> = {};
  for (const cue of dubTrack(document)?.cues ?? []) {
    for (const take of cue.takes ?? []) takes[take.id] = await sign(take.audio_key);
  }
  return {
    dub_url: await sign(document.dub?.dub_key),
    mix_url: await sign(document.dub?.mix_key),
    takes,
  };
}

// /v1/tools/capabilities: speech synthesis and ffmpeg run here, so the dubbing tools are available;
// the engines say what runs (the language model and the checker are optional).
/** `separator` when one is configured (the web then offers 分离人声), else `separator_missing` with the reason. */
function separatorEngine(ctx: AppContext) {
  const sep = ctx.engines.separate;
  return sep
    ? { id: 'separator', label: `人声分离：${sep.label}` }
    : { id: 'separator_missing', label: SEPARATOR_MISSING };
}
function enginesOf(ctx: AppContext) {
  const engines = [
    { id: 'tts', label: '语音合成（声音库）' },
    { id: 'rubberband', label: 'Rubber Band R3' },
  ];
  const { llm } = ctx.engines;
  engines.push(
    llm
      ? { id: 'llm', label: `语言模型缩写 · ${llm.model}` }
      : { id: 'llm', label: '自动缩写暂未开放（不缩写）' },
  );
  engines.push({ id: 'ocr', label: `画面字幕识别：${ctx.engines.ocr.label}` });
  engines.push(separatorEngine(ctx));
  const asr = recognizerStatus(ctx);
  engines.push(
    asr.available
      ? { id: 'asr', label: '自动校验：语音识别' }
      : { id: 'asr', label: '语音识别暂未开放：不做自动校验，不能从语音生成字幕' },
  );
  return engines;
}
const dubbingCheck = (tool: 'srt_dubbing' | 'dubbing') => async (ctx: AppContext) => ({
  tool,
  available: true,
  reason: '',
  error_type: '',
  engines: enginesOf(ctx),
});
export const dubbingAvailability: ToolChecks = {
  srt_dubbing: dubbingCheck('srt_dubbing'),
  dubbing: dubbingCheck('dubbing'),
  synthesis: async (ctx) => ({
    tool: 'synthesis',
    available: true,
    reason: '',
    error_type: '',
    engines: [{ id: 'ffmpeg', label: 'FFmpeg + libass' }, separatorEngine(ctx)],
  }),
};
