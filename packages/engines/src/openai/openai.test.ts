import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAudio } from '../audio/ffmpeg.ts';
import { encodeWav, type Pcm } from '../audio/wav.ts';
import { createOpenAiEngine, speechUrl } from './engine.ts';

const tone = (ms: number): Pcm => {
  const samples = new Int16Array((ms / 1000) * 24_000);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.round(6000 * Math.sin(i / 5));
  return { samples, sampleRate: 24_000 };
};

interface Seen {
  url?: string;
  auth?: string;
  body: { model: string; input: string; voice: string; response_format: string; speed: number };
}
const seen: Seen[] = [];
let mode: 'wav' | 'mp3' | 'error' | 'slow' | 'garbage' = 'wav';
let server: Server;
let base: string;

const readJson = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

beforeAll(async () => {
  const mp3 = await encodeAudio(tone(600), { format: 'mp3' });
  server = createServer(async (req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization, body: await readJson(req) });
    if (mode === 'error') {
      res.writeHead(500, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'model melted' } }));
    }
    if (mode === 'slow') return setTimeout(() => res.end(encodeWav(tone(100))), 2000);
    if (mode === 'garbage') return res.end('<html>proxy login</html>');
    res.writeHead(200, { 'content-type': mode === 'mp3' ? 'audio/mpeg' : 'audio/wav' });
    res.end(mode === 'mp3' ? mp3 : encodeWav(tone(500)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

const voice = { engine: 'openai-compatible', model: 'tts-1', voice: 'alloy' } as const;

describe('openai-compatible engine', () => {
  it('posts each sentence to /v1/audio/speech and joins the audio', async () => {
    mode = 'wav';
    seen.length = 0;
    const engine = createOpenAiEngine({ baseUrl: `${base}/v1/`, apiKey: 'sk-test' });
    const out = await engine.synthesize({
      segments: [{ text: '第一句。第二句。' }, { pauseMs: 250 }],
      voice,
      speed: 1.5,
    });
    expect(seen.map((s) => s.url)).toEqual(['/v1/audio/speech', '/v1/audio/speech']);
    expect(seen[0].auth).toBe('Bearer sk-test');
    expect(seen[0].body).toEqual({
      model: 'tts-1',
      input: '第一句。',
      voice: 'alloy',
      response_format: 'wav',
      speed: 1.5,
    });
    expect(out.sampleRate).toBe(24_000);
    expect(out.durationMs).toBeCloseTo(1250, 0);
    expect(out.timings.map((t) => [t.kind, t.text, t.startMs, t.endMs])).toEqual([
      ['sentence', '第一句。', 0, 500],
      ['sentence', '第二句。', 500, 1000],
    ]);
  });

  it('decodes MP3 answers and shifts pitch itself', async () => {
    mode = 'mp3';
    const engine = createOpenAiEngine({ baseUrl: base });
    const out = await engine.synthesize({ segments: [{ text: 'Hello.' }], voice, pitch: 3 });
    expect(out.sampleRate).toBe(24_000);
    expect(out.durationMs).toBeGreaterThan(550);
  });

  it('reports HTTP errors with the server message', async () => {
    mode = 'error';
    const engine = createOpenAiEngine({ baseUrl: base });
    await expect(engine.synthesize({ segments: [{ text: '你好' }], voice })).rejects.toMatchObject({
      code: 'remote_error',
      en: 'speech server answered 500: model melted',
    });
  });

  it('times out', async () => {
    mode = 'slow';
    const engine = createOpenAiEngine({ baseUrl: base, timeoutMs: 200 });
    await expect(engine.synthesize({ segments: [{ text: '你好' }], voice })).rejects.toMatchObject({
      code: 'timeout',
    });
  });

  it('rejects answers that are not audio, unreachable servers and bad URLs', async () => {
    mode = 'garbage';
    await expect(
      createOpenAiEngine({ baseUrl: base }).synthesize({ segments: [{ text: '你好' }], voice }),
    ).rejects.toMatchObject({ code: 'remote_error', en: 'speech server returned unreadable audio' });
    await expect(
      createOpenAiEngine({ baseUrl: 'http://127.0.0.1:1' }).synthesize({
        segments: [{ text: '你好' }],
        voice,
      }),
    ).rejects.toMatchObject({ code: 'remote_error' });
    expect(() => createOpenAiEngine({ baseUrl: 'gpu-box:8000' })).toThrow(
      /invalid OpenAI-compatible base URL/,
    );
    expect(speechUrl('http://h:1/')).toBe('http://h:1/v1/audio/speech');
  });
});
