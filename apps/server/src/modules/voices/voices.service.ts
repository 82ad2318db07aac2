import { createHash } from 'node:crypto';
import {
  FREE_LEVEL,
  type LanguageIcon,
  type Model,
  ttsMaxChars,
  type Voice,
  VoiceStatus,
} from '@vw/contract';
import { type EngineVoice, ESPEAK_LANGUAGES, ESPEAK_PERSONAS, encodeAudio } from '@vw/engines';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { VoiceRow } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { defineJob } from '../../jobs/index.ts';
import { getTenantBonus } from '../credits/membership.service.ts';
import { NEURAL_VOICE_PREFIX, neuralLabelOf, syncNeuralVoices, voiceRuns } from './neural.ts';
import {
  addFavorite,
  findEnabledBuiltinVoices,
  findFavoriteIds,
  findVoiceFor,
  findVoicesFor,
  findVoicesWithoutPreview,
  removeFavorite,
  setVoicePreview,
} from './voices.repo.ts';
import { DEFAULT_VOICE_MAP, ESPEAK_MODEL_ID } from './voices.seed.ts';

/** Preview links are signed for a day; the web refetches the list at start-up and after payments. */
const PREVIEW_LINK_SECONDS = 24 * 3600;

/**
 * Signed preview links, reused while at least half their day is left: signing thirty of them for
 * every voice list (S3 presigning) cost more than the rest of the call. One map per store.
 */
const previewLinks = new WeakMap<object, Map<string, { url: string; renewAt: number }>>();
const PREVIEW_LINKS_MAX = 10_000;

async function previewUrl(ctx: AppContext, key: string): Promise<string> {
  let links = previewLinks.get(ctx.storage);
  if (!links) {
    links = new Map();
    previewLinks.set(ctx.storage, links);
  }
  const now = ctx.clock.now();
  const known = links.get(key);
  if (known && known.renewAt > now) return known.url;
  const url = await ctx.storage.signedUrl(key, { expiresInSeconds: PREVIEW_LINK_SECONDS });
  if (links.size >= PREVIEW_LINKS_MAX) links.clear();
  links.set(key, { url, renewAt: now + (PREVIEW_LINK_SECONDS * 1000) / 2 });
  return url;
}

const ENGINE_LABELS: Record<string, string> = {
  espeak: '标准引擎',
  'sherpa-onnx': '本地神经网络',
  'openai-compatible': '自托管语音服务',
  'gpt-sovits': 'GPT-SoVITS',
  cosyvoice: 'CosyVoice',
  'sherpa-zeroshot': 'sherpa-onnx 零样本',
};

/**
 * A user's own espeak voice is a fitted clone: never shown as the plain standard engine. A local
 * neural voice names its model (神经网络 · Kokoro 中英双语).
 */
export const engineLabelOf = (ctx: AppContext, row: VoiceRow) =>
  row.owner_id && row.engine === 'espeak'
    ? '标准引擎近似'
    : (neuralLabelOf(ctx, row) ?? ENGINE_LABELS[row.engine] ?? row.engine);

async function toVoiceView(ctx: AppContext, row: VoiceRow, favorites: Set<string>): Promise<Voice> {
  return {
    voice_id: row.voice_id,
    name: row.name,
    engine: row.engine,
    engine_label: engineLabelOf(ctx, row),
    language: row.language,
    labels: {
      gender: row.gender,
      language: row.language,
      age: row.age,
      accent: row.accent,
      style: row.style,
      use_case: row.use_case,
    },
    description: row.description,
    preview_url: row.preview_key ? await previewUrl(ctx, row.preview_key) : '',
    preview_text: row.preview_text,
    required_level: row.required_level,
    // 1: the operator's switch; 2: a local voice whose model is not installed (neural.ts).
    is_disabled: row.is_disabled !== 0 || !voiceRuns(ctx, row),
    status: row.status,
    is_favorite: favorites.has(row.voice_id),
    model_ids: JSON.parse(row.model_ids) as string[],
    category: row.owner_id ? 'mine' : 'builtin',
    sort: row.sort,
  };
}

export async function findVoices(
  ctx: AppContext,
  userId: string,
  query: { status?: number[]; legacy_voice_skip_disabled?: boolean },
): Promise<{ voices: Voice[] }> {
  const rows = await findVoicesFor(ctx.db, userId, query.status ?? [VoiceStatus.Published]);
  const favorites = await findFavoriteIds(ctx.db, userId);
  let voices = await Promise.all(rows.map((r) => toVoiceView(ctx, r, favorites)));
  if (query.legacy_voice_skip_disabled) voices = voices.filter((v) => !v.is_disabled);
  return { voices };
}

/** The language each tool's default voice speaks (video translation: the usual target, English). */
const DEFAULT_VOICE_LANGUAGE: Record<string, string> = {
  tts: 'zh',
  audiobook: 'zh',
  dubbing: 'zh',
  video_translation: 'en',
};

/**
 * The first installed local neural voice speaking `language` (its base: 'zh', 'en'), of `gender` when
 * one is, that every plan may use; null when none is installed.
 */
export async function neuralVoiceFor(
  ctx: AppContext,
  language: string,
  gender?: string,
): Promise<string | null> {
  if (ctx.engines.ttsModels.length === 0) return null;
  const base = language.toLowerCase().split(/[-_]/)[0];
  const speaking = (await findEnabledBuiltinVoices(ctx.db, NEURAL_VOICE_PREFIX)).filter(
    (v) =>
      v.language.toLowerCase().split('-')[0] === base && v.required_level <= FREE_LEVEL && voiceRuns(ctx, v),
  );
  return (speaking.find((v) => v.gender === gender) ?? speaking[0])?.voice_id ?? null;
}

/**
 * New users' voice per tool: the first installed local neural voice of the tool's language (of the
 * standard default's gender when there is one), else the standard engine's default.
 */
export async function getDefaultVoiceMap(
  ctx: AppContext,
): Promise<{ default_voice_map: Record<string, string> }> {
  const map = { ...DEFAULT_VOICE_MAP };
  for (const [tool, language] of Object.entries(DEFAULT_VOICE_LANGUAGE)) {
    const standardGender = ESPEAK_PERSONAS.find((p) => p.id === DEFAULT_VOICE_MAP[tool])?.gender;
    map[tool] = (await neuralVoiceFor(ctx, language, standardGender)) ?? map[tool]!;
  }
  return { default_voice_map: map };
}

/** One tool's default voice (see getDefaultVoiceMap). */
export async function defaultVoiceOf(ctx: AppContext, tool: string): Promise<string> {
  return (await getDefaultVoiceMap(ctx)).default_voice_map[tool] ?? DEFAULT_VOICE_MAP[tool]!;
}

/** The user's plan level (free when no plan is in force). */
export async function getUserLevel(ctx: AppContext, userId: string): Promise<number> {
  return (await getTenantBonus(ctx, userId)).level ?? FREE_LEVEL;
}

const LANGUAGE_NAMES: Record<string, string> = Object.fromEntries(
  ESPEAK_LANGUAGES.map((l) => [l.code, l.name]),
);

/** Models of the engines that started; the espeak one speaks every language of the catalogue. */
export async function findModels(
  ctx: AppContext,
  userId: string,
): Promise<{ models: Model[]; multilingual_model_id: string }> {
  const maxChars = ttsMaxChars(await getUserLevel(ctx, userId));
  const models: Model[] = ctx.engines.tts.list().map(({ id, capabilities }) => ({
    model_id: id === 'espeak' ? ESPEAK_MODEL_ID : id,
    name:
      id === 'espeak'
        ? '标准引擎（多语种）'
        : id === 'sherpa-onnx'
          ? '本地神经网络模型'
          : (ENGINE_LABELS[id] ?? '自托管语音服务'),
    description:
      id === 'espeak'
        ? '机器合成音色，机器感明显：espeak-ng 共振峰合成，离线运行，中文经拼音朗读，支持词典与多音字校正'
        : id === 'sherpa-onnx'
          ? `神经网络语音合成，在本机离线运行：${ctx.engines.ttsModels.map((m) => m.name).join('、')}`
          : `${ENGINE_LABELS[id] ?? id}`,
    engine: id,
    languages: capabilities.languages.map((code) => ({
      language_id: code,
      name: LANGUAGE_NAMES[code] ?? code,
    })),
    max_text_length: maxChars,
    capabilities: {
      timings: capabilities.timings,
      streaming: capabilities.streaming,
      dictionary: capabilities.dictionary,
      pitch: true,
      pauses: true,
      cloning: capabilities.cloning,
    },
  }));
  return { models, multilingual_model_id: ESPEAK_MODEL_ID };
}

const ICON_LABELS: Record<string, [string, string]> = {
  'zh-CN': ['中', '#e53935'],
  yue: ['粤', '#d81b60'],
  'en-US': ['US', '#1e88e5'],
  'en-GB': ['UK', '#3949ab'],
  ko: ['한', '#00897b'],
  fr: ['FR', '#5e35b1'],
  de: ['DE', '#6d4c41'],
  es: ['ES', '#f4511e'],
  it: ['IT', '#43a047'],
  'pt-BR': ['BR', '#7cb342'],
  ru: ['RU', '#546e7a'],
  vi: ['VI', '#c62828'],
  multilingual: ['多', '#8e24aa'],
};

/** A small rounded badge with the language's short label, as an SVG data URL (no downloads, any OS). */
function languageBadge(label: string, color: string): string {
  const size = label.length > 1 && /^[A-Z]+$/.test(label) ? 10 : 13;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect width="24" height="24" rx="6" fill="${color}"/><text x="12" y="16.5" font-family="sans-serif" font-size="${size}" font-weight="700" fill="#fff" text-anchor="middle">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export function getLanguageIcons(): { language: LanguageIcon[] } {
  const codes = [...ESPEAK_LANGUAGES.map((l) => l.code), 'multilingual'];
  return {
    language: codes.map((code) => {
      const [label, color] = ICON_LABELS[code] ?? [code.slice(0, 2).toUpperCase(), '#757575'];
      return {
        language_code: code,
        name: LANGUAGE_NAMES[code] ?? '多语种',
        icon: languageBadge(label, color),
      };
    }),
  };
}

export async function favorVoice(
  ctx: AppContext,
  userId: string,
  input: { voice_id: string; favor: boolean },
): Promise<{ voice_id: string; is_favorite: boolean }> {
  const voice = await findVoiceFor(ctx.db, userId, input.voice_id);
  if (!voice) throw AppError.named('err_not_found');
  if (input.favor) await addFavorite(ctx.db, userId, voice.voice_id, ctx.clock.now());
  else await removeFavorite(ctx.db, userId, voice.voice_id);
  return { voice_id: voice.voice_id, is_favorite: input.favor };
}

export interface UsableVoice {
  row: VoiceRow;
  engineVoice: EngineVoice;
  modelId: string;
}

/**
 * The voice a synthesis may use: visible to the user, published, enabled, its engine running, the
 * model one of its own, and the user's plan at its level (else err_voice_cannot_access_other_voice).
 * `level` is looked up only for premium voices, keeping the common path free of the account lock.
 */
export async function getUsableVoice(
  ctx: AppContext,
  userId: string,
  voiceId: string,
  modelId: string | undefined,
  level?: () => Promise<number>,
): Promise<UsableVoice> {
  const row = await findVoiceFor(ctx.db, userId, voiceId);
  if (!row || row.status !== VoiceStatus.Published) throw AppError.named('err_not_found', '声音不存在');
  if (row.is_disabled) throw AppError.named('err_interface_unavailable', '该声音已停用');
  const models = JSON.parse(row.model_ids) as string[];
  const model = modelId || models[0];
  if (!models.includes(model)) throw AppError.named('err_invalid_param', '该声音不支持所选模型');
  if (row.required_level > FREE_LEVEL) {
    const userLevel = level ? await level() : await getUserLevel(ctx, userId);
    if (userLevel < row.required_level) throw AppError.named('err_voice_cannot_access_other_voice');
  }
  return { row, engineVoice: JSON.parse(row.engine_params) as EngineVoice, modelId: model };
}

/** Makes the preview clip of every voice that has none (first start, or voices added later). */
export const voicePreviewJob = defineJob({
  name: 'tts.voice-previews',
  payload: z.object({}),
  maxAttempts: 3,
  backoffMs: 30_000,
  async handler(_payload, job) {
    const ctx = job.app;
    const pending = (await findVoicesWithoutPreview(ctx.db)).filter(
      (v) => v.is_disabled === 0 && voiceRuns(ctx, v),
    );
    let done = 0;
    for (const voice of pending) {
      if (job.signal.aborted) break;
      try {
        const result = await ctx.engines.tts.synthesize(
          {
            segments: [{ text: voice.preview_text }],
            voice: JSON.parse(voice.engine_params) as EngineVoice,
            language: voice.language,
          },
          { signal: job.signal },
        );
        const mp3 = await encodeAudio(result, { format: 'mp3', signal: job.signal });
        // Local voices' ids hold colons (sherpa:<model>:<speaker>): one folder per part.
        const key = `voice-previews/${voice.voice_id.replaceAll(':', '/')}.mp3`;
        await ctx.storage.put(key, mp3, 'audio/mpeg');
        await setVoicePreview(ctx.db, voice.voice_id, key, ctx.clock.now());
      } catch (err) {
        ctx.log.warn({ err, voice: voice.voice_id }, 'voice preview failed');
      }
      done++;
      await job.progress(Math.round((done / Math.max(1, pending.length)) * 100));
    }
    return { generated: done };
  },
});

/**
 * At start and after each reload of the engines: the local neural voices are brought in line with the
 * installed models, then previews are made of the voices that have none and can speak. The key (day,
 * the voices missing one) keeps concurrent starts to one run.
 */
export async function startVoicePreviews(ctx: AppContext): Promise<void> {
  await syncNeuralVoices(ctx);
  const missing = (await findVoicesWithoutPreview(ctx.db)).filter(
    (v) => v.is_disabled === 0 && voiceRuns(ctx, v),
  );
  if (missing.length === 0) return;
  const day = new Date(ctx.clock.now()).toISOString().slice(0, 10);
  const which = createHash('sha256')
    .update(missing.map((v) => v.voice_id).join('\n'))
    .digest('hex')
    .slice(0, 16);
  await ctx.jobs.enqueue(voicePreviewJob, {}, { idempotencyKey: `tts.voice-previews:${day}:${which}` });
}
