import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AsrProvider, createAsrRegistry } from '@vw/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAssetRow, TaskRow } from '../src/db/schema.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { priceTask } from '../src/modules/credits/pricing.service.ts';
import { setFeatureOverride } from '../src/modules/features/features.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { type FakeAsr, makeSpeechWav, startFakeAsr } from './fake-asr.ts';
import {
  call,
  createTestServer,
  fund,
  latestCode,
  signIn,
  type TestServer,
  taskFinished,
} from './harness.ts';

let server: TestServer;
let fake: FakeAsr;
let dir: string;
let wav: string;
let alice: string;
let aliceId: string;
let bob: string;
let bobId: string;
let asset: MediaAssetRow;

const namedError = (body: { code: number; data: { detail?: Array<{ type: string; msg: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);

const finished = (taskId: string, timeoutMs = 30_000) => taskFinished(server.ctx, taskId, timeoutMs);

async function upload(ownerId: string, name: string): Promise<MediaAssetRow> {
  // registerAsset moves the file into storage: give it a copy.
  const copy = join(dir, `${Math.random().toString(36).slice(2)}.wav`);
  await copyFile(wav, copy);
  return registerAsset(server.ctx, ownerId, { file: copy, name });
}

beforeAll(async () => {
  fake = await startFakeAsr();
  dir = await mkdtemp(join(tmpdir(), 'vw-stt-'));
  wav = await makeSpeechWav(dir);
  server = await createTestServer({
    OPENAI_ASR_BASE_URL: fake.url,
    OPENAI_ASR_MODEL: 'fake-whisper',
  });
  const a = await signIn(server.app, '13900000031');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  const b = await signIn(server.app, '13900000032');
  bob = b.secure_tokens.access_token;
  bobId = b.user_info.uid;
  await fund(server, aliceId, 1000);
  asset = await upload(aliceId, '采访录音.wav');
  await server.ctx.jobs.startWorker({ concurrency: 2 });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('speech to text (tool stt)', () => {
  it('recognises an uploaded clip into the project’s subtitle track, with an SRT output and credits captured', async () => {
    const before = (await getBalance(server.ctx, aliceId)).balance;
    const price = await priceTask(server.ctx, 'speech_to_text', {
      seconds: Math.ceil(asset.duration_ms! / 1000),
    });
    const created = await call(server.app, 'POST', '/v1/stt/create', {
      token: alice,
      body: { asset_id: asset.id, language: 'zh' },
    });
    expect(created.body.code).toBe(0);
    const { task_id, project_id, credits } = created.body.data;
    expect(credits).toBe(price);

    const task = await finished(task_id);
    expect(task).toMatchObject({
      status: 'succeeded',
      project_id,
      credits_held: price,
      credits_captured: price,
    });
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before - price);

    const opened = await call(server.app, 'GET', `/v1/projects/get?project_id=${project_id}`, {
      token: alice,
    });
    expect(opened.body.code).toBe(0);
    const { project, document, version, media } = opened.body.data;
    expect(version).toBe(1);
    expect(project).toMatchObject({
      tool: 'stt',
      name: '采访录音',
      status: 'succeeded',
      progress: 100,
      task_id,
      source_asset_id: asset.id,
      duration_ms: asset.duration_ms,
      engine_label: 'OpenAI 兼容接口 · fake-whisper',
    });
    expect(media).toMatchObject({ asset_id: asset.id, kind: 'audio', has_audio: true });
    expect(document.speakers).toEqual([]);
    expect(document.tracks).toEqual([
      {
        id: 'source',
        kind: 'source',
        language: 'zh',
        cues: [
          { id: 'c1', start_ms: 520, end_ms: 1600, text: '你好，世界。', speaker_id: null },
          { id: 'c2', start_ms: 1900, end_ms: 3050, text: '今天天气很好。', speaker_id: null },
        ],
      },
    ]);

    // The recognizer heard the asset's audio as 16 kHz mono WAV, over real multipart.
    const heard = fake.requests.at(-1)!;
    expect(heard.file.subarray(0, 4).toString()).toBe('RIFF');
    expect(heard.file.readUInt16LE(22)).toBe(1);
    expect(heard.file.readUInt32LE(24)).toBe(16_000);
    expect(heard.fields.language).toEqual(['zh']);
    expect(heard.fields.model).toEqual(['fake-whisper']);

    // The task offers the subtitles as an SRT download.
    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${task_id}`, { token: alice });
    expect(view.body.data.task.stages.map((s: { name: string; label: string }) => [s.name, s.label])).toEqual(
      [
        ['extract', '提取音频'],
        ['recognize', '识别语音'],
        ['build', '生成字幕'],
      ],
    );
    const [output] = view.body.data.task.outputs;
    expect(output).toMatchObject({ name: '采访录音.srt', kind: 'srt', format: 'srt' });
    const srt = await server.app.inject({ method: 'GET', url: output.url });
    expect(srt.body).toBe(
      '1\n00:00:00,520 --> 00:00:01,600\n你好，世界。\n\n2\n00:00:01,900 --> 00:00:03,050\n今天天气很好。\n',
    );

    const list = await call(server.app, 'GET', '/v1/projects/list?tool=stt', { token: alice });
    expect(list.body.data.list[0]).toMatchObject({ project_id, status: 'succeeded', progress: 100 });
  });

  it('asked for 中文 and hearing English: the task succeeds, and the result says the language differs', async () => {
    const chinese = fake.answer;
    fake.answer = {
      task: 'transcribe',
      language: 'english',
      duration: 3.2,
      text: 'Hello world. The weather is nice today.',
      segments: [
        { id: 0, seek: 0, start: 0.5, end: 1.6, text: ' Hello world.', tokens: [], temperature: 0 },
        {
          id: 1,
          seek: 160,
          start: 1.9,
          end: 3.0,
          text: ' The weather is nice today.',
          tokens: [],
          temperature: 0,
        },
      ],
    };
    try {
      const created = await call(server.app, 'POST', '/v1/stt/create', {
        token: alice,
        body: { asset_id: asset.id, language: 'zh', name: '英文录音' },
      });
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
      const [source] = opened.body.data.document.tracks;
      expect(source.cues.map((c: { text: string }) => c.text.replace(/\s+/g, ' '))).toEqual([
        'Hello world.',
        'The weather is nice today.',
      ]);
      expect(source.language_notice).toBe(
        '识别出的文字主要是拉丁字母（如英文），与所选的语言「中文」不一致：请确认音频的语言，或选择「自动检测」后重新识别。',
      );

      // The same English asked for as English (or 自动检测): no notice.
      const asEnglish = await call(server.app, 'POST', '/v1/stt/create', {
        token: alice,
        body: { asset_id: asset.id, language: 'en', name: '英文录音 2' },
      });
      expect((await finished(asEnglish.body.data.task_id)).status).toBe('succeeded');
      const english = await call(
        server.app,
        'GET',
        `/v1/projects/get?project_id=${asEnglish.body.data.project_id}`,
        {
          token: alice,
        },
      );
      expect(english.body.data.document.tracks[0].language_notice).toBeUndefined();
    } finally {
      fake.answer = chinese;
    }
  });

  it('fails the task and gives the credits back when the recognizer fails; the project stays empty', async () => {
    const before = (await getBalance(server.ctx, aliceId)).balance;
    fake.failWith = 400;
    let task: TaskRow;
    let projectId: string;
    try {
      const created = await call(server.app, 'POST', '/v1/stt/create', {
        token: alice,
        body: { asset_id: asset.id, name: '会失败' },
      });
      expect(created.body.code).toBe(0);
      projectId = created.body.data.project_id;
      task = await finished(created.body.data.task_id);
    } finally {
      fake.failWith = null;
    }
    expect(task).toMatchObject({ status: 'failed', error_code: 1, credits_captured: 0 });
    expect(task.error).toContain('语音识别失败');
    expect((await getBalance(server.ctx, aliceId)).balance).toBe(before);
    const opened = await call(server.app, 'GET', `/v1/projects/get?project_id=${projectId}`, {
      token: alice,
    });
    expect(opened.body.data).toMatchObject({ version: 0, project: { status: 'failed', name: '会失败' } });
    expect(opened.body.data.document.tracks).toEqual([]);
  });

  it('refuses another user’s asset, a switched-off feature, and a shortage of credits without leaving a project', async () => {
    const bobs = await call(server.app, 'POST', '/v1/stt/create', {
      token: bob,
      body: { asset_id: asset.id },
    });
    expect(namedError(bobs.body)).toBe('err_not_found');

    await setFeatureOverride(server.ctx, aliceId, 'subtitle_generate', false);
    try {
      const off = await call(server.app, 'POST', '/v1/stt/create', {
        token: alice,
        body: { asset_id: asset.id },
      });
      expect(namedError(off.body)).toBe('err_subtitle_generate_not_allowed');
      const caps = await call(server.app, 'GET', '/v1/tools/capabilities', { token: alice });
      expect(caps.body.data.tools.find((t: { tool: string }) => t.tool === 'stt')).toMatchObject({
        available: false,
        error_type: 'err_subtitle_generate_not_allowed',
      });
    } finally {
      await setFeatureOverride(server.ctx, aliceId, 'subtitle_generate', null);
    }

    const bobsAsset = await upload(bobId, 'b.wav');
    const poor = await call(server.app, 'POST', '/v1/stt/create', {
      token: bob,
      body: { asset_id: bobsAsset.id },
    });
    expect(poor.body.code).toBe(1010);
    const bobsProjects = await call(server.app, 'GET', '/v1/projects/list?tool=stt', { token: bob });
    expect(bobsProjects.body.data.total).toBe(0);
  });

  it('with no recognizer configured, answers err_interface_unavailable telling the user to ask (no settings)', async () => {
    const configured = server.ctx.engines.asr;
    server.ctx.engines.asr = createAsrRegistry([]);
    try {
      const caps = await call(server.app, 'GET', '/v1/tools/capabilities', { token: alice });
      const stt = caps.body.data.tools.find((t: { tool: string }) => t.tool === 'stt');
      expect(stt).toMatchObject({ available: false, error_type: 'err_interface_unavailable', engines: [] });
      expect(stt.reason).toBe('语音识别暂未开放，请联系管理员');
      const listed = (await call(server.app, 'GET', '/v1/projects/list?tool=stt', { token: alice })).body.data
        .total;
      const res = await call(server.app, 'POST', '/v1/stt/create', {
        token: alice,
        body: { asset_id: asset.id },
      });
      expect(namedError(res.body)).toBe('err_interface_unavailable');
      expect(res.body.data.detail[0].msg).toBe('语音识别暂未开放，请联系管理员');
      expect(JSON.stringify(res.body)).not.toMatch(/SHERPA_ONNX_MODELS_DIR|OPENAI_ASR_BASE_URL|models:fetch/);
      expect(
        (await call(server.app, 'GET', '/v1/projects/list?tool=stt', { token: alice })).body.data.total,
      ).toBe(listed);
    } finally {
      server.ctx.engines.asr = configured;
    }
    const caps = await call(server.app, 'GET', '/v1/tools/capabilities', { token: alice });
    expect(caps.body.data.tools.find((t: { tool: string }) => t.tool === 'stt')).toMatchObject({
      available: true,
      engines: [{ id: 'openai-compatible', label: 'fake-whisper', diarization: false }],
    });
  });

  it('names diarized speakers, passes the options to the recognizer, and refuses a language it lacks', async () => {
    const heard: Array<{ language?: string; speakers?: number; diarize?: boolean }> = [];
    const local: AsrProvider = {
      id: 'sherpa-onnx:test-zh',
      label: '中文识别（测试）',
      languages: ['zh'],
      diarization: true,
      wordTimes: true,
      async transcribe(file, options = {}) {
        heard.push({ language: options.language, speakers: options.speakers, diarize: options.diarize });
        expect(file.endsWith('audio-16k.wav')).toBe(true);
        options.onProgress?.(0.5);
        return {
          language: 'zh',
          durationMs: 3000,
          engine: 'sherpa-onnx:test-zh',
          segments: [
            { id: 0, startMs: 0, endMs: 1200, text: '主持人你好。', words: [], speaker: 'S1' },
            { id: 1, startMs: 1300, endMs: 2500, text: '你好，谢谢邀请。', words: [], speaker: 'S2' },
          ],
        };
      },
      async close() {},
    };
    const configured = server.ctx.engines.asr;
    server.ctx.engines.asr = createAsrRegistry([local]);
    try {
      // The page says whether speakers will be told apart.
      const caps = await call(server.app, 'GET', '/v1/tools/capabilities', { token: alice });
      expect(caps.body.data.tools.find((t: { tool: string }) => t.tool === 'stt').engines).toEqual([
        { id: 'sherpa-onnx:test-zh', label: '中文识别（测试）', diarization: true },
      ]);
      const english = await call(server.app, 'POST', '/v1/stt/create', {
        token: alice,
        body: { asset_id: asset.id, language: 'en' },
      });
      expect(namedError(english.body)).toBe('err_invalid_param');
      expect(english.body.data.detail[0].msg).toContain('不支持该语言：en');

      const created = await call(server.app, 'POST', '/v1/stt/create', {
        token: alice,
        body: { asset_id: asset.id, language: 'zh', speakers: 2 },
      });
      expect((await finished(created.body.data.task_id)).status).toBe('succeeded');
      expect(heard).toEqual([{ language: 'zh', speakers: 2, diarize: true }]);
      const opened = await call(
        server.app,
        'GET',
        `/v1/projects/get?project_id=${created.body.data.project_id}`,
        {
          token: alice,
        },
      );
      expect(opened.body.data.project.engine_label).toBe('本地识别 · 中文识别（测试）');
      expect(opened.body.data.document.speakers).toEqual([
        { id: 'S1', name: '说话人1' },
        { id: 'S2', name: '说话人2' },
      ]);
      expect(opened.body.data.document.tracks[0].cues).toEqual([
        { id: 'c1', start_ms: 0, end_ms: 1200, text: '主持人你好。', speaker_id: 'S1' },
        { id: 'c2', start_ms: 1300, end_ms: 2500, text: '你好，谢谢邀请。', speaker_id: 'S2' },
      ]);
    } finally {
      server.ctx.engines.asr = configured;
    }
  });

  it('deleting the project deletes its task and the task’s files', async () => {
    const created = await call(server.app, 'POST', '/v1/stt/create', {
      token: alice,
      body: { asset_id: asset.id },
    });
    const task = await finished(created.body.data.task_id);
    const [output] = JSON.parse(task.outputs) as Array<{ key: string }>;
    expect(await server.ctx.storage.stat(output.key)).not.toBeNull();
    const del = await call(server.app, 'DELETE', '/v1/projects/delete', {
      token: alice,
      body: { project_id: created.body.data.project_id },
    });
    expect(del.body).toMatchObject({ code: 0, data: { deleted: 1 } });
    expect(await server.ctx.storage.stat(output.key)).toBeNull();
    const gone = await call(server.app, 'GET', `/v1/tasks/get?task_id=${task.id}`, { token: alice });
    expect(gone.body.code).not.toBe(0);
    // The asset stays in the library.
    expect(await server.ctx.storage.stat(asset.storage_key)).not.toBeNull();
  });

  it('cancelling the account removes its projects, tasks, media and their files', async () => {
    const c = await signIn(server.app, '13900000033');
    const token = c.secure_tokens.access_token;
    await fund(server, c.user_info.uid, 1000);
    const own = await upload(c.user_info.uid, '注销前.wav');
    const created = await call(server.app, 'POST', '/v1/stt/create', { token, body: { asset_id: own.id } });
    const task = await finished(created.body.data.task_id);
    const [output] = JSON.parse(task.outputs) as Array<{ key: string }>;
    // The sign-in code was sent just now; one code a minute per number.
    server.clock.advance(61_000);
    await call(server.app, 'POST', '/accounts/v1/send_verification_code', {
      body: { account: '13900000033', scene: 'cancel_account' },
      token,
    });
    const code = await latestCode(server.app, '13900000033');
    expect(
      (await call(server.app, 'POST', '/accounts/v1/cancel_account', { token, body: { code } })).body.code,
    ).toBe(0);
    const left = async (table: 'projects' | 'tasks' | 'media_assets') =>
      (await server.ctx.db.selectFrom(table).select('id').where('owner_id', '=', c.user_info.uid).execute())
        .length;
    expect([await left('projects'), await left('tasks'), await left('media_assets')]).toEqual([0, 0, 0]);
    expect(await server.ctx.storage.stat(output.key)).toBeNull();
    expect(await server.ctx.storage.stat(own.storage_key)).toBeNull();
  });
});
