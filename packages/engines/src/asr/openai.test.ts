import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { probeAudioBuffer } from '../audio/ffmpeg.ts';
import { makeSpeechMedia, type SpeechMedia } from './media.fixture.ts';
import {
  createOpenAiAsrProvider,
  languageCode,
  mapVerboseJson,
  openAiBaseUrl,
  partLength,
  planParts,
} from './openai.ts';

/** One part of a multipart/form-data body. */
interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** multipart/form-data parsed by the RFC 7578 rules: boundary lines, part headers, CRLF framing. */
function parseMultipart(body: Buffer, contentType: string): Part[] {
  const boundary = contentType.match(/boundary="?([^";]+)"?/)?.[1];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    // Each part: CRLF, headers, CRLF CRLF, data, CRLF before the next delimiter.
    const chunk = body.subarray(start + 2, next - 2);
    const split = chunk.indexOf('\r\n\r\n');
    const headers = chunk.subarray(0, split).toString('utf8');
    const disposition = headers.match(/content-disposition:([^\r\n]*)/i)?.[1] ?? '';
    parts.push({
      name: disposition.match(/\bname="([^"]*)"/)?.[1] ?? '',
      filename: disposition.match(/filename="([^"]*)"/)?.[1],
      contentType: headers.match(/content-type:\s*([^\r\n]*)/i)?.[1],
      data: chunk.subarray(split + 4),
    });
    at = next;
  }
  return parts;
}

interface Request {
  url?: string;
  auth?: string;
  fields: Record<string, string[]>;
  file: Buffer;
  filename?: string;
}

type Handler = (req: Request, res: ServerResponse) => void;

let server: Server;
let base: string;
let handler: Handler;
const requests: Request[] = [];
let dir: string;
let media: SpeechMedia;

async function readRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const parts = parseMultipart(Buffer.concat(chunks), req.headers['content-type'] ?? '');
  const fields: Record<string, string[]> = {};
  let file: Buffer = Buffer.alloc(0);
  let filename: string | undefined;
  for (const p of parts) {
    if (p.filename !== undefined) {
      file = p.data;
      filename = p.filename;
    } else fields[p.name] = [...(fields[p.name] ?? []), p.data.toString('utf8')];
  }
  return { url: req.url, auth: req.headers.authorization, fields, file, filename };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** A verbose_json answer as whisper servers give it: segments, and words apart at the top level. */
const VERBOSE = {
  task: 'transcribe',
  language: 'english',
  duration: 8.5,
  text: 'Hello world. The second one.',
  segments: [
    { id: 0, seek: 0, start: 1.0, end: 2.5, text: ' Hello world.', tokens: [1, 2], temperature: 0 },
    { id: 1, seek: 0, start: 4.7, end: 7.3, text: ' The second one.', tokens: [3], temperature: 0 },
  ],
  words: [
    { word: 'Hello', start: 1.02, end: 1.5 },
    { word: 'world.', start: 1.6, end: 2.4 },
    { word: 'The', start: 4.72, end: 5.0 },
    { word: 'second', start: 5.1, end: 5.9 },
    { word: 'one.', start: 6.0, end: 7.2 },
  ],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-asr-openai-'));
  media = await makeSpeechMedia(dir);
  server = createServer(async (req, res) => {
    const request = await readRequest(req);
    requests.push(request);
    handler(request, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 30_000);
afterEach(() => {
  requests.length = 0;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await rm(dir, { recursive: true, force: true });
});

describe('openai-compatible transcription', () => {
  it('uploads the file with the model and verbose_json, and maps segments and words', async () => {
    handler = (_, res) => json(res, 200, VERBOSE);
    const asr = createOpenAiAsrProvider({ baseURL: `${base}/`, apiKey: 'sk-test', model: 'whisper-1' });
    const progress: number[] = [];
    const transcript = await asr.transcribe(media.wav, {
      language: 'en',
      prompt: 'Names: Ada.',
      onProgress: (f) => progress.push(f),
    });

    const [request] = requests;
    expect(requests).toHaveLength(1);
    expect(request.url).toBe('/v1/audio/transcriptions');
    expect(request.auth).toBe('Bearer sk-test');
    expect(request.fields).toEqual({
      model: ['whisper-1'],
      response_format: ['verbose_json'],
      'timestamp_granularities[]': ['segment', 'word'],
      language: ['en'],
      prompt: ['Names: Ada.'],
    });
    // A WAV under the limit goes as it is: the very bytes of the file.
    expect(request.filename).toBe('speech.wav');
    expect(request.file.equals(await readFile(media.wav))).toBe(true);

    expect(transcript).toEqual({
      language: 'en',
      durationMs: 8500,
      engine: 'openai-compatible:whisper-1',
      segments: [
        {
          id: 0,
          startMs: 1000,
          endMs: 2500,
          text: 'Hello world.',
          words: [
            { text: 'Hello', startMs: 1020, endMs: 1500 },
            { text: 'world.', startMs: 1600, endMs: 2400 },
          ],
        },
        {
          id: 1,
          startMs: 4700,
          endMs: 7300,
          text: 'The second one.',
          words: [
            { text: 'The', startMs: 4720, endMs: 5000 },
            { text: 'second', startMs: 5100, endMs: 5900 },
            { text: 'one.', startMs: 6000, endMs: 7200 },
          ],
        },
      ],
    });
    expect(progress).toEqual([1]);
    expect(asr).toMatchObject({
      id: 'openai-compatible',
      languages: 'any',
      diarization: false,
      wordTimes: true,
    });
  });

  it('spreads words over segments when the server gives none, and detects the language', async () => {
    handler = (_, res) =>
      json(res, 200, {
        ...VERBOSE,
        language: 'chinese',
        words: undefined,
        segments: [{ ...VERBOSE.segments[0], text: '你好世界' }],
      });
    const asr = createOpenAiAsrProvider({ baseURL: `${base}/v1`, model: 'sense-voice' });
    const transcript = await asr.transcribe(media.wav);
    expect(requests[0].fields.language).toBeUndefined();
    // No key configured: the SDK still sends one; self-hosted servers ignore it.
    expect(requests[0].auth).toBe('Bearer not-needed');
    expect(transcript.language).toBe('zh');
    expect(transcript.segments[0].words).toEqual([
      { text: '你', startMs: 1000, endMs: 1375 },
      { text: '好', startMs: 1375, endMs: 1750 },
      { text: '世', startMs: 1750, endMs: 2125 },
      { text: '界', startMs: 2125, endMs: 2500 },
    ]);
  });

  it('copes with servers that answer plain text or {text} only', async () => {
    const asr = createOpenAiAsrProvider({ baseURL: base, model: 'whisper-1' });
    for (const answer of ['hello there', { text: 'hello there' }]) {
      handler = (_, res) => {
        if (typeof answer === 'string') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(answer);
        } else json(res, 200, answer);
      };
      const transcript = await asr.transcribe(media.wav);
      // The length comes from the file; the one segment spans it.
      expect(Math.abs(transcript.durationMs - media.durationMs)).toBeLessThan(50);
      expect(transcript.language).toBe('und');
      expect(transcript.segments).toEqual([
        {
          id: 0,
          startMs: 0,
          endMs: transcript.durationMs,
          text: 'hello there',
          words: [
            { text: 'hello', startMs: 0, endMs: Math.round(transcript.durationMs / 2) },
            { text: 'there', startMs: Math.round(transcript.durationMs / 2), endMs: transcript.durationMs },
          ],
        },
      ]);
    }
  });

  it('sends the audio of a video as 16 kHz mono MP3', async () => {
    handler = (_, res) => json(res, 200, VERBOSE);
    const mkv = join(dir, 'speech.mkv');
    const { execFile } = await import('node:child_process');
    await new Promise<void>((resolve, reject) =>
      execFile('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', media.mp4, '-c', 'copy', '-y', mkv], (e) =>
        e ? reject(e) : resolve(),
      ),
    );
    const asr = createOpenAiAsrProvider({ baseURL: base, model: 'whisper-1' });
    const transcript = await asr.transcribe(mkv);
    expect(requests).toHaveLength(1);
    expect(requests[0].filename).toBe('audio.mp3');
    const probe = await probeAudioBuffer(requests[0].file);
    expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 16_000, channels: 1 });
    expect(Math.abs(probe.durationMs - media.durationMs)).toBeLessThan(150);
    expect(Math.abs(transcript.durationMs - media.durationMs)).toBeLessThan(150);
    expect(transcript.segments).toHaveLength(2);
  });

  it('splits audio larger than the server takes in a silence, and offsets each part', async () => {
    // Each part answers one segment covering its first second.
    handler = async (req, res) => {
      const { durationMs } = await probeAudioBuffer(req.file);
      json(res, 200, {
        language: 'english',
        duration: durationMs / 1000,
        text: `part ${requests.indexOf(req)}`,
        segments: [{ id: 0, start: 0.2, end: 1.2, text: `part ${requests.indexOf(req)}` }],
        words: [{ word: 'part', start: 0.2, end: 0.7 }],
      });
    };
    // 32 kbit/s MP3 is 4000 bytes a second: 24 500 bytes hold (with headroom) 5.5 s. A cut at 5.5 s
    // would split the second phrase; the cut goes in the silence between the phrases instead.
    const maxUploadBytes = 24_500;
    expect(partLength(4000, maxUploadBytes)).toBe(5512);
    const asr = createOpenAiAsrProvider({ baseURL: base, model: 'whisper-1', maxUploadBytes });
    const progress: number[] = [];
    const transcript = await asr.transcribe(media.wav, { onProgress: (f) => progress.push(f) });
    expect(requests).toHaveLength(2);
    const [first, second] = media.phrases;
    const cut = transcript.segments[1].startMs - 200;
    expect(cut).toBeGreaterThan(first.endMs - 300);
    expect(cut).toBeLessThan(second.startMs);
    const starts = [0, cut];
    for (const [i, r] of requests.entries()) {
      expect(r.file.length).toBeLessThanOrEqual(maxUploadBytes);
      const { durationMs } = await probeAudioBuffer(r.file);
      const expected = i === 0 ? cut : transcript.durationMs - cut;
      expect(Math.abs(durationMs - expected)).toBeLessThan(100);
    }
    expect(transcript.segments.map((s) => [s.id, s.text, s.startMs, s.endMs, s.words])).toEqual(
      starts.map((at, i) => [
        i,
        `part ${i}`,
        at + 200,
        at + 1200,
        [{ text: 'part', startMs: at + 200, endMs: at + 700 }],
      ]),
    );
    expect(progress).toEqual([0.5, 1]);
  });

  it('reports server errors, timeouts, refused connections and bad configuration clearly', async () => {
    handler = (_, res) => json(res, 500, { error: { message: 'model melted', type: 'server_error' } });
    const asr = createOpenAiAsrProvider({ baseURL: base, model: 'whisper-1', maxRetries: 0 });
    await expect(asr.transcribe(media.wav)).rejects.toMatchObject({
      code: 'remote_error',
      zh: '语音识别服务返回错误 500：model melted',
      en: 'transcription server answered 500: model melted',
    });

    handler = (_, res) => json(res, 401, { error: { message: 'bad key' } });
    await expect(asr.transcribe(media.wav)).rejects.toMatchObject({
      zh: expect.stringMatching(/请检查 API 密钥/),
    });

    handler = () => {}; // never answers
    const slow = createOpenAiAsrProvider({
      baseURL: base,
      model: 'whisper-1',
      timeoutMs: 300,
      maxRetries: 0,
    });
    await expect(slow.transcribe(media.wav)).rejects.toMatchObject({
      code: 'timeout',
      en: 'transcription server timed out after 300 ms',
    });

    const nowhere = createOpenAiAsrProvider({
      baseURL: 'http://127.0.0.1:1',
      model: 'whisper-1',
      maxRetries: 0,
    });
    await expect(nowhere.transcribe(media.wav)).rejects.toMatchObject({
      code: 'remote_error',
      en: 'cannot reach transcription server http://127.0.0.1:1/v1',
    });

    expect(() => createOpenAiAsrProvider({ baseURL: 'gpu-box:8000', model: 'x' })).toThrow(
      /invalid OpenAI-compatible/,
    );
    expect(() => createOpenAiAsrProvider({ baseURL: base, model: '' })).toThrow(/OPENAI_ASR_MODEL/);
  });

  it('aborts an upload in flight', async () => {
    let arrived!: () => void;
    const received = new Promise<void>((r) => {
      arrived = r;
    });
    handler = () => arrived(); // holds the request open
    const asr = createOpenAiAsrProvider({ baseURL: base, model: 'whisper-1' });
    const controller = new AbortController();
    const pending = asr.transcribe(media.wav, { signal: controller.signal });
    await received;
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    await expect(asr.transcribe(media.wav, { signal: controller.signal })).rejects.toMatchObject({
      code: 'aborted',
    });
  });
});

describe('openai-compatible helpers', () => {
  it('plans parts: cut in the last silence before each limit, else at the limit', () => {
    const parts = (d: number, p: number, s?: Array<{ startMs: number; endMs: number }>) =>
      planParts(d, p, s).map((x) => [x.startMs, x.startMs + x.durationMs]);
    expect(parts(2500, 1000)).toEqual([
      [0, 1000],
      [1000, 2000],
      [2000, 2500],
    ]);
    expect(parts(800, 1000)).toEqual([[0, 800]]);
    const silences = [
      { startMs: 0, endMs: 300 }, // at the very start: no cut there
      { startMs: 400, endMs: 600 },
      { startMs: 700, endMs: 800 },
      { startMs: 2500, endMs: 3600 }, // its middle is past the limit: cut at the limit, still silent
    ];
    expect(parts(4000, 1000, silences)).toEqual([
      [0, 750],
      [750, 1750],
      [1750, 2750],
      [2750, 3750],
      [3750, 4000],
    ]);
  });

  it('normalises the base URL and language names', () => {
    expect(openAiBaseUrl('http://h:8000')).toBe('http://h:8000/v1');
    expect(openAiBaseUrl('http://h:8000/v1/')).toBe('http://h:8000/v1');
    expect(openAiBaseUrl('https://h/api/v2')).toBe('https://h/api/v2');
    expect(languageCode('Chinese')).toBe('zh');
    expect(languageCode('en')).toBe('en');
  });

  it('maps a text-only answer to one segment', () => {
    expect(mapVerboseJson({ duration: 2, language: 'english', text: ' Hi there ' })).toEqual({
      durationMs: 2000,
      language: 'en',
      segments: [
        {
          id: 0,
          startMs: 0,
          endMs: 2000,
          text: 'Hi there',
          words: [
            { text: 'Hi', startMs: 0, endMs: 571 },
            { text: 'there', startMs: 571, endMs: 2000 },
          ],
        },
      ],
    });
  });
});
