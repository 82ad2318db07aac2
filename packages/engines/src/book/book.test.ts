import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIG5_TEXT,
  CHAPTER_BOOK,
  imageOnlyPdf,
  makeDocx,
  makeEpub,
  TINY_PNG,
  textPdf,
} from './book.fixture.ts';
import { detectChapters } from './chapters.ts';
import { importBook } from './import.ts';
import { attributeSpeakers } from './speakers.ts';
import { BookImportError } from './types.ts';

const limits = { maxBytes: 5 * 1024 * 1024, maxEntries: 200, maxRatio: 100 };
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'book-text-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(name: string, bytes: Uint8Array | string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  return file;
}

async function importCode(file: string, l = limits): Promise<number | undefined> {
  try {
    await importBook(file, l);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(BookImportError);
    expect((err as BookImportError).message).toMatch(/[\u4e00-\u9fa5]/u);
    return (err as BookImportError).code;
  }
}

describe('importBook: plain text', () => {
  it('detects GBK, reads title/author lines and splits 第…章/回 chapters; speakers are attributed', async () => {
    const file = await put('gbk.txt', iconv.encode(CHAPTER_BOOK, 'gbk'));
    const book = await importBook(file, limits);
    expect(book.format).toBe('txt');
    expect(book.encoding).toBe('GB18030');
    expect(book.title).toBe('山中来信');
    expect(book.author).toBe('林一');
    expect(book.chapters.map((c) => c.title)).toEqual(['第一章 出山', '第二章 下山', '第十二回 尾巴']);
    expect(book.chapters[0].paragraphs[0]).toBe('张三走进屋子，他看了看四周。');

    const all = book.chapters.flatMap((c) => c.paragraphs);
    const { paragraphs, characters } = attributeSpeakers(all);
    const quotes = paragraphs.flatMap((p) => p.segments.filter((s) => s.kind === 'quote'));
    expect(quotes.map((q) => [q.text, q.speaker])).toEqual([
      ['今天天气真好。', '张三'],
      ['是啊，我们出去走走吧。', '李梅'],
      ['去哪里？', '张三'], // a bare quote in a two-person exchange alternates
      ['去公园。', '李梅'],
      ['好。', '李梅'], // 她 → the last named woman
      ['你们两个要去哪里？', '王先生'],
    ]);
    expect(characters).toEqual([
      { name: '李梅', lines: 3, gender: 'female' },
      { name: '张三', lines: 2, gender: 'male' },
      { name: '王先生', lines: 1, gender: 'male' },
    ]);
    // Narration around the quote stays narration, without the quote marks.
    expect(paragraphs[1].segments).toEqual([
      { kind: 'narration', text: '张三笑着说：', speaker: null },
      { kind: 'quote', text: '今天天气真好。', speaker: '张三' },
    ]);
  });

  it('detects Big5 and UTF-8', async () => {
    const big5 = await importBook(await put('big5.txt', iconv.encode(BIG5_TEXT, 'big5')), limits);
    expect(big5.encoding).toBe('Big5');
    expect(big5.chapters[0]).toEqual({
      title: '第一章 開始',
      paragraphs: ['這是一個關於學習與時間的故事。', '「你們來了。」老師說。'],
    });
    const utf8 = await importBook(await put('utf8.txt', CHAPTER_BOOK), limits);
    expect(utf8.encoding).toBe('UTF-8');
    expect(utf8.chapters).toHaveLength(3);
    const gb18030 = await importBook(
      await put('gb.txt', iconv.encode('第一章 𠀀字\n正文：镕、喆、堃。', 'gb18030')),
      limits,
    );
    expect(gb18030.encoding).toBe('GB18030');
    expect(gb18030.chapters[0].paragraphs[0]).toBe('正文：镕、喆、堃。');
  });

  it('refuses files over the size limit (3000) and empty text (3001), leaving nothing behind', async () => {
    const big = await put('big.txt', 'x'.repeat(2048));
    expect(await importCode(big, { ...limits, maxBytes: 1024 })).toBe(3000);
    expect(await importCode(await put('blank.txt', '   \n\n  '))).toBe(3001);
    expect(await importCode(await put('book.exe', 'MZ'))).toBe(3000);
  });
});

describe('importBook: EPUB', () => {
  it('follows the spine, takes chapter titles from the table of contents, reads metadata and cover', async () => {
    const epub = makeEpub({
      title: '海边的故事',
      author: '陈二',
      cover: TINY_PNG,
      chapters: [
        {
          file: 'a.xhtml',
          tocTitle: '第一章 海风',
          heading: '第一章 海风',
          paragraphs: ['海风吹来。', '“你好 & 再见。”小红说。'],
        },
        { file: 'b.xhtml', tocTitle: '第二章 潮水', paragraphs: ['潮水退了。'] },
        { file: 'c.xhtml', tocTitle: '尾声', paragraphs: ['完。'] },
      ],
    });
    const book = await importBook(await put('book.epub', epub), limits);
    expect(book.format).toBe('epub');
    expect(book.title).toBe('海边的故事');
    expect(book.author).toBe('陈二');
    expect(book.chapters).toEqual([
      { title: '第一章 海风', paragraphs: ['海风吹来。', '“你好 & 再见。”小红说。'] },
      { title: '第二章 潮水', paragraphs: ['潮水退了。'] },
      { title: '尾声', paragraphs: ['完。'] },
    ]);
    expect(book.cover?.mime).toBe('image/png');
    expect(Buffer.compare(book.cover?.bytes ?? Buffer.alloc(0), TINY_PNG)).toBe(0);
  });

  it('refuses a zip bomb, a lying header, too many entries and a broken archive with 3000', async () => {
    // 12 MB of zeros compress to ~12 KB: the declared ratio gives it away before anything is inflated.
    const bomb = zipSync({
      mimetype: strToU8('application/epub+zip'),
      'OEBPS/zero.xhtml': new Uint8Array(12 * 1024 * 1024),
    });
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(await importCode(await put('bomb.epub', bomb), { ...limits, maxBytes: 100 * 1024 * 1024 })).toBe(
      3000,
    );

    // A header that declares 1 KB for an entry that inflates to 2 MB: stopped while inflating.
    const liar = Buffer.from(
      makeEpub({
        title: 't',
        author: 'a',
        chapters: [{ file: 'a.xhtml', tocTitle: '第一章', paragraphs: ['好'.repeat(700_000)] }],
      }),
    );
    const name = Buffer.from('OEBPS/text/a.xhtml');
    for (const [sig, sizeAt] of [
      [0x04034b50, 22],
      [0x02014b50, 24],
    ] as const) {
      for (let i = 0; i < liar.length - 4; i++) {
        const nameAt = sig === 0x04034b50 ? i + 30 : i + 46;
        if (liar.readUInt32LE(i) === sig && liar.subarray(nameAt, nameAt + name.length).equals(name)) {
          liar.writeUInt32LE(1024, i + sizeAt);
        }
      }
    }
    expect(await importCode(await put('liar.epub', liar))).toBe(3000);

    const many = zipSync(
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, strToU8('x')])),
    );
    expect(await importCode(await put('many.epub', many), { ...limits, maxEntries: 10 })).toBe(3000);
    expect(await importCode(await put('broken.epub', Buffer.from('PK\x03\x04 not really a zip')))).toBe(3000);
  });
});

describe('importBook: DOCX, Markdown, PDF', () => {
  it('DOCX headings become chapters; Title style and core properties give title and author', async () => {
    const docx = makeDocx({
      title: '核心标题',
      author: '周五',
      blocks: [
        { style: 'Title', text: '山居笔记' },
        { text: '写在前面的话。' },
        { style: '1', text: '第一章 春' },
        { text: '春天来了。' },
        { style: 'Heading2', text: '第二章 夏' },
        { text: '夏天很热 & 很长。' },
      ],
    });
    const book = await importBook(await put('book.docx', docx), limits);
    expect(book).toMatchObject({ format: 'docx', title: '山居笔记', author: '周五' });
    expect(book.chapters).toEqual([
      { title: '前言', paragraphs: ['写在前面的话。'] },
      { title: '第一章 春', paragraphs: ['春天来了。'] },
      { title: '第二章 夏', paragraphs: ['夏天很热 & 很长。'] },
    ]);
  });

  it('Markdown: one # is the title, ## split chapters, markup is removed', async () => {
    const md = [
      '# 我的书',
      '',
      '开头一段。',
      '',
      '## 第一章',
      '',
      '这是**重点**，见[链接](http://x)。',
      '第二行接上。',
      '',
      '```',
      'code',
      '```',
      '',
      '## 第二章',
      '',
      '- 列表项',
    ].join('\n');
    const book = await importBook(await put('book.md', md), limits);
    expect(book.title).toBe('我的书');
    expect(book.chapters).toEqual([
      { title: '前言', paragraphs: ['开头一段。'] },
      { title: '第一章', paragraphs: ['这是重点，见链接。第二行接上。'] },
      { title: '第二章', paragraphs: ['列表项'] },
    ]);
  });

  it('PDF with a text layer is read; an image-only PDF is refused with 3001', async () => {
    const book = await importBook(
      await put('text.pdf', textPdf(['Chapter 1', 'The sea was calm.', 'Chapter 2', 'Night fell.'])),
      limits,
    );
    expect(book.format).toBe('pdf');
    expect(book.chapters.map((c) => c.title)).toEqual(['Chapter 1', 'Chapter 2']);
    expect(book.chapters[0].paragraphs.join(' ')).toContain('The sea was calm.');
    // Lines the page layout cut mid-sentence join into one paragraph; a short title line stays apart.
    const wrapped = await importBook(
      await put(
        'wrapped.pdf',
        textPdf([
          'Chapter 1',
          'The sea was calm and the old',
          'boat drifted to the shore',
          'while we watched.',
          'Notes',
          'Nothing else happened.',
        ]),
      ),
      limits,
    );
    expect(wrapped.chapters[0].paragraphs).toEqual([
      'The sea was calm and the old boat drifted to the shore while we watched.',
      'Notes',
      'Nothing else happened.',
    ]);
    expect(await importCode(await put('scan.pdf', imageOnlyPdf()))).toBe(3001);
  });
});

describe('attributeSpeakers', () => {
  it('finds the subject across adverbials, clauses and connectives; pronouns follow the last named character', () => {
    const { paragraphs, characters } = attributeSpeakers([
      '林黛玉听了，冷笑道：“我就知道。”',
      '“妹妹说哪里话。”宝玉忙道。',
      '“好，好。”贾母点头说道，“都是好孩子。”',
      '小明对妈妈说：「我饿了。」',
      '这时，门外有人喊道：“开门！”',
      '于是老王大声喊："快跑！"',
      '她叹了口气，说：“走吧。”',
    ]);
    const speakers = paragraphs.map((p) =>
      p.segments.filter((s) => s.kind === 'quote').map((s) => s.speaker),
    );
    expect(speakers).toEqual([['林黛玉'], ['宝玉'], ['贾母', '贾母'], ['小明'], [null], ['老王'], ['贾母']]);
    expect(characters.find((c) => c.name === '贾母')).toEqual({ name: '贾母', lines: 3, gender: 'female' });
  });
});

describe('detectChapters', () => {
  it('finds Chinese and English headings, keeps sentences that mention chapters, handles the preamble', () => {
    const text = [
      '这是一段很长很长的前言内容，介绍了这本书的写作背景和主要人物以及其他的东西。',
      '楔子',
      '很久以前。',
      '第一卷 风起',
      '第一章 出山',
      '他说第一章写得最好。',
      '第2章：下山',
      '正文二。',
      '序章之后的事',
      '番外一 后来',
      '正文四',
      '尾声',
      '完。',
      'Chapter 12 The End',
      'text',
    ].join('\n');
    expect(detectChapters(text)).toEqual([
      {
        title: '前言',
        paragraphs: ['这是一段很长很长的前言内容，介绍了这本书的写作背景和主要人物以及其他的东西。'],
        kind: 'chapter', // untitled text of the book, not a preface it names
      },
      { title: '楔子', paragraphs: ['很久以前。'] },
      { title: '第一卷 风起 · 第一章 出山', paragraphs: ['他说第一章写得最好。'] },
      { title: '第2章：下山', paragraphs: ['正文二。', '序章之后的事'] },
      { title: '番外一 后来', paragraphs: ['正文四'] },
      { title: '尾声', paragraphs: ['完。'] },
      { title: 'Chapter 12 The End', paragraphs: ['text'] },
    ]);
    // A short preamble merges into the first chapter; no headings → one chapter.
    expect(detectChapters('山中来信\n第一章 起\n正文')[0]).toEqual({
      title: '第一章 起',
      paragraphs: ['山中来信', '正文'],
    });
    expect(detectChapters('只有一段。\n第二段。')).toEqual([
      { title: '正文', paragraphs: ['只有一段。', '第二段。'] },
    ]);
  });
});

describe('hard-wrapped TXT with front and back matter', () => {
  // A TXT as many Chinese editions are made: lines broken at a fixed width (even before a full stop),
  // paragraphs indented and set apart by blank lines, a centred story title, a 序 and a 注释 section.
  const WIDTH = 20;
  const PREFACE = [
    '我在年青时候也曾经做过许多梦，后来大半忘却了，但自己也并不以为可惜。所谓回忆者，虽说可以使人欢欣，有时也不免使人寂寞。',
    '所以我竟将我的短篇小说结集起来，而且付印了。',
  ];
  const STORY = [
    '俄国的盲诗人爱罗先珂⑴君带了他那六弦琴到北京之后不久，便向我诉苦说：',
    '“寂寞呀，寂寞呀，在沙漠上似的寂寞呀！”',
    '然而我之所谓嚷嚷，也就是他所谓寂寞罢。我可是觉得在北京仿佛没有春和秋。',
  ];
  const NOTES = [
    '⑴爱罗先珂（１８８９—１９５２）：俄国诗人和童话作家。童年时因病双目失明。曾先后到过日本、泰国、缅甸、印度。',
    '⑵本篇最初发表于一九二二年十二月上海《妇女杂志》。',
  ];
  /** Hard wrap: the first line indented by two full-width spaces, every line at most WIDTH characters. */
  const wrap = (p: string, indent = '\u3000\u3000') => {
    const chars = [...p];
    const lines: string[] = [];
    let first = WIDTH - 2;
    while (chars.length) {
      lines.push(chars.splice(0, first).join(''));
      first = WIDTH;
    }
    return [indent + lines[0], ...lines.slice(1)].join('\n');
  };
  const TEXT = [
    '                    序',
    '',
    PREFACE.map((p) => wrap(p)).join('\n\n'),
    '',
    '                    鸭的喜剧',
    '',
    STORY.map((p) => wrap(p)).join('\n\n'),
    '',
    '　　　　　　　　　　　　　　　　一九二二年十月。',
    '',
    '□注释',
    '',
    NOTES.map((p) => wrap(p, '')).join('\n\n'),
    '',
  ].join('\r\n');

  it('joins wrapped lines into paragraphs and keeps 序 and 注释 as marked sections of their own', async () => {
    // The wrap really breaks sentences, and one line starts with the full stop of the line before.
    expect(TEXT.split(/\r?\n/).some((l) => l.startsWith('。'))).toBe(true);
    const book = await importBook(await put('wrapped.txt', TEXT), limits);
    expect(book.chapters).toEqual([
      { title: '序', kind: 'preface', paragraphs: PREFACE },
      { title: '鸭的喜剧', paragraphs: [...STORY, '一九二二年十月。'] },
      { title: '注释', kind: 'notes', paragraphs: NOTES },
    ]);
  });

  it('ends the notes where the book goes on, and names afterwords and appendices from any format', async () => {
    const more = [
      TEXT,
      '        狂人日记',
      '',
      wrap(STORY[2]),
      '',
      '【后记】',
      '　　写完了。',
      '附录一',
      '　　一些材料。',
    ].join('\n');
    const chapters = detectChapters(more);
    expect(chapters.map((c) => [c.title, c.kind, c.paragraphs.length])).toEqual([
      ['序', 'preface', 2],
      ['鸭的喜剧', undefined, 4],
      ['注释', 'notes', 2],
      ['狂人日记', undefined, 1],
      ['后记', 'afterword', 1],
      ['附录一', 'notes', 1],
    ]);
    // Text after the notes that is no note (no ⑴/①/[1] mark) is the book again, never hidden in them.
    expect(detectChapters(`□注释\n⑴一条注释。\n\n　　故事还在继续。`)).toEqual([
      { title: '注释', kind: 'notes', paragraphs: ['⑴一条注释。'] },
      { title: '正文', paragraphs: ['故事还在继续。'] },
    ]);
    // A story's title after the notes, right over its first chapter, names that chapter with it.
    expect(detectChapters('□注释\n⑴一条注释。\n\n阿Q正传\n\n第一章 序\n　　正文。')).toEqual([
      { title: '注释', kind: 'notes', paragraphs: ['⑴一条注释。'] },
      { title: '阿Q正传 · 第一章 序', paragraphs: ['正文。'] },
    ]);
    // Sentences of one length, one per line, are not a hard wrap: each stays a paragraph.
    const even = Array.from({ length: 12 }, (_, i) => `这是第${i + 1}段，夜色很深，风吹过树林。`);
    expect(detectChapters(['第一章 长夜', ...even].join('\n'))).toEqual([
      { title: '第一章 长夜', paragraphs: even },
    ]);
    // One paragraph per line (not wrapped) stays one paragraph per line; a line ending in ： joins its quote.
    expect(detectChapters('他看了看四周\n张三说：\n“你好。”\n第二段。')).toEqual([
      { title: '正文', paragraphs: ['他看了看四周', '张三说：“你好。”', '第二段。'] },
    ]);
    // EPUB and DOCX sections named 后记 / 译者序 are marked too.
    const epub = makeEpub({
      title: '书',
      author: '某',
      chapters: [
        { file: 'a.xhtml', tocTitle: '译者序', paragraphs: ['译者的话。'] },
        { file: 'b.xhtml', tocTitle: '第一章', paragraphs: ['正文。'] },
        { file: 'c.xhtml', tocTitle: '后记', paragraphs: ['完。'] },
      ],
    });
    const fromEpub = await importBook(await put('matter.epub', epub), limits);
    expect(fromEpub.chapters.map((c) => [c.title, c.kind])).toEqual([
      ['译者序', 'preface'],
      ['第一章', undefined],
      ['后记', 'afterword'],
    ]);
  });
});
