/**
 * bench:tts — text to speech over HTTP on the embedded default (espeak-ng, SQLite, local files):
 * time to the first audio byte for a 30-character Chinese sentence, cold (never synthesised) and
 * cached (p50 over 20 runs each), then characters per second for a 10,000-character text streamed as
 * MP3 (synthesis and encoding included) and the real-time factor. Also the CPU one short cold synthesis
 * costs under load (8 at a time): this process's threads, which include the HTTP client's small share,
 * plus its child processes (espeak-ng), read from /proc.
 * Targets (issue 6): first byte ≤ 50 ms p50 cold, ≤ 5 ms cached; long text ≥ 200× real time.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { treeCpuSeconds } from './support.ts';
import { benchLongText, benchSentence as sentence, startTtsServer } from './tts-server.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const server = await startTtsServer();
const { firstByte, dataDir } = server;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`sentence length: ${[...sentence(1)].length} characters`);

// Warm-up (JIT, pinyin dictionaries, the spare encoder).
for (let i = 0; i < 3; i++) await firstByte(sentence(900 + i));
await new Promise((r) => setTimeout(r, 300));

const cold: number[] = [];
for (let i = 0; i < RUNS; i++) {
  cold.push((await firstByte(sentence(i))).first);
  await new Promise((r) => setTimeout(r, 30)); // lets the pool start the next spare encoder
}
const cached: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const r = await firstByte(sentence(i));
  if (r.cache !== '1') throw new Error('expected a cache hit');
  cached.push(r.first);
}

const LOAD_RUNS = 96;
const cpuBefore = treeCpuSeconds();
let nextLoad = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (nextLoad < LOAD_RUNS) await firstByte(sentence(500 + nextLoad++));
  }),
);
const cpuPerShort = ((treeCpuSeconds() - cpuBefore) / LOAD_RUNS) * 1000;

const probe = (bytes: Buffer) => {
  const file = path.join(dataDir, 'long.mp3');
  writeFileSync(file, bytes);
  return Number(
    execFileSync('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      file,
    ]).toString(),
  );
};
const long = benchLongText(10_000);
const longRun = await firstByte(long, { mode: 'stream' });
const audioSeconds = probe(longRun.bytes);
const seconds = longRun.total / 1000;

console.table([
  { measure: 'first audio byte, cold (p50 ms)', value: p50(cold).toFixed(1), target: '≤ 50' },
  { measure: 'first audio byte, cached (p50 ms)', value: p50(cached).toFixed(1), target: '≤ 5' },
  { measure: 'CPU per short cold synthesis, 8 at a time (ms)', value: cpuPerShort.toFixed(1), target: '' },
  { measure: '10,000 characters: seconds', value: seconds.toFixed(2), target: '' },
  { measure: '10,000 characters: characters/s', value: Math.round(10_000 / seconds), target: '' },
  { measure: '10,000 characters: audio seconds', value: audioSeconds.toFixed(0), target: '' },
  { measure: '10,000 characters: × real time', value: Math.round(audioSeconds / seconds), target: '≥ 300' },
]);

await server.close();
process.exit(0);
