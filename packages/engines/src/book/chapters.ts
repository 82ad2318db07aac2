import type { BookChapter } from './types.ts';

const CN_NUM = '0-9０-９零〇一二两三四五六七八九十百千万壹贰叁肆伍陆柒捌玖拾佰仟';
const NUMBERED = new RegExp(`^第[${CN_NUM}]+\\s*([章回节卷集部篇])(?:$|[\\s:：、.．·—\\-]|(?=\\S))`, 'u');
const NAMED =
  /^(序章|序言|序幕|楔子|引子|前言|尾声|后记|终章|番外(?:篇)?(?:[0-9０-９一二三四五六七八九十]+)?)(?:$|[\s:：、.．·—-])/u;
const ENGLISH = /^(?:chapter|prologue|epilogue)\b(?:\s+(?:[0-9]+|[ivxlcdm]+|[a-z-]+))?/i;

/** A line that names a chapter: short, not a sentence, and shaped like one of the heading patterns. */
export function headingKind(line: string): 'volume' | 'chapter' | undefined {
  const t = line.trim();
  if (!t || t.length > 40) return undefined;
  if (/[。！？!?”」]$/u.test(t) && !/^(chapter|prologue|epilogue)/i.test(t)) return undefined;
  if (/[“「]/u.test(t)) return undefined;
  const m = NUMBERED.exec(t);
  if (m) return m[1] === '卷' || m[1] === '部' ? 'volume' : 'chapter';
  if (NAMED.test(t)) return 'chapter';
  if (ENGLISH.test(t) && t.length <= 60) return 'chapter';
  return undefined;
}

/** Paragraph text: full-width indentation and surrounding spaces removed. */
export function cleanParagraph(line: string): string {
  return line.replace(/^[\s\u3000\u00a0]+|[\s\u3000\u00a0]+$/gu, '');
}

/**
 * Splits plain text into chapters at Chinese (第…章/回/节/卷, 序章, 楔子, 尾声, 番外) and English
 * (Chapter N) headings. Text before the first heading becomes 前言 (merged into the first chapter when it
 * is a line or two of under 20 characters, such as a bare title); text without any heading is one chapter 正文. A volume heading with no text of its
 * own prefixes the chapter that follows ("第一卷 风起 · 第一章 出山").
 */
export function detectChapters(text: string): BookChapter[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const chapters: BookChapter[] = [];
  let current: BookChapter | undefined;
  let volume: string | undefined;
  const preamble: string[] = [];
  for (const raw of lines) {
    const line = cleanParagraph(raw);
    if (!line) continue;
    const kind = headingKind(line);
    if (kind === 'volume') {
      volume = line.replace(/\s+/g, ' ');
      current = undefined;
      continue;
    }
    if (kind === 'chapter') {
      const title = line.replace(/\s+/g, ' ');
      current = { title: volume ? `${volume} · ${title}` : title, paragraphs: [] };
      volume = undefined;
      chapters.push(current);
      continue;
    }
    if (volume && !current) {
      // A volume with text of its own and no chapter heading yet becomes a chapter itself.
      current = { title: volume, paragraphs: [] };
      volume = undefined;
      chapters.push(current);
    }
    if (current) current.paragraphs.push(line);
    else preamble.push(line);
  }
  if (volume) chapters.push({ title: volume, paragraphs: [] });
  if (!chapters.length) return preamble.length ? [{ title: '正文', paragraphs: preamble }] : [];
  if (preamble.length) {
    const chars = preamble.join('').length;
    if (preamble.length <= 2 && chars < 20) chapters[0].paragraphs.unshift(...preamble);
    else chapters.unshift({ title: '前言', paragraphs: preamble });
  }
  return chapters.filter((c) => c.paragraphs.length > 0 || c.title);
}
