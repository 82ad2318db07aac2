import { type AudioEncoder, createAudioEncoder } from '@vw/engines';
import type { AppContext } from '../../context.ts';

interface Spare {
  encoder: AudioEncoder;
  abort: AbortController;
}

/**
 * Keeps one MP3 encoder (an ffmpeg process waiting on its input) ready per sample rate, so a request
 * does not wait for ffmpeg to start before its first bytes: starting ffmpeg costs tens of milliseconds.
 */
export function createEncoderPool() {
  const spares = new Map<number, Spare>();
  let closed = false;

  const spawn = (sampleRate: number): Spare => {
    const abort = new AbortController();
    const encoder = createAudioEncoder({ format: 'mp3', sampleRate, signal: abort.signal });
    encoder.output.on('error', () => {});
    return { encoder, abort };
  };

  return {
    /** An encoder for this rate; a fresh spare starts behind it. */
    take(sampleRate: number): AudioEncoder {
      const spare = spares.get(sampleRate);
      spares.delete(sampleRate);
      if (!closed) spares.set(sampleRate, spawn(sampleRate));
      return (spare ?? spawn(sampleRate)).encoder;
    },
    prime(sampleRate: number): void {
      if (!closed && !spares.has(sampleRate)) spares.set(sampleRate, spawn(sampleRate));
    },
    close(): void {
      closed = true;
      for (const s of spares.values()) s.abort.abort();
      spares.clear();
    },
  };
}
export type EncoderPool = ReturnType<typeof createEncoderPool>;

const pools = new WeakMap<object, EncoderPool>();

/**
 * The app's pool, one per database handle (as the usage meter): the workbench and the public API
 * stream through the same spares. The TTS routes prime it and close it with the app.
 */
export function encoderPool(ctx: Pick<AppContext, 'db'>): EncoderPool {
  let pool = pools.get(ctx.db);
  if (!pool) {
    pool = createEncoderPool();
    pools.set(ctx.db, pool);
  }
  return pool;
}
