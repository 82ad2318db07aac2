import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { analyseLevels, analysisRate, readMonoFloat } from '../audio/levels.ts';
import { encodeWav, floatToPcm } from '../audio/wav.ts';
import { SAMPLE_RULES } from './sample-check.ts';

/*
 * Reference clips for cloning: each sample file is cut at pauses into pieces of 3–10 s of speech
 * (GPT-SoVITS wants 3–10 s, CosyVoice 10–20 s at most), each scored by its levels, and the best ones
 * written as WAV. Candidates use different clips, so they sound different when the sample varies.
 */

export interface ReferenceClip {
  path: string;
  source: string;
  start_ms: number;
  end_ms: number;
  duration_ms: number;
  score: number;
}

const MIN_MS = 3000;
const MAX_MS = 10_000;

/** 0..1: level in the window, quiet background, few pauses, no clipping. */
function scoreClip(x: Float32Array, rate: number): number {
  const l = analyseLevels(x, rate);
  const r = SAMPLE_RULES;
  const rmsPenalty =
    l.rms_db < r.rms.min
      ? (r.rms.min - l.rms_db) / 20
      : l.rms_db > r.rms.max
        ? (l.rms_db - r.rms.max) / 20
        : 0;
  const snr = Math.min(1, Math.max(0, l.snr_db / 40));
  const clip = l.clipped_share > 0 ? 0.5 : 0;
  return Math.max(0, snr * 0.5 + l.speech_share * 0.4 + 0.1 - rmsPenalty - clip);
}

/** The best `count` clips of the files, written into `dir` as ref-<n>.wav. */
export async function pickReferenceClips(
  files: Array<{ name: string; path: string }>,
  dir: string,
  count: number,
  opts: { signal?: AbortSignal } = {},
): Promise<ReferenceClip[]> {
  const pieces: Array<{
    source: string;
    x: Float32Array;
    rate: number;
    start: number;
    end: number;
    score: number;
  }> = [];
  for (const file of files) {
    const rate = await analysisRate(file.path);
    const x = await readMonoFloat(file.path, rate, opts.signal);
    const { speech_spans: spans } = analyseLevels(x, rate);
    let start: number | null = null;
    let end = 0;
    const flush = () => {
      if (start === null) return;
      const len = end - start;
      if (len >= MIN_MS) {
        const a = Math.round((start * rate) / 1000);
        const b = Math.min(x.length, Math.round((end * rate) / 1000));
        const clip = x.subarray(a, b);
        pieces.push({ source: file.name, x: clip, rate, start, end, score: scoreClip(clip, rate) });
      }
      start = null;
    };
    for (const s of spans) {
      if (start === null) start = s.start_ms;
      else if (s.end_ms - start > MAX_MS) {
        flush();
        start = s.start_ms;
      }
      end = Math.min(s.end_ms, start + MAX_MS);
      if (end - start >= MAX_MS) flush();
    }
    flush();
    // A short sample still gives `count` different clips: overlapping windows over its speech.
    const own = pieces.filter((p) => p.source === file.name).length;
    const first = spans[0]?.start_ms ?? 0;
    const last = spans.at(-1)?.end_ms ?? Math.round((x.length / rate) * 1000);
    const speechMs = last - first;
    if (own < count && speechMs >= 1000) {
      const len = Math.min(MAX_MS, Math.max(Math.min(MIN_MS, speechMs), Math.round(speechMs * 0.6)));
      let have = own;
      // window starts spread over the speech, skipping ones that repeat a clip already taken
      for (let k = 0; k < count + 1 && have < count; k++) {
        const start = first + Math.round(((speechMs - len) * k) / count);
        if (pieces.some((p) => p.source === file.name && Math.abs(p.start - start) < 300)) continue;
        const a = Math.round((start * rate) / 1000);
        const b = Math.min(x.length, Math.round(((start + len) * rate) / 1000));
        const clip = x.subarray(a, b);
        // windows overlap the clean cuts: ranked after them at equal quality
        pieces.push({
          source: file.name,
          x: clip,
          rate,
          start,
          end: start + len,
          score: scoreClip(clip, rate) * 0.95,
        });
        have++;
      }
    }
  }
  pieces.sort((a, b) => b.score - a.score);
  const out: ReferenceClip[] = [];
  for (const [i, p] of pieces.slice(0, count).entries()) {
    const file = path.join(dir, `ref-${i}.wav`);
    await writeFile(file, encodeWav(floatToPcm(p.x, p.rate)));
    out.push({
      path: file,
      source: p.source,
      start_ms: p.start,
      end_ms: p.end,
      duration_ms: p.end - p.start,
      score: Math.round(p.score * 1000) / 1000,
    });
  }
  return out;
}
