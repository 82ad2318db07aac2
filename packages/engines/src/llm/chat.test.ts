import { afterEach, describe, expect, it } from 'vitest';
import { isEngineError } from '../errors.ts';
import { condenseWith, createChatClient, parseCondensed, spokenLength } from './chat.ts';
import { type FakeChatServer, startFakeChatServer } from './fake-chat-server.ts';

let server: FakeChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('chat client against a fake OpenAI-compatible server', () => {
  it('condenses a line: sends the model, a JSON-mode request and the target; returns the validated text', async () => {
    server = await startFakeChatServer({ apiKey: 'sk-test' });
    const client = createChatClient({ baseURL: server.url, apiKey: 'sk-test', model: 'qwen-test' });
    const text = '我们今天要讨论的问题非常重要，请大家认真听讲，不要分心。';
    const short = await client.condense(text, 12);
    expect(short.length).toBeLessThanOrEqual(13);
    expect(text.startsWith(short)).toBe(true);
    const req = server.requests[0];
    expect(req.model).toBe('qwen-test');
    expect(req.response_format?.type).toBe('json_object');
    expect(req.messages.at(-1)?.content).toContain('at most 12 characters');
    expect(req.messages.at(-1)?.content).toContain(text);
  });

  it('retries an unusable answer (not JSON, not shorter) and takes the first usable one', async () => {
    const answers = [
      'Sure! Here it is: 好的',
      JSON.stringify({ text: '一模一样的一句很长的话' }),
      '```json\n{"text":"短句"}\n```',
    ];
    server = await startFakeChatServer({ reply: () => answers.shift() ?? '{}' });
    const client = createChatClient({ baseURL: server.url, apiKey: 'k', model: 'm' });
    expect(await client.condense('一模一样的一句很长的话', 4)).toBe('短句');
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1].messages.at(-1)?.content).toContain('not JSON');
  });

  it('fails with remote_error naming the settings when the server refuses', async () => {
    server = await startFakeChatServer({ apiKey: 'right' });
    const client = createChatClient({ baseURL: server.url, apiKey: 'wrong', model: 'm' });
    const err = await client.condense('很长的一句话', 3).catch((e: unknown) => e);
    expect(isEngineError(err, 'remote_error')).toBe(true);
    expect((err as Error).message).toContain('LLM_API_KEY');
    expect((err as Error).message).toContain('401');
  });

  it('gives up after its tries when no answer is usable', async () => {
    server = await startFakeChatServer({ reply: () => 'no json here' });
    const client = createChatClient({ baseURL: server.url, apiKey: 'k', model: 'm', maxRetries: 1 });
    const err = await client.condense('很长的一句话', 3).catch((e: unknown) => e);
    expect(isEngineError(err, 'remote_error')).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('condenseWith turns fitLine’s ratio into a character goal', async () => {
    server = await startFakeChatServer();
    const condense = condenseWith(createChatClient({ baseURL: server.url, apiKey: 'k', model: 'm' }));
    await condense('一二三四五六七八九十', 0.5);
    expect(server.requests[0].messages.at(-1)?.content).toContain('at most 5 characters');
  });
});

describe('answer parsing', () => {
  it('reads the text field of a JSON object inside prose or fences', () => {
    expect(parseCondensed('{"text":" 你好 "}')).toBe('你好');
    expect(parseCondensed('ok ```{"text":"a"}```')).toBe('a');
    expect(parseCondensed('{"txt":"a"}')).toBeNull();
    expect(parseCondensed('{"text":""}')).toBeNull();
  });

  it('counts a Han character as one and a Latin word as two', () => {
    expect(spokenLength('你好')).toBe(2);
    expect(spokenLength('hello world')).toBe(4);
    expect(spokenLength('你好 world!')).toBe(4);
  });
});
