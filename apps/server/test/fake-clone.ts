import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseMultipart } from './fake-asr.ts';

/*
 * Stand-ins for the cloning servers, speaking their real protocols over real HTTP:
 * - GPT-SoVITS api_v2: POST /tts, JSON body, WAV answer; 400 {message} when a required field is
 *   missing or the reference file cannot be read (the real server opens ref_audio_path itself).
 * - CosyVoice FastAPI: POST /inference_zero_shot, multipart form (tts_text, prompt_text, prompt_wav
 *   file), raw 16-bit mono PCM at 22050 Hz streamed back.
 * Both answer a tone whose length follows the text (0.12 s a character), so callers get real audio.
 */

export interface FakeCloneRequest {
  path: string;
  json?: Record<string, unknown>;
  fields?: Record<string, string>;
  file?: Buffer;
}

export interface FakeCloneServers {
  gptSovitsUrl: string;
  cosyVoiceUrl: string;
  /** A trainer (POST /train → {job_id}; GET /train/{id} → status, then the trained voice). */
  trainerUrl: string;
  /** What a finished training answers as its voice. */
  trainedVoice: { engine: string; params: Record<string, unknown> } | null;
  requests: FakeCloneRequest[];
  failWith: number | null;
  close(): Promise<void>;
}

function tone(seconds: number, rate: number, hz: number): Buffer {
  const n = Math.max(1, Math.round(seconds * rate));
  const pcm = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++)
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate)), i * 2);
  return pcm;
}

function wav(pcm: Buffer, rate: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + pcm.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([h, pcm]);
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeCloneServers(port = 0): Promise<FakeCloneServers> {
  const fake = {
    requests: [] as FakeCloneRequest[],
    failWith: null as number | null,
    trainedVoice: null as FakeCloneServers['trainedVoice'],
  };
  const polls = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    body(req).then(
      (raw) => {
        const url = req.url ?? '';
        if (req.method === 'POST' && url.endsWith('/gpt-sovits/tts')) {
          const json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
          fake.requests.push({ path: '/tts', json });
          if (fake.failWith) {
            res.writeHead(fake.failWith, { 'content-type': 'application/json' });
            return res.end(JSON.stringify({ message: 'tts failed', Exception: 'CUDA out of memory' }));
          }
          for (const k of ['text', 'text_lang', 'ref_audio_path', 'prompt_lang']) {
            if (!json[k]) {
              res.writeHead(400, { 'content-type': 'application/json' });
              return res.end(JSON.stringify({ message: `${k} is required` }));
            }
          }
          if (!existsSync(String(json.ref_audio_path))) {
            res.writeHead(400, { 'content-type': 'application/json' });
            return res.end(JSON.stringify({ message: 'tts failed', Exception: `ref_audio_path not found` }));
          }
          res.writeHead(200, { 'content-type': 'audio/wav' });
          return res.end(wav(tone(String(json.text).length * 0.12, 32_000, 200), 32_000));
        }
        if (req.method === 'POST' && url.endsWith('/cosyvoice/inference_zero_shot')) {
          const parts = parseMultipart(raw, req.headers['content-type'] ?? '');
          const fields: Record<string, string> = {};
          let file: Buffer | undefined;
          for (const p of parts) {
            if (p.filename !== undefined) file = p.data;
            else fields[p.name] = p.data.toString('utf8');
          }
          fake.requests.push({ path: '/inference_zero_shot', fields, file });
          if (fake.failWith || !fields.tts_text || !file) {
            res.writeHead(fake.failWith ?? 422, { 'content-type': 'application/json' });
            return res.end(JSON.stringify({ detail: 'field required' }));
          }
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          const pcm = tone(fields.tts_text.length * 0.12, 22_050, 180);
          // streamed in pieces like the real server's generator
          res.write(pcm.subarray(0, Math.floor(pcm.length / 2)));
          return res.end(pcm.subarray(Math.floor(pcm.length / 2)));
        }
        if (req.method === 'POST' && url.endsWith('/trainer/train')) {
          const json = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
          fake.requests.push({ path: '/train', json });
          const id = `job-${fake.requests.length}`;
          polls.set(id, 0);
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ job_id: id }));
        }
        const poll = /\/trainer\/train\/([^/?]+)$/.exec(url);
        if (req.method === 'GET' && poll) {
          const id = decodeURIComponent(poll[1]!);
          const n = polls.get(id);
          res.writeHead(n === undefined ? 404 : 200, { 'content-type': 'application/json' });
          if (n === undefined) return res.end(JSON.stringify({ message: 'no such job' }));
          polls.set(id, n + 1);
          // queued, then training, then ready with the voice
          const status = n === 0 ? 'queued' : n === 1 ? 'training' : 'ready';
          return res.end(
            JSON.stringify(status === 'ready' ? { status, voice: fake.trainedVoice } : { status }),
          );
        }
        res.writeHead(404).end();
      },
      (err: Error) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: err.message }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return Object.assign(fake, {
    gptSovitsUrl: `http://127.0.0.1:${bound}/gpt-sovits`,
    cosyVoiceUrl: `http://127.0.0.1:${bound}/cosyvoice`,
    trainerUrl: `http://127.0.0.1:${bound}/trainer`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
