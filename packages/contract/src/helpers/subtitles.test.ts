import { describe, expect, it } from 'vitest';
import { DEFAULT_SUBTITLE_RULES } from '../calls/projects.ts';
import {
  checkCue,
  checkCues,
  fitCues,
  joinWords,
  parseSubtitles,
  readingLength,
  speechCues,
  splitIntoCues,
  srtTime,
  type TimedWord,
  toSrt,
  toTxt,
  toVtt,
  wrapText,
} from './subtitles.ts';

const rules = DEFAULT_SUBTITLE_RULES;
const cues = [
  { start_ms: 0, end_ms: 1500, text: '你好，世界。' },
  { start_ms: 1600, end_ms: 3_723_456, text: '第一行\n  第二行  ' },
];

describe('writers', () => {
  it('srtTime uses a comma and rolls over into hours', () => {
    expect(srtTime(0)).toBe('00:00:00,000');
    expect(srtTime(3_723_456)).toBe('01:02:03,456');
    expect(srtTime(-5)).toBe('00:00:00,000');
    expect(srtTime(1999.6)).toBe('00:00:02,000');
  });

  it('writes SRT blocks numbered from 1, keeping line breaks, leaving out empty cues', () => {
    const srt = toSrt([cues[0]!, { start_ms: 1500, end_ms: 1600, text: ' \n ' }, cues[1]!]);
    expect(srt).toBe(
      '1\n00:00:00,000 --> 00:00:01,500\n你好，世界。\n\n' +
        '2\n00:00:01,600 --> 01:02:03,456\n第一行\n第二行\n',
    );
    expect(toSrt(cues, { singleLine: true }).split('\n')[6]).toBe('第一行 第二行');
    expect(toSrt([])).toBe('');
  });

  it('drops blank lines inside a cue (they would end the SRT block)', () => {
    expect(toSrt([{ start_ms: 0, end_ms: 1000, text: 'a\n\n\nb' }])).toBe(
      '1\n00:00:00,000 --> 00:00:01,000\na\nb\n',
    );
  });

  it('writes WebVTT with a header, dots and escaped markup characters', () => {
    expect(toVtt(cues)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\n你好，世界。\n\n00:00:01.600 --> 01:02:03.456\n第一行\n第二行\n',
    );
    expect(toVtt([{ start_ms: 0, end_ms: 1000, text: 'a < b && c --> d' }])).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\na &lt; b &amp;&amp; c --&gt; d\n',
    );
    expect(toVtt([])).toBe('WEBVTT\n\n');
  });

  it('writes TXT with optional timestamps and speakers', () => {
    const withSpeakers = [
      { ...cues[0]!, speaker: '说话人1' },
      { ...cues[1]!, speaker: null },
    ];
    expect(toTxt(withSpeakers)).toBe('你好，世界。\n第一行 第二行\n');
    expect(toTxt(withSpeakers, { timestamps: true, speakers: true })).toBe(
      '[00:00:00.000] 说话人1：你好，世界。\n[00:00:01.600] 第一行 第二行\n',
    );
    expect(toTxt(withSpeakers, { speakers: true })).toBe('说话人1：你好，世界。\n第一行 第二行\n');
    expect(toTxt([])).toBe('');
    expect(toTxt([{ start_ms: 0, end_ms: 1, text: '  ' }])).toBe('');
  });
});

describe('parseSubtitles', () => {
  it('reads back what the writers wrote', () => {
    const expected = [
      { start_ms: 0, end_ms: 1500, text: '你好，世界。' },
      { start_ms: 1600, end_ms: 3_723_456, text: '第一行\n第二行' },
    ];
    expect(parseSubtitles(toSrt(cues))).toEqual(expected);
    expect(parseSubtitles(toVtt(cues))).toEqual(expected);
    const tricky = [{ start_ms: 0, end_ms: 1000, text: 'a < b && c --> d' }];
    expect(parseSubtitles(toVtt(tricky))).toEqual(tricky);
  });

  it('reads CRLF, a BOM, VTT short times, cue settings, identifiers, NOTE and STYLE blocks', () => {
    const vtt =
      '\uFEFFWEBVTT - title\r\n\r\nSTYLE\r\n::cue { color: red }\r\n\r\nNOTE a comment\r\nspanning lines\r\n\r\n' +
      'intro\r\n01:02.500 --> 01:04.000 align:start position:10%\r\n<v Roger>Hello &amp; <b>welcome</b>&nbsp;back\r\n\r\n' +
      '00:01:05.000 --> 00:01:06.000\r\n第二条\r\n';
    expect(parseSubtitles(vtt)).toEqual([
      { start_ms: 62_500, end_ms: 64_000, text: 'Hello & welcome\u00a0back' },
      { start_ms: 65_000, end_ms: 66_000, text: '第二条' },
    ]);
  });

  it('keeps SRT text as written (no VTT entity decoding), drops ASS override tags', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}<i>Tom &amp; Jerry</i>\n';
    expect(parseSubtitles(srt)).toEqual([{ start_ms: 1000, end_ms: 2000, text: 'Tom &amp; Jerry' }]);
  });

  it('accepts an arrow without spaces, blank lines holding spaces, and skips malformed blocks', () => {
    const srt =
      '1\n00:00:01,000-->00:00:02,5\nA\n \n' +
      '2\n00:00:03,000 --> 00:00:02,000\nend before start\n\n' +
      '3\nno times here\n\n' +
      '4\n00:99:00,000 --> 00:00:05,000\nbad minutes\n\n' +
      '5\n00:00:06,000 --> 00:00:07,000\n';
    expect(parseSubtitles(srt)).toEqual([
      { start_ms: 1000, end_ms: 2500, text: 'A' },
      { start_ms: 6000, end_ms: 7000, text: '' },
    ]);
    expect(parseSubtitles('')).toEqual([]);
  });
});

describe('rule checker', () => {
  it('counts reading length without spaces and punctuation', () => {
    expect(readingLength('你好，世界！ Hi.')).toBe(6);
    expect(readingLength('')).toBe(0);
  });

  it('passes a cue within every rule', () => {
    expect(
      checkCue(
        { start_ms: 0, end_ms: 2000, text: '今天天气很好' },
        { start_ms: 2080, end_ms: 3000, text: 'x' },
        rules,
      ),
    ).toEqual([]);
  });

  it('flags long lines, too many lines, speed, duration, gap and overlap with Chinese messages', () => {
    const long = { start_ms: 0, end_ms: 1000, text: '一二三四五六七八九十一二三四五六七\n二\n三' };
    expect(checkCue(long, { start_ms: 1050, end_ms: 2000, text: '' }, rules)).toEqual([
      { kind: 'line_too_long', message: '单行 17 字，超过 16 字' },
      { kind: 'too_many_lines', message: '3 行，超过 2 行' },
      { kind: 'too_fast', message: '阅读速度 19.0 字/秒，超过 9 字/秒' },
      { kind: 'gap_too_small', message: '与下一条间隔 50 毫秒，小于 80 毫秒' },
    ]);
    expect(
      checkCue({ start_ms: 0, end_ms: 500, text: '好' }, { start_ms: 400, end_ms: 900, text: '' }, rules),
    ).toEqual([
      { kind: 'too_short', message: '时长 0.50 秒，短于 1 秒' },
      { kind: 'overlap', message: '与下一条重叠 0.10 秒' },
    ]);
    expect(checkCue({ start_ms: 0, end_ms: 7001, text: '好' }, null, rules)).toEqual([
      { kind: 'too_long', message: '时长 7.00 秒，长于 7 秒' },
    ]);
  });

  it('reports text shown for no time as unreadable, and an empty cue as not too fast', () => {
    const kinds = (text: string) => checkCue({ start_ms: 1000, end_ms: 1000, text }, null, rules);
    expect(kinds('好')).toEqual([
      { kind: 'too_fast', message: '阅读速度 无穷大（时长为 0），超过 9 字/秒' },
      { kind: 'too_short', message: '时长 0.00 秒，短于 1 秒' },
    ]);
    expect(kinds('').map((i) => i.kind)).toEqual(['too_short']);
  });

  it('checks a track, the gap rule looking at the next cue', () => {
    const issues = checkCues(
      [
        { start_ms: 0, end_ms: 1000, text: '一' },
        { start_ms: 1000, end_ms: 2000, text: '二' },
        { start_ms: 3000, end_ms: 4000, text: '三' },
      ],
      rules,
    );
    expect(issues.map((list) => list.map((i) => i.kind))).toEqual([['gap_too_small'], [], []]);
  });
});

describe('joinWords', () => {
  it('glues CJK without spaces and other scripts with one', () => {
    expect(joinWords(['你', '好', '，', '世界', '。'])).toBe('你好，世界。');
    expect(joinWords([' Hello', ',', ' world', '!'])).toBe('Hello, world!');
    expect(joinWords(['我', '用', 'iPhone', '拍'])).toBe('我用iPhone拍');
    expect(joinWords(['He', 'said', '(', 'quietly', ')', '"', 'no', '"'])).toBe('He said (quietly) " no "');
    expect(joinWords(['it', "'s", '', '  ', 'fine'])).toBe("it's fine");
    expect(joinWords(['“', 'Hi', '”', 'she', 'said'])).toBe('“Hi” she said');
  });
});

describe('wrapText', () => {
  it('leaves short text alone and folds line breaks into spaces', () => {
    expect(wrapText('你好', 16)).toBe('你好');
    expect(wrapText('a\nb', 16)).toBe('a b');
  });

  it('balances lines instead of filling the first', () => {
    expect(wrapText('一二三四五六七八九十一二三四五六七八九十', 16)).toBe(
      '一二三四五六七八九十\n一二三四五六七八九十',
    );
  });

  it('breaks at punctuation or a space near the middle', () => {
    expect(wrapText('今天我们去公园散步，然后一起吃晚饭吧', 16)).toBe(
      '今天我们去公园散步，\n然后一起吃晚饭吧',
    );
    expect(wrapText('hello world foo bar', 11)).toBe('hello world\nfoo bar');
    expect(wrapText('aaaa bbbb cccc dddd eeee ffff', 10)).toBe('aaaa bbbb\ncccc dddd\neeee ffff');
    expect(wrapText('the quick brown fox jumps', 16)).toBe('the quick brown\nfox jumps');
  });

  it('never starts a line with a closing mark', () => {
    // The even cut falls before "，"; the mark stays on the first line.
    expect(wrapText('一二三四五六七八九十一，三四五六七八九十', 16)).toBe(
      '一二三四五六七八九十一，\n三四五六七八九十',
    );
    for (const line of wrapText('一二三四五六七八九十。一二三四五六七八九十。一二三', 8).split('\n')) {
      expect(line).not.toMatch(/^[，。]/);
      expect([...line].length).toBeLessThanOrEqual(8);
    }
  });
});

/** Words of `text`, one per character, `per` ms each, with `gaps` (after word index → ms) of silence. */
function charWords(text: string, per = 200, gaps: Record<number, number> = {}, from = 0): TimedWord[] {
  let t = from;
  return [...text].map((ch, i) => {
    const w = { text: ch, start_ms: t, end_ms: t + per };
    t += per + (gaps[i] ?? 0);
    return w;
  });
}

describe('splitIntoCues', () => {
  it('keeps a short segment whole', () => {
    expect(splitIntoCues(charWords('你好世界。'), rules)).toEqual([
      { start_ms: 0, end_ms: 1000, text: '你好世界。' },
    ]);
    expect(splitIntoCues([], rules)).toEqual([]);
  });

  it('ends cues at sentence ends once they hold half a line', () => {
    // 8 + 1 characters, then the next sentence.
    const words = charWords('今天天气真的很好。我们出去走走吧。', 100);
    expect(splitIntoCues(words, rules)).toEqual([
      { start_ms: 0, end_ms: 900, text: '今天天气真的很好。' },
      { start_ms: 900, end_ms: 1700, text: '我们出去走走吧。' },
    ]);
  });

  it('does not end a cue at a very short sentence', () => {
    expect(splitIntoCues(charWords('好。我们出去走走吧。', 100), rules)).toEqual([
      { start_ms: 0, end_ms: 1000, text: '好。我们出去走走吧。' },
    ]);
  });

  it('cuts an over-long segment at the clause end, not in the middle of the clause', () => {
    const text = '这是一个很长很长的句子它一直说下去，然后还有更多的内容需要被拆分成字幕才可以';
    const out = splitIntoCues(charWords(text, 100), rules);
    expect(out.map((c) => c.text.replace(/\n/g, ''))).toEqual([
      '这是一个很长很长的句子它一直说下去，',
      '然后还有更多的内容需要被拆分成字幕才可以',
    ]);
    expect(out[0]).toMatchObject({ start_ms: 0, end_ms: 1800 });
    expect(out[1]).toMatchObject({ start_ms: 1800, end_ms: 3800 });
    for (const cue of out)
      expect(checkCue(cue, null, { ...rules, max_cps: 100 }).map((i) => i.kind)).toEqual([]);
  });

  it('without punctuation, cuts at the widest pause', () => {
    // 40 characters; a 300 ms pause after the 12th, a 100 ms one after the 25th.
    const out = splitIntoCues(
      charWords('一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十', 100, {
        11: 300,
        24: 100,
      }),
      rules,
    );
    expect(out.map((c) => [c.start_ms, c.end_ms, [...c.text.replace(/\n/g, '')].length])).toEqual([
      [0, 1200, 12],
      [1500, 4400, 28],
    ]);
  });

  it('respects the longest duration', () => {
    // 10 words of 1 s each: at most 7 s per cue.
    const words = charWords('一二三四五六七八九十', 1000);
    const out = splitIntoCues(words, rules);
    expect(out.map((c) => [c.start_ms, c.end_ms, c.text])).toEqual([
      [0, 7000, '一二三四五六七'],
      [7000, 10000, '八九十'],
    ]);
  });

  it('counts the spaces of space-separated languages and wraps lines', () => {
    const english = 'the quick brown fox jumps over the lazy dog and then runs far away'.split(' ');
    const words = english.map((w, i) => ({ text: ` ${w}`, start_ms: i * 300, end_ms: i * 300 + 250 }));
    const out = splitIntoCues(words, { ...rules, max_chars_per_line: 20, max_lines: 2 });
    expect(out.map((c) => c.text)).toEqual([
      'the quick brown fox\njumps over the lazy',
      'dog and then\nruns far away',
    ]);
    for (const cue of out)
      for (const line of cue.text.split('\n')) expect(line.length).toBeLessThanOrEqual(20);
  });

  it('skips empty words and gives a lone over-long word its own cue', () => {
    const out = splitIntoCues(
      [
        { text: ' ', start_ms: 0, end_ms: 10 },
        { text: 'Supercalifragilisticexpialidocious-and-more', start_ms: 100, end_ms: 900 },
        { text: 'ok', start_ms: 1000, end_ms: 1200 },
      ],
      { ...rules, max_chars_per_line: 10, max_lines: 2 },
    );
    expect(out.map((c) => [c.start_ms, c.end_ms])).toEqual([
      [100, 900],
      [1000, 1200],
    ]);
  });
});

describe('speechCues (subtitles from synthesised speech)', () => {
  /** Continuous speech: each character a word of `msPerChar`, no pauses. */
  const spoken = (text: string, msPerChar: number, at = 0): TimedWord[] =>
    [...text].map((ch, i) => ({ text: ch, start_ms: at + i * msPerChar, end_ms: at + (i + 1) * msPerChar }));
  /** Punctuation rides on the character before it, as the server builds words. */
  const words = (text: string, msPerChar: number) => {
    const out: TimedWord[] = [];
    for (const w of spoken(text, msPerChar)) {
      if (/\p{P}/u.test(w.text) && out.length) out[out.length - 1]!.text += w.text;
      else out.push(w);
    }
    return out;
  };

  it('cuts a 60-character sentence spoken over 14 s into cues that pass every rule', () => {
    const sentence = `${'城市里的年轻人如何学习新的技能'.repeat(2)}，${'我们一起来看看他们的故事'.repeat(2)}。`;
    const ms = 14_000 / [...sentence].length;
    const cues = speechCues(words(sentence, ms), rules);
    expect(cues.length).toBeGreaterThanOrEqual(2);
    expect(checkCues(cues, rules).flat()).toEqual([]);
    expect(cues.map((c) => c.text.replace(/\n/g, '')).join('')).toBe(sentence);
  });

  it('cuts at the comma rather than at the character limit', () => {
    const text = '今天我们讨论的话题是城市生活，年轻人在工作之余如何学习新的技能和知识。';
    const cues = speechCues(words(text, 200), rules);
    expect(cues[0]!.text.replace(/\n/g, '')).toBe('今天我们讨论的话题是城市生活，');
  });

  it('cuts a clause over 7 s into even parts, never a short tail', () => {
    const clause = '第一部分讲的是城市里的年轻人如何在工作之余学习新的技能。';
    const cues = speechCues(words(clause, 330), rules);
    expect(cues).toHaveLength(2);
    const [a, b] = cues.map((c) => readingLength(c.text));
    expect(Math.abs(a! - b!)).toBeLessThanOrEqual(2);
    expect(checkCues(cues, rules).flat()).toEqual([]);
  });

  it('joins a short sentence to the next and holds cues for a second, a gap before the next', () => {
    const cues = speechCues(words('好。我们开始吧。', 150), rules);
    expect(cues).toHaveLength(1);
    expect(cues[0]!.end_ms - cues[0]!.start_ms).toBeGreaterThanOrEqual(rules.min_duration_ms);
    const two = speechCues(
      [
        ...words('这是第一句比较长的话语内容。', 250),
        ...words('这是第二句。', 250).map((w) => ({
          ...w,
          start_ms: w.start_ms + 3500,
          end_ms: w.end_ms + 3500,
        })),
      ],
      rules,
    );
    expect(two).toHaveLength(2);
    expect(two[1]!.start_ms - two[0]!.end_ms).toBeGreaterThanOrEqual(rules.min_gap_ms);
  });
});

describe('speechCues: a short sentence before a long one', () => {
  it('takes the next cue’s first words rather than flash for half a second', () => {
    // 好。 in 0.4 s, then a 31-character sentence over 6.5 s: one cue alone, too long to join 好。.
    const clause = '第一部分讲的是城市里的年轻人如何在工作之余学习新的知识和好技能';
    expect([...clause].length).toBe(31);
    const words: TimedWord[] = [
      { text: '好。', start_ms: 0, end_ms: 400 },
      ...[...clause].map((ch, i) => ({
        text: i === 30 ? `${ch}。` : ch,
        start_ms: 450 + i * 210,
        end_ms: 450 + (i + 1) * 210,
      })),
    ];
    const cues = speechCues(words, rules);
    expect(checkCues(cues, rules).flat()).toEqual([]);
    expect(cues[0]!.text.startsWith('好。')).toBe(true);
    expect(cues.map((c) => c.text.replace(/\n/g, '')).join('')).toBe(`好。${clause}。`);
  });
});

describe('fitCues (subtitle files of dubbed lines)', () => {
  it('cuts a dubbed line too long for one cue over its own time and keeps lines that fit', () => {
    const long = '今天我们讨论的话题是城市生活，年轻人在工作之余如何学习新的技能和知识，以及他们的未来。';
    const short = { start_ms: 15_000, end_ms: 17_000, text: '谢谢大家。' };
    const out = fitCues([{ start_ms: 0, end_ms: 14_000, text: long }, short], rules);
    expect(out.length).toBeGreaterThanOrEqual(3);
    expect(out.at(-1)).toEqual(short);
    expect(checkCues(out, rules).flat()).toEqual([]);
    expect(
      out
        .slice(0, -1)
        .map((c) => c.text.replace(/\n/g, ''))
        .join(''),
    ).toBe(long);
    expect(Math.max(...out.slice(0, -1).map((c) => c.end_ms))).toBeLessThanOrEqual(14_000);
  });
});
