import { checkCues, DEFAULT_SUBTITLE_RULES, parseSubtitles, readingLength } from '@vw/contract';
import type { EngineRegistry } from '@vw/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHistoryById } from '../src/modules/tts/tts.repo.ts';
import { runSynthesisTask } from '../src/modules/tts/tts.service.ts';
import { call, createTestServer, fund, signIn, type TestServer } from './harness.ts';

let server: TestServer;
let alice: string;

beforeAll(async () => {
  server = await createTestServer();
  const a = await signIn(server.app, '13900000091');
  alice = a.secure_tokens.access_token;
  await fund(server, a.user_info.uid, 10_000);
});
afterAll(async () => {
  await server?.close();
});

/** Records the texts handed to the engines. */
function recording(inner: EngineRegistry) {
  const texts: string[] = [];
  const wrapped: EngineRegistry = {
    ...inner,
    list: () => inner.list(),
    has: (id) => inner.has(id),
    get: (id) => inner.get(id),
    async synthesize(request, options) {
      texts.push(request.segments.map((s) => ('text' in s ? s.text : '')).join(''));
      return inner.synthesize(request, options);
    },
  };
  return { wrapped, texts };
}

async function read(key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of await server.ctx.storage.read(key)) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// Long sentences (60+ characters, one over 14 s when spoken) with numbers and Latin words.
const clause = (i: number) => `第${i}部分讲的是城市里的年轻人如何在工作之余学习新的技能`;
const long = Array.from({ length: 4 }, (_, i) => clause(i + 1)).join('，');
const TEXT = `${long}。2024年3月5日，AI公司发布了售价¥199的新产品，销量增长了12.5%。好。${long}！`;

/** Runs a long-text task of TEXT here and answers its row and what the engines were given. */
async function synthesise(text = TEXT) {
  const started = await call(server.app, 'POST', '/v1/tts/generate', {
    token: alice,
    body: { text, voice_id: 'espeak-zh-xiaowen', speed: 1, mode: 'task' },
  });
  expect(started.body.code).toBe(0);
  const real = server.ctx.engines.tts;
  const heard = recording(real);
  server.ctx.engines.tts = heard.wrapped;
  try {
    await runSynthesisTask(server.ctx, started.body.data.history_id);
  } finally {
    server.ctx.engines.tts = real;
  }
  const row = await findHistoryById(server.ctx.db, started.body.data.history_id);
  expect(row?.status).toBe('succeeded');
  return { row: row!, heard: heard.texts.join('') };
}

describe('a TTS job', () => {
  it('hands every engine the normalised reading and keeps the written text', async () => {
    const { row, heard } = await synthesise();
    expect(heard).toContain('二〇二四年三月五日');
    expect(heard).toContain('A I');
    expect(heard).toContain('一百九十九元');
    expect(heard).toContain('百分之十二点五');
    expect(heard).not.toMatch(/\d/);
    expect(row.text).toBe(TEXT);
  });

  it('writes an SRT that follows the subtitle rules, cut at punctuation and between words, showing what was written', async () => {
    expect([...long].length).toBeGreaterThan(60);
    const { row } = await synthesise();
    const cues = parseSubtitles(await read(row.srt_key!));
    expect(cues.length).toBeGreaterThan(6);
    const issues = checkCues(cues, DEFAULT_SUBTITLE_RULES);
    expect(
      issues.flatMap((list, i) => list.map((issue) => `${i + 1} ${cues[i].text}: ${issue.message}`)),
    ).toEqual([]);
    // The subtitles show what was written, all of it, in order.
    const shown = cues.map((c) => c.text.replace(/\n/g, '')).join('');
    expect(shown.replace(/\s/g, '')).toBe(TEXT.replace(/\s/g, ''));
    // Cues end at punctuation, or between words where a clause too long for one cue is cut.
    const words = [...new Intl.Segmenter('zh', { granularity: 'word' }).segment(TEXT)];
    const wordEnds = new Set(words.map((w) => w.index + w.segment.length));
    let at = 0;
    cues.forEach((c, i) => {
      const written = c.text.replace(/\n/g, '');
      at = TEXT.indexOf(written, at) + written.length;
      if (/[，。！？]$/.test(written) || i === cues.length - 1) return;
      expect(wordEnds.has(at)).toBe(true);
      expect(readingLength(written)).toBeGreaterThanOrEqual(4);
    });
    // The cues follow the speech: the first starts in the first sentence, the last ends in the last.
    const sentences = JSON.parse(row.sentences!) as Array<{ start_ms: number; end_ms: number }>;
    expect(cues[0].start_ms).toBeLessThan(sentences[0].end_ms);
    expect(cues.at(-1)!.end_ms).toBeGreaterThan(sentences.at(-1)!.start_ms);
    expect(cues.at(-1)!.end_ms).toBeLessThanOrEqual(
      sentences.at(-1)!.end_ms + DEFAULT_SUBTITLE_RULES.min_duration_ms,
    );
  });
});

describe('the readings view', () => {
  it('shows how numbers and Latin words will be read, with where they are in the text', async () => {
    const text = '2024年，AI公司卖出2台iPhone 15。';
    const res = await call(server.app, 'POST', '/v1/tts/readings', { token: alice, body: { text } });
    expect(res.body.code).toBe(0);
    expect(res.body.data.spoken).toEqual([
      { kind: 'year', start: 0, end: 4, text: '2024', spoken: '二〇二四' },
      { kind: 'word', start: 6, end: 8, text: 'AI', spoken: 'A I' },
      { kind: 'number', start: 12, end: 13, text: '2', spoken: '两' },
      { kind: 'word', start: 14, end: 20, text: 'iPhone', spoken: 'iPhone' },
      { kind: 'number', start: 21, end: 23, text: '15', spoken: '十五' },
    ]);
    for (const s of res.body.data.spoken) expect(text.slice(s.start, s.end)).toBe(s.text);
  });
});

describe('the user’s dictionary for Latin words', () => {
  it('decides how a Latin word is read, in the readings view and by the engines; a bad reading is refused', async () => {
    const upsert = (word: string, pinyin: string) =>
      call(server.app, 'POST', '/v1/tts/dictionary/upsert', { token: alice, body: { word, pinyin } });
    expect((await upsert('REDtech', 'red tech')).body.code).toBe(0);
    expect((await upsert('AI', 'ai')).body.code).toBe(0);
    const refused = await upsert('GPU', 'ji4 pi1');
    expect(refused.body.code).not.toBe(0);
    expect(refused.body.msg).toContain('外文词的读法');

    const text = 'REDtech报道AI新闻。';
    const res = await call(server.app, 'POST', '/v1/tts/readings', { token: alice, body: { text } });
    expect(res.body.data.spoken.map((s: { text: string; spoken: string }) => [s.text, s.spoken])).toEqual([
      ['REDtech', 'red tech'],
      ['AI', 'ai'],
    ]);
    const { heard } = await synthesise(text);
    expect(heard.replace(/\s+/g, ' ')).toContain('red tech 报道 ai 新闻');
    for (const word of ['REDtech', 'AI'])
      await call(server.app, 'POST', '/v1/tts/dictionary/delete', { token: alice, body: { word } });
  });
});
