import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { measurePitch } from '@vw/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { grantMembership } from '../src/modules/credits/membership.service.ts';
import { updateSetting } from '../src/modules/settings/settings.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { CONSENT_SENTENCES } from '../src/modules/voice-clone/voice-clone.service.ts';
import { listUsableClones } from '../src/modules/voices/clones.ts';
import { FAKE_VERBOSE_JSON, type FakeAsr, startFakeAsr } from './fake-asr.ts';
import { type FakeCloneServers, startFakeCloneServers } from './fake-clone.ts';
import { CLIENT_HEADERS, call, createTestServer, fund, signIn, type TestServer } from './harness.ts';

const run = promisify(execFile);
const ff = (...args: string[]) =>
  run('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args, '-y']);

let server: TestServer;
let fakes: FakeCloneServers;
let asr: FakeAsr;
let dir: string;
let sampleWav: string;
let shortWav: string;
let consentWav: string;

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);

const SENTENCE = CONSENT_SENTENCES.zh[0]!;

/** The fake recognizer hears `text` (the consent check compares it with the sentence). */
function hear(text: string) {
  asr.answer = {
    ...FAKE_VERBOSE_JSON,
    text,
    segments: [{ id: 0, seek: 0, start: 0, end: 2, text, tokens: [], temperature: 0 }],
    words: [],
  };
}

async function upload(ownerId: string, file: string, name: string, on = server): Promise<MediaAssetRow> {
  const copy = join(dir, `${Math.random().toString(36).slice(2)}.wav`);
  await copyFile(file, copy);
  return registerAsset(on.ctx, ownerId, { file: copy, name });
}

async function user(phone: string, on = server) {
  // one address per account: sign-in codes are rate-limited per address
  const s = await signIn(on.app, phone, `10.16.0.${phone.slice(-2)}`);
  return { token: s.secure_tokens.access_token as string, id: s.user_info.uid as string };
}

async function cloneObjects(ownerId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of server.ctx.storage.list(`voice-clones/${ownerId}/`)) keys.push(o.key);
  return keys;
}

async function createClone(
  who: { token: string; id: string },
  engine: string,
  extra: Record<string, unknown> = {},
  on = server,
) {
  const sample = await upload(who.id, sampleWav, '样本.wav', on);
  const consent = await upload(who.id, consentWav, '授权.wav', on);
  return call(on.app, 'POST', '/v1/voice-clone/create', {
    token: who.token,
    body: {
      name: '我的声音',
      language: 'en-US',
      asset_ids: [sample.id],
      consent: { accepted: true, sentence: SENTENCE, recording_asset_id: consent.id },
      engine,
      candidates: 2,
      ...extra,
    },
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-clone-'));
  const raw = join(dir, 'raw.wav');
  await run('espeak-ng', [
    '-v',
    'en-us',
    '-s',
    '160',
    '-w',
    raw,
    'Voice cloning needs a clean sample. Read a few sentences in a quiet room and keep a steady distance from the microphone. Speak naturally, as you would to a friend, and do not rush.',
  ]);
  sampleWav = join(dir, 'sample.wav');
  await ff('-i', raw, '-ar', '48000', '-ac', '1', '-af', 'volume=-2dB,alimiter=limit=0.5:level=0', sampleWav);
  shortWav = join(dir, 'short.wav');
  await ff('-i', sampleWav, '-t', '4', shortWav);
  consentWav = join(dir, 'consent.wav');
  await run('espeak-ng', ['-v', 'en-us', '-w', consentWav, 'I confirm this is my own voice.']);
  fakes = await startFakeCloneServers();
  asr = await startFakeAsr();
  server = await createTestServer({
    GPT_SOVITS_URL: fakes.gptSovitsUrl,
    COSYVOICE_URL: fakes.cosyVoiceUrl,
    OPENAI_ASR_BASE_URL: asr.url,
    OPENAI_ASR_MODEL: 'fake-whisper',
    VOICE_CLONE_TRAINER_URL: fakes.trainerUrl,
    VOICE_CLONE_TRAINER_POLL_MS: '50',
  });
  await updateSetting(server.ctx, 'voice_clone_switch', 'true');
  await server.ctx.jobs.startWorker({ concurrency: 2 });
});
afterAll(async () => {
  await server?.close();
  await fakes?.close();
  await asr?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('voice cloning', () => {
  it('refuses every clone call while voice_clone_switch is off (server side)', async () => {
    const u = await user('13900001601');
    await updateSetting(server.ctx, 'voice_clone_switch', 'false');
    try {
      const calls: Array<['GET' | 'POST', string, unknown]> = [
        ['GET', '/v1/voice-clone/overview', undefined],
        ['GET', '/v1/voice-clone/list', undefined],
        ['GET', '/v1/voice-clone/consent-sentence', undefined],
        ['POST', '/v1/voice-clone/check', { asset_ids: ['x'] }],
        ['POST', '/v1/voice-clone/fix', { asset_id: 'x', fixes: ['trim'] }],
        [
          'POST',
          '/v1/voice-clone/create',
          {
            name: 'a',
            asset_ids: ['x'],
            consent: { accepted: true, sentence: SENTENCE, recording_asset_id: 'x' },
          },
        ],
        ['POST', '/v1/voice-clone/preview', { clone_id: 'x', candidate: 0 }],
        ['POST', '/v1/voice-clone/choose', { clone_id: 'x', candidate: 0 }],
        ['POST', '/v1/voice-clone/rename', { clone_id: 'x', name: 'b' }],
        ['POST', '/v1/voice-clone/delete', { clone_id: 'x' }],
        ['POST', '/v1/voice-clone/recheck', { clone_id: 'x' }],
        [
          'POST',
          '/v1/voice-clone/professional/create',
          {
            name: 'a',
            asset_ids: ['x'],
            consent: { accepted: true, sentence: SENTENCE, recording_asset_id: 'x' },
          },
        ],
      ];
      for (const [method, url, body] of calls) {
        const res = await call(server.app, method, url, { token: u.token, body });
        expect(namedError(res.body), url).toBe('err_permission_deny');
      }
      expect(await listUsableClones(server.ctx, u.id)).toEqual([]);
    } finally {
      await updateSetting(server.ctx, 'voice_clone_switch', 'true');
    }
  });

  it('checks a sample per file and overall, and refuses a too-short one with nothing left behind', async () => {
    const u = await user('13900001602');
    const short = await upload(u.id, shortWav, '短.wav');
    const check = await call(server.app, 'POST', '/v1/voice-clone/check', {
      token: u.token,
      body: { asset_ids: [short.id], language: 'en-US' },
    });
    expect(check.body.code).toBe(0);
    const report = check.body.data.check;
    expect(report.files[0].asset_id).toBe(short.id);
    expect(report.files[0].items.find((i: { rule: string }) => i.rule === 'rms').status).toBe('pass');
    expect(report.overall.find((i: { rule: string }) => i.rule === 'duration').status).toBe('fail');
    // no speaker-embedding model configured: not checked, without the operator's setup
    const speaker = report.overall.find((i: { rule: string }) => i.rule === 'speaker');
    expect(speaker).toMatchObject({ status: 'not_checked', measured: '未检查' });
    expect(speaker.advice).toBe('本站暂未开启说话人检查；请确认样本中只有一个人的声音');
    // the language is checked by the configured recognizer
    expect(report.overall.find((i: { rule: string }) => i.rule === 'language').status).not.toBe(
      'not_checked',
    );
    expect(report.ok).toBe(false);
    const consent = await upload(u.id, consentWav, '授权.wav');
    hear(SENTENCE);
    const res = await call(server.app, 'POST', '/v1/voice-clone/create', {
      token: u.token,
      body: {
        name: 'x',
        asset_ids: [short.id],
        consent: { accepted: true, sentence: SENTENCE, recording_asset_id: consent.id },
        engine: 'standard',
      },
    });
    expect(namedError(res.body)).toBe('err_invalid_param');
    expect(res.body.msg).toMatch(/总时长/);
    expect(
      await server.ctx.db.selectFrom('voice_clones').selectAll().where('owner_id', '=', u.id).execute(),
    ).toEqual([]);
    expect(await cloneObjects(u.id)).toEqual([]);
  });

  it('fixes a quiet sample into a new asset whose level passes', async () => {
    const u = await user('13900001603');
    const quietWav = join(dir, 'quiet.wav');
    await ff('-i', sampleWav, '-af', 'volume=-20dB', quietWav);
    const quiet = await upload(u.id, quietWav, '小声.wav');
    const res = await call(server.app, 'POST', '/v1/voice-clone/fix', {
      token: u.token,
      body: { asset_id: quiet.id, fixes: ['normalize'] },
    });
    expect(res.body.code).toBe(0);
    const { before, after } = res.body.data;
    expect(before.items.find((i: { rule: string }) => i.rule === 'rms').status).not.toBe('pass');
    expect(after.items.find((i: { rule: string }) => i.rule === 'rms').status).toBe('pass');
    expect(after.asset_id).not.toBe(quiet.id);
    expect(after.url).toContain(after.asset_id);
    // someone else's asset cannot be fixed
    const other = await user('13900001604');
    const denied = await call(server.app, 'POST', '/v1/voice-clone/fix', {
      token: other.token,
      body: { asset_id: quiet.id, fixes: ['normalize'] },
    });
    expect(namedError(denied.body)).toBe('err_not_found');
  });

  it('refuses a consent recording the recognizer does not hear as the sentence (character error rate)', async () => {
    const u = await user('13900001605');
    // Another text, another consent sentence of the list, and the sentence with its second half lost.
    for (const heard of ['完全不同的一句话', CONSENT_SENTENCES.zh[1]!, SENTENCE.slice(0, 12)]) {
      hear(heard);
      const res = await createClone(u, 'standard');
      expect(namedError(res.body), heard).toBe('err_invalid_param');
      expect(res.body.msg).toMatch(/授权句子/);
      expect(res.body.msg).toContain(heard);
    }
    expect(await cloneObjects(u.id)).toEqual([]);
  });

  it('accepts the sentence as a recognizer writes it: spaces for punctuation, one character misheard', async () => {
    const u = await user('13900001621');
    await fund(server, u.id, 1000);
    // 我确认这是我本人的声音，并同意用它生成克隆声音。 → one character wrong (人 → 仁), punctuation gone.
    const heard = SENTENCE.replace('本人', '本仁').replace(/[，。]/g, ' ');
    hear(heard);
    const res = await createClone(u, 'standard');
    expect(res.body.code).toBe(0);
    expect(res.body.data.clone.consent).toMatchObject({ verified_by: 'asr', recognised_text: heard.trim() });
    const row = await server.ctx.db
      .selectFrom('voice_clones')
      .select('consent')
      .where('id', '=', res.body.data.clone.clone_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.consent).cer).toBeCloseTo(1 / 22, 2);
  });

  it('without a recognizer the consent recording is kept with the voice, unverified (as before)', async () => {
    const bare = await createTestServer();
    try {
      expect(bare.ctx.engines.asr.list()).toEqual([]);
      await updateSetting(bare.ctx, 'voice_clone_switch', 'true');
      const u = await user('13900001622', bare);
      await fund(bare, u.id, 1000);
      const res = await createClone(u, 'standard', {}, bare);
      expect(res.body.code).toBe(0);
      expect(res.body.data.clone.consent).toMatchObject({ verified_by: 'kept', recognised_text: null });
    } finally {
      await bare.close();
    }
  });

  it('makes a fitted standard voice, usable in TTS by its owner only, listed in 我的声音, and deleted with its files', async () => {
    const alice = await user('13900001606');
    const bob = await user('13900001607');
    await fund(server, alice.id, 1000);
    await fund(server, bob.id, 1000);
    hear(SENTENCE);
    const res = await createClone(alice, 'standard');
    expect(res.body.code).toBe(0);
    const clone = res.body.data.clone;
    expect(clone.status).toBe('ready');
    expect(clone.engine_label).toBe('标准引擎近似');
    expect(clone.consent.verified_by).toBe('asr');
    // two candidates from different clips of one 12 s sample
    expect(clone.candidates).toHaveLength(2);
    expect(clone.candidates[0].reference.start_ms).not.toBe(clone.candidates[1].reference.start_ms);
    expect(clone.profile.gender).toBe('male');

    // the fitted voice speaks near the sample's median pitch
    const preview = await call(server.app, 'POST', '/v1/voice-clone/preview', {
      token: alice.token,
      body: { clone_id: clone.clone_id, candidate: 0, text: 'This is a test of my fitted voice.' },
    });
    expect(preview.body.code).toBe(0);
    expect(preview.body.data.engine_label).toBe('标准引擎近似');
    const key = `voice-clones/${alice.id}/${clone.clone_id}/preview-0.mp3`;
    const mp3 = join(dir, 'preview.mp3');
    const chunks: Buffer[] = [];
    for await (const c of await server.ctx.storage.read(key)) chunks.push(c as Buffer);
    await writeFile(mp3, Buffer.concat(chunks));
    const pitch = await measurePitch(mp3);
    expect(Math.abs(pitch.median_hz - clone.profile.median_hz) / clone.profile.median_hz).toBeLessThan(0.12);

    // in the voice library for alice (mine, honest label), not for bob
    const lib = await call(server.app, 'GET', '/p1/voices/internal_get_all_voices', { token: alice.token });
    const mine = lib.body.data.voices.find((v: { voice_id: string }) => v.voice_id === clone.voice_id);
    expect(mine).toMatchObject({ category: 'mine', engine_label: '标准引擎近似', name: '我的声音' });
    // its preview clip plays in the library
    expect(mine.preview_url).toContain(clone.voice_id);
    const bobLib = await call(server.app, 'GET', '/p1/voices/internal_get_all_voices', { token: bob.token });
    expect(bobLib.body.data.voices.some((v: { voice_id: string }) => v.voice_id === clone.voice_id)).toBe(
      false,
    );

    // TTS with the cloned voice: alice yes, bob no
    const tts = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { voice_id: clone.voice_id, text: 'Hello from my clone.', speed: 1 },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${alice.token}` },
    });
    expect(tts.statusCode).toBe(200);
    expect(tts.headers['content-type']).toMatch(/audio/);
    expect(tts.rawPayload.length).toBeGreaterThan(1000);
    const bobTts = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { voice_id: clone.voice_id, text: 'Hello from my clone.', speed: 1 },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${bob.token}` },
    });
    expect(bobTts.json().data.detail[0].type).toBe('err_not_found');

    // listUsableClones (voice changer targets) is per owner
    expect((await listUsableClones(server.ctx, alice.id)).map((c) => c.voice_id)).toEqual([clone.voice_id]);
    expect(await listUsableClones(server.ctx, bob.id)).toEqual([]);

    // bob cannot list, rename, preview or delete it
    const bobList = await call(server.app, 'GET', '/v1/voice-clone/list', { token: bob.token });
    expect(bobList.body.data.clones).toEqual([]);
    for (const [url, body] of [
      ['/v1/voice-clone/rename', { clone_id: clone.clone_id, name: 'mine now' }],
      ['/v1/voice-clone/preview', { clone_id: clone.clone_id, candidate: 0 }],
      ['/v1/voice-clone/delete', { clone_id: clone.clone_id }],
    ] as const) {
      const r = await call(server.app, 'POST', url, { token: bob.token, body });
      expect(namedError(r.body), url).toBe('err_not_found');
    }

    // the free plan has one fast clone: the second is refused
    const second = await createClone(alice, 'standard');
    expect(namedError(second.body)).toBe('err_voice_clone_ivc_insufficient_times');

    const renamed = await call(server.app, 'POST', '/v1/voice-clone/rename', {
      token: alice.token,
      body: { clone_id: clone.clone_id, name: '新名字' },
    });
    expect(renamed.body.data.clone.name).toBe('新名字');
    const recheck = await call(server.app, 'POST', '/v1/voice-clone/recheck', {
      token: alice.token,
      body: { clone_id: clone.clone_id },
    });
    expect(recheck.body.data.check.files).toHaveLength(1);

    expect((await cloneObjects(alice.id)).length).toBeGreaterThan(2);
    const del = await call(server.app, 'POST', '/v1/voice-clone/delete', {
      token: alice.token,
      body: { clone_id: clone.clone_id },
    });
    expect(del.body.data.deleted).toBe(true);
    expect(await cloneObjects(alice.id)).toEqual([]);
    const gone = await server.ctx.db
      .selectFrom('voices')
      .selectAll()
      .where('voice_id', '=', clone.voice_id)
      .execute();
    expect(gone).toEqual([]);
  });

  it('refuses a professional clone on a plan without one (err_voice_clone_pvc_insufficient_times)', async () => {
    const u = await user('13900001608');
    const sample = await upload(u.id, sampleWav, '样本.wav');
    const res = await call(server.app, 'POST', '/v1/voice-clone/professional/create', {
      token: u.token,
      body: {
        name: '专业',
        asset_ids: [sample.id],
        consent: { accepted: true, sentence: SENTENCE, recording_asset_id: sample.id },
      },
    });
    expect(namedError(res.body)).toBe('err_voice_clone_pvc_insufficient_times');
  });

  it('clones through GPT-SoVITS api_v2 (reference clips kept where the server reads them)', async () => {
    const u = await user('13900001609');
    await fund(server, u.id, 1000);
    hear(SENTENCE);
    const res = await createClone(u, 'gpt-sovits');
    expect(res.body.code).toBe(0);
    const clone = res.body.data.clone;
    expect(clone.engine_label).toBe('GPT-SoVITS');
    fakes.requests.length = 0;
    const tts = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { voice_id: clone.voice_id, text: 'Hello there.', speed: 1 },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${u.token}` },
    });
    expect(tts.statusCode).toBe(200);
    expect(tts.headers['content-type']).toMatch(/audio/);
    const req = fakes.requests.find((r) => r.path === '/tts')!;
    expect(req.json).toMatchObject({
      text_lang: 'en',
      prompt_lang: 'en',
      media_type: 'wav',
      streaming_mode: false,
    });
    expect(existsSync(String(req.json!.ref_audio_path))).toBe(true);
    // the reference transcript comes from the configured recognizer
    expect(req.json!.prompt_text).toBe(SENTENCE);
    // a server error is a clear refusal, not a silent success
    fakes.failWith = 500;
    try {
      const failed = await call(server.app, 'POST', '/v1/voice-clone/preview', {
        token: u.token,
        body: { clone_id: clone.clone_id, candidate: 0 },
      });
      expect(namedError(failed.body)).toBe('err_interface_unavailable');
      expect(failed.body.msg).toMatch(/GPT-SoVITS/);
    } finally {
      fakes.failWith = null;
    }
    const refs = [String(req.json!.ref_audio_path)];
    await call(server.app, 'POST', '/v1/voice-clone/delete', {
      token: u.token,
      body: { clone_id: clone.clone_id },
    });
    expect(refs.every((f) => !existsSync(f))).toBe(true);
  });

  it('clones through CosyVoice (multipart prompt_wav, raw PCM back)', async () => {
    const u = await user('13900001610');
    hear(SENTENCE);
    const res = await createClone(u, 'cosyvoice');
    expect(res.body.code).toBe(0);
    const clone = res.body.data.clone;
    expect(clone.engine_label).toBe('CosyVoice');
    fakes.requests.length = 0;
    const preview = await call(server.app, 'POST', '/v1/voice-clone/preview', {
      token: u.token,
      body: { clone_id: clone.clone_id, candidate: 0, text: 'Hello there.' },
    });
    expect(preview.body.code).toBe(0);
    const req = fakes.requests.find((r) => r.path === '/inference_zero_shot')!;
    expect(req.fields).toMatchObject({ tts_text: 'Hello there.', prompt_text: SENTENCE });
    expect(req.file!.subarray(0, 4).toString('latin1')).toBe('RIFF');
    const overview = await call(server.app, 'GET', '/v1/voice-clone/overview', { token: u.token });
    expect(overview.body.data.quota.fast).toEqual({ used: 1, limit: 1 });
    const labels = overview.body.data.engines.map((e: { id: string; available: boolean }) => [
      e.id,
      e.available,
    ]);
    expect(labels).toEqual(
      expect.arrayContaining([
        ['gpt-sovits', true],
        ['cosyvoice', true],
        ['standard', true],
        ['sherpa-zipvoice', false],
      ]),
    );
  });

  it('trains a professional clone from 30 minutes through the trainer (queued → training → ready)', async () => {
    const u = await user('13900001611');
    await grantMembership(server.ctx, { userId: u.id, level: 300, isAnnual: false, months: 1 });
    await fund(server, u.id, 1000);
    const long = join(dir, 'long.wav');
    await ff('-stream_loop', '-1', '-i', sampleWav, '-t', '1805', '-ar', '16000', '-ac', '1', long);
    const dataset = await upload(u.id, long, '数据集.wav');
    const consent = await upload(u.id, consentWav, '授权.wav');
    // less than 30 minutes is refused before anything is made
    const short = await upload(u.id, sampleWav, '短.wav');
    const body = (ids: string[]) => ({
      name: '专业声音',
      language: 'en-US',
      asset_ids: ids,
      consent: { accepted: true, sentence: SENTENCE, recording_asset_id: consent.id },
    });
    const refused = await call(server.app, 'POST', '/v1/voice-clone/professional/create', {
      token: u.token,
      body: body([short.id]),
    });
    expect(namedError(refused.body)).toBe('err_invalid_param');
    expect(refused.body.msg).toMatch(/30 分钟/);

    hear(SENTENCE);
    fakes.trainedVoice = {
      engine: 'gpt-sovits',
      params: { ref_audio_path: sampleWav, prompt_text: 'trained voice', prompt_lang: 'en' },
    };
    fakes.requests.length = 0;
    const res = await call(server.app, 'POST', '/v1/voice-clone/professional/create', {
      token: u.token,
      body: body([dataset.id]),
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data.clone.status).toBe('queued');
    const id = res.body.data.clone.clone_id;
    const until = Date.now() + 90_000;
    let row = await server.ctx.db
      .selectFrom('voice_clones')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    while (row.status !== 'ready' && row.status !== 'failed' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      row = await server.ctx.db
        .selectFrom('voice_clones')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    }
    expect(row.error).toBeNull();
    expect(row.status).toBe('ready');
    expect(row.engine_label).toBe('训练服务（gpt-sovits）');
    const train = fakes.requests.find((r) => r.path === '/train')!;
    expect(train.json).toMatchObject({ voice_id: id, language: 'en-US' });
    expect(train.json!.dataset).toHaveLength(1);
    // the best reference clips, with transcripts from the recognizer
    const refs = train.json!.references as Array<{ url: string; text: string }>;
    expect(refs.length).toBeGreaterThanOrEqual(1);
    expect(refs[0]!.text).toBe(SENTENCE);
    // the trained voice speaks through the configured engine
    fakes.requests.length = 0;
    const tts = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { voice_id: id, text: 'Hello there.', speed: 1 },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${u.token}` },
    });
    expect(tts.statusCode).toBe(200);
    expect(fakes.requests.find((r) => r.path === '/tts')!.json!.prompt_text).toBe('trained voice');
    const list = await call(server.app, 'GET', '/v1/voice-clone/list', { token: u.token });
    expect(list.body.data.clones[0]).toMatchObject({
      kind: 'professional',
      status: 'ready',
      sample_count: 1,
    });
  }, 120_000);
});
