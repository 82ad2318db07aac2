/**
 * The MP3 encoder thread: LAME in WebAssembly (wasm-media-encoders) for the streams of
 * mp3-encoder.ts, so encoding runs on a core the event loop does not use, while the next sentence
 * is synthesised. Only erasable TypeScript here: Node runs this file directly (type stripping).
 * Protocol in: { type: 'open', id, sampleRate } | { type: 'encode', id, samples } | { type: 'end', id }
 * | { type: 'drop', id }. Out: { id, bytes, encoded?, ended? } | { id, error }.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { createEncoder, type WasmMediaEncoder } from 'wasm-media-encoders';

type Lame = WasmMediaEncoder<'audio/mpeg'>;
type Request =
  | { type: 'open'; id: number; sampleRate: number }
  | { type: 'encode'; id: number; samples: Int16Array }
  | { type: 'end'; id: number }
  | { type: 'drop'; id: number };

const port = parentPort;
if (!port) throw new Error('mp3 worker must run in a worker thread');

const compiled = new WebAssembly.Module(
  readFileSync(createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3')),
);
/** Finished LAME instances kept for the next stream (an instance costs ~2 ms to make). */
const SPARES = 8;
const spares: Lame[] = [];
const streams = new Map<number, Lame>();

function reply(id: number, bytes: Uint8Array, extra: { encoded?: true; ended?: true }) {
  // LAME reuses its buffer: send a copy, and move (not copy) that copy to the other thread.
  const copy = bytes.slice();
  port?.postMessage({ id, bytes: copy, ...extra }, [copy.buffer]);
}

async function handle(msg: Request) {
  if (msg.type === 'open') {
    const lame = spares.pop() ?? (await createEncoder('audio/mpeg', compiled));
    lame.configure({ channels: 1, sampleRate: msg.sampleRate, bitrate: 64 });
    streams.set(msg.id, lame);
    return;
  }
  const lame = streams.get(msg.id);
  if (msg.type === 'drop' || !lame) {
    // An abandoned stream's instance is mid-stream: dropped, not kept.
    streams.delete(msg.id);
    return;
  }
  if (msg.type === 'encode') {
    const floats = new Float32Array(msg.samples.length);
    for (let i = 0; i < floats.length; i++) floats[i] = msg.samples[i] / 32768;
    reply(msg.id, lame.encode([floats]), { encoded: true });
  } else {
    reply(msg.id, lame.finalize(), { ended: true });
    streams.delete(msg.id);
    if (spares.length < SPARES) spares.push(lame);
  }
}

// One message at a time, in order: an 'open' finishes before that stream's first 'encode'.
let turn: Promise<void> = Promise.resolve();
port.on('message', (msg: Request) => {
  turn = turn.then(() =>
    handle(msg).catch((err: unknown) => {
      streams.delete(msg.id);
      port.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) });
    }),
  );
});
