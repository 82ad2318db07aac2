import type { Box, ProjectDocument } from '@vw/contract';
import type { RecognizeVideoResult, Span } from '@vw/engines';

/*
 * Where to erase, as spans (box × time range). Pure, so it is tested without media.
 */

type Range = { start_ms: number; end_ms: number };

/** Ranges widened by `marginMs`, clamped to [0, durationMs], sorted, overlapping ones merged. */
export function mergeRanges(ranges: Range[], marginMs: number, durationMs: number): Range[] {
  const widened = ranges
    .map((r) => ({
      start_ms: Math.max(0, Math.round(r.start_ms - marginMs)),
      end_ms: Math.min(durationMs, Math.round(r.end_ms + marginMs)),
    }))
    .filter((r) => r.end_ms > r.start_ms)
    .sort((a, b) => a.start_ms - b.start_ms);
  const out: Range[] = [];
  for (const r of widened) {
    const last = out[out.length - 1];
    if (last && r.start_ms <= last.end_ms) last.end_ms = Math.max(last.end_ms, r.end_ms);
    else out.push({ ...r });
  }
  return out;
}

export function wholeSpans(boxes: Box[]): Span[] {
  return boxes.map((box) => ({ box, start_ms: null, end_ms: null }));
}

export function customSpans(boxes: Box[], ranges: Range[], durationMs: number): Span[] {
  const merged = mergeRanges(ranges, 0, durationMs);
  return boxes.flatMap((box) => merged.map((r) => ({ box, ...r })));
}

/** A fresh recognition inside the boxes: each box erased while its own region shows text (± margin). */
export function spansFromRecognition(
  boxes: Box[],
  result: Pick<RecognizeVideoResult, 'tracks'>,
  marginMs: number,
  durationMs: number,
): Span[] {
  return boxes.flatMap((box, region) => {
    const cues = result.tracks.filter((t) => t.region === region).flatMap((t) => t.cues);
    return mergeRanges(cues, marginMs, durationMs).map((r) => ({ box, ...r }));
  });
}

/** An OCR project's cues (every track; the boxes are the user's): erased while any cue is shown. */
export function spansFromDocument(
  boxes: Box[],
  document: ProjectDocument,
  marginMs: number,
  durationMs: number,
): Span[] {
  const cues = document.tracks.flatMap((t) => t.cues);
  const merged = mergeRanges(cues, marginMs, durationMs);
  return boxes.flatMap((box) => merged.map((r) => ({ box, ...r })));
}

export function documentChars(document: ProjectDocument): number {
  let n = 0;
  for (const t of document.tracks) for (const c of t.cues) n += [...c.text.replace(/\s/g, '')].length;
  return n;
}
