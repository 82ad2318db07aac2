import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough, type Readable } from 'node:stream';
import { createEncoder, type WasmMediaEncoder } from 'wasm-media-encoders';
import { EngineError } from '../errors.ts';

/**
 * MP3 encoding in this process: LAME compiled to WebAssembly (wasm-media-encoders). Starting
 * Debian's ffmpeg costs about 60 ms of CPU (its dynamic linker resolving 200 libraries) while LAME
 * encodes 3 s of speech in about 15 ms, so a short synthesis spent most of its CPU starting ffmpeg;
 * under load that decided how fast every other call was answered.
 */

/** Input is encoded this many samples at a time, yielding in between: no long stall of the event loop. */
const CHUNK_SAMPLES = 16_384;
/** Encoded bytes the output may hold unread before write() waits (the consumer is slow: a store). */
const OUTPUT_HIGH_WATER = 1024 * 1024;
/** Finished LAME instances kept for the next stream (an instance costs ~2 ms to make). */
const SPARES = 8;

let compiled: WebAssembly.Module | null = null;
const spares: WasmMediaEncoder<'audio/mpeg'>[] = [];

async function takeLame(): Promise<WasmMediaEncoder<'audio/mpeg'>> {
  const spare = spares.pop();
  if (spare) return spare;
  compiled ??= new WebAssembly.Module(
    readFileSync(createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3')),
  );
  return createEncoder('audio/mpeg', compiled);
}

export interface AudioEncoder {
  /** Encoded bytes: consume them while writing (pipe them to the response or the store). */
  readonly output: Readable;
  /** Encodes samples; waits while much encoded output is unread (backpressure). */
  write(samples: Int16Array): Promise<void>;
  /** Flushes the last frames and ends the output. */
  end(): Promise<void>;
}

const aborted = () => new EngineError('aborted', '音频处理已取消', 'audio processing aborted');

/**
 * A 64 kbps CBR MP3 stream fed sentence by sentence, so a server sends bytes while later sentences
 * are still being synthesised. Mono 16-bit PCM at `sampleRate` in.
 */
export function createMp3Encoder(options: { sampleRate: number; signal?: AbortSignal }): AudioEncoder {
  const { sampleRate, signal } = options;
  const output = new PassThrough({ highWaterMark: OUTPUT_HIGH_WATER });
  // An abort is reported by write() and end(); a reader without an error listener must not crash.
  output.on('error', () => {});
  const ready = takeLame().then((lame) => {
    lame.configure({ channels: 1, sampleRate, bitrate: 64 });
    return lame;
  });
  ready.catch(() => {}); // reported by write() and end()
  const onAbort = () => output.destroy(aborted());
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const check = () => {
    if (output.destroyed) throw aborted();
  };

  const push = async (bytes: Uint8Array) => {
    // The encoder reuses its buffer: copy before handing the bytes on.
    if (bytes.length === 0 || output.write(Buffer.from(bytes))) return;
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        output.off('drain', done);
        output.off('close', closed);
        if (err) reject(err);
        else resolve();
      };
      const closed = () => done(aborted());
      output.once('drain', done);
      output.once('close', closed);
    });
  };

  return {
    output,
    async write(samples) {
      const lame = await ready;
      for (let at = 0; at < samples.length; at += CHUNK_SAMPLES) {
        check();
        const chunk = samples.subarray(at, at + CHUNK_SAMPLES);
        const floats = new Float32Array(chunk.length);
        for (let i = 0; i < chunk.length; i++) floats[i] = chunk[i] / 32768;
        await push(lame.encode([floats]));
        if (at + CHUNK_SAMPLES < samples.length) await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async end() {
      const lame = await ready;
      check();
      await push(lame.finalize());
      // Back to the spares only once finished; an abandoned stream's instance is dropped.
      if (spares.length < SPARES) spares.push(lame);
      signal?.removeEventListener('abort', onAbort);
      output.end();
    },
  };
}
