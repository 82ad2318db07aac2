import { describe, expect, it } from 'vitest';
import { SNIFF_BYTES, sniffFileType } from './sniff.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const padded = (head: Buffer) => Buffer.concat([head, Buffer.alloc(64, 0)]);

describe('sniffFileType', () => {
  it.each([
    ['png', padded(bytes([0x89], 'PNG\r\n\x1a\n')), 'image/png'],
    ['jpg', padded(bytes([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg'],
    ['gif', padded(bytes('GIF89a')), 'image/gif'],
    ['webp', padded(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')), 'image/webp'],
    ['wav', padded(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt ')), 'audio/wav'],
    ['flac', padded(bytes('fLaC')), 'audio/flac'],
    ['ogg', padded(bytes('OggS')), 'audio/ogg'],
    ['amr', padded(bytes('#!AMR\n')), 'audio/amr'],
    ['mp3', padded(bytes('ID3', [4, 0])), 'audio/mpeg'],
    ['mp3', padded(bytes([0xff, 0xfb, 0x90, 0x64])), 'audio/mpeg'],
    ['aac', padded(bytes([0xff, 0xf1, 0x50, 0x80])), 'audio/aac'],
    ['m4a', padded(bytes([0, 0, 0, 0x20], 'ftypM4A ')), 'audio/mp4'],
    ['mov', padded(bytes([0, 0, 0, 0x14], 'ftypqt  ')), 'video/quicktime'],
    ['mp4', padded(bytes([0, 0, 0, 0x20], 'ftypisom')), 'video/mp4'],
    [
      'webm',
      padded(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm')),
      'video/webm',
    ],
    ['mkv', padded(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska')), 'video/x-matroska'],
    ['flv', padded(bytes('FLV', [1, 5, 0, 0, 0, 9])), 'video/x-flv'],
    [
      'ts',
      Buffer.concat(
        Array.from({ length: 4 }, () => Buffer.concat([Buffer.from([0x47]), Buffer.alloc(187, 0xff)])),
      ),
      'video/mp2t',
    ],
  ])('recognises %s by its signature', (ext, head, mime) => {
    const type = sniffFileType(head);
    expect(type?.ext).toBe(ext);
    expect(Object.values(type?.mimes ?? {})).toContain(mime);
  });

  it('reports containers that may hold audio or video as both', () => {
    const webm = sniffFileType(padded(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x42, 0x82, 0x84], 'webm')));
    expect(webm?.mimes).toEqual({ audio: 'audio/webm', video: 'video/webm' });
  });

  it('tells subtitles from plain text, and Chinese text is text', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,500\n你好\n\n2\n00:00:03,000 --> 00:00:04,000\n世界\n';
    expect(sniffFileType(Buffer.from(`\uFEFF${srt}`))).toMatchObject({
      ext: 'srt',
      mimes: { subtitle: expect.any(String) },
    });
    expect(sniffFileType(Buffer.from('WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n'))?.ext).toBe('vtt');
    expect(sniffFileType(Buffer.from('[Script Info]\nTitle: x\n'))?.ext).toBe('ass');
    expect(sniffFileType(Buffer.from('床前明月光，\r\n疑是地上霜。\t'))).toEqual({
      ext: 'txt',
      mimes: { text: 'text/plain; charset=utf-8' },
    });
  });

  it('accepts a head that ends inside a multi-byte character', () => {
    const text = Buffer.from('中'.repeat(SNIFF_BYTES));
    expect(sniffFileType(text.subarray(0, SNIFF_BYTES))?.ext).toBe('txt');
  });

  it('knows nothing of binary junk, GBK text or an empty head', () => {
    expect(sniffFileType(Buffer.from([0x00, 0x01, 0x02, 0x03, 0x10, 0x20]))).toBeNull();
    expect(sniffFileType(Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7]))).toBeNull();
    expect(sniffFileType(bytes('RIFF', [1, 2, 3, 4], 'XXXX'))).toBeNull();
    expect(sniffFileType(Buffer.alloc(0))).toBeNull();
  });
});
