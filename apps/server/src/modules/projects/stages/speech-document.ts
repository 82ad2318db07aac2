import {
  joinWords,
  type ProjectDocument,
  type SubtitleCue,
  type SubtitleRules,
  splitIntoCues,
  type TimedText,
  wrapText,
} from '@vw/contract';
import type { AsrSegment, Transcript } from '@vw/engines';
import { speakerName } from './recognize-speech.ts';
import { languageNotice } from './speech-language.ts';

/*
 * A transcript → the editor document of an stt project: one source track, speakers from the
 * diarization labels, cues cut to the project's rules. Pure, so it is tested without a recognizer.
 */

export const SOURCE_TRACK_ID = 'source';

/**
 * A segment as cues. One that already fits the rules stays whole with the recognizer's own text
 * (its punctuation is often better than the words'); a longer one is cut at its word times.
 */
function cuesOfSegment(segment: AsrSegment, rules: SubtitleRules, split: boolean): TimedText[] {
  const text = segment.text.trim();
  if (!text) return [];
  const whole = { start_ms: segment.startMs, end_ms: Math.max(segment.startMs, segment.endMs), text };
  const fits =
    [...text].length <= rules.max_chars_per_line * rules.max_lines &&
    segment.endMs - segment.startMs <= rules.max_duration_ms;
  if (!split || fits || segment.words.length === 0) {
    return [{ ...whole, text: split ? wrapText(text, rules.max_chars_per_line) : text }];
  }
  const words = segment.words.map((w) => ({ text: w.text, start_ms: w.startMs, end_ms: w.endMs }));
  // Words that lost the segment's punctuation would lose it in the cues too; then keep the segment whole.
  const squash = (s: string) => s.replace(/[\s\p{P}]/gu, '');
  if (squash(joinWords(words.map((w) => w.text))) !== squash(text)) return [whole];
  return splitIntoCues(words, rules);
}

export function transcriptToDocument(
  transcript: Pick<Transcript, 'language' | 'segments'>,
  base: ProjectDocument,
  /** `language`: what the user asked for ('auto' or a code): a different script is noticed, not failed. */
  options: { splitCues: boolean; language?: string },
): ProjectDocument {
  const labels: string[] = [];
  const cues: SubtitleCue[] = [];
  for (const segment of [...transcript.segments].sort((a, b) => a.startMs - b.startMs)) {
    if (segment.speaker && !labels.includes(segment.speaker)) labels.push(segment.speaker);
    for (const cue of cuesOfSegment(segment, base.rules, options.splitCues)) {
      cues.push({ id: `c${cues.length + 1}`, ...cue, speaker_id: segment.speaker ?? null });
    }
  }
  const notice = languageNotice(options.language ?? 'auto', cues.map((c) => c.text).join('\n'));
  return {
    speakers: labels.map((id) => ({ id, name: speakerName(id) })),
    // The recognised track replaces an earlier source track; other tracks (translations) stay.
    tracks: [
      {
        id: SOURCE_TRACK_ID,
        kind: 'source',
        language: transcript.language || 'auto',
        cues,
        ...(notice ? { language_notice: notice } : {}),
      },
      ...base.tracks.filter((t) => t.id !== SOURCE_TRACK_ID),
    ],
    rules: base.rules,
  };
}
