import { readFile, stat } from 'node:fs/promises';
import { basename, extname, posix } from 'node:path';
import iconv from 'iconv-lite';
import jschardet from 'jschardet';
import { cleanParagraph, detectChapters, headingKind, matterKind } from './chapters.ts';
import {
  type BookChapter,
  type BookFormat,
  BookImportError,
  type ImportedBook,
  type ImportLimits,
} from './types.ts';
import { ZipReader } from './zip.ts';

/**
 * Book files → title, author, cover and chapters of paragraphs. Archives (EPUB, DOCX) go through
 * `ZipReader` with the caller's limits; a file with nothing to read aloud is refused with 3001.
 */
export async function importBook(file: string, opts: ImportLimits): Promise<ImportedBook> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) throw new BookImportError(3000, '文件检查未通过：找不到上传的文件，请重新上传。');
  if (info.size > opts.maxBytes) {
    throw new BookImportError(
      3000,
      `文件检查未通过：文件大小 ${(info.size / 1048576).toFixed(1)} MB 超过上限 ${(opts.maxBytes / 1048576).toFixed(1)} MB，请拆分后再上传。`,
    );
  }
  if (info.size === 0) throw new BookImportError(3001, '文本提取失败：文件是空的，请检查后重新上传。');
  const buf = await readFile(file);
  const format = detectFormat(file, buf);
  const fallbackTitle = basename(file, extname(file));
  let book: ImportedBook;
  switch (format) {
    case 'epub':
      book = importEpub(buf, opts, fallbackTitle);
      break;
    case 'docx':
      book = importDocx(buf, opts, fallbackTitle);
      break;
    case 'pdf':
      book = await importPdf(buf, fallbackTitle);
      break;
    case 'md':
      book = importMarkdown(decodeText(buf).text, fallbackTitle);
      break;
    default: {
      const { text, encoding } = decodeText(buf);
      book = { ...importPlain(text, fallbackTitle), encoding };
    }
  }
  book.chapters = book.chapters
    .map((c) => {
      const title = c.title.trim() || '未命名章节';
      // Front and back matter named in a table of contents or a heading (EPUB, DOCX, Markdown) too.
      const kind = c.kind ?? matterKind(title);
      return {
        title,
        paragraphs: c.paragraphs.filter((p) => p.trim()),
        ...(kind && kind !== 'chapter' ? { kind } : {}),
      };
    })
    .filter((c) => c.paragraphs.length > 0);
  const chars = book.chapters.reduce((n, c) => n + c.paragraphs.join('').replace(/\s/g, '').length, 0);
  if (chars === 0) {
    throw new BookImportError(
      3001,
      format === 'pdf'
        ? '文本提取失败：这个 PDF 没有文字层（可能是扫描件或图片），请先用 OCR 转成可复制文字的 PDF 或 TXT 再导入。'
        : '文本提取失败：文件里没有可朗读的文字，请确认内容后重新上传。',
    );
  }
  return book;
}

function detectFormat(file: string, buf: Buffer): BookFormat {
  const ext = extname(file).toLowerCase();
  if (buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if ((buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50) || ext === '.epub' || ext === '.docx') {
    if (ext === '.docx') return 'docx';
    if (ext === '.epub') return 'epub';
    const head = buf.subarray(0, 200).toString('latin1');
    if (head.includes('mimetypeapplication/epub+zip')) return 'epub';
    if (head.includes('[Content_Types].xml') || head.includes('word/')) return 'docx';
    throw new BookImportError(
      3000,
      '文件检查未通过：不支持的压缩包格式，请上传 TXT、EPUB、DOCX、Markdown 或 PDF。',
    );
  }
  if (ext === '.md' || ext === '.markdown') return 'md';
  if (ext === '.pdf') return 'pdf';
  if (ext === '' || ext === '.txt' || ext === '.text') return 'txt';
  throw new BookImportError(
    3000,
    `文件检查未通过：不支持 ${ext} 文件，请上传 TXT、EPUB、DOCX、Markdown 或 PDF。`,
  );
}

// ------------------------------------------------------------------------------------- text

// Common characters in both scripts: the decoding that yields more of them is the right one.
const COMMON = new Set([
  ...'的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴急罗断亚愿病质',
  ...'這個們來說會時對為國麼後過發還當學問開經頭現動實點種幾間長見樣進從體場總處數員應給聽邊讓話認門車無與東書電愛錢聲張機內號將隊軍聯風戰萬師陳劉覺氣],傳業觀帶師並個們',
]);

function commonShare(text: string): number {
  let han = 0;
  let common = 0;
  let bad = 0;
  for (const ch of text) {
    if (ch === '\ufffd') bad++;
    else if (/\p{Script=Han}/u.test(ch)) {
      han++;
      if (COMMON.has(ch)) common++;
    }
  }
  return han === 0 ? (bad ? -1 : 0) : common / han - bad / Math.max(han, 1);
}

/**
 * Text encoding: a BOM, else strict UTF-8, else the better of GB18030 and Big5 by the share of common
 * Chinese characters each decoding yields (jschardet's guess breaks a tie). Returns the name used.
 */
export function decodeText(buf: Buffer): { text: string; encoding: string } {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf)
    return { text: buf.subarray(3).toString('utf8'), encoding: 'UTF-8' };
  if (buf[0] === 0xff && buf[1] === 0xfe)
    return { text: iconv.decode(buf.subarray(2), 'utf16le'), encoding: 'UTF-16LE' };
  if (buf[0] === 0xfe && buf[1] === 0xff)
    return { text: iconv.decode(buf.subarray(2), 'utf16be'), encoding: 'UTF-16BE' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf), encoding: 'UTF-8' };
  } catch {
    // not UTF-8
  }
  const sample = buf.subarray(0, 64 * 1024);
  const gb = commonShare(iconv.decode(sample, 'gb18030'));
  const big5 = commonShare(iconv.decode(sample, 'big5'));
  let encoding = gb >= big5 ? 'GB18030' : 'Big5';
  if (Math.abs(gb - big5) < 0.02) {
    const guess = jschardet.detect(sample).encoding?.toLowerCase() ?? '';
    if (guess.includes('big5')) encoding = 'Big5';
    else if (guess.includes('gb')) encoding = 'GB18030';
  }
  return { text: iconv.decode(buf, encoding === 'Big5' ? 'big5' : 'gb18030'), encoding };
}

/** TXT: 《书名》 / 书名： and 作者： lines at the top are metadata; chapters from the heading patterns. */
function importPlain(text: string, fallbackTitle: string): ImportedBook {
  let title = fallbackTitle;
  let author = '';
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  let seenHeading = false;
  for (const [i, raw] of lines.entries()) {
    const line = cleanParagraph(raw);
    if (!seenHeading && headingKind(line)) seenHeading = true;
    if (!seenHeading && i < 12) {
      const a = /^(?:作者|著者|作\s*者)\s*[：:]\s*(.+)$/u.exec(line);
      if (a) {
        author = a[1].trim();
        continue;
      }
      const t = /^(?:书名|書名|标题)\s*[：:]\s*(.+)$/u.exec(line) ?? /^《([^》]{1,40})》$/u.exec(line);
      if (t) {
        title = t[1].trim();
        continue;
      }
    }
    kept.push(raw);
  }
  return { format: 'txt', title, author, chapters: detectChapters(kept.join('\n')) };
}

function stripMarkdown(line: string): string {
  return line
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(\*|_)(.*?)\1/g, '$2')
    .replace(/~~(.*?)~~/g, '$1')
    .replace(/^\s{0,3}(?:>\s?)+/, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/** Markdown: a lone top-level heading is the title; the level below it (or # when there are several) splits chapters. */
function importMarkdown(text: string, fallbackTitle: string): ImportedBook {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let inFence = false;
  let inFront = false;
  const body: string[] = [];
  let title = fallbackTitle;
  let author = '';
  for (const [i, line] of lines.entries()) {
    if (i === 0 && line.trim() === '---') {
      inFront = true;
      continue;
    }
    if (inFront) {
      if (line.trim() === '---') inFront = false;
      const m = /^(title|author)\s*:\s*["']?(.*?)["']?\s*$/i.exec(line);
      if (m?.[1].toLowerCase() === 'title') title = m[2];
      else if (m) author = m[2];
      continue;
    }
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (!inFence) body.push(line);
  }
  const levels = body.map((l) => /^(#{1,6})\s+/.exec(l)?.[1].length ?? 0);
  const h1 = levels.filter((l) => l === 1).length;
  const splitLevel =
    h1 === 1 && levels.some((l) => l === 2) ? 2 : Math.min(...levels.filter((l) => l > 0), 7);
  const chapters: BookChapter[] = [];
  let current: BookChapter | undefined;
  const preamble: string[] = [];
  let para: string[] = [];
  const flush = () => {
    if (!para.length) return;
    const text = para.join(/[a-z0-9]$/i.test(para[0]) ? ' ' : '');
    para = [];
    if (current) current.paragraphs.push(text);
    else preamble.push(text);
  };
  body.forEach((line, i) => {
    const level = levels[i];
    if (level) {
      flush();
      const heading = stripMarkdown(line.replace(/^#{1,6}\s+/, '').replace(/\s+#+\s*$/, ''));
      if (level === 1 && h1 === 1 && splitLevel === 2) {
        if (title === fallbackTitle) title = heading;
        return;
      }
      if (level <= splitLevel) {
        current = { title: heading, paragraphs: [] };
        chapters.push(current);
      } else para.push(heading);
      flush();
      return;
    }
    const t = stripMarkdown(line);
    if (!t || /^(-{3,}|\*{3,}|_{3,})$/.test(line.trim()) || /^\|?[\s:-]+\|/.test(line)) flush();
    else para.push(t);
  });
  flush();
  if (preamble.length) chapters.unshift({ title: '前言', paragraphs: preamble, kind: 'chapter' });
  if (!chapters.length) return { format: 'md', title, author, chapters: [] };
  return { format: 'md', title, author, chapters };
}

// ------------------------------------------------------------------------------------- XML helpers

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
  return m ? decodeEntities(m[2] ?? m[3] ?? '') : undefined;
}

function tagText(xml: string, tag: string): string {
  const m = new RegExp(`<(?:[\\w-]+:)?${tag}\\b[^>]*>([\\s\\S]*?)</(?:[\\w-]+:)?${tag}>`, 'i').exec(xml);
  return m ? decodeEntities(m[1].replace(/<[^>]+>/g, '')).trim() : '';
}

/** XHTML → paragraphs (block elements end a paragraph) and the first heading, if any. */
function htmlParagraphs(html: string): { heading?: string; paragraphs: string[] } {
  const body = /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  const cleaned = body
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<rt\b[\s\S]*?<\/rt>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n');
  const headingMatch = /<h([1-3])\b[^>]*>([\s\S]*?)<\/h\1>/i.exec(cleaned);
  const heading = headingMatch
    ? decodeEntities(headingMatch[2].replace(/<[^>]+>/g, ''))
        .replace(/\s+/g, ' ')
        .trim()
    : undefined;
  const withoutHeading = headingMatch ? cleaned.replace(headingMatch[0], '\n') : cleaned;
  const text = withoutHeading
    .replace(/<\/(p|div|h[1-6]|li|blockquote|tr|section|article)>/gi, '\n')
    .replace(/<[^>]+>/g, '');
  const paragraphs = decodeEntities(text).split('\n').map(cleanParagraph).filter(Boolean);
  return { heading: heading || undefined, paragraphs };
}

// ------------------------------------------------------------------------------------- EPUB

function importEpub(buf: Buffer, limits: ImportLimits, fallbackTitle: string): ImportedBook {
  const zip = new ZipReader(buf, limits);
  if (!zip.has('META-INF/container.xml'))
    throw new BookImportError(3000, '文件检查未通过：EPUB 缺少 META-INF/container.xml，请重新导出电子书。');
  const container = zip.readText('META-INF/container.xml');
  const rootTag = /<rootfile\b[^>]*>/i.exec(container)?.[0];
  const opfPath = rootTag ? attr(rootTag, 'full-path') : undefined;
  if (!opfPath || !zip.has(opfPath))
    throw new BookImportError(3000, '文件检查未通过：EPUB 找不到内容清单（OPF），请重新导出电子书。');
  const opf = zip.readText(opfPath);
  const base = posix.dirname(opfPath);
  const resolve = (href: string) =>
    posix.normalize(posix.join(base === '.' ? '' : base, decodeURIComponent(href.split('#')[0])));

  const manifest = new Map<string, { href: string; type: string; props: string }>();
  for (const m of opf.matchAll(/<item\b[^>]*>/gi)) {
    const id = attr(m[0], 'id');
    const href = attr(m[0], 'href');
    if (id && href)
      manifest.set(id, {
        href: resolve(href),
        type: attr(m[0], 'media-type') ?? '',
        props: attr(m[0], 'properties') ?? '',
      });
  }
  const spineTag = /<spine\b[^>]*>/i.exec(opf)?.[0] ?? '';
  const spine = [...opf.matchAll(/<itemref\b[^>]*>/gi)]
    .filter((m) => attr(m[0], 'linear') !== 'no')
    .map((m) => manifest.get(attr(m[0], 'idref') ?? ''))
    .filter((x): x is { href: string; type: string; props: string } => !!x);

  // Table of contents: EPUB 3 nav document, else the NCX named by the spine.
  const toc = new Map<string, string>();
  const nav = [...manifest.values()].find((i) => i.props.split(/\s+/).includes('nav'));
  if (nav && zip.has(nav.href)) {
    const html = zip.readText(nav.href);
    const tocNav = /<nav\b[^>]*epub:type\s*=\s*["']toc["'][^>]*>([\s\S]*?)<\/nav>/i.exec(html)?.[1] ?? html;
    const navBase = posix.dirname(nav.href);
    for (const a of tocNav.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)) {
      const href = attr(a[0], 'href');
      const title = decodeEntities(a[2].replace(/<[^>]+>/g, '')).trim();
      if (href && title) {
        const key = posix.normalize(posix.join(navBase, decodeURIComponent(href.split('#')[0])));
        if (!toc.has(key)) toc.set(key, title);
      }
    }
  }
  const ncxItem =
    manifest.get(attr(spineTag, 'toc') ?? '') ??
    [...manifest.values()].find((i) => i.type === 'application/x-dtbncx+xml');
  if (!toc.size && ncxItem && zip.has(ncxItem.href)) {
    const ncx = zip.readText(ncxItem.href);
    const ncxBase = posix.dirname(ncxItem.href);
    for (const p of ncx.matchAll(
      /<navPoint\b[\s\S]*?<text>([\s\S]*?)<\/text>[\s\S]*?<content\b([^>]*)\/?>/gi,
    )) {
      const src = attr(`<c ${p[2]}>`, 'src');
      const title = decodeEntities(p[1]).trim();
      if (src && title) {
        const key = posix.normalize(posix.join(ncxBase, decodeURIComponent(src.split('#')[0])));
        if (!toc.has(key)) toc.set(key, title);
      }
    }
  }

  const chapters: BookChapter[] = [];
  for (const item of spine) {
    if (!/html|xml/i.test(item.type) || item === nav || !zip.has(item.href)) continue;
    const { heading, paragraphs } = htmlParagraphs(zip.readText(item.href));
    const title = toc.get(item.href) ?? heading;
    if (!paragraphs.length) continue;
    // Paragraphs repeating the title (a heading inside the file) are not read twice.
    const body = title && paragraphs[0] === title ? paragraphs.slice(1) : paragraphs;
    if (title) chapters.push({ title, paragraphs: body });
    else if (chapters.length) chapters[chapters.length - 1].paragraphs.push(...body);
    else chapters.push({ title: '前言', paragraphs: body, kind: 'chapter' });
  }

  let cover: ImportedBook['cover'];
  const coverMeta = /<meta\b[^>]*name\s*=\s*["']cover["'][^>]*>/i.exec(opf)?.[0];
  const coverItem =
    [...manifest.values()].find((i) => i.props.split(/\s+/).includes('cover-image')) ??
    (coverMeta ? manifest.get(attr(coverMeta, 'content') ?? '') : undefined);
  if (coverItem?.type.startsWith('image/') && zip.has(coverItem.href)) {
    cover = { bytes: zip.read(coverItem.href), mime: coverItem.type };
  }
  return {
    format: 'epub',
    title: tagText(opf, 'title') || fallbackTitle,
    author: tagText(opf, 'creator'),
    cover,
    chapters,
  };
}

// ------------------------------------------------------------------------------------- DOCX

const HEADING_STYLE = /^(heading|标题|title)\s*([1-3])?$|^([1-3])$/i;

function importDocx(buf: Buffer, limits: ImportLimits, fallbackTitle: string): ImportedBook {
  const zip = new ZipReader(buf, limits);
  if (!zip.has('word/document.xml'))
    throw new BookImportError(
      3000,
      '文件检查未通过：DOCX 缺少正文（word/document.xml），请用 Word 重新保存后上传。',
    );
  const xml = zip.readText('word/document.xml');
  // Style ids → names, so a heading styled "1" or "a1" with the name "heading 1" is found too.
  const styleNames = new Map<string, string>();
  if (zip.has('word/styles.xml')) {
    for (const s of zip.readText('word/styles.xml').matchAll(/<w:style\b([^>]*)>([\s\S]*?)<\/w:style>/g)) {
      const id = attr(`<s ${s[1]}>`, 'w:styleId');
      const name = /<w:name\s+w:val="([^"]*)"/.exec(s[2])?.[1];
      if (id && name) styleNames.set(id, name);
    }
  }
  const chapters: BookChapter[] = [];
  let current: BookChapter | undefined;
  const preamble: string[] = [];
  let title = '';
  for (const p of xml.matchAll(/<w:p\b[^>]*>([\s\S]*?)<\/w:p>/g)) {
    const inner = p[1];
    const styleId = /<w:pStyle\s+w:val="([^"]*)"/.exec(inner)?.[1] ?? '';
    const style = (styleNames.get(styleId) ?? styleId).replace(/\s+/g, ' ').trim();
    const text = decodeEntities(
      [...inner.matchAll(/<w:t(?:\s[^>]*)?>([\s\S]*?)<\/w:t>|<w:tab\/>|<w:br\/>/g)]
        .map((m) => (m[0].startsWith('<w:tab') ? ' ' : m[0].startsWith('<w:br') ? '\n' : m[1]))
        .join(''),
    ).trim();
    if (!text) continue;
    const h = HEADING_STYLE.exec(style.replace(/\s+/g, ' ').replace(/^heading /i, 'heading'));
    const isTitle = /^title$/i.test(style);
    if (isTitle && !title) {
      title = text;
      continue;
    }
    if (h || (!styleId && headingKind(text) === 'chapter')) {
      current = { title: text, paragraphs: [] };
      chapters.push(current);
      continue;
    }
    for (const line of text.split('\n').map(cleanParagraph).filter(Boolean)) {
      if (current) current.paragraphs.push(line);
      else preamble.push(line);
    }
  }
  if (preamble.length)
    chapters.unshift({ title: chapters.length ? '前言' : '正文', paragraphs: preamble, kind: 'chapter' });
  let author = '';
  if (zip.has('docProps/core.xml')) {
    const core = zip.readText('docProps/core.xml');
    title ||= tagText(core, 'title');
    author = tagText(core, 'creator');
  }
  return { format: 'docx', title: title || fallbackTitle, author, chapters };
}

// ------------------------------------------------------------------------------------- PDF

async function importPdf(buf: Buffer, fallbackTitle: string): Promise<ImportedBook> {
  const { extractText, getDocumentProxy, getMeta } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(buf));
  } catch {
    throw new BookImportError(3000, '文件检查未通过：PDF 文件损坏或已加密，请重新导出后上传。');
  }
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    const meta = await getMeta(pdf).catch(() => undefined);
    const info = (meta?.info ?? {}) as { Title?: string; Author?: string };
    // Lines of a page become paragraphs; chapters from headings in the text, else one per page.
    const pages = text.map((t) => t.replace(/[ \t]+\n/g, '\n'));
    const all = pages.join('\n');
    const chapters = detectChapters(all, { wrapped: true });
    return {
      format: 'pdf',
      title: info.Title?.trim() || fallbackTitle,
      author: info.Author?.trim() ?? '',
      chapters:
        chapters.length === 1 && chapters[0].title === '正文' && pages.length > 1
          ? pages.map((p, i) => ({
              title: `第 ${i + 1} 页`,
              paragraphs: detectChapters(p, { wrapped: true }).flatMap((c) => c.paragraphs),
            }))
          : chapters,
    };
  } finally {
    await pdf.cleanup().catch(() => undefined);
  }
}
