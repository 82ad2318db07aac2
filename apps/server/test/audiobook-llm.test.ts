import type { AddressInfo } from 'node:net';
import { type FakeChatRequest, type FakeChatServer, startFakeChatServer } from '@vw/engines/fake-chat-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';
import { tusClient } from './tus-client.ts';

/*
 * Audiobook import with a language model configured (fake OpenAI-compatible chat server): the rules'
 * speaker attribution is refined per chapter chunk, answers with missing/unknown ids repaired by one
 * retry, and the work records which made the attribution.
 */

const BOOK = [
  '第一章 开始',
  '李雷说：“你好。”',
  '韩梅梅问：“你是谁？”',
  '“我是新来的老师。”',
  '第二章 欢迎',
  '李雷说：“欢迎你。”',
].join('\n');

let server: TestServer;
let chat: FakeChatServer;
let base: string;
let alice: { token: string; uid: string };
let bob: { token: string; uid: string };
let script: (req: FakeChatRequest) => string | { status: number; body: unknown } = () => '{}';

const quotesOf = (req: FakeChatRequest) =>
  JSON.parse(/^Quotes \(\d+\): (.*)$/m.exec(req.messages.at(-1)?.content ?? '')?.[1] ?? '[]') as Array<{
    id: string;
    text: string;
    guess: string | null;
  }>;

async function importBook(name: string) {
  const bytes = Buffer.from(BOOK, 'utf8');
  const tus = tusClient(base, alice.token);
  const created = await tus.create(bytes.length, name);
  await tus.patch(created.location, 0, bytes);
  return call(server.app, 'POST', '/v1/audiobook/import', {
    token: alice.token,
    body: { tus_upload: created.location },
  });
}

async function quotesOfWork(workId: string) {
  const detail = (
    await call(server.app, 'GET', `/v1/audiobook/get?work_id=${workId}`, { token: alice.token })
  ).body.data;
  const speakers: Array<string | null> = [];
  for (const c of detail.chapters) {
    const list = (
      await call(server.app, 'GET', `/v1/audiobook/paragraphs?work_id=${workId}&chapter_id=${c.chapter_id}`, {
        token: alice.token,
      })
    ).body.data.list as Array<{ segments: Array<{ kind: string; speaker: string | null }> }>;
    for (const p of list) for (const s of p.segments) if (s.kind === 'quote') speakers.push(s.speaker);
  }
  return { detail, speakers };
}

beforeAll(async () => {
  chat = await startFakeChatServer({ port: 0, apiKey: 'test-key', reply: (req) => script(req) });
  server = await createTestServer({
    LLM_BASE_URL: chat.url,
    LLM_API_KEY: 'test-key',
    LLM_MODEL: 'fake-chat',
  });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const a = await signIn(server.app, '13900000193');
  alice = { token: a.secure_tokens.access_token, uid: a.user_info.uid };
  const b = await signIn(server.app, '13900000194');
  bob = { token: b.secure_tokens.access_token, uid: b.user_info.uid };
  await fund(server, alice.uid, 1000);
  await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await chat?.close();
});

describe('audiobook speaker attribution by a language model', () => {
  it('refines the rules per chapter, repairs missing and unknown ids with one retry', async () => {
    chat.requests.length = 0;
    script = (req) => {
      const quotes = quotesOf(req);
      const retry = req.messages.at(-1)!.content.includes('previous answer missed');
      const answer = quotes
        // First answer for chapter one leaves the bare quote out; the retry answers it.
        .filter((q) => retry || !q.text.includes('老师'))
        .map((q) => ({ id: q.id, speaker: q.text.includes('老师') ? '王老师' : q.guess }));
      if (!retry) answer.push({ id: 'q99', speaker: '不存在' }, { id: quotes[0].id, speaker: '重复' });
      return JSON.stringify({
        quotes: answer,
        characters: [
          { name: '王老师', gender: 'female' },
          { name: '李雷', gender: 'bogus' },
        ],
      });
    };
    const r = await importBook('小说.txt');
    expect(r.body.code).toBe(0);
    expect(r.body.data.work.attribution).toBe('语言模型 · fake-chat');

    // One request per chapter, plus one retry for chapter one's missing id (asked alone).
    expect(chat.requests).toHaveLength(3);
    const asked = chat.requests.map((q) => quotesOf(q).map((x) => x.text));
    expect(asked[0]).toHaveLength(3);
    expect(asked[1]).toEqual(['我是新来的老师。']);
    expect(asked[2]).toEqual(['欢迎你。']);
    expect(chat.requests[0].response_format).toEqual({ type: 'json_object' });
    // The prompt carries the rules' guesses and the character list.
    expect(chat.requests[0].messages.at(-1)!.content).toContain('"guess":"李雷"');
    expect(chat.requests[0].messages.at(-1)!.content).toMatch(/Characters: \[.*韩梅梅/);

    const { detail, speakers } = await quotesOfWork(r.body.data.work.work_id);
    expect(speakers).toEqual(['李雷', '韩梅梅', '王老师', '李雷']);
    const chars = Object.fromEntries(
      detail.characters.map((c: { name: string; lines: number; gender: string }) => [c.name, c]),
    );
    expect(Object.keys(chars).sort()).toEqual(['李雷', '王老师', '韩梅梅']);
    expect(chars.李雷.lines).toBe(2);
    expect(chars.王老师).toMatchObject({ lines: 1, gender: 'female' });
    expect(detail.work.attribution).toBe('语言模型 · fake-chat');
  }, 60_000);

  it('keeps the rules when the model fails, and says so', async () => {
    chat.requests.length = 0;
    script = () => ({ status: 400, body: { error: { message: 'bad request' } } });
    const r = await importBook('小说2.txt');
    expect(r.body.code).toBe(0);
    expect(r.body.data.work.attribution).toBe('规则');
    expect(chat.requests.length).toBeGreaterThan(0);
    const { speakers } = await quotesOfWork(r.body.data.work.work_id);
    expect(speakers.slice(0, 2)).toEqual(['李雷', '韩梅梅']);
    expect(speakers).not.toContain('王老师');
  }, 60_000);

  it('keeps the rules when every answer is unusable (not JSON, twice)', async () => {
    chat.requests.length = 0;
    script = () => 'sorry, I cannot help';
    const r = await importBook('小说3.txt');
    expect(r.body.code).toBe(0);
    expect(r.body.data.work.attribution).toBe('规则');
    // Retried once per chapter chunk.
    expect(chat.requests).toHaveLength(4);
  }, 60_000);
});

async function finished(taskId: string, timeoutMs = 60_000) {
  return `task.${(await taskFinished(server.ctx, taskId, timeoutMs)).status}`;
}

describe('audiobook pronunciation fixes', () => {
  it('a dictionary change for a word marks the paragraphs containing it stale, for the owner only', async () => {
    script = () => 'not json';
    const r = await importBook('发音.txt');
    const workId = r.body.data.work.work_id as string;
    const post = (token: string, path: string, body: unknown) =>
      call(server.app, 'POST', path, { token, body });
    const detail = (
      await call(server.app, 'GET', `/v1/audiobook/get?work_id=${workId}`, { token: alice.token })
    ).body.data;
    const synth = await post(alice.token, '/v1/audiobook/synthesize', {
      work_id: workId,
      chapter_ids: [detail.chapters[0].chapter_id],
    });
    expect(synth.body.code).toBe(0);
    expect(await finished(synth.body.data.task_id)).toBe('task.succeeded');

    // The reading the editor shows before the fix, then the fix through the TTS dictionary call.
    const before = await post(alice.token, '/v1/tts/readings', { text: '新来的老师' });
    const shi = (res: typeof before) =>
      res.body.data.readings.find((x: { text: string }) => x.text === '师') as {
        pinyin: string;
        from_dictionary: boolean;
      };
    expect(shi(before)).toMatchObject({ pinyin: 'shi1', from_dictionary: false });
    const saved = await post(alice.token, '/v1/tts/dictionary/upsert', { word: '老师', pinyin: 'lao3 shi5' });
    expect(saved.body.code).toBe(0);
    const after = await post(alice.token, '/v1/tts/readings', { text: '新来的老师' });
    expect(shi(after)).toMatchObject({ pinyin: 'shi5', from_dictionary: true });

    // Another user cannot touch the work.
    const refused = await post(bob.token, '/v1/audiobook/pronunciation', { work_id: workId, word: '老师' });
    expect(refused.body.code).not.toBe(0);

    const marked = await post(alice.token, '/v1/audiobook/pronunciation', { work_id: workId, word: '老师' });
    expect(marked.body.code).toBe(0);
    // Only '“我是新来的老师。”' contains the word; it had audio (chapter one was synthesised).
    expect(marked.body.data).toMatchObject({ stale_paragraphs: 1 });
    expect(marked.body.data.paragraph_ids).toHaveLength(1);
    const list = (
      await call(
        server.app,
        'GET',
        `/v1/audiobook/paragraphs?work_id=${workId}&chapter_id=${detail.chapters[0].chapter_id}`,
        { token: alice.token },
      )
    ).body.data.list as Array<{ paragraph_id: string; stale: boolean; segments: Array<{ text: string }> }>;
    for (const p of list) {
      const has = p.segments.some((s) => s.text.includes('老师'));
      expect(p.stale, p.segments.map((s) => s.text).join('')).toBe(has);
      if (has) expect(p.paragraph_id).toBe(marked.body.data.paragraph_ids[0]);
    }
    // A word nowhere in the book marks nothing.
    const none = await post(alice.token, '/v1/audiobook/pronunciation', { work_id: workId, word: '银行' });
    expect(none.body.data).toEqual({ paragraph_ids: [], stale_paragraphs: 0 });
  }, 90_000);
});
