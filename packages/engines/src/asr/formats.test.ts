import { describe, expect, it } from 'vitest';
import { renderTranscript, toVerboseJson } from './formats.ts';
import type { Transcript } from './types.ts';

const transcript: Transcript = {
  language: 'zh',
  durationMs: 4250,
  engine: 'test',
  segments: [
    {
      id: 0,
      startMs: 120,
      endMs: 1500,
      text: '你好。',
      words: [
        { text: '你', startMs: 120, endMs: 600 },
        { text: '好。', startMs: 600, endMs: 1500 },
      ],
      speaker: 'S1',
    },
    {
      id: 1,
      startMs: 2000,
      endMs: 4000,
      text: 'Hello world',
      words: [
        { text: 'Hello', startMs: 2000, endMs: 2900 },
        { text: 'world', startMs: 3000, endMs: 4000 },
      ],
    },
  ],
};

describe('OpenAI transcription formats', () => {
  it('json and text', () => {
    expect(renderTranscript(transcript, 'json')).toEqual({
      contentType: 'application/json',
      body: '{"text":"你好。Hello world"}',
    });
    expect(renderTranscript(transcript, 'text')).toEqual({
      contentType: 'text/plain; charset=utf-8',
      body: '你好。Hello world\n',
    });
  });

  it('srt and vtt', () => {
    expect(renderTranscript(transcript, 'srt').body).toBe(
      '1\n00:00:00,120 --> 00:00:01,500\n你好。\n\n2\n00:00:02,000 --> 00:00:04,000\nHello world\n',
    );
    expect(renderTranscript(transcript, 'vtt')).toEqual({
      contentType: 'text/vtt; charset=utf-8',
      body: 'WEBVTT\n\n00:00:00.120 --> 00:00:01.500\n你好。\n\n00:00:02.000 --> 00:00:04.000\nHello world\n',
    });
  });

  it('verbose_json in seconds, with words at the top level', () => {
    const zeros = { tokens: [], temperature: 0, avg_logprob: 0, compression_ratio: 0, no_speech_prob: 0 };
    expect(toVerboseJson(transcript)).toEqual({
      task: 'transcribe',
      language: 'zh',
      duration: 4.25,
      text: '你好。Hello world',
      segments: [
        { id: 0, seek: 12, start: 0.12, end: 1.5, text: '你好。', ...zeros, speaker: 'S1' },
        { id: 1, seek: 200, start: 2, end: 4, text: 'Hello world', ...zeros },
      ],
      words: [
        { word: '你', start: 0.12, end: 0.6 },
        { word: '好。', start: 0.6, end: 1.5 },
        { word: 'Hello', start: 2, end: 2.9 },
        { word: 'world', start: 3, end: 4 },
      ],
    });
    expect(JSON.parse(renderTranscript(transcript, 'verbose_json').body)).toEqual(toVerboseJson(transcript));
  });

  it('an empty transcript', () => {
    const empty = { ...transcript, segments: [] };
    expect(renderTranscript(empty, 'json').body).toBe('{"text":""}');
    expect(renderTranscript(empty, 'srt').body).toBe('');
    expect(toVerboseJson(empty)).toMatchObject({ text: '', segments: [], words: [] });
  });
});
