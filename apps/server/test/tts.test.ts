import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TTS_HEADERS } from '@vw/contract';
import type { EngineRegistry } from '@vw/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLocalStorage } from '../src/adapters/storage/local.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { grantMembership } from '../src/modules/credits/membership.service.ts';
import { updateSetting } from '../src/modules/settings/settings.service.ts';
import { findHistoryById } from '../src/modules/tts/tts.repo.ts';
import { runSynthesisTask } from '../src/modules/tts/tts.service.ts';
import { setVoicePreview } from '../src/modules/voices/voices.repo.ts';
import { findVoices } from '../src/modules/voices/voices.service.ts';
import {
  CLIENT_HEADERS,
  call,
  createTestServer,
  fund,
  latestCode,
  signIn,
  type TestServer,
} from './harness.ts';

let server: TestServer;
let alice: string;
let aliceId: string;
let bob: string;

const SENTENCE = '银行门口的行人很多，我们一起去吃饭吧。';

async function generate(token: string, body: Record<string, unknown>) {
  return server.app.inject({
    method: 'POST',
    url: '/v1/tts/generate',
    payload: { voice_id: 'espeak-zh-xiaowen', speed: 1, ...body },
    headers: { ...CLIENT_HEADERS, authorization: `Bearer ${token}` },
  });
}

function probeDuration(bytes: Buffer): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-tts-'));
  const file = path.join(dir, 'a.mp3');
  writeFileSync(file, bytes);
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_name',
    '-of',
    'json',
    file,
  ]);
  const info = JSON.parse(out.toString());
  expect(info.streams[0].codec_name).toBe('mp3');
  return Number(info.format.duration);
}

/** Counts the texts handed to the engines (and can fail after some calls, like a crash). */
function countingEngines(inner: EngineRegistry, failAfter = Number.POSITIVE_INFINITY) {
  const texts: string[] = [];
  const wrapped: EngineRegistry = {
    ...inner,
    list: () => inner.list(),
    has: (id) => inner.has(id),
    get: (id) => inner.get(id),
    async synthesize(request, options) {
      if (texts.length >= failAfter) throw new Error('simulated crash');
      texts.push(request.segments.map((s) => ('text' in s ? s.text : '')).join(''));
      return inner.synthesize(request, options);
    },
  };
  return { wrapped, texts };
}

beforeAll(async () => {
  server = await createTestServer();
  const a = await signIn(server.app, '13900000001');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  bob = (await signIn(server.app, '13900000002', '10.0.0.2')).secure_tokens.access_token;
  await fund(server, aliceId, 10_000);
});
afterAll(async () => {
  await server?.close();
});

describe('voices and models', () => {
  it('lists the seeded catalogue, defaults, models, icons and favourites', async () => {
    const list = await call(
      server.app,
      'GET',
      '/p1/voices/internal_get_all_voices?status=[2]&legacy_voice_skip_disabled=false',
      { token: alice },
    );
    expect(list.body.code).toBe(0);
    const voices = list.body.data.voices;
    expect(voices.length).toBe(30);
    expect(voices[0]).toMatchObject({
      engine: 'espeak',
      engine_label: '标准引擎',
      status: 2,
      is_favorite: false,
    });
    expect(voices.some((v: { required_level: number }) => v.required_level === 300)).toBe(true);
    expect(voices[0].labels.gender).toMatch(/male/);

    const defaults = await call(server.app, 'GET', '/p1/voices/get_default_voice', { token: alice });
    expect(defaults.body.data.default_voice_map.tts).toBe('espeak-zh-xiaowen');
    const models = await call(server.app, 'GET', '/p1/voices/get_supported_model', { token: alice });
    expect(models.body.data.multilingual_model_id).toBe('espeak-standard');
    expect(models.body.data.models[0].languages.length).toBeGreaterThan(5);
    const icons = await call(server.app, 'GET', '/v1/misc/get_language_icon', { token: alice });
    expect(icons.body.data.language[0].icon).toMatch(/^data:image\/svg\+xml,/);

    const fav = await call(server.app, 'POST', '/p1/voices/favor_voice', {
      token: alice,
      body: { voice_id: 'espeak-zh-xiaoya', favor: true },
    });
    expect(fav.body.data.is_favorite).toBe(true);
    const again = await call(server.app, 'GET', '/p1/voices/internal_get_all_voices?status=2', {
      token: alice,
    });
    expect(
      again.body.data.voices.find((v: { voice_id: string }) => v.voice_id === 'espeak-zh-xiaoya').is_favorite,
    ).toBe(true);
    const bobs = await call(server.app, 'GET', '/p1/voices/internal_get_all_voices', { token: bob });
    expect(
      bobs.body.data.voices.find((v: { voice_id: string }) => v.voice_id === 'espeak-zh-xiaoya').is_favorite,
    ).toBe(false);
  });

  it('reuses a signed preview link while half its day is left, then signs a fresh one', async () => {
    const key = 'voices/espeak-zh-xiaoya/preview.mp3';
    await server.ctx.storage.put(key, Buffer.from('ID3 preview'), 'audio/mpeg');
    await setVoicePreview(server.ctx.db, 'espeak-zh-xiaoya', key, server.clock.now());
    const previewOf = async () => {
      const { voices } = await findVoices(server.ctx, aliceId, {});
      const url = new URL(voices.find((v) => v.voice_id === 'espeak-zh-xiaoya')!.preview_url, 'http://x');
      const query = Object.fromEntries(url.searchParams) as { exp: string; sig: string };
      expect(isLocalStorage(server.ctx.storage) && server.ctx.storage.verifySignedUrl(key, query)).toBe(true);
      return { url: url.href, exp: Number(query.exp) };
    };
    const first = await previewOf();
    try {
      server.clock.advance(11 * 3_600_000);
      expect(await previewOf()).toEqual(first);
      server.clock.advance(2 * 3_600_000);
      const renewed = await previewOf();
      expect(renewed.exp).toBe(first.exp + 13 * 3600);
    } finally {
      // The later tests' sign-ins are still fresh.
      server.clock.advance(-13 * 3_600_000);
    }
  });
});

describe('synthesis', () => {
  it('streams real MP3, then answers the same request from the cache for free', async () => {
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const res = await generate(alice, { text: SENTENCE });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers[TTS_HEADERS.cacheHit]).toBe('0');
    const credits = Number(res.headers[TTS_HEADERS.credits]);
    expect(credits).toBeGreaterThan(0);
    expect(probeDuration(res.rawPayload)).toBeGreaterThan(1);
    const afterFirst = (await getBalance(server.ctx, aliceId)).balance;
    expect(afterFirst).toBe(before - credits);

    const cached = await generate(alice, { text: SENTENCE });
    expect(cached.headers[TTS_HEADERS.cacheHit]).toBe('1');
    expect(cached.headers[TTS_HEADERS.credits]).toBe('0');
    expect(cached.headers[TTS_HEADERS.historyId]).toBe(res.headers[TTS_HEADERS.historyId]);
    expect(cached.rawPayload.equals(res.rawPayload)).toBe(true);
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(afterFirst);

    // The history item has the audio, subtitles and sentence timings.
    const id = res.headers[TTS_HEADERS.historyId] as string;
    const item = (await call(server.app, 'GET', `/p1/history/get?history_id=${id}`, { token: alice })).body
      .data.list[0];
    expect(item).toMatchObject({ status: 'succeeded', characters: 19, credits });
    expect(item.sentences[0].end_ms).toBeGreaterThan(1000);
    expect(item.files.map((f: { kind: string }) => f.kind)).toEqual(['audio', 'srt']);
  });

  it('refunds when the engine fails, and refuses without enough credits (1010)', async () => {
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const real = server.ctx.engines.tts;
    server.ctx.engines.tts = countingEngines(real, 0).wrapped;
    try {
      const res = await generate(alice, { text: '这一句会失败。' });
      expect(res.json()).toMatchObject({
        code: 422,
        data: { detail: [{ type: 'err_generate_voice_failed' }] },
      });
    } finally {
      server.ctx.engines.tts = real;
    }
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before);
    const list = await call(server.app, 'GET', '/p1/history/get?tool=tts', { token: alice });
    expect(list.body.data.list.find((i: { status: string }) => i.status === 'failed')).toMatchObject({
      failure_code: 1,
    });

    const poor = await generate(bob, { text: '我没有积分。' });
    expect(poor.json().code).toBe(1010);
  });

  it('refuses sensitive words with err_audit_refused and gives the credits back', async () => {
    await updateSetting(server.ctx, 'sensitive_words', '["违禁词"]');
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const res = await generate(alice, { text: '这里有违禁词。' });
    expect(res.json().data.detail[0].type).toBe('err_audit_refused');
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before);
    const list = await call(server.app, 'GET', '/p1/history/get', { token: alice });
    const refused = list.body.data.list.find((i: { text: string }) => i.text === '这里有违禁词。');
    expect(refused).toMatchObject({ status: 'failed', failure_code: 3 });
    await updateSetting(server.ctx, 'sensitive_words', '[]');
  });

  it('refuses a premium voice on the free plan and allows it with a membership', async () => {
    const refused = await generate(alice, { text: '你好。', voice_id: 'espeak-zh-boyin' });
    expect(refused.json().data.detail[0].type).toBe('err_voice_cannot_access_other_voice');
    await grantMembership(server.ctx, { userId: aliceId, level: 300, isAnnual: false, months: 1 });
    const allowed = await generate(alice, { text: '你好。', voice_id: 'espeak-zh-boyin' });
    expect(allowed.headers['content-type']).toBe('audio/mpeg');
  });

  it('applies the pronunciation dictionary to the pinyin handed to espeak (and the cache key)', async () => {
    const { toEspeakInput } = await import('@vw/engines');
    const readings = await call(server.app, 'POST', '/v1/tts/readings', {
      token: alice,
      body: { text: '银行' },
    });
    expect(readings.body.data.readings[1]).toMatchObject({ text: '行', pinyin: 'hang2' });
    expect(readings.body.data.readings[1].candidates).toContain('xing2');

    const upsert = await call(server.app, 'POST', '/v1/tts/dictionary/upsert', {
      token: alice,
      body: { word: '银行', pinyin: 'yin2 xing2' },
    });
    expect(upsert.body.code).toBe(0);
    const bad = await call(server.app, 'POST', '/v1/tts/dictionary/upsert', {
      token: alice,
      body: { word: '银行', pinyin: 'yin2' },
    });
    expect(bad.body.code).toBe(422);

    const real = server.ctx.engines.tts;
    const counting = countingEngines(real);
    const seen: Array<Record<string, string> | undefined> = [];
    server.ctx.engines.tts = {
      ...counting.wrapped,
      synthesize: (r, o) => {
        seen.push(r.dictionary);
        return real.synthesize(r, o);
      },
    };
    try {
      const res = await generate(alice, { text: '我去银行。' });
      expect(res.headers[TTS_HEADERS.cacheHit]).toBe('0');
    } finally {
      server.ctx.engines.tts = real;
    }
    expect(seen[0]).toEqual({ 银行: 'yin2 xing2' });
    expect(toEspeakInput('我去银行。', { voice: 'cmn-latn-pinyin', dictionary: seen[0] })).toContain(
      'yin2 xing2',
    );
    const after = await call(server.app, 'POST', '/v1/tts/readings', {
      token: alice,
      body: { text: '银行' },
    });
    expect(after.body.data.readings[1]).toMatchObject({ pinyin: 'xing2', from_dictionary: true });
    const list = await call(server.app, 'GET', '/v1/tts/dictionary/list', { token: alice });
    expect(list.body.data.items).toHaveLength(1);
    await call(server.app, 'POST', '/v1/tts/dictionary/delete', { token: alice, body: { word: '银行' } });
  });
});

describe('long text tasks', () => {
  it('resumes after a crash without synthesising finished sentences again', async () => {
    const text = Array.from({ length: 8 }, (_, i) => `这是第${i + 1}句话，内容用来测试长文本。`).join('');
    const started = await call(server.app, 'POST', '/v1/tts/generate', {
      token: alice,
      body: { text, voice_id: 'espeak-zh-xiaowen', speed: 1, mode: 'task' },
    });
    expect(started.body.code).toBe(0);
    const { task_id, history_id, credits } = started.body.data;
    expect(credits).toBeGreaterThan(0);

    const real = server.ctx.engines.tts;
    const crashing = countingEngines(real, 3);
    server.ctx.engines.tts = crashing.wrapped;
    await expect(runSynthesisTask(server.ctx, history_id)).rejects.toThrow('simulated crash');
    const mid = await call(server.app, 'GET', `/v1/tts/task?task_id=${task_id}`, { token: alice });
    expect(mid.body.data).toMatchObject({ status: 'running', sentences_done: 3, sentences_total: 8 });

    const resumed = countingEngines(real);
    server.ctx.engines.tts = resumed.wrapped;
    try {
      await runSynthesisTask(server.ctx, history_id);
    } finally {
      server.ctx.engines.tts = real;
    }
    expect(resumed.texts).toHaveLength(5);
    // The engines hear the normalised reading (第4句 is said 第四句).
    expect(resumed.texts[0]).toContain('第四句');
    const done = await call(server.app, 'GET', `/v1/tts/task?task_id=${task_id}`, { token: alice });
    expect(done.body.data).toMatchObject({ status: 'succeeded', progress: 100 });
    const row = await findHistoryById(server.ctx.db, history_id);
    const audio = await server.ctx.storage.read(row!.audio_key!);
    const chunks: Buffer[] = [];
    for await (const c of audio) chunks.push(c as Buffer);
    expect(probeDuration(Buffer.concat(chunks))).toBeGreaterThan(10);
    expect(await server.ctx.db.selectFrom('tts_sentences').selectAll().execute()).toHaveLength(0);
  });
});

describe('history and files', () => {
  it('is scoped to its owner; downloads are signed for the owner only; delete removes the files', async () => {
    const res = await generate(alice, { text: '历史记录测试。', name: '我的录音' });
    expect(res.headers['content-type'], res.body).toBe('audio/mpeg');
    const id = res.headers[TTS_HEADERS.historyId] as string;
    const item = (await call(server.app, 'GET', `/p1/history/get?history_id=${id}`, { token: alice })).body
      .data.list[0];

    expect(
      (await call(server.app, 'GET', `/p1/history/get?history_id=${id}`, { token: bob })).body.code,
    ).toBe(422);
    expect((await call(server.app, 'GET', '/p1/history/get', { token: bob })).body.data.total).toBe(0);
    expect(
      (await call(server.app, 'DELETE', '/p1/history/delete', { token: bob, body: { history_id: id } })).body
        .code,
    ).toBe(422);
    const audioName = item.files[0].name;
    expect(
      (
        await call(server.app, 'POST', '/v1/misc/file_download_urlbyname', {
          token: bob,
          body: { name: audioName },
        })
      ).body.code,
    ).toBe(422);

    const link = await call(server.app, 'POST', '/v1/misc/file_download_urlbyname', {
      token: alice,
      body: { name: audioName },
    });
    expect(link.body.data.file_name).toBe('我的录音.mp3');
    const file = await server.app.inject({ method: 'GET', url: link.body.data.url });
    expect(file.statusCode).toBe(200);
    expect(probeDuration(file.rawPayload)).toBeGreaterThan(0.5);
    const wav = await call(server.app, 'POST', '/v1/misc/file_download_urlbyname', {
      token: alice,
      body: { name: audioName, format: 'wav' },
    });
    expect(wav.body.data.file_name).toBe('我的录音.wav');
    // Streamed from ffmpeg into storage (WAV with streaming sizes in its header).
    const wavFile = await server.app.inject({ method: 'GET', url: wav.body.data.url });
    expect(wavFile.rawPayload.toString('latin1', 8, 12)).toBe('WAVE');
    // More than half a second of 16-bit PCM at the MP3's rate (16 kHz or more).
    expect(wavFile.rawPayload.length).toBeGreaterThan(16_000);
    const srtLink = await call(server.app, 'POST', '/v1/misc/file_download_urlbyname', {
      token: alice,
      body: { name: item.files[1].name },
    });
    const srt = await server.app.inject({ method: 'GET', url: srtLink.body.data.url });
    expect(srt.body).toContain('00:00:00,000 -->');
    expect(srt.body).toContain('历史记录测试。');

    const renamed = await call(server.app, 'POST', '/p1/history/edit', {
      token: alice,
      body: { history_id: id, name: '新名字' },
    });
    expect(renamed.body.data.item).toMatchObject({ name: '新名字', is_stale: false });

    const regen = await call(server.app, 'POST', '/v1/tts/regenerate_sentence', {
      token: alice,
      body: { history_id: id, sentence_index: 0, text: '历史记录再测一次。' },
    });
    expect(regen.body.code).toBe(0);
    expect(regen.body.data.item.text).toBe('历史记录再测一次。');

    const deleted = await call(server.app, 'POST', '/p1/history/batch_delete', {
      token: alice,
      body: { history_ids: [id] },
    });
    expect(deleted.body.data.deleted).toBe(1);
    expect(await server.ctx.storage.stat(regen.body.data.item.files[0].name)).toBeNull();
  });
});

describe('account cancellation', () => {
  it('removes what the user synthesised, files included', async () => {
    const carol = await signIn(server.app, '13900000077');
    await fund(server, carol.user_info.uid, 10_000);
    const res = await generate(carol.secure_tokens.access_token, { text: '注销账号前的一段语音。' });
    expect(res.statusCode).toBe(200);
    const historyId = String(res.headers[TTS_HEADERS.historyId]);
    let row = await findHistoryById(server.ctx.db, historyId);
    for (let i = 0; i < 50 && row?.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = await findHistoryById(server.ctx.db, historyId);
    }
    expect(row?.audio_key).toBeTruthy();
    const audioKey = row!.audio_key!;
    expect(await server.ctx.storage.stat(audioKey)).not.toBeNull();

    server.clock.advance(61_000);
    const token = server.ctx.accessTokens.sign(carol.user_info.uid);
    await call(server.app, 'POST', '/accounts/v1/send_verification_code', {
      body: { account: '13900000077', scene: 'cancel_account' },
      token,
    });
    const code = await latestCode(server.app, '13900000077');
    expect(
      (await call(server.app, 'POST', '/accounts/v1/cancel_account', { token, body: { code } })).body.code,
    ).toBe(0);
    expect(await findHistoryById(server.ctx.db, historyId)).toBeUndefined();
    expect(await server.ctx.storage.stat(audioKey)).toBeNull();
  });
});
