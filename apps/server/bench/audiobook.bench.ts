/**
 * bench:audiobook — a generated 100,000-character Chinese book (30 chapters with dialogue) through
 * the real stack on the embedded default (SQLite, local files, espeak-ng): tus upload → import →
 * synthesis task (every paragraph) → M4B export with the ACX preset. Prints wall time per phase,
 * the server process's resident memory growth, every chapter's measured loudness and the load average.
 * Targets (issue 19): ≤ 3 minutes on 2 cores, resident memory growth < 300 MB, every chapter inside
 * the ACX window (RMS −23…−18 dB, peak ≤ −3 dB, noise floor ≤ −60 dB).
 */
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { FINISHED_TASK_STATUSES } from '@vw/contract';
import { systemClock } from '../src/clock.ts';
import { call, createTestServer, fund, signIn } from '../test/harness.ts';
import { tusClient } from '../test/tus-client.ts';

const TARGET_CHARS = Number(process.env.BENCH_BOOK_CHARS ?? 100_000);
const CHAPTERS = 30;

/** A deterministic book: narration and quoted dialogue between a few characters, numbers and dates. */
function generateBook(): string {
  let seed = 20_240_601;
  const rand = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const names = ['林晓', '陈默', '苏婉', '王大山'];
  const verbs = ['说', '问', '笑道', '喊道', '低声说'];
  const narration = [
    '夜色渐渐深了，街上的行人越来越少。',
    '远处传来几声狗叫，风吹动了窗边的帘子。',
    '他把书放回书架，转身看向窗外的灯光。',
    '这座城市在一九九八年经历了一场大雨。',
    '桌上的茶已经凉了，却没有人去动它。',
    '她数了数口袋里的钱，一共三百二十五元。',
    '火车在下午三点十五分准时进站。',
    '山路弯弯曲曲，两旁是茂密的竹林。',
  ];
  const lines = [
    '我们明天一早就出发吧。',
    '你还记得那年冬天发生的事情吗？',
    '这件事情没有那么简单。',
    '快点，再不走就来不及了！',
    '谢谢你，我会好好考虑的。',
    '你得早点回来，别让大家担心。',
  ];
  const perChapter = Math.ceil(TARGET_CHARS / CHAPTERS);
  const out: string[] = [];
  for (let c = 1; c <= CHAPTERS; c++) {
    out.push(`第${c}章 夜行之${c}`);
    let chars = 0;
    while (chars < perChapter) {
      let p = '';
      for (let k = 0; k < 3; k++) p += narration[rand(narration.length)];
      if (rand(2) === 0)
        p += `${names[rand(names.length)]}${verbs[rand(verbs.length)]}：“${lines[rand(lines.length)]}”`;
      out.push(p);
      chars += p.length;
    }
  }
  return out.join('\n');
}

async function main() {
  const book = generateBook();
  const chars = Array.from(book.replace(/\s/g, '')).length;
  const server = await createTestServer();
  server.ctx.clock = systemClock;
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const a = await signIn(server.app, '13900000999');
  const token = a.secure_tokens.access_token;
  await fund(server, a.user_info.uid, 1_000_000);
  await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });

  let peakRss = 0;
  const rssStart = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 200);
  const loadStart = loadavg()[0];
  const waitTask = async (taskId: string) => {
    const finals = FINISHED_TASK_STATUSES.map((s) => `task.${s}`);
    for (;;) {
      const e = await server.ctx.db
        .selectFrom('task_events')
        .select('type')
        .where('task_id', '=', taskId)
        .where('type', 'in', finals)
        .executeTakeFirst();
      if (e)
        return server.ctx.db
          .selectFrom('tasks')
          .selectAll()
          .where('id', '=', taskId)
          .executeTakeFirstOrThrow();
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  const t0 = Date.now();
  const bytes = Buffer.from(book, 'utf8');
  const tus = tusClient(base, token);
  const created = await tus.create(bytes.length, '夜行.txt');
  await tus.patch(created.location, 0, bytes);
  const imported = await call(server.app, 'POST', '/v1/audiobook/import', {
    token,
    body: { tus_upload: created.location },
  });
  if (imported.body.code !== 0) throw new Error(JSON.stringify(imported.body));
  const work = imported.body.data.work;
  const tImport = Date.now();

  const synth = await call(server.app, 'POST', '/v1/audiobook/synthesize', {
    token,
    body: { work_id: work.work_id },
  });
  if (synth.body.code !== 0) throw new Error(JSON.stringify(synth.body));
  const synthTask = await waitTask(synth.body.data.task_id);
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
        book: { characters: chars, chapters: work.chapters_total, paragraphs: synth.body.data.paragraphs },
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
