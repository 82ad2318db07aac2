import type { BookChapter, SectionKind } from './types.ts';

const CN_NUM = '0-9０-９零〇一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟';
const NUMBERED = new RegExp(`^第[${CN_NUM}]+\\s*([章回节卷集部篇])(?:$|[\\s:：、.．·—\\-]|(?=\\S))`, 'u');
const NAMED =
  /^(序章|序幕|楔子|引子|尾声|终章|番外(?:篇)?(?:[0-9０-９一二三四五六七八九十]+)?)(?:$|[\s:：、.．·—-])/u;
const ENGLISH = /^(?:chapter|prologue|epilogue)\b(?:\s+(?:[0-9]+|[ivxlcdm]+|[a-z-]+))?/i;
/**
 * Front and back matter, a whole line once its frame is gone (□注释, 【后记】, 注释：, 《呐喊》自序):
 * each is a section of its own, marked so the reader can leave it out of the recording.
 */
const MATTER: Array<[SectionKind, RegExp]> = [
  [
    'preface',
    /^(?:《[^》]{1,30}》[\u4e00-\u9fa5]{0,6})?(?:自序|代序|原序|新序|再版序|译者?序|序言?|前言|引言|小引|题记|题辞|卷首语)(?:[一二三四五六七八九十\d]{1,3})?$/u,
  ],
  [
    'afterword',
    /^(?:《[^》]{1,30}》[\u4e00-\u9fa5]{0,6})?(?:后记|後記|跋|后序|译后记|编后记|附记|写在后面)$/u,
  ],
  [
    'notes',
    /^(?:注释|註釋|注解|註解|注|註|附注|译注|校记|尾注|参考文献|附录(?:[一二三四五六七八九十\d]{1,3})?)$/u,
  ],
];
const FRAME = /^[□■◇◆○●★☆※【〔［[（(]+|[】〕］\]）)]+$|[：:]$/gu;

/** A line that names a chapter: short, not a sentence, and shaped like one of the heading patterns. */
export function headingKind(line: string): 'volume' | 'chapter' | undefined {
  const t = line.trim();
  if (!t || t.length > 40) return undefined;
  if (/[。！？!?”」]$/u.test(t) && !/^(chapter|prologue|epilogue)/i.test(t)) return undefined;
  if (/[“「]/u.test(t)) return undefined;
  const m = NUMBERED.exec(t);
  if (m) return m[1] === '卷' || m[1] === '部' ? 'volume' : 'chapter';
  if (NAMED.test(t) || matterKind(t)) return 'chapter';
  if (ENGLISH.test(t) && t.length <= 60) return 'chapter';
  return undefined;
}

/** The kind of front or back matter a heading line names (序, 前言, 后记, 注释, 附录 …), if any. */
export function matterKind(line: string): SectionKind | undefined {
  const t = line.trim().replace(FRAME, '').replace(/\s+/g, '');
  if (!t || t.length > 40) return undefined;
  return MATTER.find(([, re]) => re.test(t))?.[0];
}

/** Paragraph text: full-width indentation and surrounding spaces removed. */
export function cleanParagraph(line: string): string {
  return line.replace(/^[\s\u3000\u00a0]+|[\s\u3000\u00a0]+$/gu, '');
}

/** Columns of a line's indent: a full-width space is two, a tab four. */
function indentOf(raw: string): number {
  let n = 0;
  for (const ch of raw) {
    if (ch === ' ' || ch === '\u00a0') n += 1;
    else if (ch === '\u3000') n += 2;
    else if (ch === '\t') n += 4;
    else break;
  }
  return n;
}
const widthOf = (s: string) => [...s].reduce((n, ch) => n + (ch.charCodeAt(0) > 0xff ? 2 : 1), 0);

const ENDS_SENTENCE = /[。！？!?…”」』）)》．.~～]$/u;
const OPENS_WITH_CLOSER = /^[。，、；：！？,.;:!?”」』）》]/u;
const ENDS_MID_SENTENCE = /[，、；：,;:—]$/u;
const DATE_LINE = /^[一二三四五六七八九十〇○零\d]{2,4}年/u;
/** How a note starts: ⑴ ① ⒈ [1] 〔1〕 （⒈） 1. 1、 注1 * †; or a source line 〔《书名》〕. */
const NOTE_MARK =
  /^(?:[⑴-⒇①-⑳❶-❿⒈-⒛㈠-㈩]|[[［〔【(（]\s*(?:\d{1,3}|[⑴-⒇①-⑳⒈-⒛])\s*[\]］〕】)）]|\d{1,3}[.、．)]|注\s*\d|[*＊†]|〔《[^》]+》〕$)/u;

/**
 * The common line width of a hard-wrapped text (lines broken at a fixed column, as in many TXT
 * editions), or 0 when its lines are paragraphs of their own.
 */
function wrapWidth(lines: string[]): number {
  const kept = lines.map((l) => l.trimEnd()).filter((l) => l.trim());
  if (kept.length < 4) return 0;
  const count = new Map<number, number>();
  for (const l of kept) count.set(widthOf(l), (count.get(widthOf(l)) ?? 0) + 1);
  const [mode] = [...count.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0];
  const full = kept.filter((l) => Math.abs(widthOf(l) - mode) <= 2);
  // Broken at a column, full lines mostly stop mid-sentence; lines that are sentences of one length are not.
  const midSentence = full.filter((l) => !ENDS_SENTENCE.test(l)).length;
  return mode >= 30 && full.length / kept.length >= 0.3 && midSentence / full.length >= 0.5 ? mode : 0;
}

interface Line {
  text: string;
  indent: number;
  width: number;
  blankBefore: boolean;
  blankAfter: boolean;
}

/**
 * A title standing alone (a story's name in a collection): short, between blank lines, indented well
 * past the paragraphs or flush left where paragraphs are indented; not a sentence or a date.
 */
function isCentredTitle(l: Line, paragraphIndent: number): boolean {
  const placed =
    l.indent >= Math.max(8, paragraphIndent + 6) || (paragraphIndent > 0 && l.indent === 0 && l.blankBefore);
  return (
    placed &&
    l.blankAfter &&
    [...l.text].length <= 20 &&
    !ENDS_SENTENCE.test(l.text) &&
    !/[，,；;]/u.test(l.text) &&
    !DATE_LINE.test(l.text) &&
    !NOTE_MARK.test(l.text)
  );
}

/**
 * Splits plain text into chapters at Chinese (第…章/回/节/卷, 序章, 楔子, 尾声, 番外) and English
 * (Chapter N) headings and centred titles; prefaces, afterwords and notes (序, 后记, 注释, 附录 …) become
 * sections of their own with their `kind`. Lines of a hard-wrapped text join into paragraphs: a line
 * that does not end its sentence, or that fills the wrap width, continues in the next one; a blank
 * line or an indented line starts a new paragraph. Text before the first heading becomes 前言 (merged
 * into the first chapter when it is a line or two of under 20 characters, such as a bare title); text
 * without any heading is one chapter 正文. A volume heading with no text of its own prefixes the
 * chapter that follows ("第一卷 风起 · 第一章 出山"). `wrapped`: every line is known to be wrapped (PDF),
 * so a line that does not end its sentence continues even when no common width shows it.
 */
export function detectChapters(text: string, opts: { wrapped?: boolean } = {}): BookChapter[] {
  const rawLines = text.replace(/\r\n?/g, '\n').split('\n');
  const wrap = wrapWidth(rawLines);
  // Lines known to be wrapped without a common width (PDF): the width most full lines reach.
  const widths = rawLines.map((r) => widthOf(r.trim())).sort((a, b) => a - b);
  const wrappedWidth = opts.wrapped ? (widths[Math.floor(widths.length * 0.8)] ?? 0) : 0;
  const lines: Line[] = [];
  let blank = true;
  for (const raw of rawLines) {
    const t = cleanParagraph(raw);
    if (!t) {
      blank = true;
      if (lines.length) lines[lines.length - 1].blankAfter = true;
      continue;
    }
    lines.push({
      text: t,
      indent: indentOf(raw),
      width: widthOf(raw.trimEnd()),
      blankBefore: blank,
      blankAfter: false,
    });
    blank = false;
  }
  const indents = new Map<number, number>();
  for (const l of lines) if (l.indent > 0) indents.set(l.indent, (indents.get(l.indent) ?? 0) + 1);
  const paragraphIndent = [...indents.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;

  const chapters: BookChapter[] = [];
  let current: BookChapter | undefined;
  let volume: string | undefined;
  const preamble: string[] = [];
  let open: string | undefined; // the paragraph being joined
  let prev: Line | undefined;
  let notesSeen = false;
  /** Sections named by a title line of their own (not a heading pattern): see the end. */
  const centred = new Set<BookChapter>();
  const flush = () => {
    if (open === undefined) return;
    const paragraph = open;
    open = undefined;
    if (current?.kind === 'notes') {
      // Notes run while paragraphs start with a note mark; the text after them is the book again.
      if (NOTE_MARK.test(paragraph)) notesSeen = true;
      else if (notesSeen) {
        // Its first line is its title when it reads like one (a story's name), else it is 正文.
        const titled = [...paragraph].length <= 20 && !ENDS_SENTENCE.test(paragraph);
        current = { title: titled ? paragraph : '正文', paragraphs: [] };
        chapters.push(current);
        if (titled) {
          centred.add(current);
          return;
        }
      }
    }
    if (current) current.paragraphs.push(paragraph);
    else preamble.push(paragraph);
  };
  const startChapter = (title: string, kind: SectionKind) => {
    flush();
    current = { title: volume ? `${volume} · ${title}` : title, paragraphs: [] };
    if (kind !== 'chapter') current.kind = kind;
    notesSeen = false;
    volume = undefined;
    chapters.push(current);
  };
  for (const l of lines) {
    const line = l.text;
    // A line that fills the wrap width is text, whatever it starts with (…第一回是民国元年…).
    const kind = wrap && l.width >= wrap - 2 ? undefined : headingKind(line);
    if (kind === 'volume') {
      flush();
      volume = line.replace(/\s+/g, ' ');
      current = undefined;
      prev = undefined;
      continue;
    }
    const centredTitle = !kind && isCentredTitle(l, paragraphIndent);
    if (centredTitle && current && !prev && open === undefined && current.paragraphs.length === 0) {
      // A second centred line right under a heading (the author, a subtitle) belongs to it.
      current.title += ` · ${line}`;
      continue;
    }
    if (kind === 'chapter' || centredTitle) {
      const matter = matterKind(line);
      startChapter((matter ? line.replace(FRAME, '') : line).replace(/\s+/g, ' '), matter ?? 'chapter');
      if (centredTitle && current) centred.add(current);
      prev = undefined;
      continue;
    }
    if (volume && !current) {
      // A volume with text of its own and no chapter heading yet becomes a chapter itself.
      startChapter(volume, 'chapter');
    }
    if (open !== undefined && prev && continues(prev, l, wrap, wrappedWidth)) {
      open += /[A-Za-z0-9]$/.test(open) && /^[A-Za-z0-9]/.test(line) ? ` ${line}` : line;
    } else {
      flush();
      open = line;
    }
    prev = l;
  }
  flush();
  if (volume) chapters.push({ title: volume, paragraphs: [] });
  if (!chapters.length) return preamble.length ? [{ title: '正文', paragraphs: preamble }] : [];
  if (preamble.length) {
    const chars = preamble.join('').length;
    if (preamble.length <= 2 && chars < 20 && !chapters[0].kind) chapters[0].paragraphs.unshift(...preamble);
    // Untitled text before the first heading: the book's own, not a preface it names.
    else chapters.unshift({ title: '前言', paragraphs: preamble, kind: 'chapter' });
  }
  // A title with nothing under it: the name over the chapters that follow (阿Q正传 · 第一章), or, with
  // none following, a line of text (a signature) that goes back to the section before.
  const out: BookChapter[] = [];
  for (const [i, c] of chapters.entries()) {
    const next = chapters[i + 1];
    const last = out[out.length - 1];
    if (c.paragraphs.length > 0 || !centred.has(c)) out.push(c);
    else if (next && !next.kind) next.title = `${c.title} · ${next.title}`;
    else if (last) last.paragraphs.push(c.title);
    else out.push(c);
  }
  return out.filter((c) => c.paragraphs.length > 0 || c.title);
}

/** Whether a line carries on the paragraph of the line before it (a hard wrap, not a new paragraph). */
function continues(prev: Line, l: Line, wrap: number, wrappedWidth: number): boolean {
  if (l.blankBefore) return false;
  if (OPENS_WITH_CLOSER.test(l.text)) return true;
  if (l.indent > 0) return false;
  if (wrap) return !ENDS_SENTENCE.test(prev.text) || prev.width >= wrap - 2;
  if (ENDS_MID_SENTENCE.test(prev.text)) return true;
  // Known to be wrapped (PDF): a line as long as most, stopping mid-sentence, was cut by the layout;
  // a short one without a full stop is a title or a list item, not half a sentence.
  return wrappedWidth > 0 && !ENDS_SENTENCE.test(prev.text) && prev.width >= wrappedWidth * 0.6;
}
