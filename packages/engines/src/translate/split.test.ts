import { checkCues, DEFAULT_SUBTITLE_RULES, readingLength } from '@vw/contract';
import { describe, expect, it } from 'vitest';
import {
  displayLength,
  distributeTranslation,
  fitsLines,
  flattenText,
  splitCues,
  textUnits,
  wrapLines,
} from './split.ts';

type Cue = { id: string; start_ms: number; end_ms: number; text: string };

/** Recognised cues as an ASR engine gives them: long runs of speech, timed at `msPerChar`. */
function recognised(parts: Array<{ text: string; gapBefore: number; msPerChar: number }>): Cue[] {
  let t = 500;
  return parts.map((p, i) => {
    const start = t + p.gapBefore;
    const end = start + Math.round(readingLength(p.text) * p.msPerChar);
    t = end;
    return { id: `r${i + 1}`, start_ms: start, end_ms: end, text: p.text };
  });
}

const LONG_ZH = recognised([
  {
    text: '大家好，欢迎来到今天的节目。今天我们要聊的话题是人工智能在日常生活中的应用，这个话题最近非常热门，很多朋友都在讨论它会不会取代我们的工作。',
    gapBefore: 0,
    msPerChar: 210,
  },
  // 300 ms pause: may be joined with the previous run.
  {
    text: '其实我觉得不用太担心，因为新技术在淘汰一些岗位的同时也会创造出更多新的机会，关键是我们要保持学习的习惯',
    gapBefore: 300,
    msPerChar: 190,
  },
  // 1.5 s pause: never joined.
  { text: '嗯。', gapBefore: 1500, msPerChar: 250 },
  {
    text: '那么接下来我们就通过三个具体的例子来看看人工智能是如何帮助医生更快更准确地诊断疾病的第一个例子来自北京的一家医院',
    gapBefore: 400,
    msPerChar: 170,
  },
  { text: '好的。', gapBefore: 2000, msPerChar: 200 },
]);

const squeeze = (s: string) => s.replace(/\s+/gu, '');
const wordBoundaries = (text: string, language: string) => {
  const set = new Set([0, text.length]);
  let i = 0;
  for (const s of new Intl.Segmenter(language, { granularity: 'word' }).segment(text)) {
    i += s.segment.length;
    set.add(i);
  }
  return set;
};

describe('splitCues', () => {
  it('re-segments long recognised Chinese into cues that obey every limit, in order and inside the span', () => {
    const out = splitCues(LONG_ZH, { language: 'zh' });
    const spanStart = LONG_ZH[0].start_ms;
    const spanEnd = LONG_ZH.at(-1)?.end_ms ?? 0;
    expect(out.length).toBeGreaterThan(8);
    let prevEnd = spanStart;
    const joined = LONG_ZH.map((c) => c.text).join('');
    const bounds = wordBoundaries(joined, 'zh');
    let offset = 0;
    // The editor's rule checker (contract) finds nothing once the text is wrapped for display.
    const wrapped = out.map((c) => ({ ...c, text: wrapLines(c.text, 'zh', 16, 2) }));
    expect(checkCues(wrapped, DEFAULT_SUBTITLE_RULES)).toEqual(out.map(() => []));
    for (const [i, cue] of out.entries()) {
      const lines = wrapped[i].text.split('\n');
      expect(lines.length, cue.text).toBeLessThanOrEqual(2);
      for (const line of lines) expect(displayLength(line), line).toBeLessThanOrEqual(16);
      const ms = cue.end_ms - cue.start_ms;
      expect(ms, cue.text).toBeGreaterThanOrEqual(1000);
      expect(ms, cue.text).toBeLessThanOrEqual(7000);
      expect(readingLength(cue.text) / (ms / 1000), cue.text).toBeLessThanOrEqual(9);
      expect(cue.start_ms).toBeGreaterThanOrEqual(i ? prevEnd + 80 : prevEnd);
      expect(cue.end_ms).toBeLessThanOrEqual(spanEnd);
      prevEnd = cue.end_ms;
      // Cut only at word boundaries of the whole text; never starts with punctuation.
      expect(bounds.has(offset), cue.text).toBe(true);
      expect(joined.slice(offset, offset + cue.text.length)).toBe(cue.text);
      offset += cue.text.length;
      expect(cue.text).not.toMatch(/^[，。！？、]/u);
      expect(cue.source_ids.length).toBeGreaterThan(0);
      for (const id of cue.source_ids) expect(LONG_ZH.some((c) => c.id === id)).toBe(true);
      // Never across a long pause.
      expect(cue.source_ids.includes('r2') && cue.source_ids.includes('r3')).toBe(false);
    }
    expect(squeeze(out.map((c) => c.text).join(''))).toBe(squeeze(joined));
    // The lone 「嗯。」 (0.5 s) is merged with its neighbour across the 400 ms pause.
    const um = out.find((c) => c.text.includes('嗯'));
    expect(um?.source_ids).toEqual(['r3', 'r4']);
    // 「好的。」 alone after a 2 s pause cannot merge: it is lengthened into nothing past the span,
    // so it moves its start back into the pause instead.
    const last = out.at(-1);
    expect(last?.text).toBe('好的。');
    expect(last?.end_ms).toBe(spanEnd);
    expect((last?.end_ms ?? 0) - (last?.start_ms ?? 0)).toBe(1000);
    // Prefers punctuation: the sentence end and the clause commas are cut points.
    expect(out[0].text).toBe('大家好，欢迎来到今天的节目。');
    expect(out.some((c) => c.text.endsWith('热门，'))).toBe(true);
  });

  it('splits the times of one cue proportionally to the characters', () => {
    const text =
      '今天我们要聊的话题是人工智能在日常生活中的应用，这个话题最近非常热门，很多朋友都在讨论它会不会取代我们的工作。';
    const n = readingLength(text);
    const cue = { id: 'a', start_ms: 10_000, end_ms: 10_000 + n * 200, text };
    const out = splitCues([cue], { language: 'zh' });
    expect(out.length).toBeGreaterThan(2);
    let chars = 0;
    for (const [i, c] of out.entries()) {
      // Half of the 80 ms least gap is taken from each side of a shared boundary.
      expect(Math.abs(c.start_ms - (10_000 + chars * 200 + (i ? 40 : 0)))).toBeLessThanOrEqual(1);
      chars += readingLength(c.text);
    }
    expect(out.at(-1)?.end_ms).toBe(cue.end_ms);
  });

  it('splits English at word boundaries with 42 characters per line and 17 characters per second', () => {
    const text =
      "So today we're going to talk about how artificial intelligence is changing the way doctors work, and why that matters for patients. The first example comes from a hospital in Beijing, where a new system reads thousands of scans every single day.";
    const cue = { id: 'e', start_ms: 0, end_ms: 16_000, text };
    const out = splitCues([cue], { language: 'en' });
    const words = text.split(' ');
    expect(out.flatMap((c) => c.text.split(' '))).toEqual(words);
    for (const c of out) expect(fitsLines(c.text, 'en', 42, 2), c.text).toBe(true);
    const rules = { ...DEFAULT_SUBTITLE_RULES, max_chars_per_line: 42, max_cps: 17 };
    const wrapped = out.map((c) => ({ ...c, text: wrapLines(c.text, 'en', 42, 2) }));
    expect(checkCues(wrapped, rules)).toEqual(out.map(() => []));
  });
});

describe('wrapLines', () => {
  it('breaks a long Chinese line in two balanced lines, after punctuation when it can', () => {
    expect(wrapLines('我们今天要讨论的问题非常重要，请大家认真听讲，不要分心。', 'zh', 16, 2)).toBe(
      '我们今天要讨论的问题非常重要，\n请大家认真听讲，不要分心。',
    );
    expect(wrapLines('短句', 'zh', 16, 2)).toBe('短句');
    const en = wrapLines(
      'This is a fairly long English subtitle line that must be wrapped nicely.',
      'en',
      42,
      2,
    );
    expect(en.split('\n')).toHaveLength(2);
    for (const l of en.split('\n')) expect(l.length).toBeLessThanOrEqual(42);
    expect(en.replace('\n', ' ')).toBe(
      'This is a fairly long English subtitle line that must be wrapped nicely.',
    );
  });
});

describe('distributeTranslation', () => {
  const slots = [
    { id: 'a', start_ms: 0, end_ms: 2000 },
    { id: 'b', start_ms: 2000, end_ms: 3000 },
    { id: 'c', start_ms: 3000, end_ms: 6000 },
  ];

  it('keeps every word in order, never splits one, and follows the durations', () => {
    const text =
      "Hello everyone, welcome to today's show about e-mail, AI and 3.14 other things; we'll look at three examples from a hospital in Beijing.";
    const parts = distributeTranslation(text, slots, 'en');
    expect(parts.map((p) => p.id)).toEqual(['a', 'b', 'c']);
    const words = text.split(' ');
    expect(parts.flatMap((p) => p.text.split(' '))).toEqual(words);
    for (const p of parts) expect(p.text.length).toBeGreaterThan(0);
    const share = parts.map((p) => p.text.length / text.length);
    // 2 s : 1 s : 3 s, give or take a word or two.
    expect(share[2]).toBeGreaterThan(share[0]);
    expect(share[0]).toBeGreaterThan(share[1]);
  });

  it('cuts Chinese at word boundaries, preferring the comma near the proportional point', () => {
    const text = '今天我们讨论人工智能的发展，以及它对工作的影响。';
    const two = distributeTranslation(
      text,
      [
        { id: 'a', start_ms: 0, end_ms: 2500 },
        { id: 'b', start_ms: 2500, end_ms: 5000 },
      ],
      'zh',
    );
    expect(two.map((p) => p.text)).toEqual(['今天我们讨论人工智能的发展，', '以及它对工作的影响。']);
    const three = distributeTranslation(text, slots, 'zh');
    expect(three.map((p) => p.text).join('')).toBe(text);
    const bounds = wordBoundaries(text, 'zh');
    let offset = 0;
    for (const p of three) {
      expect(bounds.has(offset)).toBe(true);
      offset += p.text.length;
    }
  });

  it('leaves the last slots empty when there are fewer words than cues', () => {
    expect(distributeTranslation('Yes.', slots, 'en').map((p) => p.text)).toEqual(['Yes.', '', '']);
  });
});

describe('flattenText', () => {
  it('undoes display line breaks', () => {
    expect(flattenText('我们今天要讨论的问题，\n请大家认真听讲。')).toBe(
      '我们今天要讨论的问题，请大家认真听讲。',
    );
    expect(flattenText('This is a fairly long\n line that was wrapped.')).toBe(
      'This is a fairly long line that was wrapped.',
    );
    expect(flattenText('中文\nEnglish')).toBe('中文English');
  });
});

describe('compound words', () => {
  it('does not break a line between the halves of a likely compound (人工|智能) when a particle is near', () => {
    const wrapped = wrapLines('今天我们要聊的话题是人工智能在日常生活中的应用，', 'zh', 16, 2);
    expect(wrapped.split('\n')).toHaveLength(2);
    expect(wrapped).not.toContain('人工\n智能');
    expect(wrapped).not.toContain('日常\n生活');
  });
});

describe('particles', () => {
  it('keeps 的/了/吗 with the word before them, so no line or cue starts with one', () => {
    const units = textUnits('他诊断疾病的速度很快了吗？我们的医生地道地说着', 'zh').map((u) => u.text);
    expect(units.join('')).toBe('他诊断疾病的速度很快了吗？我们的医生地道地说着');
    expect(units).toContain('疾病的');
    for (const u of units) expect(u).not.toMatch(/^[的了吗着]/u);
    // 地道 is a word of its own (it may start a unit); the particle 地 after it is glued.
    expect(units).toContain('地道地');
  });
});
