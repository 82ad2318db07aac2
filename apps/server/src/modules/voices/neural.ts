import { FREE_LEVEL, VoiceStatus } from '@vw/contract';
import { ESPEAK_LANGUAGES, ESPEAK_PERSONAS, MODEL_CATALOGUE, type SherpaModel } from '@vw/engines';
import type { AppContext } from '../../context.ts';
import type { VoiceRow } from '../../db/schema.ts';
import { disableNeuralVoicesExcept, enableNeuralVoices, insertVoices } from './voices.repo.ts';

/*
 * The local neural voices: each speaker of each speech model the engines run (models.json) is a voice
 * of the built-in library, `sherpa:<model id>:<speaker id>`. They are written when the engines start
 * and after each reload; a removed model's voices are disabled, never deleted (history, favourites and
 * projects name them), and come back when the model is installed again.
 */

export const NEURAL_VOICE_PREFIX = 'sherpa:';
/** The longest voice id the contract's calls accept. */
const MAX_VOICE_ID = 64;
/** Before the standard voices (sort 10, 20, …): a model's speakers in the catalogue's order. */
const NEURAL_SORT_BASE = -1_000_000;
/**
 * `is_disabled` of a voice whose model is not installed (1 is the operator's own switch, kept as is):
 * only these are enabled again when the model comes back.
 */
export const DISABLED_NOT_INSTALLED = 2;

export const neuralVoiceId = (modelId: string, speakerId: number) =>
  `${NEURAL_VOICE_PREFIX}${modelId}:${speakerId}`;

/** What the library shows as the engine of a model's voices. */
export const neuralEngineLabel = (modelName: string) => `神经网络 · ${modelName}`;

const LIBRARY_LANGUAGES: readonly string[] = ESPEAK_LANGUAGES.map((l) => l.code);
/** A base language's usual library code when a model says only 'zh' or 'en'. */
const REGION_OF: Record<string, string> = { zh: 'zh-CN', cmn: 'zh-CN', en: 'en-US', pt: 'pt-BR' };

/** A model's language tag as the library's code ('zh' → 'zh-CN', 'en-us' → 'en-US'). */
export function libraryLanguage(tag: string): string {
  const exact = LIBRARY_LANGUAGES.find((c) => c.toLowerCase() === tag.toLowerCase());
  if (exact) return exact;
  const base = tag.toLowerCase().split(/[-_]/)[0];
  return REGION_OF[base] ?? LIBRARY_LANGUAGES.find((c) => c.toLowerCase().split('-')[0] === base) ?? tag;
}

const LANGUAGE_NAMES: Record<string, string> = Object.fromEntries(
  ESPEAK_LANGUAGES.map((l) => [l.code, l.name]),
);
const GENDER_WORDS: Record<string, string> = { female: '女声', male: '男声' };

/** The sentence a voice's preview says: the standard voices' line in the same language. */
function previewText(language: string): string {
  const base = language.split('-')[0];
  return (
    ESPEAK_PERSONAS.find((p) => p.language === language)?.sample ??
    ESPEAK_PERSONAS.find((p) => p.language.split('-')[0] === base)?.sample ??
    ESPEAK_PERSONAS.find((p) => p.language === 'en-US')!.sample
  );
}

/** A speaker's name: its own, else the model's (one speaker) or the model's with a number. */
function speakerName(model: SherpaModel, speaker: SherpaModel['speakers'][number]): string {
  if (speaker.name && !/^\d+$/.test(speaker.name)) return speaker.name;
  return model.speakers.length === 1 ? model.name : `${model.name} ${speaker.id + 1}号`;
}

/** The library rows of the speakers of these speech models (ids too long for the contract are left out). */
export function neuralVoiceRows(models: readonly SherpaModel[], now: number): VoiceRow[] {
  return models.flatMap((model, m) =>
    model.speakers
      .map((speaker, s): VoiceRow => {
        const language = libraryLanguage(speaker.language ?? model.languages[0] ?? 'zh-CN');
        const languageName = LANGUAGE_NAMES[language] ?? language;
        const who = speaker.gender ? GENDER_WORDS[speaker.gender] : '声音';
        return {
          voice_id: neuralVoiceId(model.id, speaker.id),
          owner_id: null,
          engine: 'sherpa-onnx',
          engine_params: JSON.stringify({ engine: 'sherpa-onnx', model: model.id, speaker: speaker.id }),
          model_ids: JSON.stringify(['sherpa-onnx']),
          name: speakerName(model, speaker),
          description: `神经网络模型「${model.name}」的${languageName}${who}，在本机离线合成${speaker.style ? `，${speaker.style}` : ''}。`,
          gender: speaker.gender ?? '',
          language,
          age: '',
          accent: languageName,
          style: speaker.style ?? '',
          use_case: '',
          preview_text: previewText(language),
          preview_key: null,
          required_level: FREE_LEVEL,
          is_disabled: 0,
          status: VoiceStatus.Published,
          sort: NEURAL_SORT_BASE + m * 1000 + Math.min(s, 999),
          created_at: now,
          updated_at: now,
        };
      })
      .filter((row) => row.voice_id.length <= MAX_VOICE_ID),
  );
}

/**
 * Brings the library in line with the speech models that run now: new speakers inserted, those of a
 * reinstalled model enabled again, those of a removed model disabled. Safe from many processes at once.
 */
export async function syncNeuralVoices(ctx: AppContext): Promise<{ installed: string[] }> {
  const now = ctx.clock.now();
  const rows = neuralVoiceRows(ctx.engines.ttsModels, now);
  for (const model of ctx.engines.ttsModels) {
    if (model.speakers.some((s) => neuralVoiceId(model.id, s.id).length > MAX_VOICE_ID)) {
      ctx.log.warn(
        { model: model.id },
        `voices: model id too long for voice ids (${MAX_VOICE_ID} characters with sherpa:<id>:<speaker>): speakers left out of the library`,
      );
    }
  }
  const ids = rows.map((r) => r.voice_id);
  await insertVoices(ctx.db, rows);
  await enableNeuralVoices(ctx.db, ids, DISABLED_NOT_INSTALLED, now);
  await disableNeuralVoicesExcept(ctx.db, NEURAL_VOICE_PREFIX, ids, DISABLED_NOT_INSTALLED, now);
  return { installed: ids };
}

/** The model and speaker of a library voice of the local engine, when it is one. */
export function neuralVoiceOf(row: Pick<VoiceRow, 'engine' | 'engine_params'>) {
  if (row.engine !== 'sherpa-onnx') return null;
  const voice = JSON.parse(row.engine_params) as { model?: string; speaker?: number };
  return voice.model ? { model: voice.model, speaker: voice.speaker ?? 0 } : null;
}

/** Whether the engines can speak with this voice now (its engine runs; a local voice's model is installed). */
export function voiceRuns(ctx: AppContext, row: Pick<VoiceRow, 'engine' | 'engine_params'>): boolean {
  if (!ctx.engines.tts.has(row.engine)) return false;
  const neural = neuralVoiceOf(row);
  if (!neural) return true;
  const model = ctx.engines.ttsModels.find((m) => m.id === neural.model);
  return Boolean(model?.speakers.some((s) => s.id === neural.speaker));
}

/** The label of a local voice's engine: its model's name (from the catalogue once removed), else its id. */
export function neuralLabelOf(
  ctx: AppContext,
  row: Pick<VoiceRow, 'engine' | 'engine_params'>,
): string | null {
  const neural = neuralVoiceOf(row);
  if (!neural) return null;
  const name =
    ctx.engines.ttsModels.find((m) => m.id === neural.model)?.name ??
    MODEL_CATALOGUE.find((e) => e.model.id === neural.model)?.model.name ??
    neural.model;
  return neuralEngineLabel(name);
}
