import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpeechMedia, SILERO_MODEL } from '../../../packages/engines/src/asr/media.fixture.ts';
import { tinyCtcModel, tinyCtcTokens } from '../../../packages/engines/src/asr/tiny-ctc.fixture.ts';
import { tinyVitsModel, tinyVitsTokens } from '../../../packages/engines/src/sherpa/tiny-vits.fixture.ts';
import { DISABLED_NOT_INSTALLED } from '../src/modules/voices/neural.ts';
import { CLIENT_HEADERS, call, createTestServer, fund, signIn, type TestServer } from './harness.ts';

/*
 * The product reflects what is installed (issue 32 item 3): a server started on an empty models folder
 * picks up models.json as an installer writes it — recognition becomes available, each speaker of a
 * speech model becomes a library voice with its neural label, preview and default-voice place — and a
 * removed model's voices are disabled, not deleted. Real sherpa-onnx on tiny generated models.
 */

let server: TestServer;
let models: string;
let work: string;
let alice: string;
let aliceId: string;

const ASR = [
  {
    id: 'tiny-ctc',
    kind: 'asr',
    type: 'zipformer_ctc',
    name: 'Tiny CTC',
    languages: ['zh'],
    files: { model: 'ctc/model.onnx', tokens: 'ctc/tokens.txt' },
  },
  { id: 'silero-vad', kind: 'vad', name: 'Silero VAD', files: { model: SILERO_MODEL } },
];
const VITS_EN = {
  id: 'tiny-vits',
  kind: 'vits',
  name: 'Tiny VITS',
  languages: ['en-US'],
  speakers: [{ id: 0, name: 'Ada', gender: 'female', language: 'en-US', style: '清亮' }],
  files: { model: 'vits/model.onnx', tokens: 'vits/tokens.txt' },
};
// The same files as a Chinese speaker: only the library's choice of default is looked at.
const VITS_ZH = { ...VITS_EN, id: 'tiny-vits-zh', name: 'Tiny 中文', languages: ['zh-CN'], speakers: 1 };

/** As the installer does: the whole registry written aside, then renamed over models.json. */
async function register(entries: unknown[]): Promise<void> {
  const tmp = join(models, 'models.json.tmp');
  await writeFile(tmp, JSON.stringify({ models: entries }));
  await rename(tmp, join(models, 'models.json'));
}

async function voices(): Promise<
  Array<{
    voice_id: string;
    name: string;
    engine: string;
    engine_label: string;
    language: string;
    is_disabled: boolean;
    is_favorite: boolean;
    preview_url: string;
    labels: { gender: string; style: string };
  }>
> {
  const res = await call(
    server.app,
    'GET',
    '/p1/voices/internal_get_all_voices?status=[2]&legacy_voice_skip_disabled=false',
    { token: alice },
  );
  return res.body.data.voices;
}
const voice = async (id: string) => (await voices()).find((v) => v.voice_id === id);
const defaults = async (): Promise<Record<string, string>> =>
  (await call(server.app, 'GET', '/p1/voices/get_default_voice', { token: alice })).body.data
    .default_voice_map;
const tool = async (name: string) =>
  (await call(server.app, 'GET', '/v1/tools/capabilities', { token: alice })).body.data.tools.find(
    (t: { tool: string }) => t.tool === name,
  ) as { available: boolean; engines: Array<{ id: string; label: string }> };
const rowOf = (id: string) =>
  server.ctx.db
    .selectFrom('voices')
    .select('is_disabled')
    .where('voice_id', '=', id)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'vw-reload-'));
  models = join(work, 'models');
  await mkdir(join(models, 'ctc'), { recursive: true });
  await mkdir(join(models, 'vits'), { recursive: true });
  server = await createTestServer({ SHERPA_ONNX_MODELS_DIR: models });
  const a = await signIn(server.app, '13900000091');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  await fund(server, aliceId, 10_000);
  await server.ctx.jobs.startWorker({ concurrency: 2 });
});
afterAll(async () => {
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

describe('engines follow the models folder while the server runs', () => {
  it('starts on an empty folder: no recognition, no neural voices, the standard defaults', async () => {
    expect(await tool('stt')).toMatchObject({ available: false });
    expect((await tool('dubbing')).engines.find((e) => e.id === 'asr')?.label).toMatch(/暂未开放/);
    expect((await voices()).some((v) => v.engine === 'sherpa-onnx')).toBe(false);
    expect(await defaults()).toMatchObject({ tts: 'espeak-zh-xiaowen', video_translation: 'espeak-en-emma' });
    // The standard engine says plainly what it is.
    const models = await call(server.app, 'GET', '/p1/voices/get_supported_model', { token: alice });
    expect(models.body.data.models[0].description).toMatch(/机器合成音色/);
  });

  it('picks up models.json when it changes: recognition, then the voices with label, preview and default', async () => {
    await writeFile(join(models, 'ctc/model.onnx'), tinyCtcModel());
    await writeFile(join(models, 'ctc/tokens.txt'), tinyCtcTokens());
    await writeFile(join(models, 'vits/model.onnx'), tinyVitsModel());
    await writeFile(join(models, 'vits/tokens.txt'), tinyVitsTokens());
    await register([...ASR, VITS_EN, VITS_ZH]);

    // The watcher alone (no reload call): speech to text and recognition from speech become available.
    await expect
      .poll(async () => (await tool('stt')).available, { timeout: 20_000, interval: 200 })
      .toBe(true);
    expect((await tool('stt')).engines).toEqual([
      { id: 'sherpa-onnx:tiny-ctc', label: 'Tiny CTC', diarization: false },
    ]);
    expect((await tool('dubbing')).engines.find((e) => e.id === 'asr')?.label).toBe('自动校验：语音识别');
    expect((await tool('translate')).engines.find((e) => e.id === 'asr')?.label).toBe('语音识别');

    // The voice library is synced after the reload.
    await expect.poll(async () => Boolean(await voice('sherpa:tiny-vits:0')), { timeout: 10_000 }).toBe(true);
    expect(await voice('sherpa:tiny-vits:0')).toMatchObject({
      name: 'Ada',
      engine: 'sherpa-onnx',
      engine_label: '神经网络 · Tiny VITS',
      language: 'en-US',
      is_disabled: false,
      labels: { gender: 'female', style: '清亮' },
    });
    expect(await voice('sherpa:tiny-vits-zh:0')).toMatchObject({
      name: 'Tiny 中文',
      engine_label: '神经网络 · Tiny 中文',
      language: 'zh-CN',
    });
    // Neural voices come first in the library.
    expect((await voices())[0].engine).toBe('sherpa-onnx');
    // New users get the installed neural voice of each tool's language.
    expect(await defaults()).toMatchObject({
      tts: 'sherpa:tiny-vits-zh:0',
      audiobook: 'sherpa:tiny-vits-zh:0',
      dubbing: 'sherpa:tiny-vits-zh:0',
      video_translation: 'sherpa:tiny-vits:0',
    });
    // Its preview clip is made by the preview job, through the model.
    await expect
      .poll(async () => (await voice('sherpa:tiny-vits:0'))?.preview_url ?? '', { timeout: 30_000 })
      .not.toBe('');
  });

  it('speaks through the API with the new voice', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { voice_id: 'sherpa:tiny-vits:0', text: 'hello world, this is a test.', speed: 1 },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${alice}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    const file = join(work, 'said.mp3');
    await writeFile(file, res.rawPayload);
    const seconds = Number(
      execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file])
        .toString()
        .trim(),
    );
    // The tiny model says 25 ms per known character: the audio is its, not espeak's.
    expect(seconds).toBeGreaterThan(0.3);
  });

  it('lets a recognition running on the old engines finish across a reload', async () => {
    const media = await makeSpeechMedia(work);
    const running = server.ctx.engines.asr.get().transcribe(media.wav);
    await server.ctx.engines.reload();
    const transcript = await running;
    expect(transcript.engine).toBe('sherpa-onnx:tiny-ctc');
    expect(transcript.segments.length).toBeGreaterThan(0);
    // The new engines answer too.
    expect((await server.ctx.engines.asr.get().transcribe(media.wav)).segments.length).toBe(
      transcript.segments.length,
    );
  });

  it('disables the voices of a removed model, keeps favourites, and enables them again on reinstall', async () => {
    const fav = await call(server.app, 'POST', '/p1/voices/favor_voice', {
      token: alice,
      body: { voice_id: 'sherpa:tiny-vits:0', favor: true },
    });
    expect(fav.body.data.is_favorite).toBe(true);
    // The operator switched the Chinese one off themselves: a reload never turns it back on.
    await server.ctx.db
      .updateTable('voices')
      .set({ is_disabled: 1 })
      .where('voice_id', '=', 'sherpa:tiny-vits-zh:0')
      .execute();

    await register([...ASR, VITS_ZH]);
    await server.ctx.engines.reload();
    expect(await voice('sherpa:tiny-vits:0')).toMatchObject({ is_disabled: true, is_favorite: true });
    expect((await rowOf('sherpa:tiny-vits:0')).is_disabled).toBe(DISABLED_NOT_INSTALLED);
    expect((await defaults()).video_translation).toBe('espeak-en-emma');
    const refused = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { voice_id: 'sherpa:tiny-vits:0', text: 'hello again', speed: 1 },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${alice}` },
    });
    expect(refused.json()).toMatchObject({ data: { detail: [{ type: 'err_interface_unavailable' }] } });

    await register([...ASR, VITS_EN, VITS_ZH]);
    await server.ctx.engines.reload();
    expect(await voice('sherpa:tiny-vits:0')).toMatchObject({ is_disabled: false, is_favorite: true });
    expect((await defaults()).video_translation).toBe('sherpa:tiny-vits:0');
    expect((await rowOf('sherpa:tiny-vits-zh:0')).is_disabled).toBe(1);
    expect((await defaults()).tts).toBe('espeak-zh-xiaowen');
  });

  it('goes back to the standard engine when models.json is removed', async () => {
    await rm(join(models, 'models.json'));
    await server.ctx.engines.reload();
    expect(await tool('stt')).toMatchObject({ available: false });
    expect((await voices()).filter((v) => v.engine === 'sherpa-onnx' && !v.is_disabled)).toEqual([]);
    expect(await defaults()).toMatchObject({ tts: 'espeak-zh-xiaowen', video_translation: 'espeak-en-emma' });
  });
});
