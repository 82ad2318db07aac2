/**
 * Test media with known truth: two spoken English phrases (espeak-ng) placed at known times in
 * silence, as a WAV and as an MP4 video (so inputs are read the way real uploads are).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { concatAudioFiles, probeAudio } from '../audio/ffmpeg.ts';

const run = promisify(execFile);

export const SILERO_MODEL = join(
  dirname(createRequire(import.meta.url).resolve('@ricky0123/vad-web')),
  'silero_vad_v5.onnx',
);

export const PHRASES = ['hello world this is a test', 'the second sentence comes two seconds later'];
export const LEAD_MS = 1000;
export const GAP_MS = 2000;
export const TAIL_MS = 1000;

export interface SpeechMedia {
  wav: string;
  mp4: string;
  /** Where each phrase's audio (espeak's own file, edges included) sits in the media. */
  phrases: Array<{ text: string; startMs: number; endMs: number }>;
  durationMs: number;
}

export async function makeSpeechMedia(dir: string): Promise<SpeechMedia> {
  const files: string[] = [];
  const lengths: number[] = [];
  for (const [i, text] of PHRASES.entries()) {
    const file = join(dir, `phrase-${i}.wav`);
    await run('espeak-ng', ['-v', 'en-us', '-w', file, text]);
    files.push(file);
    lengths.push((await probeAudio(file)).durationMs);
  }
  const wav = join(dir, 'speech.wav');
  await concatAudioFiles(
    [{ pauseMs: LEAD_MS }, { path: files[0] }, { pauseMs: GAP_MS }, { path: files[1] }, { pauseMs: TAIL_MS }],
    { output: wav, format: 'wav' },
  );
  const mp4 = join(dir, 'speech.mp4');
  // A tiny black video around the audio, as a phone recording or screen capture would be.
  await run('ffmpeg', [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=5'],
    ...['-i', wav, '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-y', mp4],
  ]);
  const first = { text: PHRASES[0], startMs: LEAD_MS, endMs: LEAD_MS + lengths[0] };
  const secondStart = first.endMs + GAP_MS;
  return {
    wav,
    mp4,
    phrases: [first, { text: PHRASES[1], startMs: secondStart, endMs: secondStart + lengths[1] }],
    durationMs: secondStart + lengths[1] + TAIL_MS,
  };
}
