/**
 * bench:translate — 视频翻译 end to end on the embedded default (issue 18): a generated 10-minute 720p
 * video with burned-in Chinese subtitles (and espeak-ng speech) → on-screen recognition (PP-OCRv4,
 * regions detected) → smart splitting → summary + translation into English and back-translation by
 * the local fake OpenAI-compatible chat server (a stand-in for a language model: its answers are
 * instant, so the figure is the workbench's own cost) → dub (espeak-ng, timing fit) → mix → ONE x264
 * encode that erases the original subtitles and burns the bilingual ones. Prints wall time per stage,
 * total / duration (target ≤ 0.5×), and the load average. BENCH_MINUTES shortens the clip; BENCH_CLIP keeps
 * the generated clip at that path and reuses it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { FINISHED_TASK_STATUSES } from '@vw/contract';
import { makeSubtitledClip } from '@vw/engines';
import { startFakeChatServer } from '@vw/engines/fake-chat-server';
import { systemClock } from '../src/clock.ts';
import { setFeatureOverride } from '../src/modules/features/features.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { call, createTestServer, fund, signIn } from '../test/harness.ts';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 10);
const DURATION_MS = MINUTES * 60_000;
const CUE_MS = 3000;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

const SENTENCES = [
  '今天我们来介绍这款产品',
  '春天来了公园里的花都开了',
  '如果你有任何问题请联系我们',
  '这座城市有一千多年的历史',
  '科学家找到了一种新材料',
  '孩子们在草地上奔跑',
  '老人们坐在长椅上聊天',
  '我们明天一早就出发吧',
  '这件事情没有那么简单',
  '谢谢大家的收看和支持',
];

async function main() {
  const work = mkdtempSync(path.join(process.env.BENCH_TMP ?? tmpdir(), 'vw-bench-vt-'));
  const chat = await startFakeChatServer({ port: 0 });
  const server = await createTestServer({
    LLM_BASE_URL: chat.url,
    LLM_API_KEY: 'bench',
    LLM_MODEL: 'fake-chat',
  });
  server.ctx.clock = systemClock;
  try {
    console.log(`${availableParallelism()} cores; load average at start ${load()}`);
    const cues = [];
    for (let at = 500, i = 0; at + CUE_MS <= DURATION_MS; at += CUE_MS + 400, i++) {
      cues.push({
        text: SENTENCES[i % SENTENCES.length]!,
        start_ms: at,
        end_ms: at + CUE_MS,
        position: 'bottom' as const,
      });
    }
    // BENCH_CLIP: keep the generated clip there and reuse it on the next run (it takes minutes to make).
    const kept = process.env.BENCH_CLIP;
    const clip = path.join(work, 'clip.mp4');
    const g0 = Date.now();
    if (kept && existsSync(kept)) await copyFile(kept, clip);
    else
      await makeSubtitledClip(clip, {
        width: 1280,
        height: 720,
        duration_ms: DURATION_MS,
        background: 'moving',
        cues,
        speech: true,
        measureBoxes: false,
      });
    if (kept && !existsSync(kept)) await copyFile(clip, kept);
    console.log(
      `${kept && Date.now() - g0 < 5000 ? 'reused' : 'generated'} ${MINUTES} min 720p clip with ${cues.length} burned cues in ${((Date.now() - g0) / 1000).toFixed(1)} s`,
    );

    const a = await signIn(server.app, '13900000998');
    const token = a.secure_tokens.access_token;
    await fund(server, a.user_info.uid, 1_000_000);
    await setFeatureOverride(server.ctx, a.user_info.uid, 'video_translate', true);
    await setFeatureOverride(server.ctx, a.user_info.uid, 'subtitle_erase', true);
    const asset = await registerAsset(server.ctx, a.user_info.uid, { file: clip, name: 'bench.mp4' });
    await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });

    const loadStart = loadavg()[0]!;
    const t0 = Date.now();
    const res = await call(server.app, 'POST', '/v1/video-translation/create', {
      token,
      body: {
        asset_id: asset.id,
        source_language: 'zh',
        target_languages: ['en'],
        subtitle_source: 'ocr',
        erase: { enabled: true },
        dub: { enabled: true },
        subtitles: { lines: 'bilingual', mode: 'burn' },
      },
    });
    if (res.body.code !== 0) throw new Error(JSON.stringify(res.body));
    const taskId = res.body.data.task_id as string;
    const finals = FINISHED_TASK_STATUSES.map((s) => `task.${s}`);
    for (;;) {
      const e = await server.ctx.db
        .selectFrom('task_events')
        .select('type')
        .where('task_id', '=', taskId)
        .where('type', 'in', finals)
        .executeTakeFirst();
      if (e) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const total = Date.now() - t0;
    const task = await server.ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    const stages = await server.ctx.db
      .selectFrom('task_stages')
      .selectAll()
      .where('task_id', '=', taskId)
      .orderBy('seq')
      .execute();
    console.log(`task ${task.status}${task.error ? `: ${task.error}` : ''}`);
    for (const s of stages) {
      const ms = (s.finished_at ?? 0) - (s.started_at ?? 0);
      console.log(
        `  ${s.name.padEnd(15)} ${(ms / 1000).toFixed(1).padStart(7)} s  ${(ms / DURATION_MS).toFixed(3)}×`,
      );
    }
    const doc = await call(server.app, 'GET', `/v1/projects/get?project_id=${res.body.data.project_id}`, {
      token,
    });
    const tracks = doc.body.data.document.tracks as Array<{
      kind: string;
      cues: Array<{ drift?: { flagged: boolean } }>;
    }>;
    const target = tracks.find((t) => t.kind === 'translation')!;
    console.log(
      `source cues ${tracks.find((t) => t.kind === 'source')!.cues.length}, translated ${target.cues.length}, flagged ${target.cues.filter((c) => c.drift?.flagged).length}; model requests ${chat.requests.length}`,
    );
    console.log(
      `total ${(total / 1000).toFixed(1)} s for ${MINUTES} min = ${(total / DURATION_MS).toFixed(3)}× real time (target ≤ 0.5×)`,
    );
    console.log(`load average: start ${loadStart.toFixed(2)}, end ${load()}`);
  } finally {
    await server.close();
    await chat.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
// The OCR worker pool keeps the process alive after the server closes.
process.exit(0);
