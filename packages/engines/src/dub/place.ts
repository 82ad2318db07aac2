import { open } from 'node:fs/promises';
import { pcmToBuffer, wavHeader } from '../audio/wav.ts';
import { EngineError } from '../errors.ts';
import { DUB_RATE, readPcm } from './pcm.ts';
import type { PlaceLine, PlaceOptions, PlaceReport } from './types.ts';

const ZERO_CHUNK_SAMPLES = DUB_RATE; // 1 s of silence written at a time
const PREFETCH = 4;

/**
 * Writes the dub track: one 48 kHz mono 16-bit WAV in which line i starts at sample
 * round(start_ms × 48) — computed from the cue itself, never from the previous line, so nothing
 * accumulates (ffmpeg adelay chains drift by a rounding per line). Lines are read a few at a time and
 * written in order, so a 10-minute track keeps only a handful of lines in memory. A line that would
 * run into the next one (or past the end) is cut there and reported: lines never overlap.
 */
export async function placeLines(lines: PlaceLine[], out: string, opts: PlaceOptions): Promise<PlaceReport> {
  const sampleRate = opts.sampleRate ?? DUB_RATE;
  const total = Math.round((opts.duration_ms / 1000) * sampleRate);
  if (!(total > 0))
    throw new EngineError('invalid_request', '配音轨时长必须大于 0', 'duration_ms must be > 0');
  const order = lines
    .map((line, index) => ({ ...line, index, at: Math.round((line.start_ms / 1000) * sampleRate) }))
    .sort((a, b) => a.at - b.at || a.index - b.index);
  for (const l of order) {
    if (!(l.at >= 0) || l.at >= total) {
      throw new EngineError(
        'invalid_request',
        `第 ${l.index + 1} 句的开始时间超出音轨范围`,
        `line ${l.index} starts at ${l.start_ms} ms, outside 0–${opts.duration_ms} ms`,
      );
    }
  }
  const offsets = new Array<number>(lines.length).fill(0);
  const clipped: PlaceReport['clipped'] = [];
  const fh = await open(out, 'w');
  try {
    await fh.write(wavHeader(total * 2, sampleRate), 0, 44, 0);
    const zeros = Buffer.alloc(ZERO_CHUNK_SAMPLES * 2);
    let pos = 0; // samples written
    let bytePos = 44;
    const writeBytes = async (buf: Buffer) => {
      await fh.write(buf, 0, buf.length, bytePos);
      bytePos += buf.length;
    };
    const writeSilence = async (n: number) => {
      for (let left = n; left > 0; left -= ZERO_CHUNK_SAMPLES) {
        await writeBytes(left >= ZERO_CHUNK_SAMPLES ? zeros : zeros.subarray(0, left * 2));
      }
      pos += n;
    };
    // Decode a few lines ahead while writing (decoding through ffmpeg is the slow part).
    const pending = new Map<number, ReturnType<typeof readPcm>>();
    const load = (k: number) => {
      if (k < order.length && !pending.has(k)) {
        const p = readPcm(order[k].file, opts.signal, sampleRate);
        p.catch(() => {});
        pending.set(k, p);
      }
    };
    for (let k = 0; k < order.length; k++) {
      opts.signal?.throwIfAborted();
      for (let j = k; j < k + PREFETCH; j++) load(j);
      const pcm = await (pending.get(k) as ReturnType<typeof readPcm>);
      pending.delete(k);
      const line = order[k];
      await writeSilence(Math.max(0, line.at - pos));
      offsets[line.index] = pos;
      const limit = Math.min(total, k + 1 < order.length ? order[k + 1].at : total);
      const skip = Math.max(0, pos - line.at);
      const room = Math.max(0, limit - pos);
      const body = pcm.samples.subarray(skip, skip + room);
      // Cut at the front (same start as the line before) or at the end (runs into the next line).
      const cut = skip + Math.max(0, pcm.samples.length - skip - body.length);
      if (cut > 0) clipped.push({ index: line.index, cut_ms: Math.round((cut / sampleRate) * 1000) });
      await writeBytes(pcmToBuffer({ samples: body, sampleRate }));
      pos += body.length;
    }
    await writeSilence(total - pos);
  } finally {
    await fh.close();
  }
  return { clipped, offsets, sampleRate, duration_ms: opts.duration_ms };
}
