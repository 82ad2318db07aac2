/**
 * A Transcript rendered as the OpenAI transcription API answers (`response_format`), so the public
 * `/api/v1/audio/transcriptions` speaks the protocol its clients already know. Pure.
 */
import { toSrt, toVtt } from '../audio/subtitles.ts';
import { joinTexts } from './timing.ts';
import type { Transcript } from './types.ts';

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'vtt', 'verbose_json'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export interface VerboseJson {
  task: 'transcribe';
  language: string;
  /** Seconds, like every time in this format. */
  duration: number;
  text: string;
  segments: Array<{
    id: number;
    seek: number;
    start: number;
    end: number;
    text: string;
    tokens: number[];
    temperature: number;
    avg_logprob: number;
    compression_ratio: number;
    no_speech_prob: number;
    /** Not in OpenAI's schema; present only when diarization ran (clients ignore unknown fields). */
    speaker?: string;
  }>;
  words: Array<{ word: string; start: number; end: number }>;
}

const seconds = (ms: number) => Math.round(ms) / 1000;

/** The whole text: segments joined with a space, or none around CJK. */
export const transcriptText = (t: Transcript) => joinTexts(t.segments.map((s) => s.text));

export function toVerboseJson(t: Transcript): VerboseJson {
  return {
    task: 'transcribe',
    language: t.language,
    duration: seconds(t.durationMs),
    text: transcriptText(t),
    segments: t.segments.map((s) => ({
      id: s.id,
      // Whisper's seek counts 10 ms frames; the segment start is the closest meaning we have.
      seek: Math.round(s.startMs / 10),
      start: seconds(s.startMs),
      end: seconds(s.endMs),
      text: s.text,
      // Scores and token ids of whisper's decoder: not known here, zero as many compatible servers do.
      tokens: [],
      temperature: 0,
      avg_logprob: 0,
      compression_ratio: 0,
      no_speech_prob: 0,
      ...(s.speaker ? { speaker: s.speaker } : {}),
    })),
    words: t.segments.flatMap((s) =>
      s.words.map((w) => ({ word: w.text, start: seconds(w.startMs), end: seconds(w.endMs) })),
    ),
  };
}

export interface RenderedTranscript {
  contentType: string;
  body: string;
}

export function renderTranscript(t: Transcript, format: TranscriptFormat): RenderedTranscript {
  switch (format) {
    case 'json':
      return { contentType: 'application/json', body: JSON.stringify({ text: transcriptText(t) }) };
    case 'verbose_json':
      return { contentType: 'application/json', body: JSON.stringify(toVerboseJson(t)) };
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', body: `${transcriptText(t)}\n` };
    case 'srt':
      return { contentType: 'application/x-subrip; charset=utf-8', body: toSrt(t.segments) };
    case 'vtt':
      return { contentType: 'text/vtt; charset=utf-8', body: toVtt(t.segments) };
  }
}
