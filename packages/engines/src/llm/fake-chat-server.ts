import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeTranslator, type FakeTranslatorOptions } from '../translate/fake.ts';
import { fakeSpeakerAnswer, SPEAKER_PROMPT_MARK } from './speakers.ts';

// What the fake answers, for tests that compute the expected text.
export { fakePinyin, fakePunctuate } from '../translate/fake.ts';

/**
 * A local OpenAI-compatible chat server (GET /v1/models, POST /v1/chat/completions) standing in for an
 * outside language model in tests (port 0) and e2e (port 18791:
 * `node --import tsx packages/engines/src/llm/fake-chat-server.ts 18791`). Not product code.
 *
 * Default answer, for condense prompts ("…at most N characters:\n<line>"): the line cut to N
 * characters at a clause boundary when there is one, as JSON {"text": …}. Speaker-attribution prompts
 * (system message starting with `SPEAKER_PROMPT_MARK`) get `fakeSpeakerAnswer`: the rules' guesses back.
 * Translation and summary prompts (`TRANSLATE_PROMPT_MARK`, `SUMMARY_PROMPT_MARK`) get the deterministic
 * fake translator of `translate/fake.ts` (zh → pinyin, back from its memory). POST /v1/embeddings answers
 * a bag-of-characters vector (`fakeEmbedding`).
 */
export interface FakeChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string };
}

export interface FakeChatServerOptions extends FakeTranslatorOptions {
  /** 0 = any free port (vitest); 18791 for e2e. */
  port?: number;
  host?: string;
  /** Only this key is accepted (401 otherwise); default: any key. */
  apiKey?: string;
  /** Answers a request with the assistant's content, or a status and body (e.g. 500). */
  reply?: (req: FakeChatRequest) => string | { status: number; body: unknown };
}

export interface FakeChatServer {
  /** Base URL for the SDK, e.g. http://127.0.0.1:18791/v1 */
  url: string;
  requests: FakeChatRequest[];
  /** The inputs of each POST /v1/embeddings. */
  embeddings: string[][];
  close(): Promise<void>;
}

/** The default reply: the last line of the prompt cut to the asked number of characters. */
export function fakeCondense(req: FakeChatRequest): string {
  if (req.messages[0]?.content.startsWith(SPEAKER_PROMPT_MARK))
    return fakeSpeakerAnswer(req.messages.at(-1)?.content ?? '');
  const prompt = req.messages.at(-1)?.content ?? '';
  const limit = Number(/at most (\d+) characters/.exec(prompt)?.[1] ?? 0);
  const line = prompt.split('\n').at(-1) ?? '';
  const chars = [...line];
  let cut = chars.slice(0, Math.max(1, limit)).join('');
  const clause = Math.max(cut.lastIndexOf('，'), cut.lastIndexOf(','), cut.lastIndexOf('。'));
  if (clause >= cut.length / 2) cut = cut.slice(0, clause);
  return JSON.stringify({ text: cut.replace(/[，,\s]+$/u, '') });
}

const EMBEDDING_DIMS = 256;

/**
 * A deterministic bag-of-characters vector (letters and digits, NFKC, lower-cased, hashed into 256
 * dimensions, unit length): the same characters give cosine 1, disjoint ones about 0.
 */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(EMBEDDING_DIMS).fill(0);
  for (const c of text.normalize('NFKC').toLowerCase()) {
    if (!/[\p{L}\p{N}]/u.test(c)) continue;
    const code = c.codePointAt(0) ?? 0;
    v[Math.imul(code, 2654435761) >>> 24] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

async function body(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export async function startFakeChatServer(opts: FakeChatServerOptions = {}): Promise<FakeChatServer> {
  const requests: FakeChatRequest[] = [];
  const embeddings: string[][] = [];
  const translator = createFakeTranslator(opts);
  const reply = opts.reply ?? ((req: FakeChatRequest) => translator(req.messages) ?? fakeCondense(req));
  const server = createServer(async (req, res) => {
    const send = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
      return send(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    }
    if (req.method === 'GET' && req.url === '/v1/models') {
      return send(200, { object: 'list', data: [{ id: 'fake-chat', object: 'model', owned_by: 'fake' }] });
    }
    if (req.method === 'POST' && req.url === '/v1/embeddings') {
      let input: unknown;
      let format: unknown;
      try {
        ({ input, encoding_format: format } = JSON.parse(await body(req)) as {
          input?: unknown;
          encoding_format?: unknown;
        });
      } catch {
        return send(400, { error: { message: 'invalid JSON' } });
      }
      const texts = typeof input === 'string' ? [input] : input;
      if (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string' && t)) {
        return send(400, { error: { message: "'input' must be a non-empty string or array of strings" } });
      }
      embeddings.push(texts as string[]);
      return send(200, {
        object: 'list',
        model: 'fake-embedding',
        usage: { prompt_tokens: 1, total_tokens: 1 },
        data: (texts as string[]).map((t, index) => {
          const v = fakeEmbedding(t);
          const embedding =
            format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
          return { object: 'embedding', index, embedding };
        }),
      });
    }
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      return send(404, { error: { message: 'not found' } });
    }
    let parsed: FakeChatRequest;
    try {
      parsed = JSON.parse(await body(req)) as FakeChatRequest;
    } catch {
      return send(400, { error: { message: 'invalid JSON' } });
    }
    if (!parsed.model || !Array.isArray(parsed.messages)) {
      return send(400, { error: { message: 'model and messages are required' } });
    }
    requests.push(parsed);
    const answer = reply(parsed);
    if (typeof answer !== 'string') return send(answer.status, answer.body);
    send(200, {
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: parsed.model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}/v1`,
    requests,
    embeddings,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// CLI for e2e: node --import tsx packages/engines/src/llm/fake-chat-server.ts [port]
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 18791);
  startFakeChatServer({ port }).then((s) => console.log(`fake chat server on ${s.url}`));
}
