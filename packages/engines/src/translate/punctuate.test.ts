import { afterEach, describe, expect, it } from 'vitest';
import { createChatClient } from '../llm/chat.ts';
import { type FakeChatServer, startFakeChatServer } from '../llm/fake-chat-server.ts';
import { fakePunctuate } from './fake.ts';
import { punctuate } from './punctuate.ts';
import { splitCues } from './split.ts';

let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BARE =
  '今天我们要聊的话题是人工智能在日常生活中的应用这个话题最近非常热门很多朋友都在讨论它会不会取代我们的工作';

describe('punctuate (language-model help for splitting)', () => {
  it('adds punctuation to lines that have none, only then, and splitting cuts at it', async () => {
    server = await startFakeChatServer();
    const client = createChatClient({ baseURL: server.url, apiKey: 'k', model: 'fake-model' });
    const res = await punctuate(
      client,
      [
        { id: 'a', text: BARE },
        { id: 'b', text: '已经有标点了，不用再加。' },
        { id: 'c', text: '' },
      ],
      { language: 'zh' },
    );
    expect(res).toMatchObject({ model: 'fake-model', changed: 1, rejected: 0, requests: 1 });
    expect(server.requests[0].messages.at(-1)?.content).not.toContain('已经有标点了');
    expect(res.lines[0].text).toBe(fakePunctuate(BARE, 'zh'));
    expect(res.lines[0].text.replace(/[，。]/gu, '')).toBe(BARE);
    expect(res.lines.slice(1).map((l) => l.text)).toEqual(['已经有标点了，不用再加。', '']);

    const cue = (text: string) => [{ id: 'a', start_ms: 0, end_ms: 10_600, text }];
    const commas = (cues: Array<{ text: string }>) => cues.filter((c) => /[，。]$/u.test(c.text)).length;
    // Every cue of the punctuated text ends at one of the marks the model added.
    const punctuated = splitCues(cue(res.lines[0].text), { language: 'zh' });
    expect(punctuated.length).toBeGreaterThan(2);
    expect(commas(punctuated)).toBe(punctuated.length);
  });

  it('refuses an answer that changes the words', async () => {
    server = await startFakeChatServer({
      reply: () => JSON.stringify({ lines: [{ id: 'a', text: '今天我们聊聊人工智能。' }] }),
    });
    const client = createChatClient({ baseURL: server.url, apiKey: 'k', model: 'm' });
    const res = await punctuate(client, [{ id: 'a', text: '今天我们要聊人工智能' }], { language: 'zh' });
    expect(res).toMatchObject({ changed: 0, rejected: 1 });
    expect(res.lines[0].text).toBe('今天我们要聊人工智能');
  });
});
