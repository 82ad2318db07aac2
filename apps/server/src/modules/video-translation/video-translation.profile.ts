import { type GlossaryEntry, type TranslationPreferences, translationPreferences } from '@vw/contract';
import type { AppContext } from '../../context.ts';
import { findProfile, findSpeakerVoices, saveProfile } from './video-translation.repo.ts';

/*
 * Each user's translation profile: preferences (copied onto each new project) and one glossary
 * (read by every translation run of the user's projects that use it).
 */

const EMPTY_PREFS: TranslationPreferences = translationPreferences.parse({});
const DEFAULTS = { preferences: JSON.stringify(EMPTY_PREFS), glossary: '[]' };

export async function readPreferences(ctx: AppContext, ownerId: string): Promise<TranslationPreferences> {
  const row = await findProfile(ctx.db, ownerId);
  return row ? translationPreferences.parse(JSON.parse(row.preferences)) : EMPTY_PREFS;
}

export async function savePreferences(ctx: AppContext, ownerId: string, preferences: TranslationPreferences) {
  await saveProfile(ctx.db, ownerId, { preferences: JSON.stringify(preferences) }, DEFAULTS, ctx.clock.now());
  return { preferences };
}

export async function readGlossary(ctx: AppContext, ownerId: string): Promise<GlossaryEntry[]> {
  const row = await findProfile(ctx.db, ownerId);
  return row ? (JSON.parse(row.glossary) as GlossaryEntry[]) : [];
}

export async function getGlossary(ctx: AppContext, ownerId: string) {
  const row = await findProfile(ctx.db, ownerId);
  return {
    entries: row ? (JSON.parse(row.glossary) as GlossaryEntry[]) : [],
    updated_time: row?.updated_at ?? 0,
  };
}

/** Replaces the glossary: terms unique case-insensitively (the last entry of a term wins). */
export async function saveGlossary(ctx: AppContext, ownerId: string, entries: GlossaryEntry[]) {
  const byTerm = new Map<string, GlossaryEntry>();
  for (const e of entries) {
    const key = e.term.trim().toLowerCase();
    byTerm.delete(key);
    byTerm.set(key, { term: e.term.trim(), translation: e.translation?.trim() || null });
  }
  const list = [...byTerm.values()];
  const now = ctx.clock.now();
  await saveProfile(ctx.db, ownerId, { glossary: JSON.stringify(list) }, DEFAULTS, now);
  return { entries: list, updated_time: now };
}

export async function getSpeakerVoices(ctx: AppContext, ownerId: string) {
  return { voices: await findSpeakerVoices(ctx.db, ownerId) };
}
