import type {
  ProjectDocument,
  Speaker,
  SubtitleCue,
  SubtitleRules,
  SubtitleTrack,
} from '@vw/contract/calls/projects.ts';
import { zhCN } from '@/locales/zh-CN.ts';
import { sourcesOf, sourceTrack } from '../translate/model.ts';

/*
 * The editor's document operations (design §10). Pure: each takes a document and returns a new
 * one (or the same object when nothing changed, so the history can skip no-ops). The editor edits
 * one track — the first source track — and keeps its cues sorted by start and never overlapping:
 * every timing edit is clamped between the neighbours.
 */

export type { ProjectDocument, Speaker, SubtitleCue, SubtitleRules, SubtitleTrack };

/** The shortest cue a resize, a move or a split may leave. */
export const MIN_CUE_MS = 100;
/** Adding a cue is refused when the free gap is shorter than this (alynx editor). */
export const MIN_ADD_GAP_MS = 200;
/** A new cue's length when the gap is wider. */
export const NEW_CUE_MS = 2000;
/** ±0.1 s nudges. */
export const NUDGE_MS = 100;

export type OpResult = { ok: true; doc: ProjectDocument; cueId?: string } | { ok: false; error: string };

const refused = zhCN.editor.refused;
/** Why an edit was refused (the editor shows it as a warning). */
export const opError = { ...refused, gapTooSmall: refused.gapTooSmall(MIN_ADD_GAP_MS / 1000) };

// ---------------------------------------------------------------- track access

/**
 * The track the editor edits: a video translation's target track (what is spoken and rendered; the
 * source lines show beside it), else the first source track, else the first track.
 */
export function editTrackIndex(doc: ProjectDocument): number {
  const target = doc.translation?.target_track_id;
  const t = target ? doc.tracks.findIndex((k) => k.id === target) : -1;
  if (t >= 0) return t;
  const i = doc.tracks.findIndex((t) => t.kind === 'source');
  return i >= 0 ? i : doc.tracks.length > 0 ? 0 : -1;
}

export function editCues(doc: ProjectDocument): SubtitleCue[] {
  const i = editTrackIndex(doc);
  return i >= 0 ? doc.tracks[i]!.cues : [];
}

const byStart = (a: SubtitleCue, b: SubtitleCue) => a.start_ms - b.start_ms || a.end_ms - b.end_ms;

/** Replaces the edited track's cues (sorted); creates a source track when the document has none. */
export function withCues(doc: ProjectDocument, cues: SubtitleCue[]): ProjectDocument {
  const sorted = [...cues].sort(byStart);
  const i = editTrackIndex(doc);
  if (i < 0) {
    return { ...doc, tracks: [{ id: 'source', kind: 'source', language: 'auto', cues: sorted }] };
  }
  const tracks = doc.tracks.map((t, k) => (k === i ? { ...t, cues: sorted } : t));
  return { ...doc, tracks };
}

/** A fresh id not used by any cue/speaker of the document: `${prefix}${n}`. */
export function freshId(taken: Iterable<string>, prefix: string): string {
  const used = new Set(taken);
  let n = used.size + 1;
  while (used.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

const allCueIds = (doc: ProjectDocument) => doc.tracks.flatMap((t) => t.cues.map((c) => c.id));

function locate(doc: ProjectDocument, cueId: string) {
  const cues = editCues(doc);
  const index = cues.findIndex((c) => c.id === cueId);
  return { cues, index, cue: index >= 0 ? cues[index]! : undefined };
}

function replaceCue(doc: ProjectDocument, cues: SubtitleCue[], index: number, cue: SubtitleCue) {
  const old = cues[index]!;
  if (
    old.start_ms === cue.start_ms &&
    old.end_ms === cue.end_ms &&
    old.text === cue.text &&
    old.speaker_id === cue.speaker_id
  ) {
    return doc;
  }
  const next = cues.slice();
  // Dubbing: a text edit is a new text revision, and the line's audio is stale until made again.
  let edited =
    old.text !== cue.text && old.takes?.length
      ? { ...cue, text_rev: (old.text_rev ?? 0) + 1, stale: true }
      : cue;
  // Translation: the back-translation (and its drift) was of the old text; it says nothing about the new one.
  if (old.text !== cue.text && (old.back_text != null || old.drift)) {
    const { drift: _drift, ...rest } = edited;
    edited = { ...rest, back_text: null };
  }
  next[index] = edited;
  return withCues(doc, next);
}

// ---------------------------------------------------------------- text

export function setCueText(doc: ProjectDocument, cueId: string, text: string): ProjectDocument {
  const { cues, index, cue } = locate(doc, cueId);
  if (!cue) return doc;
  return replaceCue(doc, cues, index, { ...cue, text });
}

// ---------------------------------------------------------------- timing (clamped between neighbours)

/** Where a cue may live: from the previous cue's end to the next cue's start (and the media end). */
export function cueBounds(cues: SubtitleCue[], index: number, durationMs?: number | null) {
  const lo = index > 0 ? cues[index - 1]!.end_ms : 0;
  const hiNext = index + 1 < cues.length ? cues[index + 1]!.start_ms : Number.POSITIVE_INFINITY;
  const hi = durationMs && durationMs > 0 ? Math.min(hiNext, Math.max(durationMs, lo)) : hiNext;
  return { lo, hi };
}

/**
 * Sets a cue's start and end, clamped so it overlaps neither neighbour and stays at least
 * MIN_CUE_MS long (when the room allows). Used by typed times, resizes and nudges.
 */
export function setCueTimes(
  doc: ProjectDocument,
  cueId: string,
  startMs: number,
  endMs: number,
  durationMs?: number | null,
): ProjectDocument {
  const { cues, index, cue } = locate(doc, cueId);
  if (!cue) return doc;
  const { lo, hi } = cueBounds(cues, index, durationMs);
  let start = Math.round(Math.max(lo, Math.min(startMs, hi)));
  let end = Math.round(Math.max(lo, Math.min(endMs, hi)));
  if (end - start < MIN_CUE_MS) {
    // Keep the edge that was not being moved where it was, as far as the room allows.
    if (startMs !== cue.start_ms && endMs === cue.end_ms) start = Math.max(lo, end - MIN_CUE_MS);
    else end = Math.min(hi, start + MIN_CUE_MS);
    if (end - start < MIN_CUE_MS) start = Math.max(lo, end - MIN_CUE_MS);
  }
  return replaceCue(doc, cues, index, { ...cue, start_ms: start, end_ms: end });
}

/** Moves a whole cue (its length kept), stopping at the neighbours. */
export function moveCue(
  doc: ProjectDocument,
  cueId: string,
  deltaMs: number,
  durationMs?: number | null,
): ProjectDocument {
  const { cues, index, cue } = locate(doc, cueId);
  if (!cue) return doc;
  const [start, end] = clampMove(cues, index, deltaMs, durationMs);
  return replaceCue(doc, cues, index, { ...cue, start_ms: start, end_ms: end });
}

/** The times a move by `deltaMs` lands on (the timeline previews a drag with this). */
export function clampMove(
  cues: SubtitleCue[],
  index: number,
  deltaMs: number,
  durationMs?: number | null,
): [number, number] {
  const cue = cues[index]!;
  const { lo, hi } = cueBounds(cues, index, durationMs);
  const length = cue.end_ms - cue.start_ms;
  const room = Math.max(0, hi - lo - length);
  const start = Math.round(Math.max(lo, Math.min(cue.start_ms + deltaMs, lo + room)));
  return [start, start + Math.min(length, Math.max(0, hi - start))];
}

/** The times a resize of one edge to `atMs` lands on. */
export function clampResize(
  cues: SubtitleCue[],
  index: number,
  edge: 'start' | 'end',
  atMs: number,
  durationMs?: number | null,
): [number, number] {
  const cue = cues[index]!;
  const { lo, hi } = cueBounds(cues, index, durationMs);
  if (edge === 'start') {
    const start = Math.round(Math.max(lo, Math.min(atMs, cue.end_ms - MIN_CUE_MS)));
    return [Math.min(start, cue.end_ms), cue.end_ms];
  }
  const end = Math.round(Math.min(hi, Math.max(atMs, cue.start_ms + MIN_CUE_MS)));
  return [cue.start_ms, Math.max(end, cue.start_ms)];
}

export function resizeCue(
  doc: ProjectDocument,
  cueId: string,
  edge: 'start' | 'end',
  atMs: number,
  durationMs?: number | null,
): ProjectDocument {
  const { cues, index, cue } = locate(doc, cueId);
  if (!cue) return doc;
  const [start, end] = clampResize(cues, index, edge, atMs, durationMs);
  return replaceCue(doc, cues, index, { ...cue, start_ms: start, end_ms: end });
}

/** ±0.1 s on one edge (resize) or on both (move). */
export function nudgeCue(
  doc: ProjectDocument,
  cueId: string,
  edge: 'start' | 'end' | 'both',
  deltaMs: number,
  durationMs?: number | null,
): ProjectDocument {
  const { cue } = locate(doc, cueId);
  if (!cue) return doc;
  if (edge === 'both') return moveCue(doc, cueId, deltaMs, durationMs);
  const at = (edge === 'start' ? cue.start_ms : cue.end_ms) + deltaMs;
  return resizeCue(doc, cueId, edge, at, durationMs);
}

// ---------------------------------------------------------------- split, merge, add, delete

/** Where to cut a text for a time fraction: the proportional character, moved to a nearby space. */
export function splitTextAt(text: string, fraction: number): [string, string] {
  const chars = [...text];
  if (chars.length === 0) return ['', ''];
  let at = Math.round(chars.length * Math.max(0, Math.min(1, fraction)));
  // Prefer a break at whitespace within 5 characters (do not cut a Latin word in two).
  for (let d = 0; d <= 5; d++) {
    if (/\s/.test(chars[at - d] ?? '')) {
      at -= d;
      break;
    }
    if (/\s/.test(chars[at + d] ?? '')) {
      at += d;
      break;
    }
  }
  return [chars.slice(0, at).join('').trim(), chars.slice(at).join('').trim()];
}

/**
 * Splits a cue at `atMs` into two. The text is cut at `caret` (a character offset, when the user
 * was editing) or at the proportional position. `text` overrides the cue's text (an unsaved draft).
 */
export function splitCue(
  doc: ProjectDocument,
  cueId: string,
  atMs: number,
  options: { caret?: number | null; text?: string } = {},
): OpResult {
  const { cues, index, cue } = locate(doc, cueId);
  if (!cue) return { ok: false, error: opError.noCue };
  const at = Math.round(atMs);
  if (at < cue.start_ms + MIN_CUE_MS || at > cue.end_ms - MIN_CUE_MS) {
    return { ok: false, error: opError.splitOutside };
  }
  const text = options.text ?? cue.text;
  let parts: [string, string];
  if (options.caret != null) {
    const chars = [...text];
    const caret = Math.max(0, Math.min(chars.length, options.caret));
    parts = [chars.slice(0, caret).join('').trim(), chars.slice(caret).join('').trim()];
  } else {
    parts = splitTextAt(text, (at - cue.start_ms) / (cue.end_ms - cue.start_ms));
  }
  const id = freshId(allCueIds(doc), 'c');
  const next = cues.slice();
  next.splice(index, 1, { ...cue, end_ms: at, text: parts[0] }, { ...cue, id, start_ms: at, text: parts[1] });
  return { ok: true, doc: withCues(doc, next), cueId: id };
}

/** Joins two cue texts: no space between CJK, a space elsewhere; line breaks inside are kept. */
export function joinTexts(a: string, b: string): string {
  if (!a.trim()) return b.trim();
  if (!b.trim()) return a.trim();
  const left = a.trim();
  const right = b.trim();
  // CJK characters and full-width punctuation take no space; Latin words do.
  const tight = WIDE.test(left.at(-1)!) || WIDE.test(right[0]!) || /^\p{P}/u.test(right);
  return tight ? left + right : `${left} ${right}`;
}

const WIDE = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

/**
 * Merges a cue with the next one: one cue from the first start to the second end, texts joined. The
 * other language follows (bilingual projects): a translation line keeps the 原文 of both, and the
 * second-language lines paired with the two by time are merged as well.
 */
export function mergeWithNext(doc: ProjectDocument, cueId: string): OpResult {
  const { cues, index, cue } = locate(doc, cueId);
  if (!cue) return { ok: false, error: opError.noCue };
  const after = cues[index + 1];
  if (!after) return { ok: false, error: opError.noNext };
  let merged: SubtitleCue = {
    ...cue,
    end_ms: Math.max(cue.end_ms, after.end_ms),
    text: joinTexts(cue.text, after.text),
    speaker_id: cue.speaker_id ?? after.speaker_id,
  };
  // The back-translation (and its drift) was of the first line alone.
  if (merged.back_text != null || merged.drift) {
    const { drift: _drift, ...rest } = merged;
    merged = { ...rest, back_text: null };
  }
  let base = doc;
  if (doc.translation) {
    const joined = mergeSourcesOf(doc, cue, after);
    base = joined.doc;
    if (joined.ids.length) merged = { ...merged, source_ids: joined.ids };
  } else {
    base = mergeSecondLines(doc, cue, after);
  }
  const next = cues.slice();
  next.splice(index, 2, merged);
  return { ok: true, doc: withCues(base, next), cueId: cue.id };
}

/** Two cues as one: from the first start to the last end, texts joined. */
const joinCues = (a: SubtitleCue, b: SubtitleCue): SubtitleCue => ({
  ...a,
  start_ms: Math.min(a.start_ms, b.start_ms),
  end_ms: Math.max(a.end_ms, b.end_ms),
  text: joinTexts(a.text, b.text),
});

/**
 * A translation project: the source lines of two merged target lines. Adjacent source lines that no
 * other target line translates become one (its 原文 stays editable); otherwise all are kept, listed.
 */
function mergeSourcesOf(doc: ProjectDocument, a: SubtitleCue, b: SubtitleCue) {
  const src = sourceTrack(doc);
  const sources = [...new Map([...sourcesOf(doc, a), ...sourcesOf(doc, b)].map((c) => [c.id, c])).values()];
  if (!src || sources.length < 2) return { doc, ids: sources.map((c) => c.id) };
  const at = sources.map((c) => src.cues.indexOf(c)).sort((x, y) => x - y);
  const adjacent = at.every((k, i) => i === 0 || k === at[i - 1]! + 1);
  const ids = new Set(sources.map((c) => c.id));
  const shared = editCues(doc).some(
    (c) => c.id !== a.id && c.id !== b.id && sourcesOf(doc, c).some((s) => ids.has(s.id)),
  );
  if (!adjacent || shared) return { doc, ids: sources.map((c) => c.id) };
  const first = at[0]!;
  const one = at.slice(1).reduce((m, k) => joinCues(m, src.cues[k]!), src.cues[first]!);
  const cues = src.cues
    .filter((c) => !ids.has(c.id) || c.id === one.id)
    .map((c) => (c.id === one.id ? one : c));
  return {
    doc: { ...doc, tracks: doc.tracks.map((t) => (t.id === src.id ? { ...t, cues } : t)) },
    ids: [one.id],
  };
}

/** The cue of `cues` overlapping `cue` the most (its bilingual partner line), if any. */
function partnerOf(cues: SubtitleCue[], cue: SubtitleCue): number {
  let best = -1;
  let most = 0;
  cues.forEach((c, i) => {
    const overlap = Math.min(c.end_ms, cue.end_ms) - Math.max(c.start_ms, cue.start_ms);
    if (overlap > most) {
      most = overlap;
      best = i;
    }
  });
  return best;
}

/**
 * Bilingual subtitles paired by time (a second-language track under the edited source track): when
 * two merged cues have different, adjacent partner lines, those are merged too — else the render
 * would pair the merged cue with one of them and drop the other.
 */
function mergeSecondLines(doc: ProjectDocument, a: SubtitleCue, b: SubtitleCue): ProjectDocument {
  const edited = editTrackIndex(doc);
  if (edited < 0 || doc.tracks[edited]!.kind !== 'source') return doc;
  let changed = false;
  const tracks = doc.tracks.map((t, k) => {
    if (k === edited || t.kind !== 'translation') return t;
    const sorted = [...t.cues].sort(byStart);
    const pa = partnerOf(sorted, a);
    const pb = partnerOf(sorted, b);
    if (pa < 0 || pb !== pa + 1) return t;
    changed = true;
    const cues = sorted.slice();
    cues.splice(pa, 2, joinCues(sorted[pa]!, sorted[pb]!));
    return { ...t, cues };
  });
  return changed ? { ...doc, tracks } : doc;
}

/**
 * Adds an empty cue after `afterId` (in the gap before the next cue), or — without one — in the gap
 * around `atMs`. Refused when the gap is shorter than MIN_ADD_GAP_MS.
 */
export function addCue(
  doc: ProjectDocument,
  options: { afterId?: string | null; atMs?: number; durationMs?: number | null; speakerId?: string | null },
): OpResult {
  const cues = editCues(doc);
  const end = options.durationMs && options.durationMs > 0 ? options.durationMs : Number.POSITIVE_INFINITY;
  let from: number;
  let to: number;
  let speaker: string | null = options.speakerId ?? null;
  const after = options.afterId ? cues.findIndex((c) => c.id === options.afterId) : -1;
  if (after >= 0) {
    from = cues[after]!.end_ms;
    to = cues[after + 1]?.start_ms ?? end;
    speaker = options.speakerId ?? cues[after]!.speaker_id;
  } else {
    const at = Math.max(0, options.atMs ?? 0);
    if (cues.some((c) => at >= c.start_ms && at < c.end_ms)) return { ok: false, error: opError.gapTooSmall };
    const prev = cues.filter((c) => c.end_ms <= at).at(-1);
    const nextCue = cues.find((c) => c.start_ms >= at);
    from = Math.max(at, prev?.end_ms ?? 0);
    to = nextCue?.start_ms ?? end;
  }
  if (from >= end) return { ok: false, error: opError.beyondEnd };
  if (to - from < MIN_ADD_GAP_MS) return { ok: false, error: opError.gapTooSmall };
  const id = freshId(allCueIds(doc), 'c');
  const cue: SubtitleCue = {
    id,
    start_ms: from,
    end_ms: Math.min(to, from + NEW_CUE_MS),
    text: '',
    speaker_id: speaker,
  };
  return { ok: true, doc: withCues(doc, [...cues, cue]), cueId: id };
}

export function deleteCues(doc: ProjectDocument, ids: Iterable<string>): ProjectDocument {
  const gone = new Set(ids);
  const cues = editCues(doc);
  const left = cues.filter((c) => !gone.has(c.id));
  return left.length === cues.length ? doc : withCues(doc, left);
}

// ---------------------------------------------------------------- speakers

export function setSpeaker(
  doc: ProjectDocument,
  ids: Iterable<string>,
  speakerId: string | null,
): ProjectDocument {
  const set = new Set(ids);
  const cues = editCues(doc);
  if (!cues.some((c) => set.has(c.id) && c.speaker_id !== speakerId)) return doc;
  return withCues(
    doc,
    cues.map((c) => (set.has(c.id) ? { ...c, speaker_id: speakerId } : c)),
  );
}

export function renameSpeaker(doc: ProjectDocument, speakerId: string, name: string): ProjectDocument {
  const clean = name.trim().slice(0, 64);
  const found = doc.speakers.find((s) => s.id === speakerId);
  if (!found || !clean || found.name === clean) return doc;
  return { ...doc, speakers: doc.speakers.map((s) => (s.id === speakerId ? { ...s, name: clean } : s)) };
}

export function addSpeaker(doc: ProjectDocument, name?: string): { doc: ProjectDocument; speakerId: string } {
  const id = freshId(
    doc.speakers.map((s) => s.id),
    'spk',
  );
  const label = name?.trim() || zhCN.editor.newSpeaker(doc.speakers.length + 1);
  return { doc: { ...doc, speakers: [...doc.speakers, { id, name: label.slice(0, 64) }] }, speakerId: id };
}

/** Removes a speaker; its cues become unassigned. */
export function removeSpeaker(doc: ProjectDocument, speakerId: string): ProjectDocument {
  if (!doc.speakers.some((s) => s.id === speakerId)) return doc;
  const cues = editCues(doc);
  const withoutSpeaker = withCues(
    doc,
    cues.map((c) => (c.speaker_id === speakerId ? { ...c, speaker_id: null } : c)),
  );
  return { ...withoutSpeaker, speakers: doc.speakers.filter((s) => s.id !== speakerId) };
}

// ---------------------------------------------------------------- rules

export function setRules(doc: ProjectDocument, rules: SubtitleRules): ProjectDocument {
  const same = (Object.keys(rules) as (keyof SubtitleRules)[]).every((k) => rules[k] === doc.rules[k]);
  return same ? doc : { ...doc, rules: { ...rules } };
}

// ---------------------------------------------------------------- find and replace

export interface FindOptions {
  caseSensitive?: boolean;
}

export interface Match {
  /** The edited line (the row). */
  cueId: string;
  /** A translation project's 原文: the source line holding the occurrence (beside the row). */
  sourceId?: string;
  /** UTF-16 offset in the text. */
  index: number;
  length: number;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const findRe = (query: string, options: FindOptions) =>
  new RegExp(escapeRe(query), options.caseSensitive ? 'g' : 'gi');

/**
 * Every occurrence of `query` in the edited track, in cue order — in a translation project the 原文
 * beside each line too (first, as shown; a source line shared by several rows on the first).
 */
export function findMatches(doc: ProjectDocument, query: string, options: FindOptions = {}): Match[] {
  if (!query) return [];
  const re = findRe(query, options);
  const out: Match[] = [];
  const seen = new Set<string>();
  for (const cue of editCues(doc)) {
    if (doc.translation) {
      for (const src of sourcesOf(doc, cue)) {
        if (seen.has(src.id)) continue;
        seen.add(src.id);
        for (const m of src.text.matchAll(re))
          out.push({ cueId: cue.id, sourceId: src.id, index: m.index, length: m[0].length });
      }
    }
    for (const m of cue.text.matchAll(re)) out.push({ cueId: cue.id, index: m.index, length: m[0].length });
  }
  return out;
}

/** A translation project's source line, with a new text. */
function setSourceLineText(doc: ProjectDocument, sourceId: string, text: string): ProjectDocument {
  const src = sourceTrack(doc);
  if (!src) return doc;
  const cues = src.cues.map((c) => (c.id === sourceId && c.text !== text ? { ...c, text } : c));
  return cues.every((c, i) => c === src.cues[i])
    ? doc
    : { ...doc, tracks: doc.tracks.map((t) => (t.id === src.id ? { ...t, cues } : t)) };
}

/** Replaces one occurrence (as found by findMatches); a stale match (text changed) is left alone. */
export function replaceMatch(
  doc: ProjectDocument,
  match: Match,
  query: string,
  replacement: string,
  options: FindOptions = {},
): ProjectDocument {
  const cue = match.sourceId
    ? sourceTrack(doc)?.cues.find((c) => c.id === match.sourceId)
    : locate(doc, match.cueId).cue;
  if (!cue) return doc;
  const found = cue.text.slice(match.index, match.index + match.length);
  const same = options.caseSensitive ? found === query : found.toLowerCase() === query.toLowerCase();
  if (!same || !query) return doc;
  const text = cue.text.slice(0, match.index) + replacement + cue.text.slice(match.index + match.length);
  return match.sourceId ? setSourceLineText(doc, match.sourceId, text) : setCueText(doc, match.cueId, text);
}

export function replaceAll(
  doc: ProjectDocument,
  query: string,
  replacement: string,
  options: FindOptions = {},
): { doc: ProjectDocument; count: number } {
  if (!query) return { doc, count: 0 };
  const re = findRe(query, options);
  let count = 0;
  const replaced = (c: SubtitleCue) => {
    const text = c.text.replace(re, () => {
      count++;
      return replacement;
    });
    return text === c.text ? c : { ...c, text };
  };
  const cues = editCues(doc).map(replaced);
  let out = count === 0 ? doc : withCues(doc, cues);
  // 原文 too, the lines shown beside the rows (as found).
  const src = doc.translation ? sourceTrack(doc) : undefined;
  if (src && src.id !== doc.translation?.target_track_id) {
    const shown = new Set(editCues(doc).flatMap((c) => sourcesOf(doc, c).map((s) => s.id)));
    const before = count;
    const srcCues = src.cues.map((c) => (shown.has(c.id) ? replaced(c) : c));
    if (count > before)
      out = { ...out, tracks: out.tracks.map((t) => (t.id === src.id ? { ...t, cues: srcCues } : t)) };
  }
  return count === 0 ? { doc, count } : { doc: out, count };
}

// ---------------------------------------------------------------- lookups

/** The cue showing at `ms` (start inclusive, end exclusive). Binary search: cues are sorted. */
export function cueAt(cues: SubtitleCue[], ms: number): SubtitleCue | undefined {
  let lo = 0;
  let hi = cues.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = cues[mid]!;
    if (ms < c.start_ms) hi = mid - 1;
    else if (ms >= c.end_ms) lo = mid + 1;
    else return c;
  }
  return undefined;
}
