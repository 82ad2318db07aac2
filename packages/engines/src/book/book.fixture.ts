import { strToU8, zipSync } from 'fflate';

/** Book files made at test time with known content. */

export const CHAPTER_BOOK = [
  '书名：山中来信',
  '作者：林一',
  '',
  '第一章 出山',
  '　　张三走进屋子，他看了看四周。',
  '　　张三笑着说：“今天天气真好。”',
  '　　“是啊，我们出去走走吧。”李梅回答道。',
  '　　“去哪里？”',
  '　　“去公园。”',
  '',
  '第二章 下山',
  '　　李梅点点头，她轻声道：“好。”',
  '　　王先生问：“你们两个要去哪里？”',
  '第十二回 尾巴',
  '　　他们一起走了。',
].join('\r\n');

export const BIG5_TEXT = ['第一章 開始', '這是一個關於學習與時間的故事。', '「你們來了。」老師說。'].join(
  '\n',
);

export interface EpubOptions {
  title: string;
  author: string;
  /** In spine order; the manifest lists them in reverse to prove the spine is followed. */
  chapters: Array<{ file: string; tocTitle: string; heading?: string; paragraphs: string[] }>;
  cover?: Uint8Array;
}

const xhtml = (title: string | undefined, paragraphs: string[]) =>
  `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head><body>${
    title ? `<h1>${title}</h1>` : ''
  }${paragraphs.map((p) => `<p>${p.replaceAll('&', '&amp;')}</p>`).join('\n')}</body></html>`;

export function makeEpub(o: EpubOptions): Uint8Array {
  const items = [...o.chapters]
    .reverse()
    .map(
      (c, i) =>
        `<item id="c${o.chapters.length - 1 - i}" href="text/${c.file}" media-type="application/xhtml+xml"/>`,
    )
    .join('');
  const spine = o.chapters.map((_c, i) => `<itemref idref="c${i}"/>`).join('');
  const opf = `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
<dc:title>${o.title}</dc:title><dc:creator>${o.author}</dc:creator><dc:language>zh</dc:language></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${items}${
    o.cover
      ? '<item id="cover" href="images/cover.png" media-type="image/png" properties="cover-image"/>'
      : ''
  }</manifest>
<spine>${spine}</spine></package>`;
  const nav = `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol>${o.chapters
    .map((c) => `<li><a href="text/${c.file}">${c.tocTitle}</a></li>`)
    .join('')}</ol></nav></body></html>`;
  const files: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    ),
    'OEBPS/content.opf': strToU8(opf),
    'OEBPS/nav.xhtml': strToU8(nav),
  };
  for (const c of o.chapters) files[`OEBPS/text/${c.file}`] = strToU8(xhtml(c.heading, c.paragraphs));
  if (o.cover) files['OEBPS/images/cover.png'] = o.cover;
  return zipSync(files);
}

export function makeDocx(o: {
  title: string;
  author: string;
  blocks: Array<{ style?: string; text: string }>;
}): Uint8Array {
  const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  const body = o.blocks
    .map(
      (b) =>
        `<w:p>${b.style ? `<w:pPr><w:pStyle w:val="${b.style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${esc(b.text)}</w:t></w:r></w:p>`,
    )
    .join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
    'word/styles.xml': strToU8(
      '<?xml version="1.0"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style></w:styles>',
    ),
    'docProps/core.xml': strToU8(
      `<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(o.title)}</dc:title><dc:creator>${esc(o.author)}</dc:creator></cp:coreProperties>`,
    ),
  });
}

/** A minimal PDF written by hand: xref offsets computed, one page drawing `content`. */
export function makePdf(content: string, resources: string, extraObjects: string[] = []): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Resources ${resources} /Contents 4 0 R >>`,
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    ...extraObjects,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A page with one 2×2 grey image and no text at all (what a scanned book looks like). */
export function imageOnlyPdf(): Buffer {
  const pixels = '\x00\x80\xff\x40';
  return makePdf('q 200 0 0 200 50 50 cm /Im1 Do Q', '<< /XObject << /Im1 5 0 R >> >>', [
    `<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length 4 >>\nstream\n${pixels}\nendstream`,
  ]);
}

/** A page with a text layer (Helvetica). */
export function textPdf(lines: string[]): Buffer {
  const body = lines.map((l, i) => `${i === 0 ? '20 260 Td' : '0 -24 Td'} (${l}) Tj`).join('\n');
  return makePdf(`BT /F1 14 Tf\n${body}\nET`, '<< /Font << /F1 5 0 R >> >>', [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
}

/** 1×1 PNG (a cover). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
