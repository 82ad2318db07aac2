import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSilences, streamPcmFloat } from '../audio/ffmpeg.ts';
import { createVoiceActivityDetector, type SpeechChunk, type VoiceActivityDetector } from '../sherpa/vad.ts';
import { makeSpeechMedia, SILERO_MODEL, type SpeechMedia } from './media.fixture.ts';
import { transcribeChunks } from './pipeline.ts';

let dir: string;
let media: SpeechMedia;
let vad: VoiceActivityDetector;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-asr-pipeline-'));
  media = await makeSpeechMedia(dir);
  vad = await createVoiceActivityDetector({ model: SILERO_MODEL, minSilenceMs: 500, maxSpeechMs: 20_000 });
}, 30_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);

describe('16 kHz PCM streamed from a file by ffmpeg', () => {
  it('yields the whole audio track of a video in blocks', async () => {
    let total = 0;
    let blocks = 0;
    for await (const block of streamPcmFloat(media.mp4)) {
      total += block.length;
      blocks++;
    }
    expect(blocks).toBeGreaterThan(1);
    // AAC pads a frame or two at the edges.
    expect(Math.abs((total / 16_000) * 1000 - media.durationMs)).toBeLessThan(100);
  });

  it('fails clearly on a file ffmpeg cannot read', async () => {
    const read = async () => {
      for await (const _ of streamPcmFloat(join(dir, 'missing.wav'))) {
        // nothing
      }
    };
    await expect(read()).rejects.toMatchObject({ code: 'media_failed' });
  });
});

describe('silences found by ffmpeg', () => {
  it('lie before, between and after the phrases', async () => {
    const silences = await detectSilences(media.mp4);
    const [first, second] = media.phrases;
    expect(silences).toHaveLength(3);
    expect(silences[0].startMs).toBe(0);
    expect(Math.abs(silences[0].endMs - first.startMs)).toBeLessThan(100);
    // espeak ends each phrase with ~250 ms of its own silence.
    expect(silences[1].startMs).toBeGreaterThan(first.endMs - 400);
    expect(silences[1].startMs).toBeLessThan(first.endMs);
    expect(Math.abs(silences[1].endMs - second.startMs)).toBeLessThan(100);
    expect(silences[2].startMs).toBeGreaterThan(second.endMs - 400);
    expect(Math.abs(silences[2].endMs - media.durationMs)).toBeLessThan(50);
  });
});

describe('Silero VAD (the real model from @ricky0123/vad-web) over a streamed file', () => {
  it('finds the two phrases where they were placed', async () => {
    const chunks: SpeechChunk[] = [];
    for await (const chunk of vad.chunks(streamPcmFloat(media.wav))) chunks.push(chunk);
    expect(chunks).toHaveLength(2);
    for (const [i, chunk] of chunks.entries()) {
      const truth = media.phrases[i];
      // espeak's file starts with a few ms and ends with ~250 ms of silence; Silero reacts within a
      // few 32 ms windows.
      expect(chunk.startMs).toBeGreaterThanOrEqual(truth.startMs - 50);
      expect(chunk.startMs).toBeLessThan(truth.startMs + 150);
      expect(chunk.endMs).toBeGreaterThan(truth.endMs - 400);
      expect(chunk.endMs).toBeLessThan(truth.endMs + 100);
      // The samples are the chunk's own audio: as many as its length, and loud.
      expect(chunk.samples.length).toBe(Math.round(((chunk.endMs - chunk.startMs) / 1000) * 16_000));
      expect(rms(chunk.samples)).toBeGreaterThan(0.02);
    }
  });
});

describe('the chunked recognition pipeline', () => {
  it('recognises chunk by chunk and puts token times into file time', async () => {
    const seen: Array<{ startMs: number; samples: number }> = [];
    const progress: number[] = [];
    const result = await transcribeChunks(media.mp4, {
      vad,
      durationMs: media.durationMs,
      onProgress: (f) => progress.push(f),
      // Stands in for sherpa's recognizer: two tokens, at 0 s and 0.5 s into the chunk.
      recognize: async (chunk) => {
        seen.push({ startMs: chunk.startMs, samples: chunk.samples.length });
        const n = seen.length;
        return { text: `▁phrase ${n}`, lang: '<|en|>', tokens: ['▁phrase', `▁${n}`], timestamps: [0, 0.5] };
      },
    });
    expect(seen).toHaveLength(2);
    expect(result.languages).toEqual(['en', 'en']);
    expect(Math.abs(result.durationMs - media.durationMs)).toBeLessThan(100);
    expect(result.segments.map((s) => s.id)).toEqual([0, 1]);
    for (const [i, s] of result.segments.entries()) {
      const start = Math.round(seen[i].startMs);
      expect(Math.abs(s.startMs - media.phrases[i].startMs)).toBeLessThan(150);
      expect(s.startMs).toBe(start);
      expect(s.endMs).toBe(Math.round(seen[i].startMs + (seen[i].samples / 16_000) * 1000));
      expect(s.text).toBe(`▁phrase ${i + 1}`);
      expect(s.words).toEqual([
        { text: 'phrase', startMs: start, endMs: start + 500 },
        { text: String(i + 1), startMs: start + 500, endMs: s.endMs },
      ]);
    }
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[0]).toBeGreaterThan(0.2);
    expect(progress[0]).toBeLessThan(0.5);
  });

  it('spreads words when the recognizer gives no token times, and drops empty chunks', async () => {
    let n = 0;
    const result = await transcribeChunks(media.wav, {
      vad,
      recognize: async () => (n++ === 0 ? { text: '  ' } : { text: '你好世界' }),
    });
    expect(result.segments).toHaveLength(1);
    const [s] = result.segments;
    expect(s.id).toBe(0);
    expect(s.words.map((w) => w.text)).toEqual(['你', '好', '世', '界']);
    expect(s.words[0].startMs).toBe(s.startMs);
    expect(s.words[3].endMs).toBe(s.endMs);
    expect(s.words[1].startMs).toBe(Math.round(s.startMs + (s.endMs - s.startMs) / 4));
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    let calls = 0;
    await expect(
      transcribeChunks(media.wav, {
        vad,
        signal: controller.signal,
        recognize: async () => {
          calls++;
          controller.abort();
          return { text: 'x' };
        },
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
    expect(calls).toBe(1);
  });
});
