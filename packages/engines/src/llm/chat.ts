import OpenAI from 'openai';
import { EngineError } from '../errors.ts';

export interface ChatClientOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  /** Per request (default 60 s). */
  timeoutMs?: number;
  /** Tries after an unusable answer (not JSON, empty, not shorter); the SDK retries 429/5xx itself. Default 2. */
  maxRetries?: number;
}

export interface ChatClient {
  readonly model: string;
  /** Rewrites `text` to at most about `targetChars` characters, keeping the meaning and language. */
  condense(text: string, targetChars: number, opts?: { signal?: AbortSignal }): Promise<string>;
  /**
   * One JSON-mode exchange (`response_format: json_object`): the parsed object of the answer (code fences
   * and prose around it tolerated), or null when the answer holds no JSON object. Network/HTTP errors
   * throw `EngineError('remote_error')`. Callers validate the shape and decide about retries.
   */
  json(
    system: string,
    user: string,
    opts?: { signal?: AbortSignal },
  ): Promise<Record<string, unknown> | null>;
}

const SYSTEM = [
  'You shorten lines of a dubbing script so that they can be spoken in less time.',
  'Keep the meaning, the language, the tone and any names. Do not add explanations.',
  'Answer with JSON only: {"text": "<the shortened line>"}.',
].join(' ');

/** Length as a speaker feels it: a Han character counts one, a Latin word about two. */
export function spokenLength(text: string): number {
  const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
  const words = text.replace(/\p{Script=Han}/gu, ' ').match(/[\p{L}\p{N}']+/gu)?.length ?? 0;
  return han + words * 2;
}

/** The `text` of a JSON answer (code fences and prose around the object tolerated), or null. */
export function parseCondensed(answer: string): string | null {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const value = JSON.parse(answer.slice(start, end + 1)) as { text?: unknown };
    return typeof value.text === 'string' && value.text.trim() ? value.text.trim() : null;
  } catch {
    return null;
  }
}

/** The first-to-last-brace JSON object of an answer, or null. */
export function parseJsonObject(answer: string): Record<string, unknown> | null {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const value = JSON.parse(answer.slice(start, end + 1)) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * A chat client for any OpenAI-compatible server (DeepSeek, Qwen, Ollama, vLLM…) through the official
 * SDK. The server reads LLM_BASE_URL / LLM_API_KEY / LLM_MODEL and passes them here.
 */
export function createChatClient(opts: ChatClientOptions): ChatClient {
  const client = new OpenAI({
    baseURL: opts.baseURL,
    apiKey: opts.apiKey,
    timeout: opts.timeoutMs ?? 60_000,
    maxRetries: 2,
  });
  const tries = 1 + (opts.maxRetries ?? 2);
  /** One JSON-mode completion; transport failures become an EngineError naming what to check. */
  async function complete(
    system: string,
    user: string,
    temperature: number,
    what: string,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    try {
      const res = await client.chat.completions.create(
        {
          model: opts.model,
          temperature,
          response_format: { type: 'json_object' },
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        },
        { signal },
      );
      return res.choices[0]?.message?.content ?? '';
    } catch (err) {
      if (signal?.aborted) throw new EngineError('aborted', '已取消', `${what} aborted`, { cause: err });
      const status = (err as { status?: number }).status;
      throw new EngineError(
        'remote_error',
        `语言模型请求失败${status ? `（HTTP ${status}）` : ''}，请稍后重试`,
        `chat completion failed${status ? ` (HTTP ${status})` : ''} (check LLM_BASE_URL / LLM_API_KEY / LLM_MODEL): ${(err as Error).message}`,
        { cause: err },
      );
    }
  }
  return {
    model: opts.model,
    async json(system, user, { signal } = {}) {
      return parseJsonObject(await complete(system, user, 0, 'chat', signal));
    },
    async condense(text, targetChars, { signal } = {}) {
      const goal = Math.max(1, Math.floor(targetChars));
      let best: string | null = null;
      let lastProblem = '';
      for (let i = 0; i < tries; i++) {
        const user =
          i === 0
            ? `Shorten this line to at most ${goal} characters:\n${text}`
            : `Your previous answer was not usable (${lastProblem}). Shorten this line to at most ${goal} characters, JSON only:\n${text}`;
        const content = await complete(SYSTEM, user, 0.2, 'condense', signal);
        const candidate = parseCondensed(content);
        if (!candidate) {
          lastProblem = 'not JSON with a "text" field';
          continue;
        }
        if (spokenLength(candidate) >= spokenLength(text)) {
          lastProblem = 'not shorter than the original';
          continue;
        }
        if (!best || spokenLength(candidate) < spokenLength(best)) best = candidate;
        if (spokenLength(candidate) <= goal * 1.1) return candidate;
        lastProblem = `still ${spokenLength(candidate)} characters, more than ${goal}`;
      }
      if (best) return best;
      throw new EngineError(
        'remote_error',
        '语言模型没有给出可用的精简结果',
        `the model gave no usable shorter line after ${tries} tries (${lastProblem})`,
      );
    },
  };
}

/** fitLine's `condense` callback on a chat client: a ratio of the current spoken length → a character goal. */
export function condenseWith(client: ChatClient) {
  return (text: string, targetRatio: number, opts: { signal?: AbortSignal } = {}) =>
    client.condense(text, Math.max(1, Math.floor(spokenLength(text) * targetRatio)), opts);
}
