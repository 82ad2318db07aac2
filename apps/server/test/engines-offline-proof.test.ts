import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CatalogueEntry,
  DOWNLOADS_DIR,
  decodeWav,
  durationMs,
  INSTALL_STATE_FILE,
  type InstallState,
  REGISTRY_FILE,
} from '@vw/engines';
import { type ArchiveServer, packModelArchive, startArchiveServer } from '@vw/engines/fake-archive-server';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpeechMedia, SILERO_MODEL } from '../../../packages/engines/src/asr/media.fixture.ts';
import { tinyCtcModel, tinyCtcTokens } from '../../../packages/engines/src/asr/tiny-ctc.fixture.ts';
import {
  TINY_VITS_SAMPLE_RATE,
  TINY_VITS_SAMPLES_PER_TOKEN,
  TINY_VITS_TOKENS,
  tinyVitsModel,
  tinyVitsTokens,
} from '../../../packages/engines/src/sherpa/tiny-vits.fixture.ts';
import { startBackgroundInstall } from '../src/engines/install.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import {
  CLIENT_HEADERS,
  call,
  createTestServer,
  fund,
  signIn,
  type TestServer,
  taskFinished,
} from './harness.ts';

/*
 * Proof without the internet (issue 32 item 5): tiny models in the formats the catalogue uses, packed
 * as upstream packs them and served by a local archive server, go through the server's own background
 * installation — a corrupted download refused by its checksum, a cut one resumed with a Range request,
 * unpacked and checked — and end as a voice in the library and a recognizer, both used through the API.
 * Real sherpa-onnx, tar, and the Silero VAD from node_modules; no network beyond 127.0.0.1.
 */

const VITS_ARCHIVE = 'tts-models/vits-tiny-en.tar.bz2';
const CTC_ARCHIVE = 'asr-models/sherpa-onnx-zipformer-ctc-tiny-zh.tar.bz2';
const VAD_FILE = 'asr-models/silero_vad.onnx';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let work: string;
let archives: ArchiveServer;
let bodies: Record<string, Buffer>;
let server: TestServer;
let alice: string;
let aliceId: string;

const licence = {
  code: 'Apache-2.0',
  weights: 'Apache-2.0',
  data: 'generated at test time',
  permissive: true,
  sources: ['https://example.org/test-models'],
};

/** A catalogue in the real one's shape: exact sizes and real digests of what the archive server holds. */
function catalogue(): CatalogueEntry[] {
  const download = (path: string, unpack: boolean) => ({
    path,
    unpack,
    bytes: bodies[path]!.length,
    bytesExact: true,
    sha256: sha(bodies[path]!),
  });
  return [
    {
      model: {
        id: 'vits-tiny-en',
        kind: 'vits',
        name: 'Tiny VITS',
        languages: ['en-US'],
        speakers: [{ id: 0, name: 'Ada', gender: 'female', language: 'en-US', style: '清亮' }],
        files: { model: 'vits-tiny-en/model.onnx', tokens: 'vits-tiny-en/tokens.txt' },
      },
      downloads: [download(VITS_ARCHIVE, true)],
      installedBytes: 100_000,
      licence,
      enables: '语音合成：1 个测试音色',
      recommended: true,
      homepage: 'https://example.org/vits-tiny-en',
    },
    {
      model: {
        id: 'zipformer-ctc-tiny-zh',
        kind: 'asr',
        type: 'zipformer_ctc',
        name: 'Tiny CTC',
        languages: ['zh'],
        files: {
          model: 'sherpa-onnx-zipformer-ctc-tiny-zh/model.int8.onnx',
          tokens: 'sherpa-onnx-zipformer-ctc-tiny-zh/tokens.txt',
        },
      },
      downloads: [download(CTC_ARCHIVE, true)],
      installedBytes: 100_000,
      licence,
      enables: '语音识别：中文（测试模型）',
      recommended: true,
      homepage: 'https://example.org/ctc-tiny-zh',
    },
    {
      model: { id: 'silero-vad', kind: 'vad', name: 'Silero VAD', files: { model: 'silero_vad.onnx' } },
      downloads: [download(VAD_FILE, false)],
      installedBytes: bodies[VAD_FILE]!.length,
      licence,
      enables: '语音活动检测',
      recommended: true,
      homepage: 'https://github.com/snakers4/silero-vad',
    },
  ];
}

/** The server's logger as the installer sees it, keeping the operator lines. */
function captureLog() {
  const lines: string[] = [];
  const log = {
    info: (msg: string) => lines.push(msg),
    warn: (obj: unknown, msg?: string) => lines.push(msg ?? String(obj)),
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

const modelsDir = () => server.config.modelsDir;
const installState = async (): Promise<InstallState | undefined> =>
  readFile(join(modelsDir(), INSTALL_STATE_FILE), 'utf8').then(
    (t) => JSON.parse(t) as InstallState,
    () => undefined,
  );
const stateOf = async (id: string) => (await installState())?.models[id];
const registered = async (): Promise<string[]> =>
  readFile(join(modelsDir(), REGISTRY_FILE), 'utf8').then(
    (t) => (JSON.parse(t) as { models: Array<{ id: string }> }).models.map((m) => m.id),
    () => [],
  );
/** Every file left in the download folder (archives waiting and their parts). */
const downloadsLeft = async () => readdir(join(modelsDir(), DOWNLOADS_DIR)).catch(() => [] as string[]);
const ranges = (path: string) =>
  archives.requests.filter((r) => r.method === 'GET' && r.path === path && r.range).map((r) => r.range!);

async function voices(): Promise<Array<{ voice_id: string; engine: string; engine_label: string }>> {
  const res = await call(
    server.app,
    'GET',
    '/p1/voices/internal_get_all_voices?status=[2]&legacy_voice_skip_disabled=false',
    { token: alice },
  );
  return res.body.data.voices;
}
const tool = async (name: string) =>
  (await call(server.app, 'GET', '/v1/tools/capabilities', { token: alice })).body.data.tools.find(
    (t: { tool: string }) => t.tool === name,
  ) as { available: boolean };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'vw-offline-proof-'));
  // Packed as upstream packs them: one top folder per archive, through the installer's helper (tar).
  bodies = {
    [VITS_ARCHIVE]: await packModelArchive(join(work, 'pack'), 'vits-tiny-en', {
      'model.onnx': tinyVitsModel(),
      'tokens.txt': tinyVitsTokens(),
    }),
    [CTC_ARCHIVE]: await packModelArchive(join(work, 'pack'), 'sherpa-onnx-zipformer-ctc-tiny-zh', {
      'model.int8.onnx': tinyCtcModel(),
      'tokens.txt': tinyCtcTokens(),
    }),
    [VAD_FILE]: await readFile(SILERO_MODEL),
  };
  archives = await startArchiveServer(bodies);
  // As a server with internet starts: the recommended set, from the (local) release downloads.
  server = await createTestServer({ ENGINES: 'recommended', ENGINES_BASE_URL: archives.url });
  const a = await signIn(server.app, '13900000093');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  await fund(server, aliceId, 10_000);
  await server.ctx.jobs.startWorker({ concurrency: 2 });
});
afterAll(async () => {
  await server?.close();
  await archives?.close();
  await rm(work, { recursive: true, force: true });
});

describe('installing engines from a local archive server, as a first start with internet does', () => {
  it('refuses a corrupted download by its checksum: nothing registered, no part kept, the state says why', async () => {
    archives.corrupt(VITS_ARCHIVE);
    const { log, lines } = captureLog();
    const run = startBackgroundInstall(server.config, log, catalogue(), ['vits-tiny-en']);
    expect(run).not.toBeNull();

    await expect.poll(async () => (await stateOf('vits-tiny-en'))?.state, { timeout: 30_000 }).toBe('failed');
    expect((await stateOf('vits-tiny-en'))?.error).toMatch(
      new RegExp(
        `checksum mismatch for ${archives.url}/${VITS_ARCHIVE}: expected sha256 ${sha(bodies[VITS_ARCHIVE]!)}`,
      ),
    );
    const report = await run!.done;
    expect(report).toMatchObject({
      status: 'done',
      installed: [],
      failed: [{ id: 'vits-tiny-en', kind: 'checksum' }],
    });
    expect(lines.some((l) => /^engines: vits-tiny-en not installed \(checksum\)/.test(l))).toBe(true);
    expect(await registered()).toEqual([]);
    expect(await downloadsLeft()).toEqual([]);
    expect((await voices()).some((v) => v.engine === 'sherpa-onnx')).toBe(false);
    archives.corrupt(VITS_ARCHIVE, false);
  });

  it('resumes a cut download with a Range request, unpacks and checks every model, then registers them', async () => {
    const cut = Math.floor(bodies[VITS_ARCHIVE]!.length / 2);
    archives.cutAfter(VITS_ARCHIVE, cut);
    const { log, lines } = captureLog();
    const run = startBackgroundInstall(server.config, log, catalogue(), [
      'vits-tiny-en',
      'zipformer-ctc-tiny-zh',
      'silero-vad',
    ])!;

    for (const id of ['vits-tiny-en', 'zipformer-ctc-tiny-zh', 'silero-vad']) {
      await expect.poll(async () => (await stateOf(id))?.state, { timeout: 60_000 }).toBe('installed');
    }
    expect(await run.done).toMatchObject({
      status: 'done',
      installed: ['vits-tiny-en', 'zipformer-ctc-tiny-zh', 'silero-vad'],
      failed: [],
    });

    // The cut archive was asked for again from where its part ended, not from the start.
    const [resumed] = ranges(VITS_ARCHIVE);
    const from = Number(/^bytes=(\d+)-$/.exec(resumed ?? '')?.[1]);
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThanOrEqual(cut);
    expect(ranges(CTC_ARCHIVE)).toEqual([]);
    expect(await stateOf('vits-tiny-en')).toMatchObject({
      bytesDone: bodies[VITS_ARCHIVE]!.length,
      bytesTotal: bodies[VITS_ARCHIVE]!.length,
      verified: true,
    });
    expect(lines).toContain('engines: vits-tiny-en unpacking');
    for (const id of ['vits-tiny-en', 'zipformer-ctc-tiny-zh', 'silero-vad'])
      expect(lines).toContain(`engines: ${id} installed (sha256 verified)`);

    // Unpacked where the entries say, archives gone, the single file at the top, all registered.
    expect(await readFile(join(modelsDir(), 'vits-tiny-en/model.onnx'))).toEqual(tinyVitsModel());
    expect(await readFile(join(modelsDir(), 'sherpa-onnx-zipformer-ctc-tiny-zh/tokens.txt'), 'utf8')).toBe(
      tinyCtcTokens(),
    );
    expect(sha(await readFile(join(modelsDir(), 'silero_vad.onnx')))).toBe(sha(bodies[VAD_FILE]!));
    expect(await downloadsLeft()).toEqual([]);
    expect((await registered()).sort()).toEqual(['silero-vad', 'vits-tiny-en', 'zipformer-ctc-tiny-zh']);
  });

  it('the running server picks the models up: a neural voice in the library, speech to text available', async () => {
    await expect
      .poll(async () => (await voices()).find((v) => v.voice_id === 'sherpa:vits-tiny-en:0'), {
        timeout: 20_000,
        interval: 200,
      })
      .toMatchObject({ engine: 'sherpa-onnx', engine_label: '神经网络 · Tiny VITS' });
    await expect.poll(async () => (await tool('stt')).available, { timeout: 20_000 }).toBe(true);
  });

  it('speaks through the API with the installed voice: the tiny model’s length per character', async () => {
    const text = 'hello world';
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { voice_id: 'sherpa:vits-tiny-en:0', text, speed: 1, format: 'wav' },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${alice}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    const known = [...text].filter((c) => TINY_VITS_TOKENS.includes(c)).length;
    const expectedMs = (known * TINY_VITS_SAMPLES_PER_TOKEN * 1000) / TINY_VITS_SAMPLE_RATE;
    // espeak would take far longer than 25 ms a letter; the tiny model takes exactly that.
    expect(Math.abs(durationMs(decodeWav(res.rawPayload)) - expectedMs)).toBeLessThanOrEqual(5);
  });

  it('recognises a clip through the API with the installed recognizer: the tiny CTC model’s text', async () => {
    const media = await makeSpeechMedia(work);
    const copy = join(work, 'upload.wav');
    await copyFile(media.wav, copy);
    const asset = await registerAsset(server.ctx, aliceId, { file: copy, name: '测试录音.wav' });
    const created = await call(server.app, 'POST', '/v1/stt/create', {
      token: alice,
      body: { asset_id: asset.id, language: 'zh' },
    });
    expect(created.body.code).toBe(0);
    expect((await taskFinished(server.ctx, created.body.data.task_id)).status).toBe('succeeded');
    const opened = await call(
      server.app,
      'GET',
      `/v1/projects/get?project_id=${created.body.data.project_id}`,
      { token: alice },
    );
    expect(opened.body.data.project.engine_label).toBe('本地识别 · Tiny CTC');
    // Phrase one (~1.5 s) ends before the model's last token at 2 s; phrase two reaches it.
    expect(opened.body.data.document.tracks[0].cues.map((c: { text: string }) => c.text)).toEqual([
      '你好世',
      '你好世界',
    ]);
  });
});
