import type { CharacterReading } from '@vw/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { checkEntry, selectionIn, setSyllable, wordChars } from './pronunciation.ts';

const r = (
  text: string,
  start: number,
  pinyin: string,
  candidates: string[] = [pinyin],
): CharacterReading => ({
  text,
  start,
  end: start + text.length,
  pinyin,
  candidates,
  from_dictionary: false,
});

// '他去银行还书' as the readings helper answers it (行 and 还 are polyphones).
const TEXT = '他去银行还书';
const READINGS = [
  r('他', 0, 'ta1'),
  r('去', 1, 'qu4'),
  r('银', 2, 'yin2'),
  r('行', 3, 'hang2', ['xing2', 'hang2']),
  r('还', 4, 'huan2', ['hai2', 'huan2']),
  r('书', 5, 'shu1'),
];

describe('pronunciation fix helpers', () => {
  it('reads the current readings and candidates of a word at its place in the paragraph', () => {
    expect(wordChars(TEXT, READINGS, '银行')).toEqual([
      { char: '银', pinyin: 'yin2', candidates: ['yin2'] },
      { char: '行', pinyin: 'hang2', candidates: ['xing2', 'hang2'] },
    ]);
    expect(wordChars(TEXT, READINGS, '飞机')).toBeNull();
    expect(wordChars(TEXT, READINGS, '')).toBeNull();
  });

  it('splits a dictionary word answered as one entry into its syllables', () => {
    const dict = [r('他', 0, 'ta1'), { ...r('银行', 2, 'yin2 hang2'), from_dictionary: true }];
    expect(wordChars('他去银行', dict, '行')).toEqual([
      { char: '行', pinyin: 'hang2', candidates: ['hang2'] },
    ]);
  });

  it('replaces one syllable, padding or cutting to the word length', () => {
    expect(setSyllable('yin2 hang2', 2, 1, 'xing2')).toBe('yin2 xing2');
    expect(setSyllable('', 2, 1, 'hang2')).toBe('hang2');
    expect(setSyllable('a1 b2 c3', 2, 0, 'x1')).toBe('x1 b2');
  });

  it('says in Chinese what is wrong with an entry', () => {
    expect(checkEntry('银行', 'yin2 hang2')).toBeNull();
    expect(checkEntry('绿', 'lv4')).toBeNull();
    expect(checkEntry('', 'a1')).toContain('选中或输入');
    expect(checkEntry('银行', 'yinhang2')).toContain('需要 2 个拼音');
    expect(checkEntry('银行', 'yin hang')).toContain('没有声调');
    // Tone marks as the dialog shows them, or numbers; a bare syllable beside toned ones is neutral.
    expect(checkEntry('银行', 'yín háng')).toBeNull();
    expect(checkEntry('绿', 'lǜ')).toBeNull();
    expect(checkEntry('说得', 'shuō de')).toBeNull();
    expect(checkEntry('长', 'zhǎng')).toBeNull();
    expect(checkEntry('OK', 'ou1 kei1')).toContain('只能为汉字词');
    expect(checkEntry('一二三四五六七八九十一二三四五六七八九十一', 'yi1')).toContain('最多 20 个字');
  });
});

describe('selection in a paragraph', () => {
  afterEach(() => {
    window.getSelection()?.removeAllRanges();
    document.body.innerHTML = '';
  });
  it('takes the selected text inside the container only', () => {
    document.body.innerHTML = '<div id="a">他去银行还书</div><div id="b">别处</div>';
    const a = document.getElementById('a')!;
    const range = document.createRange();
    range.setStart(a.firstChild!, 2);
    range.setEnd(a.firstChild!, 4);
    window.getSelection()!.addRange(range);
    expect(selectionIn(a)).toBe('银行');
    expect(selectionIn(document.getElementById('b'))).toBe('');
    expect(selectionIn(null)).toBe('');
  });
});
