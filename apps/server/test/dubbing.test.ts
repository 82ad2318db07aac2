import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MIN_KEPT_SHARE, type ProjectDocument, srtTime } from '@vw/contract';
import { textUnits } from '@vw/engines';
import { type FakeChatServer, startFakeChatServer } from '@vw/engines/fake-chat-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { priceTask } from '../src/modules/credits/pricing.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { getUsableVoice } from '../src/modules/voices/voices.service.ts';
import { type FakeAsr, startFakeAsr } from './fake-asr.ts';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';

const run = promisify(execFile);

let server: TestServer;
let chat: FakeChatServer;
let asr: FakeAsr;
let dir: string;
let alice: string;
let aliceId: string;
let bob: string;
let clip: MediaAssetRow;
/** Natural (unfitted) length of each test sentence with the default voice, measured through the engine. */
const natural = new Map<string, number>();

const VOICE = 'espeak-zh-xiaoya';
const LINES = [
  '大家好，欢迎收看今天的节目。',
  '我们来聊一聊配音和时间轴。',
  '这一句话故意写得很长很长，比它的时间段要长得多。',
  '最后一句也有一点长。',
];

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);

const finished = (taskId: string, timeoutMs = Number(process.env.DUB_WAIT ?? 90_000)) =>
  taskFinished(server.ctx, taskId, timeoutMs);

async function project(id: string, token = alice) {
  const res = await call(server.app, 'GET', `/v1/projects/get?project_id=${id}`, { token });
  expect(res.body.code).toBe(0);
  return res.body.data as { document: ProjectDocument; version: number };
}

const cuesOf = (doc: ProjectDocument) => doc.tracks[0]!.cues;

/** An SRT whose lines are `factor` × their natural length (factor < 1: too long for the slot). */
function srt(lines: Array<{ text: string; factor: number; prefix?: string; gapMs?: number }>): string {
  let at = 200;
  return lines
    .map((l, i) => {
      const slot = Math.round(natural.get(l.text)! * l.factor);
      const block = `${i + 1}\n${srtTime(at)} --> ${srtTime(at + slot)}\n${l.prefix ?? ''}${l.text}\n`;
      at += slot + (l.gapMs ?? 150);
      return block;
    })
    .join('\n');
}

async function startSrt(body: Record<string, unknown>, token = alice) {
  return call(server.app, 'POST', '/v1/dubbing/srt/create', {
    token,
    body: { default_voice_id: VOICE, ...body },
  });
}

async function loudness(file: string): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-i',
    file,
    '-af',
    'ebur128',
    '-f',
    'null',
    '-',
  ]);
  return Number(/I:\s+(-?[\d.]+) LUFS/.exec(stderr.split('Summary:').at(-1)!)![1]);
}

async function download(url: string, name: string): Promise<string> {
  const res = await server.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  const file = join(dir, name);
  await writeFile(file, res.rawPayload);
  return file;
}

/** Every line inside its window (+ tolerance) or reported; no two lines overlap. */
function expectFitted(doc: ProjectDocument, clipped: Array<{ cue_id: string }> = []) {
  const cues = cuesOf(doc).filter((c) => !c.mark);
  for (const [i, cue] of cues.entries()) {
    const take = cue.takes!.find((t) => t.id === cue.take_id)!;
    expect(take, cue.text).toBeTruthy();
    const end = cue.start_ms + take.duration_ms;
    // The next line with audio (a muted cue has none).
    const next = cues.find((c) => c.start_ms > cue.start_ms);
    const fits = !['overflow', 'unfit'].includes(take.fit.status);
    if (next && fits) expect(end, `line ${i} overlaps the next`).toBeLessThanOrEqual(next.start_ms);
    if (end > cue.end_ms + 50) {
      // Past its slot: only into the gap it borrowed, or reported as not fitting with the reason.
      const borrowed = take.fit.actions.find((a) => a.kind === 'borrow_gap')?.ms ?? 0;
      const inside = end <= cue.end_ms + borrowed + 50;
      expect(inside || ['overflow', 'unfit'].includes(take.fit.status), take.fit.summary).toBe(true);
      if (!inside) expect(take.fit.reason ?? take.fit.summary).not.toBe('');
      // Placement cuts a line that does not fit where the next one starts: lines never overlap.
      if (next && end > next.start_ms) expect(clipped.map((c) => c.cue_id)).toContain(cue.id);
    }
    expect(take.fit.summary).not.toBe('');
  }
}

beforeAll(async () => {
  chat = await startFakeChatServer({ port: 0 });
  asr = await startFakeAsr();
  dir = await mkdtemp(join(tmpdir(), 'vw-dub-'));
  server = await createTestServer({
    LLM_BASE_URL: chat.url,
    LLM_API_KEY: 'test-key',
    LLM_MODEL: 'fake-chat',
    OPENAI_ASR_BASE_URL: asr.url,
    OPENAI_ASR_MODEL: 'fake-whisper',
  });
  const a = await signIn(server.app, '13900000071');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  const b = await signIn(server.app, '13900000072');
  bob = b.secure_tokens.access_token;
  await fund(server, aliceId, 5000);
  const voice = await getUsableVoice(server.ctx, aliceId, VOICE, undefined);
  for (const text of LINES) {
    const out = await server.ctx.engines.tts.synthesize({
      segments: [{ text }],
      voice: voice.engineVoice,
      language: voice.row.language,
    });
    natural.set(text, out.durationMs);
  }
  // A tiny 320×240 clip with a tone, long enough for the track.
  const total = [...natural.values()].reduce((a, b) => a + b, 0) / 1000 + 3;
  const mp4 = join(dir, 'clip.mp4');
  await run('ffmpeg', [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=48000'],
    ...['-t', total.toFixed(2), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-shortest', mp4],
  ]);
  clip = await registerAsset(server.ctx, aliceId, { file: mp4, name: '短片.mp4' });
  await server.ctx.jobs.startWorker({ concurrency: 2 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chat?.close();
  await asr?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SRT配音 (tool srt_dubbing)', () => {
  let projectId: string;

  it('fits lines 30–60 % too long into their slots, places them without overlap, and renders MP4, MP3 and SRT', async () => {
    natural.set('[静音]', 400);
    const text = srt([
      { text: LINES[0]!, factor: 1.3, prefix: '小明：' },
      { text: LINES[1]!, factor: 1 / 1.3, prefix: '小红：', gapMs: 600 },
      { text: LINES[2]!, factor: 1 / 1.6, prefix: '小明：' },
      { text: '[静音]', factor: 1, gapMs: 300 },
      { text: LINES[3]!, factor: 1 / 1.45 },
    ]).replace(/\n\[静音\]\n/, '\n[静音] 这里不说话\n');
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const created = await startSrt({
      subtitle: { name: '节目.srt', text },
      media_asset_id: clip.id,
      speaker_voices: { 小红: 'espeak-zh-xiaowen' },
      options: { check: false, condense: false, outputs: ['mp4', 'mp3', 'srt', 'stems'] },
    });
    expect(created.body.code).toBe(0);
    projectId = created.body.data.project_id;
    const price = await priceTask(server.ctx, 'dubbing', { seconds: Math.ceil(clip.duration_ms! / 1000) });
    expect(created.body.data.credits).toBe(price);
    const task = await finished(created.body.data.task_id);
    expect(task).toMatchObject({ status: 'succeeded', credits_captured: price });
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before - price);

    const { document } = await project(projectId);
    expect(document.speakers.map((s) => [s.name, s.voice_id])).toEqual([
      ['小明', null],
      ['小红', 'espeak-zh-xiaowen'],
    ]);
    const cues = cuesOf(document);
    expect(cues.map((c) => c.text)).toEqual([LINES[0], LINES[1], LINES[2], '这里不说话', LINES[3]]);
    expect(cues[3]).toMatchObject({ mark: 'mute', takes: [] });
    expect(cues[1]!.takes![0]!.voice_id).toBe('espeak-zh-xiaowen');
    expect(cues[0]!.takes![0]!.voice_id).toBe(VOICE);
    const render = await server.ctx.db
      .selectFrom('task_stages')
      .select('result')
      .where('task_id', '=', task.id)
      .where('name', '=', 'render')
      .executeTakeFirstOrThrow();
    const { clipped } = JSON.parse(render.result!) as { clipped: Array<{ cue_id: string }> };
    expectFitted(document, clipped);
    // The line 60 % too long without a language model is reported as not fitting, with the reason.
    expect(cues[2]!.fit!.status).toMatch(/overflow|unfit/);
    expect(cues[2]!.fit!.reason).toBeTruthy();
    // The too-long lines were sped up (Rubber Band) or borrowed their gap, and say so.
    expect(cues[1]!.fit!.actions.some((a) => a.kind === 'speed' || a.kind === 'borrow_gap')).toBe(true);
    expect(cues[0]!.fit!.status).toBe('fits');

    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${task.id}`, { token: alice });
    const outputs = view.body.data.task.outputs as Array<{ name: string; format: string; url: string }>;
    expect(outputs.map((o) => o.format).sort()).toEqual(['mp3', 'mp4', 'srt', 'zip']);
    const mp4 = await download(outputs.find((o) => o.format === 'mp4')!.url, 'out.mp4');
    const probe = JSON.parse(
      (await run('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', mp4])).stdout,
    );
    expect(probe.streams.map((s: { codec_type: string }) => s.codec_type).sort()).toEqual(['audio', 'video']);
    expect(Math.abs(Number(probe.format.duration) * 1000 - clip.duration_ms!)).toBeLessThan(200);
    expect(Math.abs((await loudness(mp4)) - -16)).toBeLessThan(1.5);
    const srtOut = await server.app.inject({
      method: 'GET',
      url: outputs.find((o) => o.format === 'srt')!.url,
    });
    expect(srtOut.body).toContain(LINES[2]);
    expect(srtOut.body).not.toContain('小明：');
  }, 120_000);

  it('regenerates only the edited line; a picked earlier take survives regenerating the others', async () => {
    let { document, version } = await project(projectId);
    const [first, second] = cuesOf(document);
    const takesBefore = new Map(cuesOf(document).map((c) => [c.id, c.takes!.map((t) => t.id)]));

    // Edit the second line as the editor does: text, text_rev + 1, stale.
    Object.assign(second!, { text: '我们聊一聊配音。', text_rev: 1, stale: true });
    let saved = await call(server.app, 'POST', '/v1/projects/save', {
      token: alice,
      body: { project_id: projectId, version, document },
    });
    expect(saved.body.code).toBe(0);
    let regen = await call(server.app, 'POST', '/v1/dubbing/regenerate', {
      token: alice,
      body: { project_id: projectId, scope: 'stale' },
    });
    expect(regen.body.code).toBe(0);
    expect(regen.body.data.lines).toBe(1);
    expect((await finished(regen.body.data.task_id)).status).toBe('succeeded');
    ({ document, version } = await project(projectId));
    for (const cue of cuesOf(document)) {
      const ids = cue.takes!.map((t) => t.id);
      if (cue.id === second!.id) {
        expect(ids.length).toBe(2);
        expect(cue.stale).toBe(false);
        expect(cue.take_id).toBe(ids[1]);
        expect(cue.takes![1]!.source_text).toBe('我们聊一聊配音。');
      } else expect(ids).toEqual(takesBefore.get(cue.id));
    }

    // One line again, then pick its first take back; regenerating another line keeps that pick.
    regen = await call(server.app, 'POST', '/v1/dubbing/regenerate', {
      token: alice,
      body: { project_id: projectId, scope: 'line', cue_id: first!.id },
    });
    expect((await finished(regen.body.data.task_id)).status).toBe('succeeded');
    ({ document, version } = await project(projectId));
    const firstTakes = cuesOf(document)[0]!.takes!;
    expect(firstTakes.length).toBe(2);
    const picked = await call(server.app, 'POST', '/v1/dubbing/pick-take', {
      token: alice,
      body: { project_id: projectId, version, cue_id: first!.id, take_id: firstTakes[0]!.id },
    });
    expect(picked.body.code).toBe(0);
    ({ document, version } = await project(projectId));
    Object.assign(cuesOf(document)[4]!, { text: '最后一句。', text_rev: 1, stale: true });
    saved = await call(server.app, 'POST', '/v1/projects/save', {
      token: alice,
      body: { project_id: projectId, version, document },
    });
    regen = await call(server.app, 'POST', '/v1/dubbing/regenerate', {
      token: alice,
      body: { project_id: projectId, scope: 'stale', outputs: ['mp3'] },
    });
    expect(regen.body.data.lines).toBe(1);
    expect((await finished(regen.body.data.task_id)).status).toBe('succeeded');
    ({ document, version } = await project(projectId));
    expect(cuesOf(document)[0]!.take_id).toBe(firstTakes[0]!.id);
    expect(cuesOf(document)[4]!.takes!.length).toBe(2);

    // A locked line is left out of 生成过期音频.
    const locked = await call(server.app, 'POST', '/v1/dubbing/lock', {
      token: alice,
      body: { project_id: projectId, version, cue_ids: [cuesOf(document)[2]!.id], locked: true },
    });
    expect(locked.body.code).toBe(0);
    ({ document, version } = await project(projectId));
    Object.assign(cuesOf(document)[2]!, { text: '改过的长句。', text_rev: 1, stale: true });
    await call(server.app, 'POST', '/v1/projects/save', {
      token: alice,
      body: { project_id: projectId, version, document },
    });
    const none = await call(server.app, 'POST', '/v1/dubbing/regenerate', {
      token: alice,
      body: { project_id: projectId, scope: 'stale' },
    });
    expect(namedError(none.body)).toBe('err_invalid_param');

    // The editor's players get signed links to the dub, the mix and every take.
    const media = await call(server.app, 'GET', `/v1/dubbing/media?project_id=${projectId}`, {
      token: alice,
    });
    expect(media.body.data.dub_url).not.toBe('');
    expect(Object.keys(media.body.data.takes).length).toBeGreaterThanOrEqual(6);
  }, 120_000);

  it('shortens an overflowing line with the language model (fake OpenAI-compatible server)', async () => {
    const text = srt([{ text: LINES[2]!, factor: 1 / 1.6 }]);
    const created = await startSrt({
      subtitle: { name: '长句.srt', text },
      options: { check: false, condense: true, outputs: ['wav'] },
    });
    expect(created.body.code).toBe(0);
    const asked = chat.requests.length;
    expect((await finished(created.body.data.task_id)).status).toBe('succeeded');
    expect(chat.requests.length).toBeGreaterThan(asked);
    expect(chat.requests.at(-1)!.model).toBe('fake-chat');
    const { document } = await project(created.body.data.project_id);
    const cue = cuesOf(document)[0]!;
    const take = cue.takes![0]!;
    expect(take.fit.actions.some((a) => a.kind === 'condense')).toBe(true);
    expect([...take.text].length).toBeLessThan([...LINES[2]!].length);
    expect(take.source_text).toBe(LINES[2]);
    // How much of the line is still said is recorded and said in the summary (never just 时长合适).
    const kept = textUnits(take.text).length / textUnits(LINES[2]!).length;
    expect(take.fit.kept).toBeCloseTo(kept, 2);
    expect(take.fit.summary).toContain(`保留原文 ${Math.round(kept * 100)}%`);
    if (kept < MIN_KEPT_SHARE) expect(take.fit.summary).toContain('删减过多');
    expectFitted(document);

    // 保留原文: the whole line again, never shortened (faster, in a longer slot).
    const asks = chat.requests.length;
    const again = await call(server.app, 'POST', '/v1/dubbing/regenerate', {
      token: alice,
      body: { project_id: created.body.data.project_id, scope: 'line', cue_id: cue.id, fix: 'keep_text' },
    });
    expect(again.body.code).toBe(0);
    expect((await finished(again.body.data.task_id)).status).toBe('succeeded');
    expect(chat.requests.length).toBe(asks);
    const whole = cuesOf((await project(created.body.data.project_id)).document)[0]!;
    const latest = whole.takes!.find((t) => t.id === whole.take_id)!;
    expect(latest.text).toBe(LINES[2]);
    expect(latest.fit.kept).toBeUndefined();
    expect(latest.fit.actions.some((a) => a.kind === 'condense')).toBe(false);
    expect(latest.fit.actions.some((a) => a.kind === 'speed' || a.kind === 'borrow_gap')).toBe(true);
  }, 120_000);

  it('checks each line with the recognizer: a line still mismatching after 2 regenerations is flagged (code 5 per line, refunded) and the task succeeds with the rest', async () => {
    const answer = asr.answer;
    const hears = (text: string) => ({
      text,
      language: 'zh',
      duration: 1,
      segments: [{ id: 0, start: 0, end: 1, text, words: [] }],
    });
    // The recognizer hears the first line, whatever it is given: the second line never matches.
    asr.answer = hears(LINES[0]!);
    const heardBefore = asr.requests.length;
    try {
      const before = (await getBalance(server.ctx, aliceId)).balance;
      const created = await startSrt({
        subtitle: {
          name: '校验.srt',
          text: srt([
            { text: LINES[0]!, factor: 1.3 },
            { text: LINES[1]!, factor: 1.3 },
          ]),
        },
        options: { check: true, outputs: ['mp3'] },
      });
      expect(created.body.code).toBe(0);
      const task = await finished(created.body.data.task_id);
      expect(task).toMatchObject({ status: 'succeeded', error_code: 0 });
      // One hearing of the good line, three of the bad one (first take + 2 regenerations).
      expect(asr.requests.length - heardBefore).toBe(4);
      const [good, bad] = cuesOf((await project(created.body.data.project_id)).document);
      expect(good!.takes![0]!.check).toMatchObject({ status: 'passed', retries: 0, similarity: 1 });
      expect(bad!.takes![0]!.check).toMatchObject({
        status: 'failed',
        retries: 2,
        heard: LINES[0],
        failure_code: 5,
      });
      // The job's figures of the self-check, on the task.
      const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${created.body.data.task_id}`, {
        token: alice,
      });
      expect(view.body.data.task.self_check).toMatchObject({
        ran: true,
        checked: 2,
        regenerated: 1,
        flagged: 1,
      });
      // The flagged line's share of the credits goes back: only the passing line is paid for.
      const slots = [good!, bad!].map((c) => c.end_ms - c.start_ms);
      const paid = Math.floor(task.credits_held * (slots[0]! / (slots[0]! + slots[1]!)));
      expect(task.credits_captured).toBe(paid);
      expect(task.credits_captured).toBeLessThan(task.credits_held);
      expect((await getBalance(server.ctx, aliceId)).balance).toBe(before - paid);

      // Every line failing still finishes the task: nothing is paid, every line is flagged.
      asr.answer = hears('完全不同的内容');
      const beforeAll = (await getBalance(server.ctx, aliceId)).balance;
      const all = await startSrt({
        subtitle: { name: '校验2.srt', text: srt([{ text: LINES[0]!, factor: 1.3 }]) },
        options: { check: true, outputs: ['mp3'] },
      });
      expect(await finished(all.body.data.task_id)).toMatchObject({
        status: 'succeeded',
        credits_captured: 0,
      });
      expect((await getBalance(server.ctx, aliceId)).balance).toBe(beforeAll);
      const only = cuesOf((await project(all.body.data.project_id)).document)[0]!;
      expect(only.takes![0]!.check).toMatchObject({ status: 'failed', retries: 2 });
    } finally {
      asr.answer = answer;
    }
  }, 120_000);

  it('refuses an empty or unreadable file and another user’s asset or project, leaving nothing behind', async () => {
    const projects = async () =>
      Number(
        (
          await server.ctx.db
            .selectFrom('projects')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const tasks = async () =>
      Number(
        (
          await server.ctx.db
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [p0, t0] = [await projects(), await tasks()];
    const empty = await startSrt({ subtitle: { name: 'a.srt', text: ' \n' } });
    expect(namedError(empty.body)).toBe('err_file_empty');
    const garbage = await startSrt({ subtitle: { name: 'a.srt', text: '这不是字幕文件\n只是普通文字' } });
    expect(namedError(garbage.body)).toBe('err_file_not_supported');
    const bobs = await startSrt(
      { subtitle: { name: 'a.srt', text: srt([{ text: LINES[0]!, factor: 1.2 }]) }, media_asset_id: clip.id },
      bob,
    );
    expect(namedError(bobs.body)).toBe('err_not_found');
    const badVoice = await startSrt({
      subtitle: { name: 'a.srt', text: srt([{ text: LINES[0]!, factor: 1.2 }]) },
      default_voice_id: 'no-such-voice',
    });
    expect(namedError(badVoice.body)).toBe('err_not_found');
    expect([await projects(), await tasks()]).toEqual([p0, t0]);

    for (const [url, body] of [
      ['/v1/dubbing/regenerate', { project_id: projectId, scope: 'all' }],
      ['/v1/dubbing/lock', { project_id: projectId, version: 0, cue_ids: ['x'], locked: true }],
      ['/v1/dubbing/pick-take', { project_id: projectId, version: 0, cue_id: 'x', take_id: 'y' }],
    ] as const) {
      const res = await call(server.app, 'POST', url, { token: bob, body });
      expect(namedError(res.body), url).toBe('err_not_found');
    }
    const media = await call(server.app, 'GET', `/v1/dubbing/media?project_id=${projectId}`, { token: bob });
    expect(namedError(media.body)).toBe('err_not_found');
    expect([await projects(), await tasks()]).toEqual([p0, t0]);
  });
});

describe('deleting a dubbing project', () => {
  it('removes its takes, dub track and mix with it', async () => {
    const created = await startSrt({
      subtitle: { name: '删除.srt', text: srt([{ text: LINES[0]!, factor: 1.3 }]) },
      options: { check: false, outputs: ['mp3'] },
    });
    const projectId = created.body.data.project_id as string;
    expect((await finished(created.body.data.task_id)).status).toBe('succeeded');
    const files = async () => {
      const keys: string[] = [];
      for await (const o of server.ctx.storage.list(`projects/${aliceId}/${projectId}/`)) keys.push(o.key);
      return keys;
    };
    expect((await files()).some((k) => k.includes('/takes/'))).toBe(true);
    expect(await files()).toContain(`projects/${aliceId}/${projectId}/mix.mp3`);
    const deleted = await call(server.app, 'DELETE', '/v1/projects/delete', {
      token: alice,
      body: { project_id: projectId },
    });
    expect(deleted.body.code).toBe(0);
    expect(await files()).toEqual([]);
  }, 60_000);
});

describe('AI配音 (tool dubbing)', () => {
  it('recognises the video’s speech into cues, then dubs every line in the same language', async () => {
    const created = await call(server.app, 'POST', '/v1/dubbing/create', {
      token: alice,
      body: {
        asset_id: clip.id,
        source: 'asr',
        language: 'zh',
        default_voice_id: VOICE,
        options: { check: false, outputs: ['srt'] },
      },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const opened = await call(
      server.app,
      'GET',
      `/v1/projects/get?project_id=${created.body.data.project_id}`,
      {
        token: alice,
      },
    );
    expect(opened.body.data.project.engine_label).toBe('OpenAI 兼容接口 · fake-whisper');
    const cues = cuesOf(opened.body.data.document);
    expect(cues.map((c) => c.text)).toEqual(['你好，世界。', '今天天气很好。']);
    for (const cue of cues) expect(cue.takes).toHaveLength(1);

    // An existing project of another user cannot be the source.
    const bobs = await call(server.app, 'POST', '/v1/dubbing/create', {
      token: bob,
      body: {
        asset_id: clip.id,
        source: 'project',
        source_project_id: created.body.data.project_id,
        default_voice_id: VOICE,
      },
    });
    expect(namedError(bobs.body)).toBe('err_not_found');
  }, 90_000);
});

describe('视频合成 (tool synthesis)', () => {
  it('muxes a video with an audio track and burned subtitles into one MP4 at the loudness preset', async () => {
    const speech = join(dir, 'voice.wav');
    await run('espeak-ng', ['-v', 'cmn', '-w', speech, '你好，这是旁白。']);
    const track = await registerAsset(server.ctx, aliceId, { file: speech, name: '旁白.wav' });
    const created = await call(server.app, 'POST', '/v1/synthesis/create', {
      token: alice,
      body: {
        video_asset_id: clip.id,
        audio_tracks: [{ asset_id: track.id, start_ms: 500 }],
        subtitle: { name: 's.srt', text: '1\n00:00:00,500 --> 00:00:02,000\n你好，这是旁白。\n' },
        options: { subtitle_mode: 'burn', loudness: 'broadcast' },
      },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${task.id}`, { token: alice });
    const out = (view.body.data.task.outputs as Array<{ format: string; url: string }>).find(
      (o) => o.format === 'mp4',
    )!;
    const mp4 = await download(out.url, 'synth.mp4');
    expect(Math.abs((await loudness(mp4)) - -23)).toBeLessThan(1.5);
    const probe = JSON.parse(
      (await run('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', mp4])).stdout,
    );
    expect(probe.streams.find((s: { codec_type: string }) => s.codec_type === 'video').codec_name).toBe(
      'h264',
    );
    // Bob may not use Alice's assets.
    const bobs = await call(server.app, 'POST', '/v1/synthesis/create', {
      token: bob,
      body: { video_asset_id: clip.id, audio_tracks: [] },
    });
    expect(namedError(bobs.body)).toBe('err_not_found');
  }, 90_000);
});
