import type { ProjectDocument, SubtitleTrack } from '@vw/contract';
import type { RecognizeVideoResult } from '@vw/engines';

/*
 * Recognised tracks → the editor document of an ocr project. The main track (Chinese, the first
 * region with cues) is the source track the editor edits; a Latin line of bilingual subtitles becomes
 * a translation track, another region (a top title) its own source track after it. Pure.
 */

export const SOURCE_TRACK_ID = 'source';

export function ocrToDocument(
  result: Pick<RecognizeVideoResult, 'tracks'>,
  base: ProjectDocument,
  language: string,
): ProjectDocument {
  const withCues = result.tracks.filter((t) => t.cues.length > 0);
  // The main track: Chinese first, then the region order, then the most cues.
  const ranked = [...withCues].sort(
    (a, b) =>
      Number(b.script === 'zh') - Number(a.script === 'zh') ||
      a.region - b.region ||
      b.cues.length - a.cues.length,
  );
  const tracks: SubtitleTrack[] = ranked.map((track, index) => {
    const main = index === 0;
    const latin = track.script === 'latin';
    return {
      id: main ? SOURCE_TRACK_ID : `ocr-r${track.region}-${track.script}`,
      kind: main || !latin ? 'source' : 'translation',
      language: main && language !== 'auto' ? language : track.language || 'auto',
      cues: track.cues.map((cue, i) => ({
        id: `c${i + 1}`,
        start_ms: Math.max(0, Math.round(cue.start_ms)),
        end_ms: Math.max(0, Math.round(cue.end_ms)),
        text: cue.text,
        speaker_id: null,
      })),
    };
  });
  return { speakers: base.speakers, tracks: tracks.slice(0, 10), rules: base.rules };
}

export function countChars(result: Pick<RecognizeVideoResult, 'tracks'>): number {
  let n = 0;
  for (const t of result.tracks) for (const c of t.cues) n += [...c.text.replace(/\s/g, '')].length;
  return n;
}
