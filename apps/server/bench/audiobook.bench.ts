/**
 * bench:audiobook — a generated 100,000-character Chinese book (30 chapters with dialogue) through
 * the real stack on the embedded default (SQLite, local files, espeak-ng): tus upload → import →
 * synthesis task (every paragraph) → M4B export with the ACX preset. Prints wall time per phase,
 * the server process's resident memory growth, every chapter's measured loudness and the load average.
 * Targets (issue 19): ≤ 3 minutes on 2 cores, resident memory growth < 300 MB, every chapter inside
 * the ACX window (RMS −23…−18 dB, peak ≤ −3 dB, noise floor ≤ −60 dB).
 */
import { availableParallelism, loadavg } from 'node:os';
import { call } from '../test/harness.ts';
import { generateBook, startBookServer } from './book.ts';

const TARGET_CHARS = Number(process.env.BENCH_BOOK_CHARS ?? 100_000);

async function main() {
  const book = generateBook(TARGET_CHARS, 30);
  const chars = Array.from(book.replace(/\s/g, '')).length;
  const { server, token, waitTask, importBook, synthesize } = await startBookServer();

  let peakRss = 0;
  const rssStart = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 200);
  const loadStart = loadavg()[0];

  const t0 = Date.now();
  const work = await importBook(book);
  const tImport = Date.now();
  const synth = await synthesize(work.work_id);
  const synthTask = synth.task;
  const tSynth = Date.now();

  const exp = await call(server.app, 'POST', '/v1/audiobook/export', {
    token,
    body: { work_id: work.work_id, format: 'm4b', preset: 'acx' },
  });
  const expTask = await waitTask(exp.body.data.task_id);
  const tExport = Date.now();
  clearInterval(sampler);
  const report = await call(
    server.app,
    'GET',
    `/v1/audiobook/export_report?work_id=${work.work_id}&task_id=${expTask.id}`,
    { token },
  );
  const entries = (report.body.data?.report ?? []) as Array<{
    file: string;
    rms_db: number;
    peak_db: number;
    noise_floor_db: number;
    duration_ms: number;
    passed: boolean;
  }>;
  const chaptersIn = entries.slice(1).filter((e) => e.passed).length;
  console.log('\nbench:audiobook');
  console.log(
    JSON.stringify(
      {
        book: { characters: chars, chapters: work.chapters_total, paragraphs: synth.paragraphs },
        cores: availableParallelism(),
        load_average_1m: { start: loadStart, end: loadavg()[0] },
        seconds: {
          import: (tImport - t0) / 1000,
          synthesize: (tSynth - tImport) / 1000,
          export_m4b: (tExport - tSynth) / 1000,
          total: (tExport - t0) / 1000,
        },
        status: {
          synthesize: synthTask.status,
          export: expTask.status,
          error: synthTask.error ?? expTask.error,
        },
        audio_hours: entries[0] ? +(entries[0].duration_ms / 3_600_000).toFixed(2) : 0,
        rss_mb: {
          start: Math.round(rssStart / 2 ** 20),
          peak: Math.round(peakRss / 2 ** 20),
          growth: Math.round((peakRss - rssStart) / 2 ** 20),
        },
        acx: {
          chapters_inside_window: `${chaptersIn}/${entries.length - 1}`,
          rms_db: [
            Math.min(...entries.slice(1).map((e) => e.rms_db)),
            Math.max(...entries.slice(1).map((e) => e.rms_db)),
          ],
          peak_db_max: Math.max(...entries.slice(1).map((e) => e.peak_db)),
          noise_floor_db_max: Math.max(...entries.slice(1).map((e) => e.noise_floor_db)),
          whole_file: entries[0],
        },
        targets: { total_seconds: 180, rss_growth_mb: 300 },
      },
      null,
      2,
    ),
  );
  await server.close();
}

await main();
process.exit(0);
