import { EngineError } from '../errors.ts';
import type { ChatClient } from '../llm/chat.ts';
import { languageLabel } from './languages.ts';
import { type TranslateLine, validateTranslation } from './translate.ts';

/**
 * Language-model help for splitting (智能字幕断句): recognised lines without any punctuation (some
 * recognisers give none) get sentence and clause marks from the model, so `splitCues` can cut at them.
 * An answer is taken only when it adds punctuation and nothing else (the letters, digits and Han
 * characters in order are unchanged); otherwise the line stays as recognised.
 */

/** Marks punctuation prompts, so a fake chat server can recognise them. */
export const PUNCTUATE_PROMPT_MARK = 'Add punctuation to lines of recognised speech.';

export interface PunctuateResult {
  lines: TranslateLine[];
  model: string;
  /** Lines that got punctuation. */
  changed: number;
  /** Answers refused because they changed more than punctuation (or were missing). */
  rejected: number;
  requests: number;
}

/** The text without punctuation, symbols and spaces (NFKC, lower-cased): what punctuating may not change. */
const bare = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]/gu, '');

const hasPunctuation = (s: string) => /[\p{P}]/u.test(s);

export async function punctuate(
  client: ChatClient,
  lines: TranslateLine[],
  opts: { language: string; chunkSize?: number; signal?: AbortSignal },
): Promise<PunctuateResult> {
  const result: PunctuateResult = { lines: [], model: client.model, changed: 0, rejected: 0, requests: 0 };
  const out = new Map(lines.map((l) => [l.id, l.text]));
  const todo = lines.filter((l) => l.text.trim() && !hasPunctuation(l.text));
  const size = Math.max(1, opts.chunkSize ?? 30);
  const system = [
    PUNCTUATE_PROMPT_MARK,
    `Language: ${languageLabel(opts.language)}`,
    'Add sentence and clause punctuation to the "text" of every item of "lines", as it is written in that language. Do not change, add, remove or reorder any word or character; keep every id.',
    'Answer with JSON only: {"lines":[{"id":"<id>","text":"<the same text with punctuation>"}]}',
  ].join('\n');
  for (let i = 0; i < todo.length; i += size) {
    if (opts.signal?.aborted) throw new EngineError('aborted', '已取消', 'punctuation aborted');
    const chunk = todo.slice(i, i + size);
    result.requests++;
    const answer = await client.json(system, JSON.stringify({ lines: chunk }), { signal: opts.signal });
    const { texts } = validateTranslation(answer, new Set(chunk.map((l) => l.id)));
    for (const line of chunk) {
      const text = texts.get(line.id);
      if (text && bare(text) === bare(line.text) && hasPunctuation(text)) {
        out.set(line.id, text);
        result.changed++;
      } else result.rejected++;
    }
  }
  result.lines = lines.map((l) => ({ id: l.id, text: out.get(l.id) ?? l.text }));
  return result;
}
