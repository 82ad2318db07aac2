import { pinyin } from 'pinyin-pro';
import { parseJsonObject } from '../llm/chat.ts';
import { isChinese, isCjkLanguage } from './languages.ts';
import { PUNCTUATE_PROMPT_MARK } from './punctuate.ts';
import { SUMMARY_PROMPT_MARK, TRANSLATE_PROMPT_MARK } from './translate.ts';

/**
 * The fake chat server's translator (tests and e2e only, not product code). Deterministic: Chinese →
 * another language is the toneless pinyin of the text (words spaced, first letter capitalised, Chinese
 * punctuation as ASCII, glossary translations substituted); → Chinese is the reverse, from its memory of
 * what it translated (unknown text comes back as is); other pairs come back as is. Summaries are a fixed
 * sentence naming the number of lines. Punctuation prompts get a comma after every fourth word and a
 * full stop at the end (`fakePunctuate`).
 */
export interface FakeTranslatorOptions {
  /** Source text → a wrong translation (not remembered, so its back-translation drifts). */
  mistranslate?: Record<string, string>;
  /** The first translation answer leaves out its last N lines. */
  dropOnce?: number;
  /** The first translation answer adds a line with an unknown id. */
  extraOnce?: boolean;
}

const PUNCT: Record<string, string> = {
  '，': ',',
  '。': '.',
  '？': '?',
  '！': '!',
  '；': ';',
  '：': ':',
  '、': ',',
  '“': '"',
  '”': '"',
  '‘': "'",
  '’': "'",
  '（': '(',
  '）': ')',
  '《': '"',
  '》': '"',
  '…': '...',
};

/** The fake's zh → other translation of one text. */
export function fakePinyin(
  text: string,
  glossary: Array<{ term: string; translation: string | null }> = [],
): string {
  const sorted = glossary.filter((g) => g.term).sort((a, b) => b.term.length - a.term.length);
  const tokens: string[] = [];
  const plain = (part: string) => {
    for (const m of part.matchAll(/(\p{Script=Han}+)|([^\p{Script=Han}]+)/gu)) {
      if (m[1]) tokens.push(...pinyin(m[1], { toneType: 'none', type: 'array' }));
      else
        tokens.push(
          ...[...m[2]]
            .map((c) => PUNCT[c] ?? c)
            .join('')
            .split(/\s+/u)
            .filter(Boolean),
        );
    }
  };
  let rest = '';
  for (let i = 0; i < text.length; ) {
    const g = sorted.find((e) => text.startsWith(e.term, i));
    if (!g) {
      rest += text[i++];
      continue;
    }
    plain(rest);
    rest = '';
    tokens.push(g.translation ?? g.term);
    i += g.term.length;
  }
  plain(rest);
  const out = tokens.join(' ').replace(/ ([,.?!;:)])/gu, '$1');
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** The fake's punctuation: a comma after every fourth word, a full stop at the end. */
export function fakePunctuate(text: string, language: string): string {
  const cjk = isCjkLanguage(language);
  const words = [...new Intl.Segmenter(language, { granularity: 'word' }).segment(text.trim())]
    .map((s) => s.segment)
    .filter((w) => w.trim());
  const out = words.map((w, i) => (i % 4 === 3 && i < words.length - 1 ? `${w}${cjk ? '，' : ','}` : w));
  return `${out.join(cjk ? '' : ' ')}${cjk ? '。' : '.'}`;
}

/** Reads the "Glossary" and "Do not translate" sections of a translation system prompt. */
function promptGlossary(system: string) {
  const out: Array<{ term: string; translation: string | null }> = [];
  let section: 'terms' | 'keep' | null = null;
  for (const line of system.split('\n')) {
    if (line.startsWith('Glossary')) section = 'terms';
    else if (line.startsWith('Do not translate')) section = 'keep';
    else if (line.startsWith('- ') && section) {
      const [term, translation] = line.slice(2).split(' => ');
      out.push({ term, translation: section === 'terms' ? (translation ?? null) : null });
    } else section = null;
  }
  return out;
}

export function createFakeTranslator(opts: FakeTranslatorOptions = {}) {
  /** translation → source, for back-translations. */
  const memory = new Map<string, string>();
  let first = true;
  return (messages: Array<{ role: string; content: string }>): string | null => {
    const system = messages[0]?.content ?? '';
    const user = parseJsonObject(messages.at(-1)?.content ?? '');
    if (system.startsWith(SUMMARY_PROMPT_MARK)) {
      const n = Array.isArray(user?.lines) ? user.lines.length : 0;
      return JSON.stringify({ summary: `A video of ${n} lines.` });
    }
    if (system.startsWith(PUNCTUATE_PROMPT_MARK)) {
      const language = /^Language: .*\(([^()]+)\)$/mu.exec(system)?.[1] ?? 'zh';
      const asked = (Array.isArray(user?.lines) ? user.lines : []) as Array<{ id: string; text: string }>;
      return JSON.stringify({
        lines: asked.map(({ id, text }) => ({ id, text: fakePunctuate(text, language) })),
      });
    }
    if (!system.startsWith(TRANSLATE_PROMPT_MARK)) return null;
    const source = /^Source language: .*\(([^()]+)\)$/mu.exec(system)?.[1] ?? '';
    const target = /^Target language: .*\(([^()]+)\)$/mu.exec(system)?.[1] ?? '';
    const glossary = promptGlossary(system);
    const asked = (Array.isArray(user?.lines) ? user.lines : []) as Array<{ id: string; text: string }>;
    let lines = asked.map(({ id, text }) => {
      // 'auto': Chinese when the text has Han characters.
      const zh = isChinese(source) || (source === 'auto' && /\p{Script=Han}/u.test(text));
      if (isChinese(target) && !zh) return { id, text: memory.get(text) ?? text };
      if (!zh || isChinese(target)) return { id, text };
      const wrong = opts.mistranslate?.[text];
      if (wrong !== undefined) return { id, text: wrong };
      const out = fakePinyin(text, glossary);
      memory.set(out, text);
      return { id, text: out };
    });
    if (first) {
      first = false;
      if (opts.dropOnce) lines = lines.slice(0, Math.max(0, lines.length - opts.dropOnce));
      if (opts.extraOnce) lines.push({ id: 'unknown-extra', text: 'An extra line' });
    }
    return JSON.stringify({ lines });
  };
}
