import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/*
 * A stand-in for an OpenAI-compatible transcription server (faster-whisper-server, whisper.cpp…):
 * real HTTP, real multipart/form-data parsing, verbose_json answers with known segments and words.
 */

export interface FakeAsrRequest {
  url: string;
  authorization: string | undefined;
  fields: Record<string, string[]>;
  file: Buffer;
  filename: string | undefined;
  fileType: string | undefined;
}

export interface FakeAsr {
  /** Base URL with /v1, as OPENAI_ASR_BASE_URL. */
  url: string;
  requests: FakeAsrRequest[];
  /** The verbose_json it answers (seconds, as OpenAI). */
  answer: Record<string, unknown>;
  /** Set to make the next answers fail with this HTTP status. */
  failWith: number | null;
  close(): Promise<void>;
}

/** What the fake "hears": two Chinese sentences with word times. */
export const FAKE_VERBOSE_JSON = {
  task: 'transcribe',
  language: 'chinese',
  duration: 3.2,
  text: '你好，世界。今天天气很好。',
  segments: [
    { id: 0, seek: 0, start: 0.52, end: 1.6, text: ' 你好，世界。', tokens: [], temperature: 0 },
    { id: 1, seek: 160, start: 1.9, end: 3.05, text: ' 今天天气很好。', tokens: [], temperature: 0 },
  ],
  words: [
    { word: '你好', start: 0.52, end: 0.9 },
    { word: '，', start: 0.9, end: 0.9 },
    { word: '世界', start: 1.0, end: 1.5 },
    { word: '。', start: 1.5, end: 1.6 },
    { word: '今天', start: 1.9, end: 2.3 },
    { word: '天气', start: 2.35, end: 2.7 },
    { word: '很好', start: 2.7, end: 3.0 },
    { word: '。', start: 3.0, end: 3.05 },
  ],
};

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** multipart/form-data by RFC 7578: boundary lines, part headers, CRLF framing. */
export function parseMultipart(body: Buffer, contentType: string): Part[] {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) throw new Error('multipart body ends without its closing delimiter');
    const chunk = body.subarray(start + 2, next - 2);
    const split = chunk.indexOf('\r\n\r\n');
    const headers = chunk.subarray(0, split).toString('utf8');
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1] ?? '',
      filename: /filename="([^"]*)"/.exec(disposition)?.[1],
      contentType: /content-type:\s*([^\r\n]*)/i.exec(headers)?.[1],
      data: chunk.subarray(split + 4),
    });
    at = next;
  }
  return parts;
}

async function readRequest(req: IncomingMessage): Promise<FakeAsrRequest> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const parts = parseMultipart(Buffer.concat(chunks), req.headers['content-type'] ?? '');
  const request: FakeAsrRequest = {
    url: req.url ?? '',
    authorization: req.headers.authorization,
    fields: {},
    file: Buffer.alloc(0),
    filename: undefined,
    fileType: undefined,
  };
  for (const p of parts) {
    if (p.filename !== undefined) {
      request.file = p.data;
      request.filename = p.filename;
      request.fileType = p.contentType;
    } else request.fields[p.name] = [...(request.fields[p.name] ?? []), p.data.toString('utf8')];
  }
  return request;
}

export async function startFakeAsr(): Promise<FakeAsr> {
  const fake: Omit<FakeAsr, 'url' | 'close'> = {
    requests: [],
    answer: FAKE_VERBOSE_JSON,
    failWith: null,
  };
  const server: Server = createServer((req, res: ServerResponse) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/audio/transcriptions')) {
      res.writeHead(404).end();
      return;
    }
    readRequest(req).then(
      (request) => {
        fake.requests.push(request);
        if (fake.failWith) {
          res.writeHead(fake.failWith, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'model crashed', type: 'server_error' } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(fake.answer));
      },
      (err: Error) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: err.message } }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A short spoken clip (espeak-ng, Mandarin) as a 16 kHz mono WAV: real audio for real probes. */
export async function makeSpeechWav(dir: string, text = '你好，世界。今天天气很好。'): Promise<string> {
  const raw = join(dir, 'speech-raw.wav');
  const wav = join(dir, 'speech.wav');
  await run('espeak-ng', ['-v', 'cmn', '-w', raw, text]);
  await run('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-i',
    raw,
    '-ar',
    '16000',
    '-ac',
    '1',
    '-y',
    wav,
  ]);
  return wav;
}
