import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import type { SynthesisRequest, Timing } from '../tts/types.ts';
import { createEspeakEngine, espeakVoiceName } from './engine.ts';
import { mandarinReadings, mandarinSyllables, normalizePinyin, toEspeakInput } from './input.ts';
import {
  ESPEAK_LANGUAGES,
  ESPEAK_PERSONAS,
  espeakVoiceForLanguage,
  STANDARD_ENGINE_LABEL,
} from './personas.ts';

const zh = { engine: 'espeak', voice: 'cmn-latn-pinyin' } as const;
const engine = createEspeakEngine();
const say = (text: string, extra: Partial<SynthesisRequest> = {}) =>
  engine.synthesize({ segments: [{ text }], voice: zh, ...extra });

describe('Mandarin goes through pinyin', () => {
  it('reads polyphones from context', () => {
    expect(toEspeakInput('银行', { voice: 'cmn-latn-pinyin' })).toBe('<speak>yin2 hang2</speak>');
    expect(toEspeakInput('行走', { voice: 'cmn' })).toBe('<speak>xing2 zou3</speak>');
    expect(toEspeakInput('重新', { voice: 'zh' })).toContain('chong2 xin1');
    expect(toEspeakInput('重量', { voice: 'cmn-latn-pinyin' })).toMatch(/zhong4 liang\d/);
  });

  it('writes the neutral tone as 5 and maps Chinese punctuation', () => {
    expect(toEspeakInput('你好吗？好的。', { voice: 'cmn-latn-pinyin' })).toBe(
      '<speak>ni3 hao3 ma5 ? hao3 de5 .</speak>',
    );
  });

  it('lets the dictionary override words and single characters', () => {
    const dictionary = { 银行: 'yin2 xing2', 重: 'chóng', 了: 'liao3' };
    expect(toEspeakInput('银行重了', { voice: 'cmn-latn-pinyin', dictionary })).toBe(
      '<speak>yin2 xing2 chong2 liao3</speak>',
    );
    // A reading that does not split per character covers the whole word.
    expect(mandarinSyllables('呣呣好', { 呣呣: 'm2' })).toEqual([
      { text: '呣呣', start: 0, end: 2, pinyin: 'm2' },
      { text: '好', start: 2, end: 3, pinyin: 'hao3' },
    ]);
  });

  it('passes digits through, reads Latin words with the English voice and sends pitch as SSML prosody', () => {
    expect(toEspeakInput('我有3个iPhone', { voice: 'cmn-latn-pinyin', pitch: -2 })).toBe(
      '<speak><prosody pitch="-2st">wo3 you3 3 ge4 <voice xml:lang="en">iPhone</voice><voice xml:lang="cmn-latn-pinyin"></voice></prosody></speak>',
    );
    // Pinyin written inline (a tone digit after it) stays with the Mandarin voice.
    expect(toEspeakInput('他 xing2 走了', { voice: 'cmn-latn-pinyin' })).toBe(
      '<speak>ta1  xing2 zou3 le5</speak>',
    );
  });

  it('normalises dictionary pinyin', () => {
    expect(normalizePinyin('Yín HÁNG lv4 ma')).toBe('yin2 hang2 lü4 ma5');
  });

  it('offers every reading of a polyphone for the editor', () => {
    const [hang] = mandarinReadings('行长');
    expect(hang.candidates).toEqual(expect.arrayContaining(['xing2', 'hang2']));
  });

  it('leaves other languages as they are, markup characters removed', () => {
    expect(toEspeakInput('Tom & <Jerry>', { voice: 'en-us' })).toBe('<speak>Tom    Jerry</speak>');
  });
});

function expectSaneTimings(timings: Timing[], durationMs: number) {
  for (const kind of ['word', 'sentence'] as const) {
    const list = timings.filter((t) => t.kind === kind);
    expect(list.length).toBeGreaterThan(0);
    for (const [i, t] of list.entries()) {
      expect(t.startMs).toBeGreaterThanOrEqual(0);
      expect(t.endMs).toBeGreaterThanOrEqual(t.startMs);
      expect(t.endMs).toBeLessThanOrEqual(durationMs + 0.001);
      if (i > 0) expect(t.startMs).toBeGreaterThanOrEqual(list[i - 1].startMs);
    }
  }
}

describe('espeak engine', () => {
  it('speaks a Mandarin sentence with word and sentence timings mapped to the text', async () => {
    const text = '银行在前面。我们行走了三公里！';
    const out = await say(text);
    expect(out.sampleRate).toBe(22_050);
    expect(out.durationMs).toBeGreaterThan(500);
    expect(out.durationMs).toBeLessThan(10_000);
    expectSaneTimings(out.timings, out.durationMs);
    const words = out.timings.filter((t) => t.kind === 'word');
    expect(words.map((w) => w.text).join('')).toBe('银行在前面我们行走了三公里');
    for (const w of words) expect(text.slice(w.start, w.end)).toBe(w.text);
    expect(out.timings.filter((t) => t.kind === 'sentence').map((t) => t.text)).toEqual([
      '银行在前面。',
      '我们行走了三公里！',
    ]);
  });

  it('speaks Latin words in a Mandarin sentence with the English voice, timings still mapped to the text', async () => {
    const text = '欢迎关注 RED tech 频道。';
    const out = await say(text);
    expectSaneTimings(out.timings, out.durationMs);
    const words = out.timings.filter((t) => t.kind === 'word');
    for (const w of words) expect(text.slice(w.start, w.end)).toBe(w.text);
    expect(words.map((w) => w.text)).toEqual(expect.arrayContaining(['RED', 'tech', '频', '道']));
  });

  it('lengthens the audio by the pause', async () => {
    const plain = await engine.synthesize({ segments: [{ text: '你好' }, { text: '世界' }], voice: zh });
    const paused = await engine.synthesize({
      segments: [{ text: '你好' }, { pauseMs: 800 }, { text: '世界' }],
      voice: zh,
    });
    expect(paused.durationMs - plain.durationMs).toBeCloseTo(800, -1);
    const world = paused.timings.find((t) => t.kind === 'sentence' && t.text === '世界');
    expect(world?.segment).toBe(2);
  });

  it('speaks faster at a higher speed', async () => {
    const text = '今天天气很好，我们一起去公园散步吧。';
    const normal = await say(text);
    const fast = await say(text, { speed: 2 });
    const slow = await say(text, { speed: 0.6 });
    expect(fast.durationMs).toBeLessThan(normal.durationMs * 0.7);
    expect(slow.durationMs).toBeGreaterThan(normal.durationMs * 1.3);
  });

  it('applies the volume gain', async () => {
    const peak = (s: Int16Array) => s.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const normal = await say('你好');
    const quiet = await say('你好', { volume: -12 });
    expect(peak(quiet.samples) / peak(normal.samples)).toBeCloseTo(10 ** (-12 / 20), 1);
  });

  it('speaks Cantonese and English directly', async () => {
    const yue = await engine.synthesize({
      segments: [{ text: '你好，我係香港人。' }],
      voice: { engine: 'espeak', voice: 'yue' },
    });
    const en = await engine.synthesize({
      segments: [{ text: 'Hello world. This is a test!' }],
      voice: { engine: 'espeak', voice: 'en-us', variant: 'f2' },
    });
    for (const out of [yue, en]) {
      expect(out.durationMs).toBeGreaterThan(500);
      expectSaneTimings(out.timings, out.durationMs);
    }
    expect(en.timings.filter((t) => t.kind === 'word').map((t) => t.text)).toEqual([
      'Hello',
      'world',
      'This',
      'is',
      'a',
      'test',
    ]);
  });

  it('picks the voice from the request language when the voice names none', async () => {
    const en = await engine.synthesize({
      segments: [{ text: 'Good morning.' }],
      voice: { engine: 'espeak', variant: 'm3' },
      language: 'en-US',
    });
    expect(en.timings.filter((t) => t.kind === 'word').map((t) => t.text)).toEqual(['Good', 'morning']);
    await expect(
      engine.synthesize({ segments: [{ text: 'x' }], voice: { engine: 'espeak' }, language: 'tlh' }),
    ).rejects.toThrow(/does not speak tlh/);
  });

  it('streams sentence by sentence', async () => {
    const chunks = [];
    for await (const c of engine.stream({
      segments: [{ text: '第一句。第二句。' }, { pauseMs: 300 }],
      voice: zh,
    })) {
      chunks.push(c);
    }
    expect(chunks.map((c) => c.kind)).toEqual(['speech', 'speech', 'pause']);
    expect(chunks[1].startMs).toBeCloseTo(chunks[0].endMs, 6);
    expect(chunks[2].endMs - chunks[2].startMs).toBeCloseTo(300, 0);
  });

  it('rejects bad requests with a clear error', async () => {
    await expect(say('', {})).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(say('你好', { speed: 9 })).rejects.toThrow(/speed must be between/);
    await expect(
      engine.synthesize({
        segments: [{ text: '你好' }],
        voice: { engine: 'espeak', voice: 'no-such-voice' },
      }),
    ).rejects.toBeInstanceOf(EngineError);
    await expect(say('字'.repeat(20_001))).rejects.toMatchObject({ code: 'text_too_long' });
  });
});

describe('personas', () => {
  it('is a rich, honestly labelled catalogue that every persona can speak', async () => {
    expect(ESPEAK_PERSONAS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(ESPEAK_PERSONAS.map((p) => p.id)).size).toBe(ESPEAK_PERSONAS.length);
    expect(new Set(ESPEAK_PERSONAS.map((p) => p.language))).toEqual(
      new Set(ESPEAK_LANGUAGES.map((l) => l.code)),
    );
    for (const p of ESPEAK_PERSONAS) {
      expect(p.engineLabel).toBe(STANDARD_ENGINE_LABEL);
      const out = await engine.synthesize({ segments: [{ text: p.sample.slice(0, 12) }], voice: p.voice });
      expect(out.durationMs, p.id).toBeGreaterThan(300);
    }
  });

  it('maps languages to espeak voices', () => {
    expect(espeakVoiceForLanguage('zh')).toBe('cmn-latn-pinyin');
    expect(espeakVoiceForLanguage('zh-HK')).toBe('yue');
    expect(espeakVoiceForLanguage('en')).toBe('en-us');
    expect(espeakVoiceForLanguage('xx')).toBeUndefined();
    expect(espeakVoiceName({ engine: 'espeak', voice: 'cmn', variant: 'f2' })).toBe('cmn-latn-pinyin+f2');
  });
});
