import {
  DEFAULT_SUBTITLE_RULES,
  type DubSettings,
  dubSettings,
  type ProjectDocument,
  parseSubtitles,
  type SubtitleCue,
  type SubtitleTrack,
  type TimedText,
} from '@vw/contract';
import { parseSrtDubbingMarks } from '@vw/engines';
import { AppError } from '../../../errors.ts';
import { newId } from '../../../ids.ts';

/*
 * Pure document rules of the dubbing tools: a subtitle file → the project document (speakers from
 * `名字：` prefixes, mute/keep marks), which voice a line speaks with, and which lines are stale.
 */

export const DUB_TRACK_ID = 'source';

/** ASS `Dialogue:` lines (the Name field is the speaker); override tags and \N are handled. */
function parseAss(source: string): Array<TimedText & { speaker?: string }> {
  const out: Array<TimedText & { speaker?: string }> = [];
  let format: string[] = [];
  let inEvents = false;
  for (const raw of source.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const line = raw.trim();
    if (/^\[.*\]$/.test(line)) {
      inEvents = line.toLowerCase() === '[events]';
      continue;
    }
    if (!inEvents) continue;
    if (/^Format:/i.test(line)) {
      format = line
        .slice(7)
        .split(',')
        .map((f) => f.trim().toLowerCase());
      continue;
    }
    if (!/^Dialogue:/i.test(line) || format.length === 0) continue;
    const fields = line.slice(9).split(',');
    const head = fields.slice(0, format.length - 1).map((f) => f.trim());
    const text = fields.slice(format.length - 1).join(',');
    const at = (name: string) => head[format.indexOf(name)];
    const start = assTime(at('start') ?? '');
    const end = assTime(at('end') ?? '');
    if (start === null || end === null || end < start) continue;
    const speaker = at('name')?.trim() || undefined;
    const clean = text
      .replace(/\{[^}]*\}/g, '')
      .replace(/\\[Nn]/g, '\n')
      .replace(/\\h/g, ' ')
      .trim();
    out.push({ start_ms: start, end_ms: end, text: clean, speaker });
  }
  return out.sort((a, b) => a.start_ms - b.start_ms);
}

function assTime(text: string): number | null {
  const m = /^(\d+):(\d{1,2}):(\d{1,2})[.,](\d{1,3})$/.exec(text.trim());
  if (!m) return null;
  const frac = Number(m[4]!.padEnd(3, '0'));
  return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 + frac;
}

/**
 * A subtitle file (SRT, VTT or ASS, told by its content) → cues with speakers and marks. Nothing
 * readable → err_file_not_supported; no cue with text or mark → err_file_empty. A tool without
 * voices (视频合成) passes `voiced: false`: its lines are shown as written, nothing is read off them.
 */
export function parseDubbingSubtitles(
  name: string,
  text: string,
  { voiced = true }: { voiced?: boolean } = {},
): { cues: Array<TimedText & { speaker?: string; mark?: 'mute' | 'keep' }> } {
  const clean = text.replace(/^\uFEFF/, '');
  if (clean.trim() === '')
    throw AppError.named('err_file_empty', '字幕文件是空的，请选择含有字幕的 SRT / VTT / ASS 文件');
  const isAss = /^\s*\[Script Info\]/i.test(clean) || /\.(ass|ssa)$/i.test(name);
  const raw = isAss ? parseAss(clean) : parseSubtitles(clean);
  if (raw.length === 0) {
    throw AppError.named(
      'err_file_not_supported',
      '没有读到字幕：请上传 SRT、VTT 或 ASS 格式的字幕文件（时间轴如 00:00:01,000 --> 00:00:02,500）',
    );
  }
  const cues = raw
    .map((cue) => {
      const marks: ReturnType<typeof parseSrtDubbingMarks> = voiced
        ? parseSrtDubbingMarks(cue.text)
        : { text: cue.text };
      const named = voiced && 'speaker' in cue ? (cue.speaker as string | undefined) : undefined;
      const speaker = named ?? marks.speaker;
      return {
        start_ms: cue.start_ms,
        end_ms: cue.end_ms,
        text: marks.text.trim(),
        speaker,
        mark: marks.mark,
      };
    })
    .filter((c) => c.text !== '' || c.mark);
  if (cues.length === 0) throw AppError.named('err_file_empty', '字幕文件里没有可配音的文字');
  return { cues };
}

/** A dubbing project's document from parsed cues: one source track, speakers by name. */
export function dubbingDocument(
  parsed: Array<TimedText & { speaker?: string; mark?: 'mute' | 'keep' }>,
  settings: Partial<DubSettings>,
  speakerVoices: Record<string, string>,
  language = 'auto',
): ProjectDocument {
  const speakers = new Map<string, { id: string; name: string; voice_id: string | null }>();
  for (const cue of parsed) {
    if (cue.speaker && !speakers.has(cue.speaker)) {
      speakers.set(cue.speaker, {
        id: `spk${speakers.size + 1}`,
        name: cue.speaker,
        voice_id: speakerVoices[cue.speaker] ?? null,
      });
    }
  }
  let lastEnd = 0;
  const cues: SubtitleCue[] = [];
  for (const cue of parsed) {
    // Lines never overlap: a cue starting before the previous one ends starts at its end.
    const start = Math.max(cue.start_ms, lastEnd);
    const end = Math.max(start, cue.end_ms);
    lastEnd = end;
    cues.push({
      id: newId('cue'),
      start_ms: start,
      end_ms: end,
      text: cue.text,
      speaker_id: cue.speaker ? speakers.get(cue.speaker)!.id : null,
      mark: cue.mark ?? null,
      text_rev: 0,
      audio_rev: 0,
      stale: !cue.mark,
      locked: false,
      takes: [],
      take_id: null,
    });
  }
  return {
    speakers: [...speakers.values()],
    tracks: [{ id: DUB_TRACK_ID, kind: 'source', language, cues }],
    rules: DEFAULT_SUBTITLE_RULES,
    dub: dubSettings.parse(settings),
  };
}

/**
 * The track the dub speaks: the first source track (the one the editor edits), or the translation
 * track when the project says so (视频翻译).
 */
export function dubTrack(doc: ProjectDocument) {
  const kind = doc.dub?.spoken_track ?? 'source';
  return doc.tracks.find((t) => t.kind === kind);
}

/** The voice a line speaks with: its own, its speaker's, the project's default. */
export function voiceOf(doc: ProjectDocument, cue: SubtitleCue): string {
  const speaker = cue.speaker_id ? doc.speakers.find((s) => s.id === cue.speaker_id) : undefined;
  return cue.voice_id || speaker?.voice_id || doc.dub?.default_voice_id || '';
}

/** The take that plays: the chosen one, else the newest. */
export function chosenTake(cue: SubtitleCue) {
  const takes = cue.takes ?? [];
  return takes.find((t) => t.id === cue.take_id) ?? takes[takes.length - 1];
}

/**
 * Whether a line needs new audio: it has words to say and no take, or its text or voice changed
 * since the chosen take was made (an edit in the editor also sets `stale`).
 */
export function needsAudio(doc: ProjectDocument, cue: SubtitleCue): boolean {
  if (cue.mark || cue.text.trim() === '') return false;
  const take = chosenTake(cue);
  if (!take) return true;
  return Boolean(cue.stale) || take.source_text !== cue.text || take.voice_id !== voiceOf(doc, cue);
}

/** The end of the track: the media's length, else the last cue's end plus a moment. */
export function trackEndMs(doc: ProjectDocument, mediaMs: number | null): number {
  const cues = dubTrack(doc)?.cues ?? [];
  const last = cues.reduce((m, c) => Math.max(m, c.end_ms), 0);
  return Math.max(mediaMs ?? 0, last + (mediaMs ? 0 : 500));
}

/** The second-language track of bilingual subtitles (a translation track), made from timed text. */
export function secondTrack(cues: TimedText[], language = 'auto'): SubtitleTrack {
  return {
    id: 'second',
    kind: 'translation',
    language,
    cues: cues
      .filter((c) => c.text.trim() !== '' && c.end_ms > c.start_ms)
      .map((c) => ({
        id: newId('cue'),
        start_ms: c.start_ms,
        end_ms: c.end_ms,
        text: c.text,
        speaker_id: null,
      })),
  };
}

/** The second lines of bilingual subtitles: the translation track when the project asks for two lines. */
export function secondLines(doc: ProjectDocument): TimedText[] | undefined {
  if (doc.dub?.subtitle_lines !== 'bilingual') return undefined;
  // The other language: the translation under a spoken source, the source under a spoken translation.
  const other = doc.dub.spoken_track === 'translation' ? 'source' : 'translation';
  const track = doc.tracks.find((t) => t.kind === other && t.cues.length > 0);
  return track?.cues.map((c) => ({ start_ms: c.start_ms, end_ms: c.end_ms, text: c.text }));
}
