import { createHash } from 'node:crypto';
import { EngineError } from '../errors.ts';
import type { ChatClient } from '../llm/chat.ts';
import {
  isChinese,
  isTraditionalChinese,
  languageLabel,
  primaryLanguage,
  toSimplified,
  toTraditional,
} from './languages.ts';
import { flattenText } from './split.ts';

/**
 * Subtitle translation through any OpenAI-compatible chat model (`ChatClient.json`). Lines go in chunks
 * (default 30) with a few neighbouring lines as context and the whole-video summary; the model answers
 * `{"lines":[{"id","text"}]}`, validated line by line: unknown/duplicate ids dropped, missing or empty
 * lines asked again (only those, ≤ 2 retries, then a Chinese EngineError), a line whose glossary term
 * is not translated as asked is asked again once. Results are cached per line.
 */

/** Marks translation prompts, so a fake chat server can recognise them (see `translate/fake.ts`). */
export const TRANSLATE_PROMPT_MARK = 'Translate the subtitle lines of a video.';
/** Marks summary prompts. */
export const SUMMARY_PROMPT_MARK = 'Summarise the transcript of a video for its translators.';

export interface TranslatePrefs {
  /** 口语 / 正式 / 文学 / 营销 … */
  style?: string;
  audience?: string;
  tone?: string;
  instructions?: string;
}

/** `translation: null` = do not translate (keep the term as written). */
export interface GlossaryEntry {
  term: string;
  translation: string | null;
}

export interface TranslateLine {
  id: string;
  text: string;
}

/** Stores final translations by `translationCacheKey` (the server backs it with a table). */
export interface TranslationCache {
  get(key: string): Promise<string | undefined>;
  set(key: string, text: string): Promise<void>;
}

export interface TranslateOptions {
  /** Language codes: 'zh', 'en', 'ja', 'zh-Hant' / 'zh-TW' (Traditional: via Simplified + OpenCC), 'auto' as source. */
  source: string;
  target: string;
  prefs?: TranslatePrefs;
  glossary?: GlossaryEntry[];
  /** Whole-video summary given to every chunk (see `summarize`). */
  summary?: string;
  /** Lines per request (default 30). */
  chunkSize?: number;
  /** Neighbouring lines shown before and after each chunk, not translated (default 3). */
  contextLines?: number;
  /** Chunks in flight at once (default 2). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Lines done (cached, empty or translated) of all lines. */
  onProgress?: (done: number, total: number) => void;
  cache?: TranslationCache;
}

export interface TranslateResult {
  /** Same ids and order as the input. */
  lines: TranslateLine[];
  /** What translated: the chat model, `<model> + OpenCC`, or `OpenCC` alone (Chinese script conversion). */
  model: string;
  /** Lines whose final text came from asking again (missing, empty, glossary term not used). */
  repaired: number;
  /** Re-ask requests sent. */
  retries: number;
  /** Lines answered from the cache (no request). */
  cached: number;
  /** Chat requests sent (chunks + retries). */
  requests: number;
  /** Answer entries dropped: unknown or duplicated ids, malformed entries. */
  dropped: number;
}

const MAX_RETRIES = 2;

const clean = (s: string | undefined) => s?.trim() ?? '';
const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ');

/**
 * Whether `needle` occurs in `text`, ignoring case, width and spacing; a needle that starts/ends with a
 * Latin letter or digit must start/end at a word edge there ("AI" is not found in "said").
 */
export function containsTerm(text: string, needle: string): boolean {
  const t = norm(text);
  const n = norm(needle.trim());
  if (!n) return false;
  const edgeStart = /^[\p{L}\p{N}]/u.test(n) && !/^\p{Script=Han}/u.test(n);
  const edgeEnd = /[\p{L}\p{N}]$/u.test(n) && !/\p{Script=Han}$/u.test(n);
  for (let i = t.indexOf(n); i >= 0; i = t.indexOf(n, i + 1)) {
    const before = t[i - 1] ?? ' ';
    const after = t[i + n.length] ?? ' ';
    const word = /[\p{L}\p{N}]/u;
    const han = /\p{Script=Han}/u;
    if (edgeStart && word.test(before) && !han.test(before)) continue;
    if (edgeEnd && word.test(after) && !han.test(after)) continue;
    return true;
  }
  return false;
}

/** Glossary entries whose term occurs in the text. */
export function relevantGlossary(text: string, glossary: GlossaryEntry[] = []): GlossaryEntry[] {
  return glossary.filter((g) => clean(g.term) && containsTerm(text, g.term));
}

/** The glossary entries of `source` whose expected rendering (translation, or the term itself) is missing. */
export function glossaryMisses(source: string, translation: string, glossary: GlossaryEntry[] = []) {
  return relevantGlossary(source, glossary).filter(
    (g) => !containsTerm(translation, clean(g.translation ?? g.term)),
  );
}

const cleanPrefs = (p: TranslatePrefs = {}) =>
  Object.fromEntries(
    (['style', 'audience', 'tone', 'instructions'] as const)
      .map((k) => [k, clean(p[k])] as const)
      .filter(([, v]) => v),
  );

/**
 * sha256 (hex) of what determines a line's translation: its text, the languages, the preferences, the
 * glossary entries that occur in the text (others cannot change it) and the model.
 */
export function translationCacheKey(
  text: string,
  opts: Pick<TranslateOptions, 'source' | 'target' | 'prefs' | 'glossary'>,
  model: string,
): string {
  const glossary = relevantGlossary(text, opts.glossary)
    .map((g) => [g.term.trim(), g.translation === null ? null : g.translation.trim()])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  const key = JSON.stringify({
    v: 1,
    text,
    source: opts.source,
    target: opts.target,
    prefs: cleanPrefs(opts.prefs),
    glossary,
    model,
  });
  return createHash('sha256').update(key).digest('hex');
}

/** How a pair of languages is served: script conversion only, or the model (then maybe OpenCC). */
function route(source: string, target: string): { convert: 's2t' | 't2s' | null; llmTarget: string | null } {
  const tradTarget = isTraditionalChinese(target);
  if (isChinese(source) && isChinese(target)) {
    const tradSource = isTraditionalChinese(source);
    if (tradTarget && !tradSource) return { convert: 's2t', llmTarget: null };
    if (!tradTarget && tradSource) return { convert: 't2s', llmTarget: null };
  } else if (source === 'auto' || primaryLanguage(source) !== primaryLanguage(target)) {
    return tradTarget ? { convert: 's2t', llmTarget: 'zh-Hans' } : { convert: null, llmTarget: target };
  }
  throw new EngineError(
    'invalid_request',
    `源语言与目标语言相同（${source} → ${target}），无需翻译`,
    `source and target language are the same (${source} → ${target})`,
  );
}

function systemPrompt(
  source: string,
  target: string,
  prefs: TranslatePrefs | undefined,
  glossary: GlossaryEntry[],
  summary: string | undefined,
): string {
  const p = cleanPrefs(prefs);
  const out = [
    TRANSLATE_PROMPT_MARK,
    `Source language: ${languageLabel(source)}`,
    `Target language: ${languageLabel(target)}`,
    'Translate the "text" of every item of "lines" into the target language. Keep every id and answer exactly one item per id: do not merge, split, skip or add lines, even when a sentence runs over several lines.',
    'The items of "context_before" and "context_after" are neighbouring lines, given only so you understand the context: do not translate them and do not include them in the answer.',
    'These are subtitles: natural, concise, easy to read and to speak; keep names, numbers and meaning.',
  ];
  if (p.style) out.push(`Style: ${p.style}`);
  if (p.audience) out.push(`Audience: ${p.audience}`);
  if (p.tone) out.push(`Tone: ${p.tone}`);
  if (p.instructions) out.push(`Instructions from the user: ${p.instructions}`);
  const terms = glossary.filter((g) => g.translation !== null);
  const keep = glossary.filter((g) => g.translation === null);
  if (terms.length) {
    out.push('Glossary (always translate these terms exactly like this):');
    for (const g of terms) out.push(`- ${g.term.trim()} => ${clean(g.translation ?? '')}`);
  }
  if (keep.length) {
    out.push('Do not translate (keep exactly as written):');
    for (const g of keep) out.push(`- ${g.term.trim()}`);
  }
  if (clean(summary)) out.push(`Summary of the whole video: ${clean(summary)}`);
  out.push('Answer with JSON only: {"lines":[{"id":"<id>","text":"<translation>"}]}');
  return out.join('\n');
}

/** Validates an answer against the asked ids: text per known id, and how many entries were dropped. */
export function validateTranslation(
  answer: Record<string, unknown> | null,
  asked: Set<string>,
): { texts: Map<string, string>; dropped: number } {
  const texts = new Map<string, string>();
  let dropped = 0;
  const items = Array.isArray(answer?.lines) ? (answer.lines as unknown[]) : [];
  for (const item of items) {
    const e = item as { id?: unknown; text?: unknown } | null;
    const id = typeof e?.id === 'number' ? String(e.id) : typeof e?.id === 'string' ? e.id.trim() : null;
    if (!id || !asked.has(id) || texts.has(id) || typeof e?.text !== 'string') {
      dropped++;
      continue;
    }
    // An empty text is not an answer: the line is asked again.
    if (e.text.trim()) texts.set(id, e.text.trim());
  }
  return { texts, dropped };
}

const aborted = (signal?: AbortSignal) => {
  if (signal?.aborted) throw new EngineError('aborted', '已取消', 'translation aborted');
};

/** Runs `work` over items, at most `limit` at a time, in order of start; the first failure stops the rest. */
async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  let failed = false;
  const runners = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (!failed && next < items.length) {
      try {
        await work(items[next++]);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  });
  await Promise.all(runners);
}

export async function translateLines(
  client: ChatClient,
  given: TranslateLine[],
  opts: TranslateOptions,
): Promise<TranslateResult> {
  // Display line breaks are not part of the sentence.
  const lines = given.map((l) => ({ id: l.id, text: flattenText(l.text) }));
  const ids = new Set(lines.map((l) => l.id));
  if (ids.size !== lines.length)
    throw new EngineError('invalid_request', '字幕行的编号重复', 'duplicate line ids');
  const { convert, llmTarget } = route(opts.source, opts.target);
  const post = (s: string) =>
    convert === 's2t' ? toTraditional(s) : convert === 't2s' ? toSimplified(s) : s;
  const result: TranslateResult = {
    lines: [],
    model: llmTarget ? (convert ? `${client.model} + OpenCC` : client.model) : 'OpenCC',
    repaired: 0,
    retries: 0,
    cached: 0,
    requests: 0,
    dropped: 0,
  };
  const out = new Map<string, string>();
  const total = lines.length;
  const progress = () => opts.onProgress?.(out.size, total);

  if (!llmTarget) {
    for (const l of lines) out.set(l.id, post(l.text));
    progress();
    return { ...result, lines: lines.map((l) => ({ id: l.id, text: out.get(l.id) ?? '' })) };
  }

  // The model writes Simplified when the target is Traditional: the glossary is given to it that way.
  const glossary = (opts.glossary ?? [])
    .filter((g) => clean(g.term))
    .map((g) =>
      convert === 's2t' && g.translation ? { ...g, translation: toSimplified(g.translation) } : g,
    );
  const keyOf = (text: string) => translationCacheKey(text, opts, client.model);
  const pending: Array<{ line: TranslateLine; index: number }> = [];
  const hits = await Promise.all(
    lines.map((l) => (l.text && opts.cache ? opts.cache.get(keyOf(l.text)) : undefined)),
  );
  for (const [index, line] of lines.entries()) {
    if (!line.text) {
      out.set(line.id, '');
      continue;
    }
    const hit = hits[index];
    if (hit !== undefined) {
      out.set(line.id, hit);
      result.cached++;
    } else pending.push({ line, index });
  }
  progress();

  const size = Math.max(1, opts.chunkSize ?? 30);
  const ctx = Math.max(0, opts.contextLines ?? 3);
  const chunks: Array<typeof pending> = [];
  for (let i = 0; i < pending.length; i += size) chunks.push(pending.slice(i, i + size));

  await pool(chunks, opts.concurrency ?? 2, async (chunk) => {
    aborted(opts.signal);
    const first = chunk[0].index;
    const last = chunk.at(-1)?.index ?? first;
    const pick = (l: TranslateLine) => ({ id: l.id, text: l.text });
    // Neighbours with text (blank cues say nothing about the context).
    const before = ctx
      ? lines
          .slice(0, first)
          .filter((l) => l.text)
          .slice(-ctx)
          .map(pick)
      : [];
    const after = lines
      .slice(last + 1)
      .filter((l) => l.text)
      .slice(0, ctx)
      .map(pick);
    const chunkText = chunk.map((c) => c.line.text).join('\n');
    const system = systemPrompt(
      opts.source,
      llmTarget,
      opts.prefs,
      relevantGlossary(chunkText, glossary),
      opts.summary,
    );
    const texts = await translateChunk(
      client,
      system,
      chunk.map((c) => c.line),
      before,
      after,
      glossary,
      result,
      opts.signal,
    );
    for (const { line } of chunk) {
      const text = post(texts.get(line.id) ?? '');
      out.set(line.id, text);
      await opts.cache?.set(keyOf(line.text), text);
    }
    progress();
  });
  return { ...result, lines: lines.map((l) => ({ id: l.id, text: out.get(l.id) ?? '' })) };
}

async function translateChunk(
  client: ChatClient,
  system: string,
  chunk: TranslateLine[],
  before: TranslateLine[],
  after: TranslateLine[],
  glossary: GlossaryEntry[],
  result: TranslateResult,
  signal: AbortSignal | undefined,
): Promise<Map<string, string>> {
  const got = new Map<string, string>();
  const misses = new Map<string, number>();
  const glossaryAsked = new Set<string>();
  const reasked = new Set<string>();
  let ask = chunk;
  let note = '';
  for (let round = 0; ask.length; round++) {
    aborted(signal);
    const user = `${note}${JSON.stringify({ context_before: before, lines: ask, context_after: after })}`;
    result.requests++;
    if (round > 0) {
      result.retries++;
      for (const l of ask) reasked.add(l.id);
    }
    const answer = await client.json(system, user, { signal });
    const { texts, dropped } = validateTranslation(answer, new Set(ask.map((l) => l.id)));
    result.dropped += dropped;
    const next: TranslateLine[] = [];
    const problems: string[] = [];
    for (const line of ask) {
      const text = texts.get(line.id);
      if (!text) {
        // A glossary re-ask that came back empty keeps the first answer.
        if (got.has(line.id)) continue;
        const n = (misses.get(line.id) ?? 0) + 1;
        if (n > MAX_RETRIES)
          throw new EngineError(
            'remote_error',
            `语言模型在重试 ${MAX_RETRIES} 次后仍未返回字幕行 ${line.id} 的译文，请稍后重试，或在编辑器中手动翻译`,
            `the model did not return line ${line.id} after ${MAX_RETRIES} retries (LLM_BASE_URL / LLM_MODEL)`,
          );
        misses.set(line.id, n);
        next.push(line);
        problems.push(`line ${line.id} was missing or empty`);
        continue;
      }
      got.set(line.id, text);
      const missing = glossaryAsked.has(line.id) ? [] : glossaryMisses(line.text, text, glossary);
      if (missing.length) {
        glossaryAsked.add(line.id);
        next.push(line);
        problems.push(
          `line ${line.id} must use the glossary: ${missing.map((g) => `${g.term} => ${g.translation ?? g.term}`).join('; ')}`,
        );
      } else if (reasked.has(line.id)) result.repaired++;
    }
    ask = next;
    note = problems.length
      ? `Your previous answer had problems (${problems.join('; ')}). Translate exactly these lines again.\n`
      : '';
  }
  return got;
}

const SUMMARY_CHARS = 6000;

/**
 * A short summary of a transcript in `language` (topic, names, terms), for the translation prompts.
 * Long transcripts are summarised in pieces of about 6000 characters, then the summaries together.
 */
export async function summarize(
  client: ChatClient,
  texts: string[],
  opts: { language: string; signal?: AbortSignal },
): Promise<string> {
  const lines = texts.map((t) => t.trim()).filter(Boolean);
  if (!lines.length) return '';
  const pieces: string[][] = [[]];
  let size = 0;
  for (const line of lines) {
    if (size + line.length > SUMMARY_CHARS && pieces.at(-1)?.length) {
      pieces.push([]);
      size = 0;
    }
    pieces.at(-1)?.push(line);
    size += line.length;
  }
  if (pieces.length > 1) {
    const parts: string[] = [];
    for (const piece of pieces) parts.push(await summarize(client, piece, opts));
    return summarize(client, parts, opts);
  }
  const system = [
    SUMMARY_PROMPT_MARK,
    `Write in ${languageLabel(opts.language)}, at most 3 sentences: the topic, who speaks, names and special terms.`,
    'Answer with JSON only: {"summary":"<summary>"}',
  ].join('\n');
  const user = JSON.stringify({ lines });
  for (let i = 0; i <= MAX_RETRIES; i++) {
    aborted(opts.signal);
    const answer = await client.json(system, user, { signal: opts.signal });
    if (typeof answer?.summary === 'string' && answer.summary.trim()) return answer.summary.trim();
  }
  throw new EngineError(
    'remote_error',
    `语言模型在重试 ${MAX_RETRIES} 次后仍未给出视频摘要，请稍后重试`,
    `the model gave no summary after ${MAX_RETRIES} retries (LLM_BASE_URL / LLM_MODEL)`,
  );
}
