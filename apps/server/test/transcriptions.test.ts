import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAsrRegistry } from '@vw/engines';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { priceTask } from '../src/modules/credits/pricing.service.ts';
import { getMediaLimits } from '../src/modules/features/features.service.ts';
import { type FakeAsr, makeSpeechWav, startFakeAsr } from './fake-asr.ts';
import { call, createTestServer, fund, signIn, type TestServer } from './harness.ts';

let server: TestServer;
let fake: FakeAsr;
let dir: string;
let wav: string;
let base: string;
let secret: string;
let userId: string;
let client: OpenAI;
let price: number;

const balance = async () => (await getBalance(server.ctx, userId)).balance;

beforeAll(async () => {
  fake = await startFakeAsr();
  dir = await mkdtemp(join(tmpdir(), 'vw-transcriptions-'));
  wav = await makeSpeechWav(dir);
  server = await createTestServer({
    OPENAI_ASR_BASE_URL: fake.url,
    OPENAI_ASR_MODEL: 'fake-whisper',
    OPENAI_ASR_API_KEY: 'sk-asr-upstream',
    PUBLIC_API_KEY_RPM: '5000',
    PUBLIC_API_ACCOUNT_RPM: '5000',
  });
  const user = await signIn(server.app, '13900000021');
  userId = user.user_info.uid;
  await fund(server, userId, 1000);
  const created = await call(server.app, 'POST', '/v1/api_keys/create', {
    token: user.secure_tokens.access_token,
    body: { name: '转写' },
  });
  secret = created.body.data.secret_key;
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  client = new OpenAI({ apiKey: secret, baseURL: `${base}/api/v1`, maxRetries: 0 });
  // The clip is about 3 seconds: one started minute of speech to text.
  price = await priceTask(server.ctx, 'speech_to_text', { seconds: 3 });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('POST /api/v1/audio/transcriptions (OpenAI-compatible)', () => {
  it('answers verbose_json with segments and words through the official SDK, charging by duration', async () => {
    const before = await balance();
    const answer = await client.audio.transcriptions.create({
      file: createReadStream(wav),
      model: 'whisper-1',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
      language: 'zh',
    });
    expect(answer).toMatchObject({
      task: 'transcribe',
      language: 'zh',
      duration: 3.2,
      text: '你好，世界。今天天气很好。',
    });
    expect(answer.segments?.map((s) => [s.id, s.start, s.end, s.text])).toEqual([
      [0, 0.52, 1.6, '你好，世界。'],
      [1, 1.9, 3.05, '今天天气很好。'],
    ]);
    expect(answer.words?.map((w) => [w.word, w.start, w.end])).toEqual([
      ['你好', 0.52, 0.9],
      ['，', 0.9, 0.9],
      ['世界', 1, 1.5],
      ['。', 1.5, 1.6],
      ['今天', 1.9, 2.3],
      ['天气', 2.35, 2.7],
      ['很好', 2.7, 3],
      ['。', 3, 3.05],
    ]);
    // The upstream server got the very bytes, over real multipart, with its own key and model.
    const upstream = fake.requests.at(-1)!;
    expect(upstream.file.equals(await readFile(wav))).toBe(true);
    expect(upstream.authorization).toBe('Bearer sk-asr-upstream');
    expect(upstream.fields.model).toEqual(['fake-whisper']);
    expect(upstream.fields.language).toEqual(['zh']);
    expect(upstream.fields.response_format).toEqual(['verbose_json']);
    expect(price).toBeGreaterThan(0);
    expect(await balance()).toBe(before - price);
  });

  it('answers json, text, srt and vtt exactly', async () => {
    const json = await client.audio.transcriptions.create({
      file: createReadStream(wav),
      model: 'whisper-1',
    });
    expect(json).toEqual({ text: '你好，世界。今天天气很好。' });
    const text = await client.audio.transcriptions.create({
      file: createReadStream(wav),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(text).toBe('你好，世界。今天天气很好。\n');
    const srt = await client.audio.transcriptions.create({
      file: createReadStream(wav),
      model: 'whisper-1',
      response_format: 'srt',
    });
    expect(srt).toBe(
      '1\n00:00:00,520 --> 00:00:01,600\n你好，世界。\n\n2\n00:00:01,900 --> 00:00:03,050\n今天天气很好。\n',
    );
    const vtt = await client.audio.transcriptions.create({
      file: createReadStream(wav),
      model: 'whisper-1',
      response_format: 'vtt',
    });
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:00.520 --> 00:00:01.600\n你好，世界。\n\n00:00:01.900 --> 00:00:03.050\n今天天气很好。\n',
    );
  });

  it('verbose_json without granularities has segments but no words (as OpenAI)', async () => {
    const answer = await client.audio.transcriptions.create({
      file: createReadStream(wav),
      model: 'whisper-1',
      response_format: 'verbose_json',
    });
    expect(answer.segments).toHaveLength(2);
    expect(answer.words).toBeUndefined();
  });

  it('reads fields sent after the file, on the /v1 alias too', async () => {
    const form = new FormData();
    form.append('file', new Blob([await readFile(wav)]), 'clip.bin');
    form.append('model', 'whisper-1');
    form.append('response_format', 'text');
    const res = await fetch(`${base}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toBe('你好，世界。今天天气很好。\n');
    // Named by its bytes, not by the name it came with.
    expect(fake.requests.at(-1)!.filename).toBe('upload.wav');
  });

  it('refuses what is not audio, a missing file and a bad format, in the OpenAI error style', async () => {
    const text = join(dir, 'notes.wav');
    await writeFile(text, 'just some text pretending to be audio\n');
    const notAudio = await client.audio.transcriptions
      .create({ file: createReadStream(text), model: 'whisper-1' })
      .catch((e: unknown) => e);
    expect(notAudio).toBeInstanceOf(OpenAI.APIError);
    expect((notAudio as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((notAudio as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      type: 'err_file_not_supported',
    });

    // A playlist naming other files is text to the sniffer, and never reaches ffmpeg.
    const playlist = join(dir, 'list.mp3');
    await writeFile(
      playlist,
      '#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n',
    );
    const hostile = (await client.audio.transcriptions
      .create({ file: createReadStream(playlist), model: 'whisper-1' })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(hostile.status).toBe(400);
    expect(hostile.error).toMatchObject({ type: 'err_file_not_supported' });

    const form = new FormData();
    form.append('model', 'whisper-1');
    const noFile = await fetch(`${base}/api/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: form,
    });
    expect(noFile.status).toBe(422);
    expect((await noFile.json()).data.detail[0]).toMatchObject({
      type: 'value_error.missing',
      loc: ['body', 'file'],
    });

    const badFormat = await client.audio.transcriptions
      .create({ file: createReadStream(wav), model: 'whisper-1', response_format: 'xml' as 'json' })
      .catch((e: unknown) => e);
    expect((badFormat as InstanceType<typeof OpenAI.APIError>).status).toBe(422);

    const noKey = await fetch(`${base}/api/v1/audio/transcriptions`, { method: 'POST', body: form });
    expect(noKey.status).toBe(401);
  });

  it('streams the upload to disk and refuses a file over the plan’s size limit with 413', async () => {
    const { max_upload_bytes } = await getMediaLimits(server.ctx, userId);
    const before = await balance();
    const boundary = 'vw-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\n` +
        'Content-Type: audio/wav\r\n\r\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    // One byte over the limit, made a megabyte at a time (the test holds no more than that either).
    let left = max_upload_bytes + 1;
    const chunk = Buffer.alloc(1024 * 1024);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (left <= 0) {
          controller.enqueue(tail);
          controller.close();
          return;
        }
        const n = Math.min(left, chunk.length);
        controller.enqueue(chunk.subarray(0, n));
        left -= n;
      },
    });
    const res = await fetch(`${base}/api/v1/audio/transcriptions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secret}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ type: 'err_file_too_large' });
    expect(await balance()).toBe(before);
    // Nothing is left in the scratch folder.
    const scratch = await readdir(join(server.config.dataDir, 'scratch')).catch(() => []);
    expect(scratch.filter((name) => name.startsWith('transcribe-'))).toEqual([]);
  });

  it('gives the credits back when the recognizer fails', async () => {
    const before = await balance();
    fake.failWith = 500;
    try {
      const err = await client.audio.transcriptions
        .create({ file: createReadStream(wav), model: 'whisper-1' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      const apiError = err as InstanceType<typeof OpenAI.APIError>;
      expect(apiError.status).toBe(503);
      expect(apiError.error).toMatchObject({ type: 'err_interface_unavailable' });
      expect(apiError.message).toContain('语音识别失败');
    } finally {
      fake.failWith = null;
    }
    expect(await balance()).toBe(before);
    const holds = await server.ctx.db
      .selectFrom('credit_holds')
      .select(['status'])
      .where('user_id', '=', userId)
      .where('status', '=', 'held')
      .execute();
    expect(holds).toEqual([]);
  });

  it('with no recognizer configured, says it is not available (503, no settings named) and charges nothing', async () => {
    const configured = server.ctx.engines.asr;
    server.ctx.engines.asr = createAsrRegistry([]);
    const before = await balance();
    try {
      const err = (await client.audio.transcriptions
        .create({ file: createReadStream(wav), model: 'whisper-1' })
        .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(err.status).toBe(503);
      expect(err.error).toMatchObject({ type: 'err_interface_unavailable' });
      expect(err.message).toContain('语音识别暂未开放，请联系管理员');
      expect(err.message).not.toMatch(/OPENAI_ASR_BASE_URL|SHERPA_ONNX_MODELS_DIR/);
    } finally {
      server.ctx.engines.asr = configured;
    }
    expect(await balance()).toBe(before);
  });

  it('is in the public OpenAPI document as a multipart operation', async () => {
    const doc = await (await fetch(`${base}/api/v1/openapi.json`)).json();
    const op = doc.paths['/api/v1/audio/transcriptions'].post;
    expect(op.operationId).toBe('openaiTranscription');
    const body = op.requestBody.content['multipart/form-data'].schema;
    expect(body.properties.file).toEqual({ type: 'string', format: 'binary' });
    expect(body.required).toEqual(expect.arrayContaining(['file', 'model']));
    expect(Object.keys(op.responses['200'].content)).toEqual(
      expect.arrayContaining(['application/json', 'text/plain', 'application/x-subrip', 'text/vtt']),
    );
  });
});
