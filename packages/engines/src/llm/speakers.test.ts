import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attributeSpeakers } from '../book/speakers.ts';
import { createChatClient } from './chat.ts';
import { type FakeChatServer, startFakeChatServer } from './fake-chat-server.ts';
import { refineSpeakers, validateSpeakerAnswer } from './speakers.ts';

const PARAGRAPHS = ['李雷说：“你好。”', '韩梅梅问：“你是谁？”', '“我是老师。”', '李雷说：“欢迎。”'];

let chat: FakeChatServer;
beforeAll(async () => {
  chat = await startFakeChatServer({ port: 0 });
});
afterAll(() => chat?.close());

describe('speaker refinement by a language model', () => {
  it('validates answers: unknown, duplicated and malformed ids dropped, genders checked', () => {
    const v = validateSpeakerAnswer(
      {
        quotes: [
          { id: 'q1', speaker: '李雷' },
          { id: 'q1', speaker: '别人' },
          { id: 'q9', speaker: '某人' },
          { id: 'q2', speaker: 3 },
          { id: 'q3', speaker: '旁白' },
          'junk',
        ],
        characters: [
          { name: '李雷', gender: 'male' },
          { name: '韩梅梅', gender: 'woman' },
        ],
      },
      new Set(['q1', 'q2', 'q3']),
    );
    expect([...v.speakers]).toEqual([
      ['q1', '李雷'],
      ['q3', null],
    ]);
    expect([...v.genders]).toEqual([['李雷', 'male']]);
    expect(v.dropped).toBe(4);
    expect(validateSpeakerAnswer(null, new Set(['q1'])).speakers.size).toBe(0);
  });

  it("the fake server's scripted answer keeps the rules' guesses; chunks never cross chapters", async () => {
    const client = createChatClient({ baseURL: chat.url, apiKey: 'k', model: 'fake-chat' });
    const rules = attributeSpeakers(PARAGRAPHS);
    chat.requests.length = 0;
    const out = await refineSpeakers(client, rules, [3, 1], { maxQuotes: 2 });
    // Chapter one has 3 quotes → 2 chunks of ≤ 2; chapter two 1 → 3 requests, no retries needed.
    expect(out.requests).toBe(3);
    expect(out.quotes).toBe(4);
    expect(out.answered).toBe(4);
    expect(out.paragraphs.map((p) => p.segments.find((s) => s.kind === 'quote')?.speaker)).toEqual(
      rules.paragraphs.map((p) => p.segments.find((s) => s.kind === 'quote')?.speaker ?? '李雷'),
    );
    expect(out.characters.reduce((n, c) => n + c.lines, 0)).toBe(4);
  });
});
