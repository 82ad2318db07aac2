import { afterEach, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { createChatClient } from '../llm/chat.ts';
import {
  type FakeChatServer,
  type FakeChatServerOptions,
  startFakeChatServer,
} from '../llm/fake-chat-server.ts';
import { createFakeTranslator, fakePinyin } from './fake.ts';
import { toSimplified, toTraditional } from './languages.ts';
import {
  containsTerm,
  glossaryMisses,
  relevantGlossary,
  summarize,
  type TranslateLine,
  type TranslationCache,
  translateLines,
  translationCacheKey,
} from './translate.ts';

let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(opts: FakeChatServerOptions = {}) {
  server = await startFakeChatServer(opts);
  return { server, client: createChatClient({ baseURL: server.url, apiKey: 'k', model: 'fake-model' }) };
}

const LINES: TranslateLine[] = [
  { id: 'l1', text: '大家好，欢迎收看今天的节目。' },
  { id: 'l2', text: '今天我们聊一聊人工智能。' },
  { id: 'l3', text: '小米发布了一款新手机。' },
  { id: 'l4', text: '它的电池可以用两天。' },
  { id: 'l5', text: '你觉得怎么样？' },
  { id: 'l6', text: '欢迎在评论区留言！' },
  { id: 'l7', text: '我们下期再见。' },
];

const userJson = (s: FakeChatServer, i: number) =>
  JSON.parse(/\{.*\}$/su.exec(s.requests[i].messages.at(-1)?.content ?? '')?.[0] ?? '{}') as {
    context_before: TranslateLine[];
    lines: TranslateLine[];
    context_after: TranslateLine[];
  };

function memoryCache(): TranslationCache & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: async (k) => map.get(k), set: async (k, v) => void map.set(k, v) };
}

describe('translateLines against the fake chat server', () => {
  it('puts the preferences and the glossary (terms and do-not-translate) in the prompt, and the answer uses them', async () => {
    const { server, client } = await setup();
    const res = await translateLines(client, LINES.slice(0, 4), {
      source: 'zh',
      target: 'en',
      prefs: {
        style: '口语',
        audience: '中学生',
        tone: '轻松幽默',
        instructions: '保留语气词，不要意译人名',
      },
      glossary: [
        { term: '人工智能', translation: 'AI' },
        { term: '小米', translation: null },
        { term: '量子计算', translation: 'quantum computing' },
      ],
    });
    const system = server.requests[0].messages[0].content;
    expect(system).toContain('Source language: Chinese (zh)');
    expect(system).toContain('Target language: English (en)');
    expect(system).toContain('Style: 口语');
    expect(system).toContain('Audience: 中学生');
    expect(system).toContain('Tone: 轻松幽默');
    expect(system).toContain('Instructions from the user: 保留语气词，不要意译人名');
    expect(system).toContain('- 人工智能 => AI');
    expect(system).toMatch(/Do not translate[^\n]*\n- 小米/u);
    // Only the entries whose term occurs in the chunk.
    expect(system).not.toContain('量子计算');
    expect(server.requests[0].response_format?.type).toBe('json_object');
    expect(res.lines).toEqual([
      { id: 'l1', text: 'Da jia hao, huan ying shou kan jin tian de jie mu.' },
      { id: 'l2', text: 'Jin tian wo men liao yi liao AI.' },
      { id: 'l3', text: '小米 fa bu le yi kuan xin shou ji.' },
      { id: 'l4', text: 'Ta de dian chi ke yi yong liang tian.' },
    ]);
    expect(res).toMatchObject({ model: 'fake-model', requests: 1, retries: 0, repaired: 0, cached: 0 });
  });

  it('gives each chunk its neighbouring lines as context (not translated) and the whole-video summary', async () => {
    const { server, client } = await setup();
    const summary = await summarize(
      client,
      LINES.map((l) => l.text),
      { language: 'zh' },
    );
    expect(summary).toBe('A video of 7 lines.');
    expect(server.requests[0].messages[0].content).toContain('Chinese (zh)');
    const progress: Array<[number, number]> = [];
    const res = await translateLines(client, LINES, {
      source: 'zh',
      target: 'en',
      summary,
      chunkSize: 3,
      contextLines: 2,
      concurrency: 1,
      onProgress: (d, t) => progress.push([d, t]),
    });
    expect(server.requests).toHaveLength(4);
    expect(res.requests).toBe(3);
    const second = userJson(server, 2);
    expect(second.context_before.map((l) => l.id)).toEqual(['l2', 'l3']);
    expect(second.lines.map((l) => l.id)).toEqual(['l4', 'l5', 'l6']);
    expect(second.context_after).toEqual([{ id: 'l7', text: '我们下期再见。' }]);
    expect(userJson(server, 1).context_before).toEqual([]);
    for (const r of server.requests.slice(1))
      expect(r.messages[0].content).toContain('Summary of the whole video: A video of 7 lines.');
    expect(res.lines.map((l) => l.id)).toEqual(LINES.map((l) => l.id));
    expect(res.lines.map((l) => l.text)).toEqual(LINES.map((l) => fakePinyin(l.text)));
    expect(progress.at(-1)).toEqual([7, 7]);
    expect(progress.map(([d]) => d)).toEqual([...progress.map(([d]) => d)].sort((a, b) => a - b));
  });

  it('asks again for just the lines an answer left out', async () => {
    const { server, client } = await setup({ dropOnce: 2 });
    const res = await translateLines(client, LINES.slice(0, 5), { source: 'zh', target: 'en' });
    expect(server.requests).toHaveLength(2);
    expect(userJson(server, 1).lines.map((l) => l.id)).toEqual(['l4', 'l5']);
    expect(server.requests[1].messages.at(-1)?.content).toContain('line l4 was missing or empty');
    expect(res.lines.map((l) => l.text)).toEqual(LINES.slice(0, 5).map((l) => fakePinyin(l.text)));
    expect(res).toMatchObject({ requests: 2, retries: 1, repaired: 2, dropped: 0 });
  });

  it('drops a line with an unknown id without asking again', async () => {
    const { server, client } = await setup({ extraOnce: true });
    const res = await translateLines(client, LINES.slice(0, 3), { source: 'zh', target: 'en' });
    expect(server.requests).toHaveLength(1);
    expect(res.lines.map((l) => l.id)).toEqual(['l1', 'l2', 'l3']);
    expect(res).toMatchObject({ requests: 1, retries: 0, repaired: 0, dropped: 1 });
  });

  it('asks again for an empty line and for a line that ignores the glossary (once)', async () => {
    const fake = createFakeTranslator();
    let n = 0;
    const { server, client } = await setup({
      reply: (req) => {
        n++;
        const answer = JSON.parse(fake(req.messages) ?? '{}') as { lines: TranslateLine[] };
        if (n === 1)
          for (const l of answer.lines) {
            if (l.id === 'l1') l.text = '  ';
            if (l.id === 'l2') l.text = 'Jin tian wo men liao yi liao ren gong zhi neng.';
          }
        return JSON.stringify(answer);
      },
    });
    const res = await translateLines(client, LINES.slice(0, 3), {
      source: 'zh',
      target: 'en',
      glossary: [{ term: '人工智能', translation: 'AI' }],
    });
    expect(server.requests).toHaveLength(2);
    const again = server.requests[1].messages.at(-1)?.content ?? '';
    expect(userJson(server, 1).lines.map((l) => l.id)).toEqual(['l1', 'l2']);
    expect(again).toContain('line l2 must use the glossary: 人工智能 => AI');
    expect(res.lines[1].text).toBe('Jin tian wo men liao yi liao AI.');
    expect(res.lines[0].text).toBe(fakePinyin(LINES[0].text));
    expect(res).toMatchObject({ requests: 2, retries: 1, repaired: 2 });
  });

  it('keeps a glossary miss after its one re-ask instead of failing', async () => {
    const { server, client } = await setup({
      reply: () => JSON.stringify({ lines: [{ id: 'a', text: 'We talk about artificial intelligence.' }] }),
    });
    const res = await translateLines(client, [{ id: 'a', text: '我们聊人工智能。' }], {
      source: 'zh',
      target: 'en',
      glossary: [{ term: '人工智能', translation: 'AI' }],
    });
    expect(server.requests).toHaveLength(2);
    expect(res.lines[0].text).toBe('We talk about artificial intelligence.');
  });

  it('fails after two retries with a Chinese error naming LLM_BASE_URL / LLM_MODEL', async () => {
    const { server, client } = await setup({ reply: () => 'Sorry, I cannot help with that.' });
    const err = await translateLines(client, LINES.slice(0, 2), { source: 'zh', target: 'en' }).catch(
      (e: unknown) => e,
    );
    expect(isEngineError(err, 'remote_error')).toBe(true);
    expect((err as Error).message).toMatch(/LLM_BASE_URL.*LLM_MODEL/u);
    expect((err as Error).message).toContain('重试 2 次');
    expect(server.requests).toHaveLength(3);
  });

  it('answers from the cache without a request; preferences, relevant glossary and model change the key', async () => {
    const { server, client } = await setup();
    const cache = memoryCache();
    const opts = {
      source: 'zh',
      target: 'en',
      prefs: { style: '正式' },
      glossary: [{ term: '人工智能', translation: 'AI' }],
      cache,
    };
    const first = await translateLines(client, LINES.slice(0, 3), opts);
    expect(first).toMatchObject({ requests: 1, cached: 0 });
    expect(cache.map.size).toBe(3);
    const second = await translateLines(client, LINES.slice(0, 3), opts);
    expect(second).toMatchObject({ requests: 0, cached: 3 });
    expect(second.lines).toEqual(first.lines);
    expect(server.requests).toHaveLength(1);
    // One new line among cached ones: only it is asked.
    const third = await translateLines(client, LINES.slice(0, 4), opts);
    expect(third).toMatchObject({ requests: 1, cached: 3 });
    expect(userJson(server, 1).lines.map((l) => l.id)).toEqual(['l4']);

    const key = (o: Parameters<typeof translationCacheKey>[1], model = 'fake-model') =>
      translationCacheKey(LINES[1].text, o, model);
    expect(key(opts)).toMatch(/^[0-9a-f]{64}$/);
    expect(key({ ...opts, prefs: { style: '口语' } })).not.toBe(key(opts));
    expect(key({ ...opts, glossary: [{ term: '人工智能', translation: 'A.I.' }] })).not.toBe(key(opts));
    expect(key({ ...opts, glossary: [...opts.glossary, { term: '手机', translation: 'phone' }] })).toBe(
      key(opts),
    );
    expect(key(opts, 'other-model')).not.toBe(key(opts));
    expect(key({ ...opts, target: 'ja' })).not.toBe(key(opts));
  });

  it('makes Traditional Chinese with OpenCC: from Simplified without a request, from English through Simplified', async () => {
    const { server, client } = await setup();
    const direct = await translateLines(client, [{ id: 'a', text: '这个软件很好用，我们明天发布新版本。' }], {
      source: 'zh',
      target: 'zh-Hant',
    });
    expect(direct.lines[0].text).toBe('這個軟件很好用，我們明天發佈新版本。');
    expect(direct).toMatchObject({ model: 'OpenCC', requests: 0 });
    expect(server.requests).toHaveLength(0);

    const en = await translateLines(client, [{ id: 'a', text: '这个软件很好用。' }], {
      source: 'zh',
      target: 'en',
    });
    const tw = await translateLines(client, en.lines, {
      source: 'en',
      target: 'zh-TW',
      glossary: [{ term: 'Ruan jian', translation: '軟體' }],
    });
    const system = server.requests[1].messages[0].content;
    expect(system).toContain('(zh-Hans)');
    // The model is given the glossary in Simplified, the user gets Traditional.
    expect(system).toContain('- Ruan jian => 软体');
    expect(tw.lines[0].text).toBe(toTraditional('这个软件很好用。'));
    expect(tw.lines[0].text).toBe('這個軟件很好用。');
    expect(tw.model).toBe('fake-model + OpenCC');
    expect(toSimplified('這個軟件很好用。')).toBe('这个软件很好用。');
  });

  it('refuses the same language and duplicate ids', async () => {
    const { server, client } = await setup();
    const same = await translateLines(client, LINES, { source: 'en', target: 'en-US' }).catch(
      (e: unknown) => e,
    );
    expect(isEngineError(same, 'invalid_request')).toBe(true);
    const dup = await translateLines(client, [LINES[0], LINES[0]], { source: 'zh', target: 'en' }).catch(
      (e: unknown) => e,
    );
    expect(isEngineError(dup, 'invalid_request')).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe('summarize', () => {
  it('summarises a long transcript in pieces, then the pieces together', async () => {
    const { server, client } = await setup();
    const long = Array.from({ length: 20 }, (_, i) => `第${i}句。${'很长的内容'.repeat(100)}`);
    expect(await summarize(client, long, { language: 'en' })).toBe('A video of 2 lines.');
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0].messages[0].content).toContain('Write in English (en)');
  });

  it('asks again when the answer has no summary, then fails naming the settings', async () => {
    const { server, client } = await setup({ reply: () => '{"text":"no summary"}' });
    const err = await summarize(client, ['一句话'], { language: 'zh' }).catch((e: unknown) => e);
    expect(isEngineError(err, 'remote_error')).toBe(true);
    expect((err as Error).message).toContain('LLM_BASE_URL');
    expect(server.requests).toHaveLength(3);
  });
});

describe('glossary matching and cancelling', () => {
  it('finds Latin terms only as whole words, Chinese terms anywhere, ignoring case and width', () => {
    const glossary = [
      { term: 'AI', translation: '人工智能' },
      { term: '小米', translation: 'Xiaomi' },
    ];
    expect(relevantGlossary('He said it was fine.', glossary)).toEqual([]);
    expect(relevantGlossary('The ＡＩ model, and 小米手机', glossary)).toEqual(glossary);
    expect(containsTerm('我爱AI技术', 'ai')).toBe(true);
    expect(glossaryMisses('Open AI tools', '开放的人工智能工具', glossary)).toEqual([]);
    expect(glossaryMisses('Open AI tools', '开放的智能工具', glossary)).toEqual([glossary[0]]);
    expect(glossaryMisses('小米手机', 'The xiaomi phone', glossary)).toEqual([]);
    expect(glossaryMisses('小米手机', 'The Xiaominator phone', glossary)).toEqual([glossary[1]]);
  });

  it('stops with aborted when the signal is cancelled, before any request', async () => {
    const { server, client } = await setup();
    const ctl = new AbortController();
    ctl.abort();
    const err = await translateLines(client, LINES, { source: 'zh', target: 'en', signal: ctl.signal }).catch(
      (e: unknown) => e,
    );
    expect(isEngineError(err, 'aborted')).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('translates chunks in parallel and still repairs the one that lost lines', async () => {
    const { server, client } = await setup({ dropOnce: 1 });
    const res = await translateLines(client, LINES, {
      source: 'zh',
      target: 'en',
      chunkSize: 2,
      concurrency: 3,
    });
    expect(res.lines.map((l) => l.text)).toEqual(LINES.map((l) => fakePinyin(l.text)));
    expect(res).toMatchObject({ requests: 5, retries: 1, repaired: 1 });
    expect(server.requests).toHaveLength(5);
  });
});
