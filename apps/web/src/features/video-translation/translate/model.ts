import type { Box } from '@vw/contract';
import type { ProjectDocument, SubtitleCue } from '@vw/contract/calls/projects.ts';
import type { GlossaryEntry, TranslationBody } from '@vw/contract/calls/video-translation.ts';
import { zhCN } from '@/locales/zh-CN.ts';

const videoTranslate = zhCN.videoTranslate;

/*
 * Video translation on the web (issue 18), without React: the glossary's text form, the wizard's
 * request body, and the editor's view of a translation project (each target line with the source
 * lines it translates; the source text edited through its line).
 */

// ---------------------------------------------------------------- glossary as text

/**
 * One entry a line: `术语 = 译法` (also `=>`, `→`, `:`/`：` and a tab), or a bare term for "do not
 * translate". Blank lines and `#` comments are skipped; a later line for the same term (case-insensitive)
 * replaces an earlier one, as the server does. `errors` lists the 1-based lines that could not be read.
 */
export function parseGlossary(text: string): { entries: GlossaryEntry[]; errors: number[] } {
  const byTerm = new Map<string, GlossaryEntry>();
  const errors: number[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const m = /^(.*?)\s*(?:=>|→|=|：|:|\t)\s*(.*)$/.exec(line);
    const term = (m ? m[1]! : line).trim();
    const translation = m ? m[2]!.trim() : null;
    if (!term || term.length > 100 || (m && !translation) || (translation?.length ?? 0) > 200) {
      errors.push(i + 1);
      return;
    }
    const key = term.toLowerCase();
    byTerm.delete(key);
    byTerm.set(key, { term, translation });
  });
  return { entries: [...byTerm.values()], errors };
}

export function formatGlossary(entries: GlossaryEntry[]): string {
  return entries.map((e) => (e.translation == null ? e.term : `${e.term} = ${e.translation}`)).join('\n');
}

// ---------------------------------------------------------------- the wizard's body

export interface WizardState {
  assetId: string;
  sourceLanguage: string;
  targets: string[];
  subtitleSource: 'asr' | 'ocr' | 'subtitle';
  regions: Box[];
  subtitle: { name: string; text: string } | null;
  split: boolean;
  useGlossary: boolean;
  reviewAfterRecognition: boolean;
  reviewAfterTranslation: boolean;
  erase: boolean;
  eraseMethod: 'fast' | 'blur';
  dub: boolean;
  voiceId: string;
  /** Speaker name → voice (speakers named in an uploaded subtitle file). */
  speakerVoices: Record<string, string>;
  cloneSpeakers: boolean;
  /** The user ticked that they may use the speakers' voices (required to clone them). */
  cloneConsent: boolean;
  subtitleLines: 'target' | 'bilingual' | 'none';
  subtitleMode: 'burn' | 'soft';
  lipSync: boolean;
}

/** What is missing before the wizard can start ('' when nothing is). */
export function wizardMissing(s: WizardState): string {
  const t = videoTranslate.missing;
  if (!s.assetId) return t.video;
  if (s.targets.length === 0) return t.targets;
  if (s.subtitleSource === 'subtitle' && !s.subtitle) return t.subtitle;
  if (s.erase && s.regions.length === 0) return t.regions;
  if (s.dub && s.cloneSpeakers && !s.cloneConsent) return t.consent;
  return '';
}

/**
 * The body of `videoTranslationEstimate` / `videoTranslationCreate`. The drawn regions serve both
 * the on-screen recognition and the erasing; preferences are left out, so the user's saved ones apply.
 */
export function wizardBody(s: WizardState): TranslationBody {
  const regions = s.regions.map(({ x, y, w, h }) => ({ x, y, w, h }));
  return {
    asset_id: s.assetId,
    source_language: s.sourceLanguage,
    target_languages: s.targets,
    subtitle_source: s.subtitleSource,
    ...(s.subtitleSource === 'ocr' && regions.length > 0 ? { ocr_regions: regions } : {}),
    ...(s.subtitleSource === 'subtitle' && s.subtitle ? { subtitle: s.subtitle } : {}),
    split: s.split,
    use_glossary: s.useGlossary,
    review: {
      after_recognition: s.reviewAfterRecognition,
      after_translation: s.reviewAfterTranslation,
    },
    erase: {
      enabled: s.erase,
      method: s.eraseMethod,
      ...(s.erase && regions.length > 0 ? { regions } : {}),
    },
    dub: {
      enabled: s.dub,
      ...(s.dub && s.voiceId ? { default_voice_id: s.voiceId } : {}),
      speaker_voices: s.dub ? s.speakerVoices : {},
      clone_speakers: s.dub && s.cloneSpeakers,
      ...(s.dub && s.cloneSpeakers && s.cloneConsent ? { clone_consent: true as const } : {}),
      options: {},
    },
    subtitles: { lines: s.subtitleLines, mode: s.subtitleMode },
    lip_sync: s.lipSync,
  };
}

// ---------------------------------------------------------------- the editor's view

export const isTranslationDoc = (doc: ProjectDocument | null | undefined) => !!doc?.translation;

/** The track of the source lines (原文) of a translation project. */
export function sourceTrack(doc: ProjectDocument) {
  const id = doc.translation?.source_track_id;
  return doc.tracks.find((t) => t.id === id) ?? doc.tracks.find((t) => t.kind === 'source');
}

/** A track's cues by id, made once per cue list (every row and every search looks lines up). */
const byIdCache = new WeakMap<SubtitleCue[], Map<string, SubtitleCue>>();
function byIdOf(cues: SubtitleCue[]): Map<string, SubtitleCue> {
  let map = byIdCache.get(cues);
  if (!map) {
    map = new Map(cues.map((c) => [c.id, c]));
    byIdCache.set(cues, map);
  }
  return map;
}

/**
 * The source lines a target line translates: its `source_ids`, or (a line added by hand) the source
 * lines it overlaps in time.
 */
export function sourcesOf(doc: ProjectDocument, cue: SubtitleCue): SubtitleCue[] {
  const src = sourceTrack(doc);
  if (!src || src.id === doc.translation?.target_track_id) return [];
  if (cue.source_ids?.length) {
    const byId = byIdOf(src.cues);
    return cue.source_ids.flatMap((id) => byId.get(id) ?? []);
  }
  return src.cues.filter((c) => c.start_ms < cue.end_ms && c.end_ms > cue.start_ms);
}

/** The source text beside a target line (several source lines joined by a line break). */
export function sourceTextOf(doc: ProjectDocument, cue: SubtitleCue): string {
  return sourcesOf(doc, cue)
    .map((c) => c.text)
    .join('\n');
}

/**
 * Edits the source text of a target line: only where it translates exactly one source line (a
 * merged line is edited on … its one source line, so several are refused: null).
 */
export function setSourceText(doc: ProjectDocument, cue: SubtitleCue, text: string): ProjectDocument | null {
  const sources = sourcesOf(doc, cue);
  if (sources.length !== 1) return null;
  const target = sources[0]!;
  if (target.text === text) return doc;
  const srcId = sourceTrack(doc)!.id;
  return {
    ...doc,
    tracks: doc.tracks.map((t) =>
      t.id === srcId ? { ...t, cues: t.cues.map((c) => (c.id === target.id ? { ...c, text } : c)) } : t,
    ),
  };
}

/** Target lines whose back-translation drifted (flagged by the server's score). */
export function flaggedCount(cues: SubtitleCue[]): number {
  return cues.filter((c) => c.drift?.flagged).length;
}

/** The line drawn over the video: the target text, with the source under it when bilingual. */
export function overlayLines(doc: ProjectDocument | null, cue: SubtitleCue | undefined): string[] {
  if (!cue) return [];
  const source = doc?.translation ? sourceTextOf(doc, cue) : '';
  return [cue.text, source].filter((t) => t.trim() !== '');
}

/** "中文 → 英语" from the language codes and the names the server lists. */
export function languagesLabel(
  source: string,
  target: string,
  names: Array<{ code: string; name: string }>,
): string {
  const name = (code: string) => names.find((n) => n.code === code)?.name ?? code;
  return `${source === 'auto' ? videoTranslate.autoDetect : name(source)} → ${name(target)}`;
}
