import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { measurePitch, measureVoiceChange } from '@vw/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeVoiceServers, startFakeVoiceServers } from '../../../e2e/fake-voice-servers.mjs';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { priceTask } from '../src/modules/credits/pricing.service.ts';
import { updateSetting } from '../src/modules/settings/settings.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';

const run = promisify(execFile);

let server: TestServer;
let fake: FakeVoiceServers;
let dir: string;
let alice: string;
let aliceId: string;
let bob: string;
let bobId: string;
let carol: string;
let carolId: string;
let asset: MediaAssetRow;

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);

const finished = (taskId: string, timeoutMs = 60_000) => taskFinished(server.ctx, taskId, timeoutMs);

async function speechAsset(ownerId: string, name: string): Promise<MediaAssetRow> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.wav`);
  // A low male espeak voice (~85 Hz), about 3 s.
  await run('espeak-ng', [
    '-v',
    'en-us',
    '-p',
    '30',
    '-w',
    file,
    'the quick brown fox jumps over the lazy dog',
  ]);
  return registerAsset(server.ctx, ownerId, { file, name });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-vc-srv-'));
  fake = await startFakeVoiceServers({ port: 0 });
  server = await createTestServer({ VC_SERVER_URL: `${fake.url}/vc`, VC_SERVER_LABEL: 'RVC 服务' });
  const a = await signIn(server.app, '13900000061');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  const b = await signIn(server.app, '13900000062');
  bob = b.secure_tokens.access_token;
  bobId = b.user_info.uid;
  const c = await signIn(server.app, '13900000063');
  carol = c.secure_tokens.access_token;
  carolId = c.user_info.uid;
  await fund(server, aliceId, 1000);
  asset = await speechAsset(aliceId, '我的录音.wav');
  await server.ctx.jobs.startWorker({ concurrency: 2 });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('voice changer (tool voice_changer)', { timeout: 120_000 }, () => {
  it('converts to a built-in voice: output F0 within 5 % of the voice’s, A/B audio with peaks, credits captured', async () => {
    const caps = await call(server.app, 'GET', '/v1/tools/capabilities', { token: alice });
    const tool = caps.body.data.tools.find((t: { tool: string }) => t.tool === 'voice_changer');
    expect(tool).toMatchObject({ available: true });
    expect(tool.engines.map((e: { id: string }) => e.id)).toEqual(['rubberband-r3', 'vc-server']);

    const targets = await call(server.app, 'GET', '/v1/voice-changer/targets', { token: alice });
    const voice = targets.body.data.targets.find(
      (t: { gender: string; required_level: number; category: string }) =>
        t.gender === 'female' && t.required_level <= 100 && t.category === 'builtin',
    );
    expect(voice).toBeTruthy();

    const before = (await getBalance(server.ctx, aliceId)).balance;
    const price = await priceTask(server.ctx, 'voice_changer', {
      seconds: Math.ceil(asset.duration_ms! / 1000),
    });
    const created = await call(server.app, 'POST', '/v1/voice-changer/create', {
      token: alice,
      body: { asset_id: asset.id, voice_id: voice.voice_id, format: 'wav' },
    });
    expect(created.body.code).toBe(0);
    expect(created.body.data.credits).toBe(price);
    const task = await finished(created.body.data.task_id);
    expect(task).toMatchObject({ status: 'succeeded', tool: 'voice_changer', credits_captured: price });
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before - price);

    const res = await call(server.app, 'GET', `/v1/voice-changer/result?task_id=${task.id}`, {
      token: alice,
    });
    expect(res.body.code).toBe(0);
    const r = res.body.data;
    expect(r).toMatchObject({
      engine: 'rubberband-r3',
      engine_label: 'Rubber Band R3',
      target_name: voice.name,
    });
    expect(r.target_f0_hz).toBeGreaterThan(r.source_f0_hz * 1.3);
    expect(Math.abs(r.output_f0_hz / r.target_f0_hz - 1)).toBeLessThan(0.05);
    // A male voice toward a female one: the formants follow the pitch up (not a sped-up man), and the
    // card's figures say so, measured on the result.
    expect(r.engine_kind).toBe('signal');
    expect(r.formant_semitones).toBeGreaterThan(1);
    expect(r.measured.envelope_ratio).toBeGreaterThan(1.05);
    expect(Math.abs(r.measured.envelope_ratio / 2 ** (r.formant_semitones / 12) - 1)).toBeLessThan(0.05);
    expect(r.measured.f0_ratio).toBeGreaterThan(1.3);
    expect(Math.abs(r.measured.f0_ratio / (r.output_f0_hz / r.source_f0_hz) - 1)).toBeLessThan(0.03);
    // Measured independently on the files the user downloads.
    const download = async (url: string, name: string) => {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const file = join(dir, name);
      await (await import('node:fs/promises')).writeFile(file, res.rawPayload);
      return file;
    };
    const file = await download(r.converted.url, 'downloaded.wav');
    const originalFile = await download(r.original.url, 'original.mp3');
    expect(Math.abs((await measurePitch(file)).median_hz / r.target_f0_hz - 1)).toBeLessThan(0.05);
    const again = await measureVoiceChange(originalFile, file);
    expect(Math.abs(again.envelope_ratio / r.measured.envelope_ratio - 1)).toBeLessThan(0.03);
    expect(Math.abs(again.f0_ratio / r.measured.f0_ratio - 1)).toBeLessThan(0.03);
    expect(r.converted).toMatchObject({ format: 'wav', name: '我的录音-变声.wav' });
    expect(r.original).toMatchObject({ format: 'mp3', name: '我的录音-原声.mp3' });
    for (const a of [r.original, r.converted]) {
      expect(a.peaks.buckets_per_second).toBe(50);
      expect(a.peaks.peaks.length).toBeGreaterThan(2 * 50 * 2);
      expect(Math.abs(a.peaks.duration_ms - asset.duration_ms!)).toBeLessThan(150);
    }
    // The target's F0 is cached: the list shows it now.
    const listed = await call(server.app, 'GET', '/v1/voice-changer/targets', { token: alice });
    const cached = listed.body.data.targets.find((t: { voice_id: string }) => t.voice_id === voice.voice_id);
    expect(cached.median_hz).toBeCloseTo(r.target_f0_hz, 0);
    // History: the task list of the tool.
    const list = await call(server.app, 'GET', '/v1/tasks/list?tool=voice_changer', { token: alice });
    expect(list.body.data.list[0]).toMatchObject({ task_id: task.id, status: 'succeeded' });
    expect(list.body.data.list[0].outputs.map((o: { name: string }) => o.name)).toEqual([
      '我的录音-变声.wav',
      '我的录音-原声.mp3',
    ]);
  });

  it('manual settings through the VC server: denoise + transpose sent over vw-vc/1, labelled with its model', async () => {
    const created = await call(server.app, 'POST', '/v1/voice-changer/create', {
      token: alice,
      body: { asset_id: asset.id, pitch_shift: 5, denoise: true, engine: 'vc-server' },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const r = (await call(server.app, 'GET', `/v1/voice-changer/result?task_id=${task.id}`, { token: alice }))
      .body.data;
    expect(r).toMatchObject({
      engine: 'vc-server',
      engine_label: 'RVC 服务 · fake-rvc',
      semitones: 5,
      denoised: true,
    });
    expect(fake.requests.at(-1)!.fields.pitch_semitones).toBe('5.00');
    expect(r.output_f0_hz / r.source_f0_hz).toBeGreaterThan(1.25);
    expect(r.engine_kind).toBe('neural');
    expect(r.measured.f0_ratio).toBeGreaterThan(1.25);
  });

  it('converts to the user’s cloned voice by its stored profile; another user cannot use it', async () => {
    await updateSetting(server.ctx, 'voice_clone_switch', 'true');
    const now = Date.now();
    // A ready fast clone of Alice's (the voice-clone module's row; its profile was measured from her samples).
    await server.ctx.db
      .insertInto('voice_clones')
      .values({
        id: 'vcl_test_alice',
        owner_id: aliceId,
        name: '我的克隆',
        kind: 'fast',
        status: 'ready',
        language: 'en-US',
        engine: 'standard',
        engine_label: '标准引擎近似',
        profile: JSON.stringify({ median_hz: 180, p10_hz: 150, p90_hz: 220, rate: 1, gender: 'female' }),
        samples: '[]',
        reference_clips: '[]',
        candidates: '[]',
        chosen: 0,
        consent: '{}',
        check_report: null,
        note: '',
        error: null,
        trainer_job: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const targets = await call(server.app, 'GET', '/v1/voice-changer/targets', { token: alice });
    expect(targets.body.data.targets[0]).toMatchObject({
      voice_id: 'vcl_test_alice',
      category: 'mine',
      median_hz: 180,
    });
    const created = await call(server.app, 'POST', '/v1/voice-changer/create', {
      token: alice,
      body: { asset_id: asset.id, voice_id: 'vcl_test_alice' },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const r = (await call(server.app, 'GET', `/v1/voice-changer/result?task_id=${task.id}`, { token: alice }))
      .body.data;
    expect(r).toMatchObject({ target_name: '我的克隆', target_f0_hz: 180 });
    expect(Math.abs(r.output_f0_hz / 180 - 1)).toBeLessThan(0.05);

    const bobsAsset = await speechAsset(bobId, 'bob.wav');
    const bobs = await call(server.app, 'POST', '/v1/voice-changer/create', {
      token: bob,
      body: { asset_id: bobsAsset.id, voice_id: 'vcl_test_alice' },
    });
    expect(namedError(bobs.body)).toBe('err_not_found');
    const bobTargets = await call(server.app, 'GET', '/v1/voice-changer/targets', { token: bob });
    expect(bobTargets.body.data.targets.map((t: { voice_id: string }) => t.voice_id)).not.toContain(
      'vcl_test_alice',
    );
  });

  it('refuses other users (asset, result, delete), empty settings, and a shortage with nothing held', async () => {
    const list = await call(server.app, 'GET', '/v1/tasks/list?tool=voice_changer', { token: alice });
    const taskId = list.body.data.list[0].task_id;
    const bobsCreate = await call(server.app, 'POST', '/v1/voice-changer/create', {
      token: bob,
      body: { asset_id: asset.id, pitch_shift: 3 },
    });
    expect(namedError(bobsCreate.body)).toBe('err_not_found');
    const bobsResult = await call(server.app, 'GET', `/v1/voice-changer/result?task_id=${taskId}`, {
      token: bob,
    });
    expect(namedError(bobsResult.body)).toBe('err_not_found');
    const bobsDelete = await call(server.app, 'DELETE', '/v1/tasks/delete', {
      token: bob,
      body: { task_id: taskId },
    });
    expect(namedError(bobsDelete.body)).toBe('err_not_found');

    const nothing = await call(server.app, 'POST', '/v1/voice-changer/create', {
      token: alice,
      body: { asset_id: asset.id },
    });
    expect(namedError(nothing.body)).toBe('err_invalid_param');
    const unknownVoice = await call(server.app, 'POST', '/v1/voice-changer/create', {
      token: alice,
      body: { asset_id: asset.id, voice_id: 'no-such-voice' },
    });
    expect(namedError(unknownVoice.body)).toBe('err_not_found');

    // Carol has no credits: the tool's own shortage error, no task, no hold.
    const carols = await speechAsset(carolId, 'carol.wav');
    const short = await call(server.app, 'POST', '/v1/voice-changer/create', {
      token: carol,
      body: { asset_id: carols.id, pitch_shift: 4 },
    });
    expect(namedError(short.body)).toBe('err_sts_balance_insufficient');
    expect(short.body.msg ?? short.body.data.detail[0].msg).toContain('积分');
    const tasks = await server.ctx.db
      .selectFrom('tasks')
      .select('id')
      .where('owner_id', '=', carolId)
      .execute();
    expect(tasks).toEqual([]);
    const holds = await server.ctx.db
      .selectFrom('credit_holds')
      .selectAll()
      .where('user_id', '=', carolId)
      .execute();
    expect(holds).toEqual([]);
  });
});
