/**
 * Held-out attribution read the way the product reads it: inside the whole book. A passage taken from
 * a novel is put back after the book's paragraphs that precede it (from the start of the book, as
 * `importBook` and the audiobook import flatten them), its own paragraphs replaced by the fixture's so
 * the labels still follow; only the passage's quotes are scored (`scoreQuotes`, as `measureSpeakers` does).
 * The novels are not ours to ship: they are read from a directory outside the repository
 * (`BENCH_SPEAKERS_BOOKS`), each file as its repository has it:
 *   hankinghu/literature-books@864c0e77 骆驼祥子.txt, 四世同堂.txt, 红楼梦.txt (GB18030, GB18030, UTF-8);
 *   hexhero/book-txt@b46b8dda 西游记.txt, 三国演义.txt, 水浒传.txt (`git show <commit>:<file> > <dir>/<file>`).
 * 红楼梦第六回 and 第八回's fixtures are of another edition; the hankinghu text (the one of 第二十回) gives
 * their context.
 * The tuning passages from the novels are measured the same way (`IN_BOOK_TUNING`), so that what book
 * context does to attribution can be studied without looking at the held-out passages.
 */
import { join } from 'node:path';
import { importBook } from './import.ts';
import type { LabelledPassage } from './speakers.fixture.ts';
import { scoreQuotes } from './speakers.measure.ts';
import { attributeSpeakers, quoteSpeakers } from './speakers.ts';

/** Where a passage begins in its book: the file, and text that only the book's first paragraph of it holds. */
export interface PassageInBook {
  source: string;
  file: string;
  at: string;
  /** Which of the passage's paragraphs holds `at` (a heading before it, 十三, is not unique). */
  line?: number;
  /** The passage begins inside the book's paragraph (after a lead-in of another edition's wording):
   * the context is the paragraphs before it. */
  inside?: boolean;
}

export const IN_BOOK: PassageInBook[] = [
  { source: '曹雪芹《红楼梦》第八回', file: '红楼梦.txt', at: '这里薛姨妈已摆了几样细巧茶食' },
  { source: '老舍《骆驼祥子》第三章', file: '骆驼祥子.txt', at: '“色！色！色！”祥子叫骆驼们跪下' },
  { source: '老舍《骆驼祥子》第四章', file: '骆驼祥子.txt', at: '他的铺盖还在西安门大街人和车厂呢' },
  { source: '老舍《骆驼祥子》第六章', file: '骆驼祥子.txt', at: '不上人和厂，又上哪里去呢？' },
  { source: '老舍《四世同堂》第一段', file: '四世同堂.txt', at: '祁老太爷什么也不怕，只怕庆不了八十大寿' },
  {
    source: '吴承恩《西游记》第二十七回（前半）',
    file: '西游记.txt',
    at: '却说三藏师徒，次日天明，收拾前进',
  },
  { source: '罗贯中《三国演义》第四十六回（前半）', file: '三国演义.txt', at: '本章字数:4843' },
];

/** The tuning passages taken from the same novels (and 水浒传), placed the same way. */
export const IN_BOOK_TUNING: PassageInBook[] = [
  { source: '曹雪芹《红楼梦》第三回', file: '红楼梦.txt', at: '却说雨村忙回头看时' },
  { source: '曹雪芹《红楼梦》第六回', file: '红楼梦.txt', at: '谋事在人，成事在天', inside: true },
  { source: '曹雪芹《红楼梦》第二十回', file: '红楼梦.txt', at: '话说宝玉在黛玉房中说' },
  { source: '曹雪芹《红楼梦》第二十六回（前半）', file: '红楼梦.txt', at: '话说宝玉养过了三十三天之后' },
  { source: '曹雪芹《红楼梦》第三十一回（前半）', file: '红楼梦.txt', at: '话说袭人见了自己吐的鲜血在地' },
  { source: '曹雪芹《红楼梦》第四十四回（前半）', file: '红楼梦.txt', at: '话说宝玉和姐妹一处坐着' },
  { source: '施耐庵《水浒传》第一回', file: '水浒传.txt', at: '随即差人到王进家来捉拿王进' },
  { source: '施耐庵《水浒传》第二回（鲁提辖）', file: '水浒传.txt', at: '茶博士道：“只在前面便是。”' },
  { source: '施耐庵《水浒传》第二十三回（前半）', file: '水浒传.txt', at: '话说当日武都头回转身来看见那人' },
  { source: '吴承恩《西游记》第二十三回（前半）', file: '西游记.txt', at: '诗曰：奉法西来道路赊' },
  { source: '罗贯中《三国演义》第二十一回', file: '三国演义.txt', at: '却说董承等问马腾曰' },
  {
    source: '老舍《骆驼祥子》第十二章',
    file: '骆驼祥子.txt',
    at: '祥子想找个地方坐下，把前前后后细想',
    line: 1,
  },
  { source: '老舍《骆驼祥子》第十三章', file: '骆驼祥子.txt', at: '因有雪光，天仿佛亮得早了些', line: 1 },
  { source: '老舍《骆驼祥子》第十四章', file: '骆驼祥子.txt', at: '刘家的事办得很热闹', line: 1 },
];

/** The limits of the audiobook import (apps/server audiobook.service BOOK_LIMITS). */
const LIMITS = { maxBytes: 100 * 1024 * 1024, maxEntries: 5000, maxRatio: 200 };

/** A book's paragraphs per chapter, as the audiobook import hands them to attribution. */
export async function bookChapters(path: string): Promise<string[][]> {
  const book = await importBook(path, LIMITS);
  return book.chapters
    .filter((c) => c.paragraphs.some((p) => p.trim()))
    .map((c) => c.paragraphs.filter((p) => p.trim()));
}

/**
 * Paragraphs per chapter of the book's first `start` paragraphs followed by a passage of `length`:
 * the chapter it begins in is cut there, the passage going on with it (or starting the next one).
 */
export function contextSizes(chapters: number[], start: number, length: number): number[] {
  const sizes: number[] = [];
  let at = 0;
  for (const n of chapters) {
    if (at >= start) break;
    sizes.push(Math.min(n, start - at));
    at += n;
  }
  if (at === start || sizes.length === 0) sizes.push(length);
  else sizes[sizes.length - 1] += length;
  return sizes;
}

const squeeze = (s: string) => s.replace(/[\s\u3000]/gu, '');

/**
 * Index of the book's paragraph where the passage begins: the one paragraph holding `at`, less `line`;
 * that paragraph must begin as the passage's first does (unless the passage begins `inside` it).
 */
export function passageStart(
  paragraphs: string[],
  at: string,
  first: string,
  line = 0,
  inside = false,
): number {
  const hits = paragraphs.flatMap((p, i) => (squeeze(p).includes(squeeze(at)) ? [i] : []));
  if (hits.length !== 1) throw new Error(`${at}: found in ${hits.length} paragraphs`);
  const start = hits[0] - line;
  if (!inside && squeeze(paragraphs[start] ?? '').slice(0, 6) !== squeeze(first).slice(0, 6))
    throw new Error(`${at}: the book's paragraph does not begin as the passage does`);
  return start;
}

/**
 * Per paragraph, per quote, the speaker of the rules (`quoteSpeakers`, what `measureSpeakers` scores)
 * and of the product (`attributeSpeakers`, after its cast drops speakers that are no person).
 */
function speakersOf(paragraphs: string[], chapterSizes?: number[]) {
  const said = quoteSpeakers(paragraphs);
  const attributed = attributeSpeakers(paragraphs, chapterSizes);
  const product = said.map((quotes, i) => {
    const segments = attributed.paragraphs[i].segments.filter((s) => s.kind === 'quote');
    let k = 0;
    return quotes.map((q) => (q.speech ? (segments[k++]?.speaker ?? null) : null));
  });
  return { rules: said.map((q) => q.map((s) => s.speaker)), product };
}

export interface InBookResult {
  source: string;
  /** Where the context came from, or null for a whole text read alone. */
  book: string | null;
  contextParagraphs: number;
  contextChars: number;
  alone: { right: number; total: number };
  inBook: { right: number; total: number };
  /** The same with the product's `attributeSpeakers`. */
  aloneProduct: { right: number; total: number };
  inBookProduct: { right: number; total: number };
}

/** Each passage alone and inside its book (passages without a book entry count as alone in both). */
export async function measureInBook(
  passages: LabelledPassage[],
  dir: string,
  table: PassageInBook[] = IN_BOOK,
): Promise<InBookResult[]> {
  const books = new Map<string, string[][]>();
  const out: InBookResult[] = [];
  for (const p of passages) {
    const alone = speakersOf(p.paragraphs);
    const aloneScore = scoreQuotes(p, alone.rules.flat());
    const aloneProduct = scoreQuotes(p, alone.product.flat());
    const entry = table.find((e) => e.source === p.source);
    if (!entry) {
      out.push({
        source: p.source,
        book: null,
        contextParagraphs: 0,
        contextChars: 0,
        alone: aloneScore,
        inBook: aloneScore,
        aloneProduct,
        inBookProduct: aloneProduct,
      });
      continue;
    }
    let chapters = books.get(entry.file);
    if (!chapters) {
      chapters = await bookChapters(join(dir, entry.file));
      books.set(entry.file, chapters);
    }
    const paragraphs = chapters.flat();
    const start = passageStart(paragraphs, entry.at, p.paragraphs[0], entry.line, entry.inside);
    const context = paragraphs.slice(0, start);
    // The product hands attribution the import's chapters (audiobook.service attributeWithModel).
    const sizes = contextSizes(
      chapters.map((c) => c.length),
      start,
      p.paragraphs.length,
    );
    const whole = speakersOf([...context, ...p.paragraphs], sizes);
    out.push({
      source: p.source,
      book: entry.file,
      contextParagraphs: context.length,
      contextChars: context.join('').length,
      alone: aloneScore,
      inBook: scoreQuotes(p, whole.rules.slice(start).flat()),
      aloneProduct,
      inBookProduct: scoreQuotes(p, whole.product.slice(start).flat()),
    });
  }
  return out;
}
