import type { CueFit, CueTake, ProjectDocument, SubtitleCue } from '@vw/contract/calls/projects.ts';
import { MIN_KEPT_SHARE } from '@vw/contract/constants/dubbing.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { editCues, withCues } from './document.ts';

/*
 * Dubbing on the editor's document (issue 17): which take plays, whether a line is stale, and the
 * local edits (casting, a line's voice, lock, pick a take) that autosave sends with the document.
 */

export const isDubProject = (doc: ProjectDocument | null | undefined) => !!doc?.dub;

export function chosenTake(cue: SubtitleCue): CueTake | undefined {
  const takes = cue.takes ?? [];
  return takes.find((t) => t.id === cue.take_id) ?? takes[takes.length - 1];
}

export function voiceOf(doc: ProjectDocument, cue: SubtitleCue): string {
  const speaker = cue.speaker_id ? doc.speakers.find((s) => s.id === cue.speaker_id) : undefined;
  return cue.voice_id || speaker?.voice_id || doc.dub?.default_voice_id || '';
}

/** A line needs new audio: words and no take, or its text or voice changed since the take (as the server decides). */
export function isStale(doc: ProjectDocument, cue: SubtitleCue): boolean {
  if (cue.mark || cue.text.trim() === '') return false;
  const take = chosenTake(cue);
  if (!take) return true;
  return Boolean(cue.stale) || take.source_text !== cue.text || take.voice_id !== voiceOf(doc, cue);
}

export function staleCount(doc: ProjectDocument): number {
  return editCues(doc).filter((c) => !c.locked && isStale(doc, c)).length;
}

/** The chosen take says other words than the subtitle (shortened by the language model), and is not stale. */
export function spokenText(cue: SubtitleCue): string | null {
  const take = chosenTake(cue);
  if (!take || cue.mark || take.source_text !== cue.text || take.text === cue.text) return null;
  return take.text;
}

/**
 * What the editor flags on a dubbed line: `mismatch` when the automatic check still failed (failure
 * code 5, refunded), `cut` when the shortened spoken text kept too little of the line and the user has
 * not accepted it, `shortened` when it says less than the subtitle (not yet accepted).
 */
export function lineFlag(cue: SubtitleCue): 'mismatch' | 'cut' | 'shortened' | null {
  const take = chosenTake(cue);
  if (!take || cue.mark || take.source_text !== cue.text) return null;
  if (take.check?.status === 'failed') return 'mismatch';
  if (spokenText(cue) === null || take.accepted) return null;
  return (take.fit.kept ?? 1) < MIN_KEPT_SHARE ? 'cut' : 'shortened';
}

/** A dubbed row's state for its chip: its mark (`mute` / `keep`), `none` before it has audio, else its flag or fit. */
export function dubStatus(cue: SubtitleCue): string {
  if (cue.mark) return cue.mark;
  return chosenTake(cue) ? (lineFlag(cue) ?? cue.fit?.status ?? 'fits') : 'none';
}

/** The user accepts the shortened spoken text of the line's chosen take (it is no longer flagged). */
export const acceptSpoken = (doc: ProjectDocument, cueId: string) =>
  mapCue(doc, cueId, (c) => {
    const take = chosenTake(c);
    if (!take) return c;
    return { ...c, takes: (c.takes ?? []).map((t) => (t.id === take.id ? { ...t, accepted: true } : t)) };
  });

/** "超出 0.8 s" / "时长合适"… for the meter. */
export function fitText(fit: CueFit | undefined): string {
  if (!fit) return '';
  const over = fit.overflow_ms > 0 ? ` ${(fit.overflow_ms / 1000).toFixed(1)} s` : '';
  return `${zhCN.dubbing.fit[fit.status] ?? fit.status}${over}`;
}

function mapCue(doc: ProjectDocument, cueId: string, f: (c: SubtitleCue) => SubtitleCue): ProjectDocument {
  let changed = false;
  const cues = editCues(doc).map((c) => {
    if (c.id !== cueId) return c;
    changed = true;
    return f(c);
  });
  return changed ? withCues(doc, cues) : doc;
}

export const setLocked = (doc: ProjectDocument, cueId: string, locked: boolean) =>
  mapCue(doc, cueId, (c) => ({ ...c, locked }));

export const setCueVoice = (doc: ProjectDocument, cueId: string, voiceId: string | null) =>
  mapCue(doc, cueId, (c) => ({ ...c, voice_id: voiceId }));

export function pickTake(doc: ProjectDocument, cueId: string, takeId: string): ProjectDocument {
  return mapCue(doc, cueId, (c) => {
    const take = c.takes?.find((t) => t.id === takeId);
    if (!take) return c;
    return { ...c, take_id: take.id, fit: take.fit, stale: take.source_text !== c.text };
  });
}

export function setSpeakerVoice(
  doc: ProjectDocument,
  speakerId: string,
  voiceId: string | null,
): ProjectDocument {
  return {
    ...doc,
    speakers: doc.speakers.map((s) => (s.id === speakerId ? { ...s, voice_id: voiceId } : s)),
  };
}

export function setDefaultVoice(doc: ProjectDocument, voiceId: string): ProjectDocument {
  return doc.dub ? { ...doc, dub: { ...doc.dub, default_voice_id: voiceId } } : doc;
}
