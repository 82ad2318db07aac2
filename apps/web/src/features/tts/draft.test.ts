import { parseTtsMarkup } from '@vw/contract';
import { describe, expect, it } from 'vitest';
import {
  addPause,
  type Draft,
  editText,
  fromMarkup,
  type ReadingMark,
  readingAt,
  removePause,
  setReading,
  toMarkup,
} from './draft.ts';

/** 鲁迅《故乡》(1921, public domain): many polyphones (的 了 着 得 中 还 长 相 禁 行 觉). */
const GUXIANG =
  '我冒了严寒，回到相隔二千余里，别了二十余年的故乡去。时候既然是深冬；渐近故乡时，天气又阴晦了，' +
  '冷风吹进船舱中，呜呜的响，从篷隙向外一望，苍黄的天底下，远近横着几个萧索的荒村，没有一些活气。' +
  '我的心禁不住悲凉起来了。阿！这不是我二十年来时时记得的故乡？\n' +
  '我所记得的故乡全不如此。我的故乡好得多了。但要我记起他的美丽，说出他的佳处来，却又没有影像，' +
  '没有言辞了。仿佛也就如此。于是我自己解释说：故乡本也如此，——虽然没有进步，也未必有如我所感的悲凉，' +
  '这只是我自己心情的改变罢了，因为我这次回乡，本没有什么好心绪。他的长子还在长大，行了长长的路。';

const READINGS: Record<string, string> = {
  的: 'di4',
  了: 'liao3',
  着: 'zhuo2',
  得: 'dei3',
  长: 'zhang3',
  还: 'huan2',
};

/** Every polyphone above gets an unusual reading, so a mark on the wrong character shows. */
function marked(text: string): Draft {
  let d: Draft = { text, marks: [] };
  for (let i = 0; i < text.length; i++) if (READINGS[text[i]]) d = setReading(d, i, READINGS[text[i]]);
  return d;
}

const readings = (d: Draft) => d.marks.filter((m): m is ReadingMark => m.kind === 'reading');

/** A tiny deterministic random source, so a failure repeats. */
function rng(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

describe('the draft: the text as typed, marks beside it', () => {
  it('marks stay on their characters through many edits before, after and between them', () => {
    let d = marked(GUXIANG);
    expect(readings(d).length).toBeGreaterThan(25);
    // What each character should be read as, carried with the character itself (the oracle).
    let chars = [...d.text].map((ch, i) => ({ ch, reading: readingAt(d, i)?.pinyin }));
    const random = rng(7);
    const inserts = ['长', '的', '了', '我们', '，', '还有长长的', '\n', ''];
    for (let step = 0; step < 300; step++) {
      const start = random(chars.length + 1);
      const del = random(3) === 0 ? random(4) : 0;
      const ins = inserts[random(inserts.length)];
      const next = d.text.slice(0, start) + ins + d.text.slice(start + del);
      d = editText(d, next, start + ins.length);
      chars.splice(start, del, ...[...ins].map((ch) => ({ ch, reading: undefined })));
      expect(d.text).toBe(chars.map((c) => c.ch).join(''));
      for (const m of readings(d)) expect(d.text.slice(m.at, m.at + m.text.length)).toBe(m.text);
      const got = chars.map((_, i) => readingAt(d, i)?.pinyin);
      expect(got, `step ${step}`).toEqual(chars.map((c) => c.reading));
    }
    // Still sent with every reading on its own character, and read back the same.
    expect(fromMarkup(toMarkup(d))).toEqual(d);
    chars = chars.filter((c) => c.reading);
    expect(readings(d).map((m) => `${m.text}${m.pinyin}`)).toEqual(chars.map((c) => `${c.ch}${c.reading}`));
  });

  it('typing next to an equal character keeps the mark on the one that was marked', () => {
    // 长长: the second is marked; a third 长 typed between them is new and unmarked.
    const d = setReading({ text: '长长的路', marks: [] }, 1, 'zhang3');
    const typed = editText(d, '长长长的路', 2);
    expect(readingAt(typed, 1)).toBeUndefined();
    expect(readingAt(typed, 2)?.pinyin).toBe('zhang3');
    // Backspace over the first one moves the mark back with its character.
    const back = editText(d, '长的路', 0);
    expect(readingAt(back, 0)?.pinyin).toBe('zhang3');
    // Replacing the marked character removes its mark.
    expect(editText(d, '长大的路', 2).marks).toEqual([]);
  });

  it('pauses move with the text and go with a removed stretch around them', () => {
    const d = addPause({ text: '故乡。时候', marks: [] }, 3, 500);
    expect(toMarkup(editText(d, '我的故乡。时候', 2))).toBe('我的故乡。<break time="500ms"/>时候');
    // Typing right after the pause puts the text after it.
    expect(toMarkup(editText(d, '故乡。那时候', 4))).toBe('故乡。<break time="500ms"/>那时候');
    // Deleting the characters before it keeps it; deleting across it removes it.
    expect(toMarkup(editText(d, '故乡时候', 2))).toBe('故乡<break time="500ms"/>时候');
    expect(toMarkup(editText(d, '故候', 1))).toBe('故候');
    expect(toMarkup(removePause(d, 3))).toBe('故乡。时候');
  });

  it('history text in the wire format opens as text and marks, and goes back unchanged', () => {
    const raw =
      '他<phoneme ph="hang2 zhang3">行长</phoneme>说：<break time="1s"/>好<phoneme ph="bad">的</phoneme>';
    const d = fromMarkup(raw);
    expect(d.text).toBe('他行长说：好的');
    expect(readingAt(d, 2)?.pinyin).toBe('zhang3');
    expect(toMarkup(d)).toBe(
      '他<phoneme ph="hang2">行</phoneme><phoneme ph="zhang3">长</phoneme>说：<break time="1000ms"/>好的',
    );
    expect(parseTtsMarkup(toMarkup(d)).map((p) => p.type)).toEqual([
      'text',
      'phoneme',
      'phoneme',
      'text',
      'pause',
      'text',
    ]);
  });
});
