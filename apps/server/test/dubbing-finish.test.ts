import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ProjectDocument, srtTime } from '@vw/contract';
import { grabFrame, makeSubtitledClip } from '@vw/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { localPathOf } from '../src/media/files.ts';
import { priceTask } from '../src/modules/credits/pricing.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { getUsableVoice } from '../src/modules/voices/voices.service.ts';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';

/*
 * Dubbing, the finished gaps (issue 17): slow video (a line too long even at the 1.35× cap fits by
 * slowing its stretch; the output grows by that time; the next line starts exactly at its mapped cue),
 * AI配音 with subtitles read from the picture (OCR), and the rendered MP4's burned subtitle read back.
 */

const run = promisify(execFile);
let server: TestServer;
let dir: string;
let alice: string;
let aliceId: string;
let clip: MediaAssetRow;
let subtitled: MediaAssetRow;

const VOICE = 'espeak-zh-xiaoya';
const LONG = '这一句配音太长了，加速也放不下。';
const NEXT = '下一句准时开始。';
const OCR_CUES = [
  { text: '今天天气很好', start_ms: 200, end_ms: 1800, position: 'bottom' as const },
  { text: '我们去公园散步', start_ms: 2100, end_ms: 3800, position: 'bottom' as const },
];
const natural = new Map<string, number>();

const finished = (taskId: string, timeoutMs = 120_000) => taskFinished(server.ctx, taskId, timeoutMs);

async function project(id: string) {
  const res = await call(server.app, 'GET', `/v1/projects/get?project_id=${id}`, { token: alice });
  expect(res.body.code).toBe(0);
  return res.body.data as {
    document: ProjectDocument;
    version: number;
    project: { engine_label: string };
  };
}

async function outputsOf(taskId: string) {
  const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${taskId}`, { token: alice });
  return view.body.data.task.outputs as Array<{ name: string; format: string; url: string }>;
}

async function download(url: string, name: string): Promise<string> {
  const res = await server.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  const file = join(dir, name);
  await writeFile(file, res.rawPayload);
  return file;
}

async function samples(file: string): Promise<Int16Array> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', '48000', '-f', 's16le', 'pipe:1'],
    { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 },
  );
  const buf = stdout as unknown as Buffer;
  const out = new Int16Array(buf.length >> 1);
  new Uint8Array(out.buffer).set(buf.subarray(0, out.length * 2));
  return out;
}

async function durationMs(file: string, stream: 'v:0' | 'a:0' | null = null): Promise<number> {
  const args = stream
    ? ['-select_streams', stream, '-show_entries', 'stream=duration']
    : ['-show_entries', 'format=duration'];
  const { stdout } = await run('ffprobe', ['-v', 'error', ...args, '-of', 'csv=p=0', file]);
  return Number(String(stdout).trim()) * 1000;
}

/** The burned subtitle read back from a frame of the MP4 by the OCR engine (bottom third only). */
async function subtitleAt(file: string, atMs: number): Promise<string> {
  const jpg = join(dir, `frame-${atMs}.jpg`);
  await grabFrame(file, atMs, jpg);
  const lines = await server.ctx.engines.ocr.recognize(jpg);
  // Words, not punctuation: a 17-pixel-high full stop is read as 。, ： or nothing depending on the crop.
  return lines
    .filter((l) => l.box.y > 0.6)
    .map((l) => l.text)
    .join('')
    .replace(/[\s\p{P}]/gu, '');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-dub-finish-'));
  server = await createTestServer();
  const a = await signIn(server.app, '13900000081');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  await fund(server, aliceId, 5000);
  const voice = await getUsableVoice(server.ctx, aliceId, VOICE, undefined);
  for (const text of [LONG, NEXT]) {
    const out = await server.ctx.engines.tts.synthesize({
      segments: [{ text }],
      voice: voice.engineVoice,
      language: voice.row.language,
    });
    natural.set(text, out.durationMs);
  }
  const mp4 = join(dir, 'clip.mp4');
  const ocrClip = join(dir, 'subtitled.mp4');
  await Promise.all([
    run('ffmpeg', [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'color=c=0x336699:size=480x270:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=48000'],
      ...['-t', '7', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-shortest', mp4],
    ]),
    makeSubtitledClip(ocrClip, {
      width: 480,
      height: 270,
      duration_ms: 4000,
      background: 'moving',
      cues: OCR_CUES,
      speech: true,
    }),
  ]);
  clip = await registerAsset(server.ctx, aliceId, { file: mp4, name: '短片.mp4' });
  subtitled = await registerAsset(server.ctx, aliceId, { file: ocrClip, name: '带字幕.mp4' });
  await server.ctx.jobs.startWorker({ concurrency: 2 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('slow video (放慢画面)', () => {
  it('fits a line too long even at 1.35× by slowing its stretch; the MP4 grows by that time; the next line starts exactly at its mapped cue; the burned subtitle reads back', async () => {
    // Line 1 runs ~25 % past its slot even at 1.35× (no gap to borrow: the next cue is 80 ms after).
    const start = 500;
    const end = start + Math.round(natural.get(LONG)! / 1.35 / 1.25);
    const nextStart = end + 80;
    const nextEnd = nextStart + Math.round(natural.get(NEXT)! * 1.3);
    expect(nextEnd).toBeLessThan(6500);
    const text = `1\n${srtTime(start)} --> ${srtTime(end)}\n${LONG}\n\n2\n${srtTime(nextStart)} --> ${srtTime(nextEnd)}\n${NEXT}\n`;
    const created = await call(server.app, 'POST', '/v1/dubbing/srt/create', {
      token: alice,
      body: {
        default_voice_id: VOICE,
        subtitle: { name: '放慢.srt', text },
        media_asset_id: clip.id,
        options: {
          check: false,
          condense: false,
          allow_slow_video: true,
          subtitle_mode: 'burn',
          outputs: ['mp4', 'wav', 'srt'],
        },
      },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const { document } = await project(created.body.data.project_id);
    const [first, second] = document.tracks[0]!.cues;
    expect(first!.fit!.status).not.toMatch(/overflow|unfit/);
    const slow = first!.fit!.actions.find((a) => a.kind === 'slow_video');
    expect(slow?.ms).toBeGreaterThan(0);
    expect(first!.fit!.actions.find((a) => a.kind === 'speed')?.rate).toBeGreaterThan(1.3);
    expect(first!.fit!.summary).toContain('放慢视频');
    const added = slow!.ms!;
    const mapped = nextStart + added;

    const outputs = await outputsOf(task.id);
    const mp4 = await download(outputs.find((o) => o.format === 'mp4')!.url, 'slow.mp4');
    // The output is longer by exactly the added time (to a frame), video and audio alike.
    expect(Math.abs((await durationMs(mp4, 'v:0')) - (7000 + added))).toBeLessThanOrEqual(41);
    expect(Math.abs((await durationMs(mp4)) - (7000 + added))).toBeLessThanOrEqual(41);
    // The dub-only WAV: the next line's take starts exactly at its mapped cue, sample for sample.
    const wav = await download(outputs.find((o) => o.format === 'wav')!.url, 'dub.wav');
    const dub = await samples(wav);
    expect(dub.length).toBe((7000 + added) * 48);
    const take = second!.takes!.find((t) => t.id === second!.take_id)!;
    const line = await samples(await localPathOf(server.ctx, take.audio_key, dir));
    const at = mapped * 48;
    expect(Array.from(dub.subarray(at, at + 4800))).toEqual(Array.from(line.subarray(0, 4800)));
    expect(dub.subarray(at - 480, at).every((s) => s === 0)).toBe(true);
    // The exported SRT moved with the video.
    const srt = await server.app.inject({ method: 'GET', url: outputs.find((o) => o.format === 'srt')!.url });
    expect(srt.body).toContain(`${srtTime(mapped)} --> ${srtTime(nextEnd + added)}`);
    // Issue 17 tests: the burned subtitle recognised back from a frame equals the cue text.
    expect(await subtitleAt(mp4, Math.round((mapped + nextEnd + added) / 2))).toBe(
      NEXT.replace(/[\s，。]/g, ''),
    );
  }, 180_000);

  it('the 放慢画面 one-click fix regenerates the line with slow video; refused without a picture', async () => {
    const start = 300;
    const end = start + Math.round(natural.get(LONG)! / 1.35 / 1.25);
    const text = `1\n${srtTime(start)} --> ${srtTime(end)}\n${LONG}\n\n2\n${srtTime(end + 80)} --> ${srtTime(end + 2000)}\n${NEXT}\n`;
    const created = await call(server.app, 'POST', '/v1/dubbing/srt/create', {
      token: alice,
      body: {
        default_voice_id: VOICE,
        subtitle: { name: '修复.srt', text },
        media_asset_id: clip.id,
        options: { check: false, condense: false, outputs: ['srt'] },
      },
    });
    expect((await finished(created.body.data.task_id)).status).toBe('succeeded');
    const projectId = created.body.data.project_id;
    let { document } = await project(projectId);
    expect(document.tracks[0]!.cues[0]!.fit!.status).toMatch(/overflow|unfit/);
    const cueId = document.tracks[0]!.cues[0]!.id;
    const fixed = await call(server.app, 'POST', '/v1/dubbing/regenerate', {
      token: alice,
      body: { project_id: projectId, scope: 'line', cue_id: cueId, fix: 'slow_video', outputs: ['srt'] },
    });
    expect(fixed.body.code).toBe(0);
    expect((await finished(fixed.body.data.task_id)).status).toBe('succeeded');
    ({ document } = await project(projectId));
    const cue = document.tracks[0]!.cues[0]!;
    expect(cue.fit!.status).not.toMatch(/overflow|unfit/);
    expect(cue.fit!.summary).toContain('放慢视频');
    expect(cue.takes!.length).toBe(2);

    // A voice track without a picture has nothing to slow: the named error, no task.
    const audioOnly = await call(server.app, 'POST', '/v1/dubbing/srt/create', {
      token: alice,
      body: {
        default_voice_id: VOICE,
        subtitle: { name: '无画面.srt', text },
        options: { outputs: ['srt'] },
      },
    });
    expect((await finished(audioOnly.body.data.task_id)).status).toBe('succeeded');
    const refused = await call(server.app, 'POST', '/v1/dubbing/regenerate', {
      token: alice,
      body: {
        project_id: audioOnly.body.data.project_id,
        scope: 'line',
        cue_id: (await project(audioOnly.body.data.project_id)).document.tracks[0]!.cues[0]!.id,
        fix: 'slow_video',
      },
    });
    expect(refused.body.data?.detail?.[0]?.type).toBe('err_invalid_param');
  }, 180_000);
});

describe('AI配音 from on-screen subtitles (source ocr)', () => {
  it('reads the burned subtitles with the OCR engine in the prepare stage, pauses for review, then 生成过期音频 dubs them', async () => {
    const created = await call(server.app, 'POST', '/v1/dubbing/create', {
      token: alice,
      body: {
        asset_id: subtitled.id,
        source: 'ocr',
        language: 'zh',
        review: true,
        default_voice_id: VOICE,
        options: { check: false, condense: false, outputs: ['srt'] },
      },
    });
    expect(created.body.code).toBe(0);
    // Paused for review: priced as the on-screen recognition only.
    const price = await priceTask(server.ctx, 'subtitle_ocr', {
      seconds: Math.ceil(subtitled.duration_ms! / 1000),
    });
    expect(created.body.data.credits).toBe(price);
    const task = await finished(created.body.data.task_id);
    expect(task).toMatchObject({ status: 'succeeded', credits_captured: price });
    const { document, project: row } = await project(created.body.data.project_id);
    expect(row.engine_label).toContain('PP-OCRv4');
    const cues = document.tracks[0]!.cues;
    expect(cues.map((c) => c.text)).toEqual(OCR_CUES.map((c) => c.text));
    for (const [i, cue] of cues.entries()) {
      expect(Math.abs(cue.start_ms - OCR_CUES[i]!.start_ms)).toBeLessThanOrEqual(300);
      expect(cue.takes ?? []).toEqual([]);
    }
    // After the review, 生成过期音频 dubs every line.
    const regen = await call(server.app, 'POST', '/v1/dubbing/regenerate', {
      token: alice,
      body: { project_id: created.body.data.project_id, scope: 'stale', outputs: ['srt'] },
    });
    expect(regen.body.data.lines).toBe(2);
    expect((await finished(regen.body.data.task_id)).status).toBe('succeeded');
    const after = (await project(created.body.data.project_id)).document.tracks[0]!.cues;
    expect(after.map((c) => c.takes?.length)).toEqual([1, 1]);
  }, 180_000);

  it('refuses a file without a picture with the contract error', async () => {
    const wav = join(dir, 'tone.wav');
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=duration=1', '-y', wav]);
    const audio = await registerAsset(server.ctx, aliceId, { file: wav, name: '音频.wav' });
    const res = await call(server.app, 'POST', '/v1/dubbing/create', {
      token: alice,
      body: { asset_id: audio.id, source: 'ocr', default_voice_id: VOICE },
    });
    expect(res.body.data?.detail?.[0]?.type).toBe('err_file_not_supported');
  });
});
