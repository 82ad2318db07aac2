import OpenAI from 'openai';
import { cosine } from '../clone/speakers.ts';
import { textUnits } from '../dub/marks.ts';
import { EngineError } from '../errors.ts';
import type { ChatClient } from '../llm/chat.ts';
import { toSimplified } from './languages.ts';
import { type TranslationCache, translateLines } from './translate.ts';

/**
 * Back-translation proofreading (智能回译校对): each translation goes back to the source language
 * through the same structured path as `translateLines`, and its similarity to the source line is scored —
 * cosine of embeddings when an embedding endpoint is given, else `tokenOverlap`. Lines under the
 * threshold are flagged as drifting.
 */

export type EmbedFn = (texts: string[], signal?: AbortSignal) => Promise<number[][]>;

export interface DriftResult {
  id: string;
  back: string;
  /** 0..1 similarity of the back-translation to the source line. */
  score: number;
  flagged: boolean;
  method: 'embedding' | 'overlap';
}

/** Defaults, see ARCHITECTURE "Translation engines": overlap (Dice) and embedding cosine. */
export const DRIFT_THRESHOLD = { overlap: 0.5, embedding: 0.8 } as const;

/**
 * Dice coefficient (F1) of the multisets of Han characters and Latin words of two texts; punctuation,
 * case, full/half width and Traditional/Simplified script are ignored. Two empty texts score 1.
 */
export function tokenOverlap(a: string, b: string): number {
  const x = textUnits(toSimplified(a));
  const y = textUnits(toSimplified(b));
  if (!x.length && !y.length) return 1;
  if (!x.length || !y.length) return 0;
  const counts = new Map<string, number>();
  for (const u of x) counts.set(u, (counts.get(u) ?? 0) + 1);
  let common = 0;
  for (const u of y) {
    const n = counts.get(u) ?? 0;
    if (n > 0) {
      common++;
      counts.set(u, n - 1);
    }
  }
  return (2 * common) / (x.length + y.length);
}

const EMBED_BATCH = 64;

/**
 * Embeddings through the official SDK (`embeddings.create`, floats), 64 texts per request, any
 * OpenAI-compatible endpoint (OpenAI, DashScope, Ollama, vLLM, TEI…).
 */
export function createEmbedder(opts: {
  baseURL: string;
  apiKey: string;
  model: string;
  /** The settings an operator checks, named in the error (default EMBEDDING_BASE_URL / …_API_KEY / …_MODEL). */
  settings?: string;
}): EmbedFn {
  const settings = opts.settings ?? 'EMBEDDING_BASE_URL / EMBEDDING_API_KEY / EMBEDDING_MODEL';
  const client = new OpenAI({ baseURL: opts.baseURL, apiKey: opts.apiKey, timeout: 60_000, maxRetries: 2 });
  return async (texts, signal) => {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      const input = texts.slice(i, i + EMBED_BATCH);
      try {
        const res = await client.embeddings.create(
          { model: opts.model, input, encoding_format: 'float' },
          { signal },
        );
        const data = [...res.data].sort((a, b) => a.index - b.index);
        if (data.length !== input.length)
          throw new Error(`${data.length} embeddings for ${input.length} texts`);
        for (const d of data) out.push(d.embedding);
      } catch (err) {
        if (signal?.aborted) throw new EngineError('aborted', '已取消', 'embedding aborted', { cause: err });
        const status = (err as { status?: number }).status;
        throw new EngineError(
          'remote_error',
          `向量模型请求失败${status ? `（HTTP ${status}）` : ''}，请检查 ${settings}（当前模型 ${opts.model}）`,
          `embeddings failed${status ? ` (HTTP ${status})` : ''}: ${(err as Error).message}`,
          { cause: err },
        );
      }
    }
    return out;
  };
}

export async function backTranslate(
  client: ChatClient,
  pairs: Array<{ id: string; source: string; translation: string }>,
  opts: {
    source: string;
    target: string;
    embed?: EmbedFn;
    threshold?: number;
    signal?: AbortSignal;
    cache?: TranslationCache;
  },
): Promise<{ lines: DriftResult[]; model: string }> {
  const back = await translateLines(
    client,
    pairs.map((p) => ({ id: p.id, text: p.translation })),
    { source: opts.target, target: opts.source, cache: opts.cache, signal: opts.signal },
  );
  const backs = back.lines.map((l) => l.text);
  const method = opts.embed ? 'embedding' : 'overlap';
  const threshold = opts.threshold ?? DRIFT_THRESHOLD[method];
  let scores: number[];
  if (opts.embed) {
    // Empty texts cannot be embedded: an empty back-translation scores 0.
    const idx = pairs.map((_, i) => i).filter((i) => pairs[i].source.trim() && backs[i].trim());
    const vectors = idx.length
      ? await opts.embed(
          idx.flatMap((i) => [pairs[i].source, backs[i]]),
          opts.signal,
        )
      : [];
    scores = pairs.map(() => 0);
    idx.forEach((i, k) => {
      // Clamped: a negative cosine is no more similar than an orthogonal one.
      scores[i] = Math.max(0, Math.min(1, cosine(vectors[2 * k], vectors[2 * k + 1])));
    });
  } else scores = pairs.map((p, i) => tokenOverlap(p.source, backs[i]));
  return {
    model: back.model,
    lines: pairs.map((p, i) => ({
      id: p.id,
      back: backs[i],
      score: Math.round(scores[i] * 1000) / 1000,
      flagged: scores[i] < threshold,
      method,
    })),
  };
}
