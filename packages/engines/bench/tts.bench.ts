/**
 * Embedded-default throughput: a 10,000-character Chinese text synthesised with espeak-ng and encoded
 * to MP3, as a long-text job would. Prints characters per second and the real-time factor.
 *   npm run bench -w @vw/engines
 */
import { createEspeakEngine, createMp3Encoder } from '../src/index.ts';

const PARAGRAPH =
  '声音工作台是一个可以自己部署的语音工具。它把文字变成声音，也能为视频生成字幕。' +
  '银行的行长今天重新测量了仓库的重量，结果比上个月多了百分之三。' +
  '春天来了，公园里的花都开了，孩子们在草地上奔跑，老人们坐在长椅上聊天。' +
  '如果你有任何问题，请随时联系我们的客服，我们会在二十四小时内回复。\n';
const CHARS = 10_000;
const text = PARAGRAPH.repeat(Math.ceil(CHARS / PARAGRAPH.length)).slice(0, CHARS);

const engine = createEspeakEngine();
const voice = { engine: 'espeak', voice: 'cmn-latn-pinyin', variant: 'f2' } as const;
// Warm up pinyin-pro's dictionaries and the library.
await engine.synthesize({ segments: [{ text: '预热一下。' }], voice });

// Encode while synthesising, as the server does for long texts.
const started = performance.now();
const encoder = createMp3Encoder({ sampleRate: 22_050, long: true });
const mp3Parts: Buffer[] = [];
encoder.output.on('data', (c: Buffer) => mp3Parts.push(c));
let firstChunkMs = 0;
let sentences = 0;
let samples = 0;
for await (const chunk of engine.stream({ segments: [{ text }], voice })) {
  if (!sentences++) firstChunkMs = performance.now() - started;
  samples += chunk.samples.length;
  await encoder.write(chunk.samples);
}
const synthMs = performance.now() - started;
await encoder.end();
const totalMs = performance.now() - started;
const mp3 = Buffer.concat(mp3Parts);

const audioSeconds = samples / 22_050;
const totalSeconds = totalMs / 1000;
const rows: Array<[string, string]> = [
  ['characters', String(text.length)],
  ['sentences', String(sentences)],
  ['audio', `${audioSeconds.toFixed(1)} s`],
  ['first sentence ready', `${firstChunkMs.toFixed(1)} ms`],
  ['synthesis', `${(synthMs / 1000).toFixed(2)} s`],
  ['total with MP3', `${totalSeconds.toFixed(2)} s (${(mp3.length / 1024 / 1024).toFixed(1)} MiB)`],
  ['characters per second', (text.length / totalSeconds).toFixed(0)],
  [
    'real-time factor',
    `${(totalSeconds / audioSeconds).toFixed(4)} (${(audioSeconds / totalSeconds).toFixed(0)}× real time)`,
  ],
];
for (const [k, v] of rows) console.log(`${k.padEnd(24)}${v}`);
