/**
 * The figures of the benchmark gate. Each is a ratio of the product's path to a reference measured
 * in the same run on the same machine (raw espeak-ng, ffmpeg, a bare Fastify route, a plain file
 * copy, raw SQLite), so the machine's speed and the load other work puts on it cancel out. Each
 * measurement interleaves reference and product and keeps the best run of each side or the median
 * of the pairs' ratios (see pairs()).
 */
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  createOcrPool,
  detectSubtitleRegions,
  encodeAudio,
  encodeWav,
  type FitResult,
  fitLine,
  makeSubtitledClip,
  type OcrEngine,
  placeLines,
  readPcm,
  recognizeVideo,
  stretchToDuration,
  type TtsEngine,
} from '@vw/engines';
import Database from 'better-sqlite3';
import { generateBook, startBookServer } from '../book.ts';
import { runCredits } from '../credits-run.ts';
import {
  cpuMs,
  demoHeaders,
  freePort,
  measureRoute,
  patchFile,
  startProcess,
  treeCpuSeconds,
  waitFor,
} from '../support.ts';
import { benchLongText, benchSentence, startTtsServer } from '../tts-server.ts';

const execFileAsync = promisify(execFile);

export interface Measurement {
  ratio: number;
  /** What was measured, for the printout: product and reference in their units. */
  detail: string;
}

export interface Figure {
  id: string;
  label: string;
  /** Whether a smaller or a larger ratio is better. */
  better: 'lower' | 'higher';
  measure(): Promise<Measurement>;
}

/** A group of figures sharing what they stand on (a server, an engine); closed after its figures. */
export interface FigureGroup {
  name: string;
  start(): Promise<{ figures: Figure[]; close(): Promise<void> }>;
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
/** CPU ms this process and its children (engine helpers, ffmpeg, Rubber Band) spend on fn. */
const cpu = async (fn: () => Promise<unknown>) => {
  const before = treeCpuSeconds();
  await fn();
  return (treeCpuSeconds() - before) * 1000;
};

/**
 * Reference and product measured in turns, `count` times, each right after the other so both see
 * the same moment's load, in alternating order (reference first, then product first) so a load
 * rising or falling through the run favours neither. `best`: each side's best run is kept (the one
 * least disturbed by other work; for short latencies and throughputs), and the figure is their
 * ratio; `median`: the median of the pairs' ratios (for CPU costs of longer runs).
 */
async function pairs(
  count: number,
  reference: (k: number) => Promise<number>,
  product: (k: number) => Promise<number>,
  {
    higherIsBetter = false,
    estimate = 'best',
  }: { higherIsBetter?: boolean; estimate?: 'best' | 'median' } = {},
) {
  const refs: number[] = [];
  const prods: number[] = [];
  for (let k = 0; k < count; k++) {
    if (k % 2 === 0) {
      refs.push(await reference(k));
      prods.push(await product(k));
    } else {
      prods.push(await product(k));
      refs.push(await reference(k));
    }
  }
  if (estimate === 'median')
    return {
      ratio: median(prods.map((p, k) => p / refs[k])),
      product: median(prods),
      reference: median(refs),
    };
  const best = (xs: number[]) => (higherIsBetter ? Math.max(...xs) : Math.min(...xs));
  return { ratio: best(prods) / best(refs), product: best(prods), reference: best(refs) };
}

const ms = (x: number) => `${x.toFixed(1)} ms`;

/** The voice the TTS figures ask for (espeak-zh-xiaowen), as the engine takes it. */
const XIAOWEN = { engine: 'espeak', voice: 'cmn-latn-pinyin', variant: 'f2', pitch: 58, range: 60 } as const;

// ---- TTS: first byte cold and cached, long text -------------------------------------------------------

const tts: FigureGroup = {
  name: 'tts',
  async start() {
    const server = await startTtsServer();
    const espeak: TtsEngine = server.ctx.engines.tts.get('espeak');
    const raw = (text: string) => espeak.synthesize({ segments: [{ text }], voice: XIAOWEN });
    // Warm-up: JIT, dictionaries, the encoder threads, the espeak processes.
    for (let i = 0; i < 4; i++) {
      await raw(benchSentence(980 + i));
      await server.firstByte(benchSentence(990 + i));
    }
    let next = 0;
    const coldPairs = async () => {
      const texts = Array.from({ length: 12 }, () => benchSentence(next++));
      const m = await pairs(
        texts.length,
        (k) => time(() => raw(texts[k])),
        async (k) => {
          const r = await server.firstByte(texts[k]);
          await new Promise((resolve) => setTimeout(resolve, 30)); // as bench:tts: the pool starts its next spare
          return r.first;
        },
      );
      return {
        ratio: m.ratio,
        detail: `first byte ${ms(m.product)}, raw espeak-ng ${ms(m.reference)} (best of 12)`,
      };
    };
    const cachedPairs = async () => {
      const text = benchSentence(next++);
      await server.firstByte(text);
      const m = await pairs(
        30,
        () => time(() => raw(text)),
        async () => {
          const r = await server.firstByte(text);
          if (r.cache !== '1') throw new Error('expected a cache hit');
          return r.first;
        },
      );
      return {
        ratio: m.ratio,
        detail: `first byte ${ms(m.product)}, raw espeak-ng ${ms(m.reference)} (best of 30)`,
      };
    };
    // Long text, in CPU: the MP3 stream over HTTP (server, encoder, espeak-ng) against raw synthesis of
    // the same text followed by ffmpeg encoding the same PCM. CPU, not wall time: how much of a
    // 2-core machine's parallelism a run gets depends on the load, what it costs does not.
    const LONG_CHARS = 1_500;
    let variant = 0;
    const longPairs = async () => {
      let wall = 0;
      let audioMs = 0;
      // A new text each time (a cached one would answer from storage): the leading number differs.
      const texts = Array.from({ length: 3 }, () => `${variant++}${benchLongText(LONG_CHARS - 1)}`);
      const m = await pairs(
        texts.length,
        (k) =>
          cpu(async () => {
            const pcm = await espeak.synthesize({ segments: [{ text: texts[k] }], voice: XIAOWEN });
            await encodeAudio(pcm, { format: 'mp3' });
            audioMs = (pcm.samples.length / pcm.sampleRate) * 1000;
          }),
        (k) =>
          cpu(async () => {
            wall = (await server.firstByte(texts[k], { mode: 'stream' })).total;
          }),
        { estimate: 'median' },
      );
      return {
        ratio: m.ratio,
        detail: `${LONG_CHARS} characters as an MP3 stream: ${ms(m.product)} CPU (${(audioMs / wall).toFixed(0)}× real time on the wall clock), raw espeak-ng + ffmpeg ${ms(m.reference)} CPU (medians of 3)`,
      };
    };
    return {
      figures: [
        {
          id: 'tts.first_byte_cold',
          label: 'TTS first byte, cold ÷ raw espeak-ng',
          better: 'lower',
          measure: coldPairs,
        },
        {
          id: 'tts.first_byte_cached',
          label: 'TTS first byte, cached ÷ raw espeak-ng',
          better: 'lower',
          measure: cachedPairs,
        },
        {
          id: 'tts.long_mp3',
          label: 'Long text MP3 stream CPU ÷ (raw espeak-ng + ffmpeg)',
          better: 'lower',
          measure: longPairs,
        },
      ],
      close: () => server.close(),
    };
  },
};

// ---- API read and upload: the server in its own process ------------------------------------------------

const MB = 1024 * 1024;

const http: FigureGroup = {
  name: 'api',
  async start() {
    const work = mkdtempSync(path.join(tmpdir(), 'vw-gate-api-'));
    const ports = { api: await freePort(), bare: await freePort(), copy: await freePort() };
    const procs: ChildProcess[] = [];
    const api = startProcess('apps/server/src/main.ts', {
      NODE_ENV: 'development',
      PORT: String(ports.api),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
      ENGINES: 'none',
    });
    const bare = startProcess('apps/server/bench/bare-server.ts', { PORT: String(ports.bare) });
    mkdirSync(path.join(work, 'bare'));
    const copy = startProcess('apps/server/bench/bare-upload-server.ts', {
      PORT: String(ports.copy),
      BARE_DIR: path.join(work, 'bare'),
    });
    procs.push(api, bare, copy);
    const base = `http://127.0.0.1:${ports.api}`;
    await waitFor(`${base}/openapi.json`);
    await waitFor(`http://127.0.0.1:${ports.bare}/bare`, { method: 'POST' });
    await waitFor(`http://127.0.0.1:${ports.copy}/`, { method: 'PATCH', body: '' });
    const headers = await demoHeaders(base);

    const read = async () => {
      let rps = 0;
      const m = await pairs(
        5,
        async () =>
          (await measureRoute('bare', `http://127.0.0.1:${ports.bare}/bare`, {}, bare, 1.5, 1))[
            'server CPU µs/req'
          ]!,
        async () => {
          const a = await measureRoute('api', `${base}/v1/user/get_user_info`, headers, api, 1.5, 1);
          if (a.errors) throw new Error(`get_user_info answered ${a.errors} errors`);
          rps = a['requests/s'];
          return a['server CPU µs/req']!;
        },
        { estimate: 'median' },
      );
      return {
        ratio: m.ratio,
        detail: `server CPU/request ${m.product} µs, bare Fastify ${m.reference} µs; last run ${rps} requests/s`,
      };
    };

    // Upload: one tus PATCH of a 160 MB file (under the free plan's 200 MB) against the same PATCH to plain
    // Node HTTP piping it into a file (bare-upload-server.ts): the plain file copy over the same loopback.
    const file = path.join(work, 'upload.bin');
    writeFileSync(file, Buffer.alloc(160 * MB, 7));
    const size = statSync(file).size;
    const auth = { authorization: headers.authorization, 'tus-resumable': '1.0.0' };
    const tusCreate = async () => {
      const res = await fetch(`${base}/v1/uploads/tus`, {
        method: 'POST',
        headers: {
          ...auth,
          'upload-length': String(size),
          'upload-metadata': `filename ${Buffer.from('a.bin').toString('base64')}`,
        },
      });
      if (res.status !== 201) throw new Error(`tus create: ${res.status} ${await res.text()}`);
      return res.headers.get('location')!;
    };
    // The servers' CPU per MB, summed over 3 interleaved rounds (one round is a few 10 ms clock
    // ticks): under load, MB/s falls with each server's share of the machine, its CPU per MB does not.
    const upload = async () => {
      const cpuTotal = { tus: 0, plain: 0 };
      const mbps = { tus: 0, plain: 0 };
      const timed = async (server: ChildProcess, side: 'tus' | 'plain', send: () => Promise<void>) => {
        const before = cpuMs(server.pid)!;
        const took = await time(send);
        cpuTotal[side] += cpuMs(server.pid)! - before;
        mbps[side] = Math.max(mbps[side], size / MB / (took / 1000));
      };
      const plainRound = () =>
        timed(copy, 'plain', async () => {
          await patchFile(`http://127.0.0.1:${ports.copy}/bare`, file, 0, {});
          rmSync(path.join(work, 'bare'), { recursive: true, force: true });
          mkdirSync(path.join(work, 'bare'));
        });
      const tusRound = async () => {
        const location = await tusCreate();
        await timed(api, 'tus', async () => {
          const end = await patchFile(base + location, file, 0, auth);
          if (end !== size) throw new Error(`upload ended at ${end} of ${size}`);
        });
        await fetch(base + location, { method: 'DELETE', headers: auth });
      };
      for (let k = 0; k < 3; k++) {
        if (k % 2 === 0) {
          await plainRound();
          await tusRound();
        } else {
          await tusRound();
          await plainRound();
        }
      }
      const perMb = { tus: cpuTotal.tus / ((3 * size) / MB), plain: cpuTotal.plain / ((3 * size) / MB) };
      return {
        ratio: perMb.tus / perMb.plain,
        detail: `tus server ${perMb.tus.toFixed(2)} ms CPU/MB (best ${mbps.tus.toFixed(0)} MB/s), plain HTTP into a file ${perMb.plain.toFixed(2)} ms CPU/MB (best ${mbps.plain.toFixed(0)} MB/s)`,
      };
    };
    return {
      figures: [
        {
          id: 'api.read_cpu',
          label: 'Authenticated read: server CPU/request ÷ bare Fastify',
          better: 'lower',
          measure: read,
        },
        {
          id: 'upload.tus_cpu_per_mb',
          label: 'Upload: server CPU/MB (tus) ÷ plain HTTP into a file',
          better: 'lower',
          measure: upload,
        },
      ],
      async close() {
        for (const p of procs) p.kill('SIGTERM');
        await Promise.all(
          procs.map((p) => (p.exitCode === null ? new Promise((r) => p.once('exit', r)) : null)),
        );
        rmSync(work, { recursive: true, force: true });
      },
    };
  },
};

// ---- Credits: hold+capture against raw SQLite transactions ---------------------------------------------

/** CPU µs per pair of plain SQLite write transactions (an insert and an update each), as a hold and a capture. */
function rawSqlitePairs(pairs: number): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-gate-sqlite-'));
  const db = new Database(path.join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'create table lots (id integer primary key, remaining integer); create table ledger (id integer primary key, lot integer, delta integer, note text)',
  );
  db.prepare('insert into lots (id, remaining) values (1, ?)').run(1e12);
  const insert = db.prepare('insert into ledger (lot, delta, note) values (1, ?, ?)');
  const update = db.prepare('update lots set remaining = remaining + ? where id = 1');
  const step = db.transaction((delta: number, note: string) => {
    insert.run(delta, note);
    update.run(delta);
  });
  const cpu = process.cpuUsage();
  for (let i = 0; i < pairs; i++) {
    step(-3, `hold:${i}`);
    step(1, `capture:${i}`);
  }
  const used = process.cpuUsage(cpu);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return (used.user + used.system) / pairs;
}

const credits: FigureGroup = {
  name: 'credits',
  async start() {
    // Warm-ups: the first run of either in this process pays for compiling it (up to +70 %).
    rawSqlitePairs(2_000);
    await runCredits('sqlite', 0.5);
    const measure = async () => {
      const m = await pairs(
        5,
        async () => rawSqlitePairs(5_000),
        async () => {
          const row = await runCredits('sqlite', 1);
          if (row.violations) throw new Error(`credits invariants: ${row.violations} violations`);
          return row['node CPU µs/pair'];
        },
        { estimate: 'median' },
      );
      return {
        ratio: m.ratio,
        detail: `credits ${m.product.toFixed(0)} µs CPU/pair, raw SQLite ${m.reference.toFixed(1)} µs (medians of 5 pairs)`,
      };
    };
    return {
      figures: [
        {
          id: 'credits.hold_capture_cpu',
          label: 'Credits hold+capture CPU/pair ÷ raw SQLite',
          better: 'lower',
          measure,
        },
      ],
      close: async () => {},
    };
  },
};

// ---- OCR frames/s against ffmpeg decoding the same clip ------------------------------------------------

const OCR_FPS = 4;
const ocr: FigureGroup = {
  name: 'ocr',
  async start() {
    const cacheDir = path.join(tmpdir(), 'vw-bench-gate');
    mkdirSync(cacheDir, { recursive: true });
    const clip = path.join(cacheDir, 'ocr-15s-720p-v1.mp4');
    if (!existsSync(clip)) {
      const lines = [
        '今天我们来介绍这款产品',
        '春天来了公园里的花都开了',
        '如果你有任何问题请联系我们',
        '这座城市的历史非常悠久',
        '科学家找到了一种新材料',
      ];
      await makeSubtitledClip(`${clip}.part.mp4`, {
        width: 1280,
        height: 720,
        duration_ms: 15_000,
        background: 'moving',
        cues: lines.map((text, i) => ({
          text,
          start_ms: i * 3000 + 200,
          end_ms: i * 3000 + 2700,
          position: 'bottom' as const,
        })),
        measureBoxes: false,
      });
      renameSync(`${clip}.part.mp4`, clip);
    }
    const engine: OcrEngine = createOcrPool();
    const detected = await detectSubtitleRegions(clip, { engine, samples: 6 });
    const regions = detected.regions.filter((r) => r.kind === 'subtitle').slice(0, 1);
    if (!regions.length) throw new Error('OCR gate clip: no subtitle region detected');
    const decode = () =>
      execFileAsync('ffmpeg', [
        '-v',
        'error',
        '-nostdin',
        '-i',
        clip,
        '-vf',
        `fps=${OCR_FPS}`,
        '-f',
        'null',
        '-',
      ]);
    await recognizeVideo(clip, { engine, regions, fps: OCR_FPS }); // warm-up: models loaded in every helper
    // Frames per CPU second on both sides (the OCR helpers, their ffmpeg; ffmpeg decoding): the
    // helpers work in parallel, and how much parallelism a run gets depends on the load.
    const frames = 15 * OCR_FPS;
    let wall = 0;
    const measure = async () => {
      const m = await pairs(
        3,
        async () => frames / ((await cpu(decode)) / 1000),
        async () =>
          frames /
          ((await cpu(async () => {
            wall = await time(() => recognizeVideo(clip, { engine, regions, fps: OCR_FPS }));
          })) /
            1000),
        { higherIsBetter: true, estimate: 'median' },
      );
      return {
        ratio: m.ratio,
        detail: `OCR ${m.product.toFixed(1)} frames per CPU second (${(frames / (wall / 1000)).toFixed(1)} frames/s on the wall clock), ffmpeg decoding ${m.reference.toFixed(1)} per CPU second (medians of 3)`,
      };
    };
    return {
      figures: [
        {
          id: 'ocr.frames_per_s',
          label: 'OCR frames per CPU second ÷ ffmpeg decoding the clip',
          better: 'higher',
          measure,
        },
      ],
      close: () => engine.close(),
    };
  },
};

// ---- Dubbing of 20 cues and audiobook synthesis, against raw espeak-ng of the same lines -------------

const DUB_LINES = [
  '声音工作台可以自己部署。',
  '它把文字变成声音，也能为视频配音。',
  '春天来了，公园里的花都开了。',
  '孩子们在草地上奔跑，老人们坐在长椅上聊天。',
  '今天我们来介绍这款产品的主要功能。',
  '以及在实际工作中如何使用它来提高效率。',
  '如果你有任何问题，请随时联系我们的客服。',
  '我们会在二十四小时内回复你的消息。',
  '这座城市的历史可以追溯到一千多年以前。',
  '许多古老的建筑至今仍然保存得非常完好。',
];

const voices: FigureGroup = {
  name: 'dubbing and audiobook',
  async start() {
    const book = await startBookServer();
    const espeak: TtsEngine = book.server.ctx.engines.tts.get('espeak');
    const lanes = Math.max(1, Math.min(4, availableParallelism()));
    const work = mkdtempSync(path.join(tmpdir(), 'vw-gate-dub-'));
    /** Runs jobs `lanes` at a time, as the dubbing and audiobook stages do. */
    const inLanes = async <T>(items: T[], fn: (item: T, i: number) => Promise<unknown>) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          while (next < items.length) {
            const i = next++;
            await fn(items[i], i);
          }
        }),
      );
    };

    // 20 cues, every fourth too long for its slot (condensed by speed, Rubber Band), placed on a track.
    const cues = Array.from({ length: 20 }, (_, i) => {
      const text = DUB_LINES[i % DUB_LINES.length];
      const chars = [...text].length;
      const slot = Math.round(chars * (i % 4 === 3 ? 160 : 320));
      return { text, start_ms: i * 5000, end_ms: i * 5000 + slot };
    });
    let n = 0;
    const dub = async (lines = cues) => {
      const dir = path.join(work, String(n++));
      mkdirSync(dir);
      const synthesize = async (text: string) => {
        const out = await espeak.synthesize({ segments: [{ text }], voice: XIAOWEN });
        const file = path.join(dir, `tts-${n++}.wav`);
        writeFileSync(file, encodeWav(out));
        return file;
      };
      const results: FitResult[] = new Array(lines.length);
      await inLanes(lines, async (c, i) => {
        results[i] = await fitLine({
          text: c.text,
          slot: c,
          nextStartMs: lines[i + 1]?.start_ms ?? null,
          trackEndMs: 100_000,
          synthesize,
          workDir: dir,
          name: `line-${i}`,
        });
      });
      await placeLines(
        results.map((r, i) => ({ file: r.file, start_ms: lines[i].start_ms })),
        path.join(dir, 'dub.wav'),
        { duration_ms: 100_000 },
      );
      rmSync(dir, { recursive: true, force: true });
      return results;
    };
    const fitted = await dub(cues); // warm-up, and which lines the fit speeds up, by how much
    const speedOf = fitted.map((r) => r.actions.find((a) => a.kind === 'speed')?.rate);
    /**
     * The same tool runs without the product around them: espeak-ng per line, brought to 48 kHz as
     * the product does (in-process since ffmpeg no longer runs per line), Rubber Band (and reading
     * its output) on the lines the fit speeds up. Process start-up costs differ several-fold between
     * machines (ffmpeg alone took 0.2 s of CPU on one), so a reference without them measured the
     * machine, not the product.
     */
    const bareLines = async () => {
      const dir = path.join(work, `bare-${n++}`);
      mkdirSync(dir);
      await inLanes(cues, async (c, i) => {
        const out = await espeak.synthesize({ segments: [{ text: c.text }], voice: XIAOWEN });
        const wav = path.join(dir, `${i}.wav`);
        writeFileSync(wav, encodeWav(out));
        const pcm = await readPcm(wav);
        const rate = speedOf[i];
        if (!rate) return;
        const src = path.join(dir, `${i}.48k.wav`);
        writeFileSync(src, encodeWav(pcm));
        await stretchToDuration(src, path.join(dir, `${i}.fast.wav`), (pcm.samples.length / 48 / rate) | 0);
        await readPcm(path.join(dir, `${i}.fast.wav`));
      });
      rmSync(dir, { recursive: true, force: true });
    };
    // CPU, as the long text: the fit runs espeak-ng and Rubber Band per line, in lanes.
    const dubbing = async () => {
      const m = await pairs(
        5,
        () => cpu(bareLines),
        () => cpu(() => dub()),
        { estimate: 'median' },
      );
      return {
        ratio: m.ratio,
        detail: `20 cues fitted and placed ${ms(m.product)} CPU, the same espeak-ng and Rubber Band runs bare ${ms(m.reference)} CPU (medians of 5; ${speedOf.filter(Boolean).length} lines sped up)`,
      };
    };

    // A 2,000-character book: import and the synthesis task, against raw synthesis of its text.
    const text = generateBook(2_000, 2);
    let copy = 0;
    const audiobook = async () => {
      let wall = 0;
      const m = await pairs(
        5,
        () => cpu(() => espeak.synthesize({ segments: [{ text }], voice: XIAOWEN })),
        () =>
          cpu(async () => {
            const t = performance.now();
            const w = await book.importBook(text, `book-${copy++}.txt`);
            const { task } = await book.synthesize(w.work_id);
            if (task.status !== 'succeeded')
              throw new Error(`audiobook synthesis ${task.status}: ${task.error}`);
            wall = performance.now() - t;
          }),
        { estimate: 'median' },
      );
      return {
        ratio: m.ratio,
        detail: `2,000 characters imported and synthesised ${ms(m.product)} CPU (${ms(wall)} wall), raw espeak-ng ${ms(m.reference)} CPU (medians of 5)`,
      };
    };
    return {
      figures: [
        {
          id: 'dubbing.20_cues',
          label: 'Dubbing 20 cues CPU ÷ the same tool runs bare',
          better: 'lower',
          measure: dubbing,
        },
        {
          id: 'audiobook.synthesis',
          label: 'Audiobook 2,000 characters CPU ÷ raw espeak-ng',
          better: 'lower',
          measure: audiobook,
        },
      ],
      async close() {
        await book.server.close();
        rmSync(work, { recursive: true, force: true });
      },
    };
  },
};

export const GROUPS: FigureGroup[] = [tts, http, credits, ocr, voices];
