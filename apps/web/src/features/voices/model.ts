import { PREMIUM_VOICE_LEVEL, voiceAgeNames, voiceGenderNames } from '@/lib/tts.ts';
import type { LanguageIcon, Voice } from './types.ts';

/** Comma lists ("female,male", "温柔,亲切") as trimmed items. */
export const list = (s: string | undefined): string[] =>
  (s ?? '')
    .split(/[,，]/)
    .map((x) => x.trim())
    .filter(Boolean);

export const genders = (v: Voice) => list(v.labels.gender);
export const styles = (v: Voice) => list(v.labels.style);
export const genderName = (g: string) => voiceGenderNames[g] ?? g;
export const ageName = (a: string) => voiceAgeNames[a] ?? a;

export interface VoiceFilter {
  search: string;
  gender: string;
  language: string;
  age: string;
  style: string;
}

export const emptyFilter: VoiceFilter = { search: '', gender: '', language: '', age: '', style: '' };

export function matches(v: Voice, f: VoiceFilter): boolean {
  if (f.gender && !genders(v).includes(f.gender)) return false;
  if (f.language && v.labels.language !== f.language) return false;
  if (f.age && v.labels.age !== f.age) return false;
  if (f.style && !styles(v).includes(f.style)) return false;
  const q = f.search.trim().toLowerCase();
  if (!q) return true;
  const hay = [v.name, v.description, v.labels.accent, v.labels.style, v.labels.use_case, v.engine_label]
    .join(' ')
    .toLowerCase();
  return hay.includes(q);
}

/** The distinct values of a label across voices, for the filters (in first-seen order). */
export function facet(voices: readonly Voice[], pick: (v: Voice) => string[]): string[] {
  const seen = new Set<string>();
  for (const v of voices) for (const x of pick(v)) if (x) seen.add(x);
  return [...seen];
}

/** A voice the current plan cannot use (spec §6): it shows the subscribe tip. */
export const isLocked = (v: Voice, level: number) => v.required_level > level;
/** A premium voice (needs the premium plan), locked or not. */
export const isPremiumVoice = (v: Voice) => v.required_level >= PREMIUM_VOICE_LEVEL;
/** Spoken by the standard engine (espeak-ng, or a voice fitted to it): machine-like, never 高级 in sound. */
export const isStandardEngine = (v: Voice) => v.engine === 'espeak';

/** Display name and icon of a language code. */
export function languageInfo(code: string, icons: readonly LanguageIcon[]): { name: string; icon: string } {
  const hit = icons.find((i) => i.language_code === code);
  return { name: hit?.name || code, icon: hit?.icon ?? '' };
}

/** Built-in voices sorted as the catalogue says; the user's own voices separately. */
export function splitCatalogue(voices: readonly Voice[]) {
  const usable = voices.filter((v) => !v.is_disabled);
  const byOrder = (a: Voice, b: Voice) => a.sort - b.sort || a.name.localeCompare(b.name, 'zh-CN');
  return {
    builtin: usable.filter((v) => v.category === 'builtin').sort(byOrder),
    mine: usable.filter((v) => v.category === 'mine').sort(byOrder),
  };
}
