import { PREMIUM_VOICE_LEVEL, VoiceStatus } from '@vw/contract';
import { ESPEAK_LANGUAGES, ESPEAK_PERSONAS } from '@vw/engines';
import type { Db } from '../../db/database.ts';
import type { VoiceRow } from '../../db/schema.ts';

/** The model every espeak persona speaks with: one multilingual standard engine. */
export const ESPEAK_MODEL_ID = 'espeak-standard';

/**
 * Personas that need the 专业版 plan (spec §6: certain voices need a higher plan). The engine is the same
 * for all of them — no better sound — so the cards describe them as the standard engine and mark them
 * 会员 (a plan's voice), never 高级 (a premium sound).
 */
export const PREMIUM_PERSONAS = new Set([
  'espeak-zh-yunze',
  'espeak-zh-boyin',
  'espeak-zh-laochen',
  'espeak-yue-popo',
  'espeak-en-oliver',
  'espeak-fr-louis',
]);

export const DEFAULT_VOICE_MAP: Record<string, string> = {
  tts: 'espeak-zh-xiaowen',
  audiobook: 'espeak-zh-yunfei',
  dubbing: 'espeak-zh-xiaoya',
  video_translation: 'espeak-en-emma',
};

export function builtinVoiceRows(now: number): VoiceRow[] {
  return ESPEAK_PERSONAS.map((p, i) => ({
    voice_id: p.id,
    owner_id: null,
    engine: 'espeak',
    engine_params: JSON.stringify(p.voice),
    model_ids: JSON.stringify([ESPEAK_MODEL_ID]),
    name: p.name,
    description: p.description,
    gender: p.gender,
    language: p.language,
    age: p.age,
    accent: ESPEAK_LANGUAGES.find((l) => l.code === p.language)?.name ?? p.language,
    style: p.styles.join(','),
    use_case: p.useCases.join(','),
    preview_text: p.sample,
    preview_key: null,
    required_level: PREMIUM_PERSONAS.has(p.id) ? PREMIUM_VOICE_LEVEL : 100,
    is_disabled: 0,
    status: VoiceStatus.Published,
    sort: (i + 1) * 10,
    created_at: now,
    updated_at: now,
  }));
}

/**
 * The built-in catalogue, inserted once per voice (safe from many processes at once). Rows that exist
 * are left alone: an operator may have disabled a voice or changed its level.
 */
export async function seedVoices(db: Db, now = Date.now()): Promise<void> {
  await db
    .insertInto('voices')
    .values(builtinVoiceRows(now))
    .onConflict((oc) => oc.column('voice_id').doNothing())
    .execute();
}
