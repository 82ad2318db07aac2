import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeSubtitledClip, recognizeVideo } from '@vw/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { localPathOf } from '../src/media/files.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { priceTask } from '../src/modules/credits/pricing.service.ts';
import { setFeatureOverride } from '../src/modules/features/features.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { makeSpeechWav } from './fake-asr.ts';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';

/*
 * Subtitle recognition (ocr), erasing (erase) and watermark removal (watermark) end to end on the job
 * worker, with clips generated here (libass + Noto Sans CJK burned in, known texts, times and boxes)
 * and the real offline OCR engine and ffmpeg.
 */

const exec = promisify(execFile);
let server: TestServer;
let dir: string;
let clipFile: string;
let cleanFile: string;
let blankFile: string;
let wavFile: string;
let alice: string;
let aliceId: string;
let bob: string;
let bobId: string;
let clip: MediaAssetRow;
type Box = { x: number; y: number; w: number; h: number };
let truthBoxes: Box[];

const CUES = [
  { text: '今天天气很好', start_ms: 200, end_ms: 1800, position: 'bottom' as const },
  { text: '我们去公园散步', start_ms: 2100, end_ms: 3800, position: 'bottom' as const },
];
/** The bottom band where the clip's subtitles are drawn (what detection should find). */
const BAND = { x: 0.05, y: 0.84, w: 0.9, h: 0.15 };

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } | null }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);

const finished = (taskId: string, timeoutMs = 90_000) => taskFinished(server.ctx, taskId, timeoutMs);

async function upload(ownerId: string, file: string, name: string): Promise<MediaAssetRow> {
  const copy = join(dir, `${Math.random().toString(36).slice(2)}-${name}`);
  await copyFile(file, copy);
  return registerAsset(server.ctx, ownerId, { file: copy, name });
}

/** What a user has that a refused call could have left: tasks, projects, open holds. */
async function leftovers(userId: string) {
  const db = server.ctx.db;
  const [tasks, projects] = await Promise.all([
    db.selectFrom('tasks').select('id').where('owner_id', '=', userId).execute(),
    db.selectFrom('projects').select('id').where('owner_id', '=', userId).execute(),
  ]);
  return {
    tasks: tasks.length,
    projects: projects.length,
    balance: (await getBalance(server.ctx, userId)).balance,
  };
}

/** PSNR (dB) of two videos over the part of the frame above `bandTop` (0..1). */
const psnrAbove = (a: string, b: string, bandTop: number) =>
  psnr(a, b, `crop=iw:trunc(ih*${bandTop}/2)*2:0:0`);

/** PSNR (dB) of two videos inside `box` (0..1) from `fromS` to `toS`. */
const psnrIn = (a: string, b: string, box: Box, fromS: number, toS: number) =>
  psnr(
    a,
    b,
    `trim=${fromS}:${toS},crop=trunc(iw*${box.w}/2)*2:trunc(ih*${box.h}/2)*2:iw*${box.x}:ih*${box.y}`,
  );

async function psnr(a: string, b: string, filter: string): Promise<number> {
  const { stderr } = await exec('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-i',
    a,
    '-i',
    b,
    '-lavfi',
    `[0:v]${filter}[a];[1:v]${filter}[b];[a][b]psnr`,
    '-f',
    'null',
    '-',
  ]);
  const m = /average:([\d.]+|inf)/.exec(stderr);
  if (!m) throw new Error(`no psnr in ${stderr.slice(-400)}`);
  return m[1] === 'inf' ? 100 : Number(m[1]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-subtitle-tools-'));
  clipFile = join(dir, 'clip.mp4');
  cleanFile = join(dir, 'clean.mp4');
  blankFile = join(dir, 'blank.mp4');
  const picture = { width: 480, height: 270, duration_ms: 4000, background: 'moving' } as const;
  const [made] = await Promise.all([
    makeSubtitledClip(clipFile, { ...picture, cues: CUES }),
    // The same picture without the subtitles: what an erase should give back.
    makeSubtitledClip(cleanFile, { ...picture, cues: [] }),
    makeSubtitledClip(blankFile, {
      width: 320,
      height: 180,
      duration_ms: 2000,
      background: 'moving',
      cues: [],
    }),
  ]);
  truthBoxes = made.boxes;
  wavFile = await makeSpeechWav(dir);
  server = await createTestServer();
  const a = await signIn(server.app, '13900000061');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  const b = await signIn(server.app, '13900000062');
  bob = b.secure_tokens.access_token;
  bobId = b.user_info.uid;
  await fund(server, aliceId, 2000);
  await fund(server, bobId, 2000);
  // The free plan has no erase/watermark: the operator turns them on for these users.
  for (const id of [aliceId, bobId]) {
    await setFeatureOverride(server.ctx, id, 'subtitle_erase', true);
    await setFeatureOverride(server.ctx, id, 'remove_watermark', true);
  }
  clip = await upload(aliceId, clipFile, '字幕片段.mp4');
  await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('subtitle recognition (tool ocr)', () => {
  it('detects the bottom band and gives preview frames', async () => {
    const res = await call(server.app, 'POST', '/v1/ocr/detect-regions', {
      token: alice,
      body: { asset_id: clip.id },
    });
    expect(res.body.code).toBe(0);
    const { regions, frames, width, height, duration_ms, engine_label } = res.body.data;
    expect({ width, height }).toEqual({ width: 480, height: 270 });
    expect(duration_ms).toBeGreaterThan(3900);
    expect(engine_label).toContain('PP-OCRv4');
    const subtitle = regions.find((r: { kind: string }) => r.kind === 'subtitle');
    expect(subtitle).toBeDefined();
    // The band holds every drawn cue.
    for (const t of truthBoxes) {
      expect(subtitle.y).toBeLessThanOrEqual(t.y + 0.01);
      expect(subtitle.y + subtitle.h).toBeGreaterThanOrEqual(t.y + t.h - 0.01);
    }
    expect(frames.length).toBeGreaterThan(0);
    const jpeg = await server.app.inject({ method: 'GET', url: frames[0].url });
    expect(jpeg.statusCode).toBe(200);
    expect(jpeg.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');

    const one = await call(server.app, 'POST', '/v1/ocr/preview-frame', {
      token: alice,
      body: { asset_id: clip.id, at_ms: 1234 },
    });
    expect(one.body.data.at_ms).toBe(1200);
    const past = await call(server.app, 'POST', '/v1/ocr/preview-frame', {
      token: alice,
      body: { asset_id: clip.id, at_ms: 60_000 },
    });
    expect(namedError(past.body)).toBe('err_invalid_param');
  });

  it('recognises the burned-in cues into the project’s track, with an SRT and the credits captured', async () => {
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const price = await priceTask(server.ctx, 'subtitle_ocr', {
      seconds: Math.ceil(clip.duration_ms! / 1000),
    });
    const created = await call(server.app, 'POST', '/v1/ocr/create', {
      token: alice,
      body: { asset_id: clip.id, regions: [BAND], fps: 5 },
    });
    expect(created.body.code).toBe(0);
    const { task_id, project_id, credits } = created.body.data;
    expect(credits).toBe(price);
    const task = await finished(task_id);
    expect(task).toMatchObject({ status: 'succeeded', credits_captured: price });
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before - price);

    const opened = await call(server.app, 'GET', `/v1/projects/get?project_id=${project_id}`, {
      token: alice,
    });
    const { project, document } = opened.body.data;
    expect(project).toMatchObject({
      tool: 'ocr',
      name: '字幕片段',
      status: 'succeeded',
      source_asset_id: clip.id,
    });
    expect(project.engine_label).toContain('PP-OCRv4');
    const source = document.tracks[0];
    expect(source).toMatchObject({ id: 'source', kind: 'source' });
    expect(source.cues.map((c: { text: string }) => c.text)).toEqual(CUES.map((c) => c.text));
    source.cues.forEach((c: { start_ms: number; end_ms: number }, i: number) => {
      expect(Math.abs(c.start_ms - CUES[i].start_ms)).toBeLessThanOrEqual(250);
      expect(Math.abs(c.end_ms - CUES[i].end_ms)).toBeLessThanOrEqual(250);
    });

    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${task_id}`, { token: alice });
    const [output] = view.body.data.task.outputs;
    expect(output).toMatchObject({ name: '字幕片段.srt', kind: 'srt' });
    const srt = await server.app.inject({ method: 'GET', url: output.url });
    expect(srt.body).toContain('今天天气很好');
    expect(srt.body).toContain('我们去公园散步');
  });

  it('fails with err_video_without_subtitle and releases the credits when nothing is found', async () => {
    const blank = await upload(aliceId, blankFile, '无字幕.mp4');
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const created = await call(server.app, 'POST', '/v1/ocr/create', {
      token: alice,
      body: { asset_id: blank.id, regions: [BAND] },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task).toMatchObject({ status: 'failed', credits_captured: 0 });
    expect(task.error).toBe('视频中未检测到字幕');
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before);
  });

  it('refuses bad boxes, an audio-only asset, another user’s asset and a switched-off feature, leaving nothing', async () => {
    const audio = await upload(bobId, wavFile, '录音.wav');
    const before = await leftovers(bobId);
    const cases: Array<[unknown, string]> = [
      [{ asset_id: audio.id, regions: [BAND] }, 'err_file_not_supported'],
      [{ asset_id: clip.id, regions: [BAND] }, 'err_not_found'],
    ];
    const own = await upload(bobId, blankFile, 'bob.mp4');
    cases.push(
      [{ asset_id: own.id, regions: [{ x: 0.5, y: 0.5, w: 0.7, h: 0.2 }] }, 'err_invalid_param'],
      [{ asset_id: own.id, regions: [{ x: 0.1, y: 0.5, w: 0, h: 0.2 }] }, 'err_invalid_param'],
      [{ asset_id: own.id, regions: [{ x: -0.1, y: 0.5, w: 0.2, h: 0.2 }] }, 'err_invalid_param'],
    );
    for (const [body, code] of cases) {
      const res = await call(server.app, 'POST', '/v1/ocr/create', { token: bob, body });
      expect(namedError(res.body), JSON.stringify(body)).toBe(code);
    }
    const detectOther = await call(server.app, 'POST', '/v1/ocr/detect-regions', {
      token: bob,
      body: { asset_id: clip.id },
    });
    expect(namedError(detectOther.body)).toBe('err_not_found');

    await setFeatureOverride(server.ctx, bobId, 'subtitle_generate', false);
    try {
      for (const [url, body] of [
        ['/v1/ocr/create', { asset_id: own.id, regions: [BAND] }],
        ['/v1/ocr/detect-regions', { asset_id: own.id }],
        ['/v1/ocr/preview-frame', { asset_id: own.id, at_ms: 0 }],
      ] as const) {
        const res = await call(server.app, 'POST', url, { token: bob, body });
        expect(namedError(res.body), url).toBe('err_subtitle_generate_not_allowed');
      }
      const caps = await call(server.app, 'GET', '/v1/tools/capabilities', { token: bob });
      expect(caps.body.data.tools.find((t: { tool: string }) => t.tool === 'ocr')).toMatchObject({
        available: false,
        error_type: 'err_subtitle_generate_not_allowed',
      });
    } finally {
      await setFeatureOverride(server.ctx, bobId, 'subtitle_generate', null);
    }
    expect(await leftovers(bobId)).toEqual(before);
  });
});

describe('subtitle erasing (tool erase) and watermark removal (tool watermark)', () => {
  it('erases the band where subtitles are shown: nothing legible remains, the rest of the picture is unchanged', async () => {
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const price = await priceTask(server.ctx, 'subtitle_erase', {
      seconds: Math.ceil(clip.duration_ms! / 1000),
    });
    const created = await call(server.app, 'POST', '/v1/erase/create', {
      token: alice,
      body: { asset_id: clip.id, boxes: [BAND], range_mode: 'subtitles', method: 'fast', second_pass: true },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id, 120_000);
    expect(task).toMatchObject({ status: 'succeeded', tool: 'erase', credits_captured: price });
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before - price);

    const result = await call(server.app, 'GET', `/v1/erase/result?task_id=${task.id}`, { token: alice });
    expect(result.body.code).toBe(0);
    const { report, output_url, source_url, output_asset_id } = result.body.data;
    expect(source_url).not.toBe('');
    expect(output_url).not.toBe('');
    expect(report).toMatchObject({ residual_chars: 0, method: 'fast' });
    expect(report.original_chars).toBe(CUES.map((c) => c.text).join('').length);

    // The output is one of Alice's assets: a playable MP4 with the audio kept.
    const asset = await server.ctx.db
      .selectFrom('media_assets')
      .selectAll()
      .where('id', '=', output_asset_id)
      .where('owner_id', '=', aliceId)
      .executeTakeFirstOrThrow();
    expect(asset).toMatchObject({ has_video: 1, has_audio: 1, width: 480, height: 270 });
    const out = await localPathOf(server.ctx, asset.storage_key, dir);
    // OCR over the band of the result finds nothing.
    const again = await recognizeVideo(out, { engine: server.ctx.engines.ocr, regions: [BAND], fps: 5 });
    expect(again.tracks.flatMap((t) => t.cues)).toEqual([]);
    // Outside the boxes the picture is the original's (re-encoded: high PSNR).
    expect(await psnrAbove(clipFile, out, BAND.y - 0.02)).toBeGreaterThan(35);

    // The download center gets it as the task's MP4 output.
    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${task.id}`, { token: alice });
    expect(view.body.data.task.outputs[0]).toMatchObject({
      kind: 'video',
      format: 'mp4',
      name: '字幕片段.mp4',
    });
    const got = await server.app.inject({ method: 'GET', url: view.body.data.task.outputs[0].url });
    expect(got.statusCode).toBe(200);

    // Another user sees none of it.
    const bobs = await call(server.app, 'GET', `/v1/erase/result?task_id=${task.id}`, { token: bob });
    expect(namedError(bobs.body)).toBe('err_not_found');
  });

  it('erases at the times of a finished 字幕提取 project of the same video', async () => {
    const ocrProject = await server.ctx.db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', aliceId)
      .where('tool', '=', 'ocr')
      .where('source_asset_id', '=', clip.id)
      .executeTakeFirstOrThrow();
    const created = await call(server.app, 'POST', '/v1/erase/create', {
      token: alice,
      body: {
        asset_id: clip.id,
        boxes: [BAND],
        range_mode: 'subtitles',
        ocr_project_id: ocrProject.id,
        margin_ms: 100,
      },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id, 120_000);
    expect(task.status).toBe('succeeded');
    const stages = await server.ctx.db
      .selectFrom('task_stages')
      .select(['name', 'result'])
      .where('task_id', '=', task.id)
      .execute();
    // The spans are the project's cue times ± the default 200 ms margin, over the chosen box.
    const located = JSON.parse(stages.find((s) => s.name === 'locate')!.result!);
    expect(
      located.spans.map((s: { start_ms: number; end_ms: number }) => [s.start_ms, s.end_ms]),
    ).toHaveLength(2);
    expect(located.spans[0].box).toEqual(BAND);
    const result = await call(server.app, 'GET', `/v1/erase/result?task_id=${task.id}`, { token: alice });
    expect(result.body.data.report).toMatchObject({
      residual_chars: 0,
      original_chars: CUES.map((c) => c.text).join('').length,
    });
  });

  it('erases with 逐帧补全 (fill): the report names the method, the box comes back close to the clean picture', async () => {
    const created = await call(server.app, 'POST', '/v1/erase/create', {
      token: alice,
      body: {
        asset_id: clip.id,
        boxes: [BAND],
        range_mode: 'custom',
        ranges: CUES.map(({ start_ms, end_ms }) => ({ start_ms, end_ms })),
        method: 'fill',
      },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id, 120_000);
    expect(task).toMatchObject({ status: 'succeeded', tool: 'erase' });
    const result = await call(server.app, 'GET', `/v1/erase/result?task_id=${task.id}`, { token: alice });
    const { report, output_asset_id } = result.body.data;
    expect(report).toMatchObject({ method: 'fill', residual_chars: 0 });
    expect(report.temporal_share).toBeGreaterThanOrEqual(0);
    expect(report.temporal_share).toBeLessThanOrEqual(1);
    // The check measured the damage against the source, once per span.
    expect(report.damage).toHaveLength(CUES.length);

    const asset = await server.ctx.db
      .selectFrom('media_assets')
      .select('storage_key')
      .where('id', '=', output_asset_id)
      .executeTakeFirstOrThrow();
    const out = await localPathOf(server.ctx, asset.storage_key, dir);
    // Inside the first cue's text box the result is near the clean picture, far nearer than the burned clip.
    const [erased, burned] = await Promise.all([
      psnrIn(cleanFile, out, truthBoxes[0], 0.3, 1.7),
      psnrIn(cleanFile, clipFile, truthBoxes[0], 0.3, 1.7),
    ]);
    expect(erased).toBeGreaterThan(30);
    expect(erased).toBeGreaterThan(burned + 6);
    expect(await psnrAbove(cleanFile, out, BAND.y - 0.02)).toBeGreaterThan(35);
  });

  it('removes a watermark over the whole video and previews one frame before/after', async () => {
    const corner = { x: 0.7, y: 0.05, w: 0.25, h: 0.15 };
    const preview = await call(server.app, 'POST', '/v1/erase/preview', {
      token: alice,
      body: { asset_id: clip.id, at_ms: 1000, boxes: [corner], method: 'blur', tool: 'watermark' },
    });
    expect(preview.body.code).toBe(0);
    const { before, after } = preview.body.data;
    expect(before.url).not.toBe(after.url);
    const [b, a] = await Promise.all([
      server.app.inject({ method: 'GET', url: before.url }),
      server.app.inject({ method: 'GET', url: after.url }),
    ]);
    expect(b.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(a.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(a.rawPayload.equals(b.rawPayload)).toBe(false);

    const created = await call(server.app, 'POST', '/v1/watermark/create', {
      token: alice,
      body: { asset_id: clip.id, boxes: [corner], method: 'fast' },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id, 120_000);
    expect(task).toMatchObject({ status: 'succeeded', tool: 'watermark' });
    const result = await call(server.app, 'GET', `/v1/erase/result?task_id=${task.id}`, { token: alice });
    expect(result.body.data.report).toMatchObject({ residual_chars: 0 });
    // Both tools list under the 字幕擦除 tab.
    const list = await call(server.app, 'GET', '/v1/projects/list?tool=erase', { token: alice });
    expect(list.body.data.list.map((p: { task_id: string }) => p.task_id)).toContain(task.id);
  });

  it('finds a watermark that jumps between corners per segment and fills it from other frames', async () => {
    // A semi-transparent logo: top left until 1.8 s, then bottom right.
    const logo = { w: 96, h: 40 };
    const marks = [
      { x: 16, y: 16, from: 0, to: 1.8 },
      { x: 480 - 16 - logo.w, y: 270 - 16 - logo.h, from: 1.8, to: 4 },
    ];
    const markedFile = join(dir, 'marked.mp4');
    await exec('ffmpeg', [
      '-nostdin',
      '-i',
      cleanFile,
      '-vf',
      marks
        .map(
          (m) =>
            `drawbox=x=${m.x}:y=${m.y}:w=${logo.w}:h=${logo.h}:color=white@0.4:t=fill:enable='gte(t\\,${m.from})*lt(t\\,${m.to})',` +
            `drawbox=x=${m.x + 20}:y=${m.y + 12}:w=${logo.w - 40}:h=${logo.h - 24}:color=black@0.5:t=fill:enable='gte(t\\,${m.from})*lt(t\\,${m.to})'`,
        )
        .join(','),
      '-c:v',
      'libx264',
      '-crf',
      '4',
      '-c:a',
      'copy',
      '-y',
      markedFile,
    ]);
    const marked = await upload(aliceId, markedFile, '角标.mp4');
    // The user boxes both corners, generously.
    const areas = [
      { x: 0, y: 0, w: 0.4, h: 0.35 },
      { x: 0.6, y: 0.65, w: 0.4, h: 0.35 },
    ];
    const created = await call(server.app, 'POST', '/v1/watermark/create', {
      token: alice,
      body: { asset_id: marked.id, boxes: areas, method: 'fill' },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id, 180_000);
    expect(task).toMatchObject({ status: 'succeeded', tool: 'watermark' });
    const result = await call(server.app, 'GET', `/v1/erase/result?task_id=${task.id}`, { token: alice });
    const { report, output_asset_id } = result.body.data;
    expect(report.method).toBe('fill');
    expect(report.watermarks).toHaveLength(2);
    report.watermarks.forEach((s: { box: Box; start_ms: number; end_ms: number }, i: number) => {
      const m = marks[i];
      expect(Math.abs(s.box.x * 480 - m.x)).toBeLessThanOrEqual(3);
      expect(Math.abs(s.box.y * 270 - m.y)).toBeLessThanOrEqual(3);
      expect(Math.abs((s.box.x + s.box.w) * 480 - m.x - logo.w)).toBeLessThanOrEqual(3);
      expect(Math.abs((s.box.y + s.box.h) * 270 - m.y - logo.h)).toBeLessThanOrEqual(3);
      expect(Math.abs(s.start_ms - m.from * 1000)).toBeLessThanOrEqual(80);
      expect(Math.abs(s.end_ms - m.to * 1000)).toBeLessThanOrEqual(80);
    });
    // Inside the first corner's logo the result is near the clean picture, far nearer than the marked clip.
    const asset = await server.ctx.db
      .selectFrom('media_assets')
      .selectAll()
      .where('id', '=', output_asset_id)
      .executeTakeFirstOrThrow();
    const out = await localPathOf(server.ctx, asset.storage_key, dir);
    const box = { x: 16 / 480, y: 16 / 270, w: logo.w / 480, h: logo.h / 270 };
    const [filled, before] = await Promise.all([
      psnrIn(cleanFile, out, box, 0, 1.7),
      psnrIn(cleanFile, markedFile, box, 0, 1.7),
    ]);
    expect(filled).toBeGreaterThan(before + 6);
    // The whole box is what was erased: the damage is measured around it, where nothing changed.
    expect(report.damage.length).toBeGreaterThan(0);
    for (const d of report.damage) expect(d.changed_share).toBeLessThan(0.02);

    // The damage view: at the first segment's middle only the found box changed.
    const diff = await call(server.app, 'POST', '/v1/erase/difference', {
      token: alice,
      body: { task_id: task.id },
    });
    expect(diff.body.code).toBe(0);
    const d = diff.body.data;
    expect(d.at_ms).toBeGreaterThan(0);
    expect(d.at_ms).toBeLessThan(1800);
    expect(d.boxes).toHaveLength(1);
    expect(d.boxes[0].x).toBeLessThan(0.05);
    expect(d.outside_changed_share).toBeLessThan(0.005);
    expect(d.inside_changed_share).toBeGreaterThan(0.3);
    const png = await server.app.inject({ method: 'GET', url: d.url });
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // Bob cannot look at Alice's task.
    const other = await call(server.app, 'POST', '/v1/erase/difference', {
      token: bob,
      body: { task_id: task.id },
    });
    expect(other.body.code).not.toBe(0);
  });

  it('fails with err_video_without_subtitle and releases the credits when the boxes never show text', async () => {
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const created = await call(server.app, 'POST', '/v1/erase/create', {
      token: alice,
      body: { asset_id: clip.id, boxes: [{ x: 0.1, y: 0.1, w: 0.3, h: 0.2 }], range_mode: 'subtitles' },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task).toMatchObject({ status: 'failed', credits_captured: 0 });
    expect(task.error).toBe('视频中未检测到字幕');
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before);
  });

  it('refuses bad boxes and ranges, audio-only assets, others’ assets and projects, switched-off features', async () => {
    const own = await upload(bobId, blankFile, 'bob2.mp4');
    const audio = await upload(bobId, wavFile, '录音2.wav');
    const ocrProject = await server.ctx.db
      .selectFrom('projects')
      .select('id')
      .where('owner_id', '=', aliceId)
      .where('tool', '=', 'ocr')
      .executeTakeFirstOrThrow();
    const before = await leftovers(bobId);
    const cases: Array<[string, unknown, string]> = [
      [
        '/v1/erase/create',
        { asset_id: own.id, boxes: [{ x: 0.9, y: 0.1, w: 0.2, h: 0.1 }] },
        'err_invalid_param',
      ],
      [
        '/v1/erase/create',
        { asset_id: own.id, boxes: [{ x: 0.1, y: 0.1, w: 0.2, h: 0 }] },
        'err_invalid_param',
      ],
      [
        '/v1/erase/create',
        { asset_id: own.id, boxes: [BAND], range_mode: 'custom', ranges: [{ start_ms: 500, end_ms: 9000 }] },
        'err_invalid_param',
      ],
      [
        '/v1/erase/create',
        { asset_id: own.id, boxes: [BAND], range_mode: 'custom', ranges: [{ start_ms: 900, end_ms: 500 }] },
        'err_invalid_param',
      ],
      [
        '/v1/erase/create',
        { asset_id: own.id, boxes: [BAND], range_mode: 'custom', ranges: [] },
        'err_invalid_param',
      ],
      ['/v1/erase/create', { asset_id: audio.id, boxes: [BAND] }, 'err_file_not_supported'],
      ['/v1/erase/create', { asset_id: clip.id, boxes: [BAND] }, 'err_not_found'],
      [
        '/v1/erase/create',
        { asset_id: own.id, boxes: [BAND], range_mode: 'subtitles', ocr_project_id: ocrProject.id },
        'err_not_found',
      ],
      ['/v1/watermark/create', { asset_id: audio.id, boxes: [BAND] }, 'err_file_not_supported'],
      [
        '/v1/watermark/create',
        { asset_id: own.id, boxes: [{ x: 0.5, y: 0.95, w: 0.2, h: 0.1 }] },
        'err_invalid_param',
      ],
      ['/v1/erase/preview', { asset_id: own.id, at_ms: 5000, boxes: [BAND] }, 'err_invalid_param'],
      ['/v1/erase/preview', { asset_id: clip.id, at_ms: 0, boxes: [BAND] }, 'err_not_found'],
    ];
    for (const [url, body, code] of cases) {
      const res = await call(server.app, 'POST', url, { token: bob, body });
      expect(namedError(res.body), `${url} ${JSON.stringify(body)}`).toBe(code);
    }

    await setFeatureOverride(server.ctx, bobId, 'subtitle_erase', false);
    await setFeatureOverride(server.ctx, bobId, 'remove_watermark', false);
    try {
      const gated: Array<[string, unknown, string]> = [
        ['/v1/erase/create', { asset_id: own.id, boxes: [BAND] }, 'err_subtitle_erase_not_allowed'],
        [
          '/v1/erase/preview',
          { asset_id: own.id, at_ms: 0, boxes: [BAND] },
          'err_subtitle_erase_not_allowed',
        ],
        ['/v1/watermark/create', { asset_id: own.id, boxes: [BAND] }, 'err_remove_water_mark_not_allowed'],
        [
          '/v1/erase/preview',
          { asset_id: own.id, at_ms: 0, boxes: [BAND], tool: 'watermark' },
          'err_remove_water_mark_not_allowed',
        ],
      ];
      for (const [url, body, code] of gated) {
        const res = await call(server.app, 'POST', url, { token: bob, body });
        expect(namedError(res.body), url).toBe(code);
      }
      const caps = await call(server.app, 'GET', '/v1/tools/capabilities', { token: bob });
      const tools = caps.body.data.tools as Array<{ tool: string; available: boolean; error_type: string }>;
      expect(tools.find((t) => t.tool === 'erase')).toMatchObject({
        available: false,
        error_type: 'err_subtitle_erase_not_allowed',
      });
      expect(tools.find((t) => t.tool === 'watermark')).toMatchObject({
        available: false,
        error_type: 'err_remove_water_mark_not_allowed',
      });
    } finally {
      await setFeatureOverride(server.ctx, bobId, 'subtitle_erase', true);
      await setFeatureOverride(server.ctx, bobId, 'remove_watermark', true);
    }
    expect(await leftovers(bobId)).toEqual(before);
  });
});
