import { afterEach, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { createChatClient } from '../llm/chat.ts';
import { type FakeChatServer, fakeEmbedding, startFakeChatServer } from '../llm/fake-chat-server.ts';
import { backTranslate, createEmbedder, DRIFT_THRESHOLD, tokenOverlap } from './backtranslate.ts';
import { translateLines } from './translate.ts';

let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SOURCE = [
  { id: '1', text: '大家好，欢迎收看今天的节目。' },
  { id: '2', text: '我们明天早上去北京开会。' },
  { id: '3', text: '这款手机的电池能用两天。' },
  { id: '4', text: '请大家在评论区留言。' },
];
const WRONG = 'I really like eating apples.';

async function translated(embed = false) {
  server = await startFakeChatServer({ mistranslate: { [SOURCE[1].text]: WRONG } });
  const client = createChatClient({ baseURL: server.url, apiKey: 'k', model: 'fake-model' });
  const res = await translateLines(client, SOURCE, { source: 'zh', target: 'en' });
  const pairs = SOURCE.map((l, i) => ({ id: l.id, source: l.text, translation: res.lines[i].text }));
  const embedder = embed
    ? createEmbedder({ baseURL: server.url, apiKey: 'k', model: 'fake-embed' })
    : undefined;
  return { client, pairs, embed: embedder, server };
}

describe('backTranslate', () => {
  it('flags the line translated wrongly on purpose by token overlap, not the correct ones', async () => {
    const { client, pairs, server } = await translated();
    expect(pairs[1].translation).toBe(WRONG);
    const before = server.requests.length;
    const res = await backTranslate(client, pairs, { source: 'zh', target: 'en' });
    expect(server.requests.length - before).toBe(1);
    // The back-translation goes through the same structured prompt, the other way round.
    expect(server.requests[before].messages[0].content).toContain('Target language: Chinese (zh)');
    expect(res.model).toBe('fake-model');
    expect(res.lines.map((l) => l.flagged)).toEqual([false, true, false, false]);
    expect(res.lines.every((l) => l.method === 'overlap')).toBe(true);
    expect(res.lines[0]).toMatchObject({ back: SOURCE[0].text, score: 1 });
    expect(res.lines[1]).toMatchObject({ back: WRONG, score: 0 });
  });

  it('flags it by embedding cosine when an embedder is given (SDK → /v1/embeddings)', async () => {
    const { client, pairs, embed, server } = await translated(true);
    const res = await backTranslate(client, pairs, { source: 'zh', target: 'en', embed });
    expect(res.lines.map((l) => l.flagged)).toEqual([false, true, false, false]);
    expect(res.lines.every((l) => l.method === 'embedding')).toBe(true);
    expect(res.lines[0].score).toBe(1);
    expect(res.lines[1].score).toBeLessThan(DRIFT_THRESHOLD.embedding);
    // One batch: source and back-translation of each line.
    expect(server.embeddings).toHaveLength(1);
    expect(server.embeddings[0]).toEqual(pairs.flatMap((p, i) => [p.source, res.lines[i].back]));
  });

  it('scores an untranslated (empty) line 0 and flags it, without embedding empty text', async () => {
    const { client, embed, server } = await translated(true);
    const res = await backTranslate(
      client,
      [
        { id: 'a', source: SOURCE[0].text, translation: '' },
        {
          id: 'b',
          source: SOURCE[2].text,
          translation: 'Zhe kuan shou ji de dian chi neng yong liang tian.',
        },
      ],
      { source: 'zh', target: 'en', embed, threshold: 0.9 },
    );
    expect(res.lines.map((l) => [l.score, l.flagged])).toEqual([
      [0, true],
      [1, false],
    ]);
    expect(server.embeddings[0]).toHaveLength(2);
  });

  it('reports a failing embedding endpoint as remote_error', async () => {
    const { client, pairs } = await translated();
    const embed = createEmbedder({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm' });
    const err = await backTranslate(client, pairs, { source: 'zh', target: 'en', embed }).catch(
      (e: unknown) => e,
    );
    expect(isEngineError(err, 'remote_error')).toBe(true);
    expect((err as Error).message).toContain('向量模型请求失败');
    expect((err as Error).message).toContain('EMBEDDING_BASE_URL');
  });

  it('fake embeddings: the same characters give cosine 1 whatever the order and punctuation', () => {
    const a = fakeEmbedding('你好，世界');
    const b = fakeEmbedding('世界你好!');
    expect(a.reduce((s, x, i) => s + x * b[i], 0)).toBeCloseTo(1, 6);
  });
});

describe('tokenOverlap', () => {
  it('ignores punctuation, case, width and Chinese script; counts Han characters and Latin words', () => {
    expect(tokenOverlap('你好，世界！', '你好世界')).toBe(1);
    expect(tokenOverlap('Hello, World!', 'hello world')).toBe(1);
    expect(tokenOverlap('ＡＢＣ 测试', 'abc 测试')).toBe(1);
    expect(tokenOverlap('這個軟件很好用', '这个软件很好用')).toBe(1);
    expect(tokenOverlap('我喜欢苹果', '他讨厌香蕉')).toBe(0);
    expect(tokenOverlap('', '')).toBe(1);
    expect(tokenOverlap('abc', '')).toBe(0);
    // Dice: 2 × 2 common / (3 + 3 words)
    expect(tokenOverlap('the red car', 'the red bike')).toBeCloseTo(2 / 3, 6);
  });

  // Calibration of the 0.5 default on hand-written back-translations (scores in ARCHITECTURE).
  const PARAPHRASES: Array<[string, string]> = [
    ['我们明天早上去北京开会。', '明天上午我们要去北京开会。'],
    ['这款手机的电池能用两天。', '这部手机的电池可以用两天。'],
    ['你能帮我把窗户关上吗？', '你可以帮我关一下窗户吗？'],
    ['今天的天气非常好，适合出去散步。', '今天天气很好，很适合出门散步。'],
    ['他昨天晚上工作到很晚。', '昨晚他工作到深夜。'],
    ['人工智能正在改变我们的生活。', '人工智能正在改变我们的生活方式。'],
    ['We are meeting in Beijing tomorrow morning.', 'Tomorrow morning we are meeting in Beijing.'],
    ['The battery of this phone lasts two days.', "This phone's battery lasts for two days."],
  ];
  const DRIFTED: Array<[string, string]> = [
    ['我们明天早上去北京开会。', '我喜欢吃苹果。'],
    ['这款手机的电池能用两天。', '他昨天从上海回来了。'],
    ['你能帮我把窗户关上吗？', '今天的会议取消了。'],
    ['今天的天气非常好，适合出去散步。', '明天可能会下大雨。'],
    ['人工智能正在改变我们的生活。', '我们正在讨论晚饭吃什么。'],
    ['请大家认真听讲，不要分心。', '大家请安静，现在开始考试。'],
    ['We are meeting in Beijing tomorrow morning.', 'I like to eat apples in the morning.'],
  ];

  it('separates paraphrased from drifted back-translations at the default threshold', () => {
    for (const [a, b] of PARAPHRASES) expect(tokenOverlap(a, b), `${a} / ${b}`).toBeGreaterThanOrEqual(0.5);
    for (const [a, b] of DRIFTED) expect(tokenOverlap(a, b), `${a} / ${b}`).toBeLessThan(0.5);
    // A heavy rewording falls under it too: flagged lines are for review, not errors.
    expect(tokenOverlap('请大家认真听讲，不要分心。', '请各位认真听，别走神。')).toBeLessThan(0.5);
  });
});
