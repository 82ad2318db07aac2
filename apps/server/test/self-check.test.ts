import type { AddressInfo } from 'node:net';
import { countTtsCharacters, TTS_HEADERS } from '@vw/contract';
import { type AsrRegistry, createAsrRegistry, type EngineRegistry } from '@vw/engines';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import {
  CLIENT_HEADERS,
  call,
  createTestServer,
  fund,
  signIn,
  type TestServer,
  taskFinished,
} from './harness.ts';
import { addTestNeuralVoice, faultyTts, hearingRecognizer, TEST_NEURAL_VOICE } from './self-check-fakes.ts';
import { tusClient } from './tus-client.ts';

/*
 * Speech that checks itself in TTS (issue 32 item 4): every sentence is heard by the installed
 * recognizer; a sentence with a dropped or repeated word is made again at another speed, and if it
 * stays wrong it is kept, flagged with what was heard and refunded — the job itself succeeds.
 */

const CLEAN = '清晨的街道很安静。';
const DROPPED_ONCE = '他们一起走向公园，心情非常愉快。';
const NUMBERS = '今年是2024年，我们的收入增长了15%。';
const REPEATED = '今天天气很好，大家都出门了。';
const TEXT = CLEAN + DROPPED_ONCE + NUMBERS + REPEATED;

let server: TestServer;
let alice: { token: string; uid: string };
let realTts: EngineRegistry;
let realAsr: AsrRegistry;
let base: string;

beforeAll(async () => {
  server = await createTestServer();
  const a = await signIn(server.app, '13900000432');
  alice = { token: a.secure_tokens.access_token, uid: a.user_info.uid };
  await fund(server, alice.uid, 10_000);
  realTts = server.ctx.engines.tts;
  realAsr = server.ctx.engines.asr;
  await addTestNeuralVoice(server.ctx.db);
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
}, 60_000);

afterEach(() => {
  server.ctx.engines.tts = realTts;
  server.ctx.engines.asr = realAsr;
});

afterAll(async () => {
  await server?.close();
});

const get = (path: string) => call(server.app, 'GET', path, { token: alice.token });
const historyItem = async (id: string) => (await get(`/p1/history/get?history_id=${id}`)).body.data.list[0];

function install(
  faults: Parameters<typeof faultyTts>[1],
  writes?: Record<string, string>,
  lastWhenUnknown = false,
) {
  const tts = faultyTts(realTts, faults);
  const recognizer = hearingRecognizer(tts, writes, lastWhenUnknown);
  server.ctx.engines.tts = tts.engines;
  server.ctx.engines.asr = createAsrRegistry([recognizer]);
  return { tts, recognizer };
}

describe('TTS self-check', () => {
  it('regenerates a dropped word, flags a word that stays repeated, refunds exactly that sentence', async () => {
    const { tts, recognizer } = install(
      [
        { in: '公园', kind: 'drop', word: '一起', takes: 1 },
        { in: '出门', kind: 'repeat', word: '天气', takes: Number.POSITIVE_INFINITY },
      ],
      // Recognizers write years in digits: the check reads both sides alike.
      { 二〇二四年: '2024年' },
    );
    const before = (await getBalance(server.ctx, alice.uid)).balance;
    const started = await call(server.app, 'POST', '/v1/tts/generate', {
      token: alice.token,
      body: { text: TEXT, voice_id: TEST_NEURAL_VOICE, speed: 1, mode: 'task' },
    });
    expect(started.body.code).toBe(0);
    const { task_id, history_id, credits } = started.body.data;
    const task = await taskFinished(server.ctx, task_id, 120_000);
    // The check never fails the job.
    expect(task).toMatchObject({ status: 'succeeded', error_code: 0 });

    // Takes: clean 1, dropped once 2 (the second at another speed), numbers 1, repeated 1 + 2.
    const takes = (part: string) => tts.calls.filter((c) => c.asked.includes(part));
    expect(takes('安静')).toHaveLength(1);
    expect(takes('公园').map((c) => c.speed)).toEqual([1, 0.92]);
    expect(takes('收入')).toHaveLength(1);
    expect(takes('出门').map((c) => c.speed)).toEqual([1, 0.92, 1.08]);
    expect(recognizer.heard).toHaveLength(7);

    const item = await historyItem(history_id);
    expect(item.status).toBe('succeeded');
    const checks = item.sentences.map((s: { text: string; check: unknown }) => [s.text, s.check]);
    expect(checks).toEqual([
      [CLEAN, expect.objectContaining({ status: 'passed', cer: 0, attempts: 1, problem: null })],
      [DROPPED_ONCE, expect.objectContaining({ status: 'passed', cer: 0, attempts: 2 })],
      [
        NUMBERS,
        expect.objectContaining({
          status: 'passed',
          cer: 0,
          attempts: 1,
          heard: expect.stringContaining('2024年'),
        }),
      ],
      [
        REPEATED,
        expect.objectContaining({
          status: 'flagged',
          problem: 'repeated',
          attempts: 3,
          failure_code: 5,
          heard: '今天天气天气很好，大家都出门了。',
        }),
      ],
    ]);
    expect(item.sentences[0].check).not.toHaveProperty('failure_code');

    // Figures per job, on the task and on the history item.
    const figures = { ran: true, checked: 4, regenerated: 2, flagged: 1 };
    const view = (await get(`/v1/tasks/get?task_id=${task_id}`)).body.data.task;
    expect(view.self_check).toMatchObject(figures);
    expect(view.self_check.mean_cer).toBeGreaterThan(0);
    expect(view.self_check.ms).toBeGreaterThanOrEqual(0);
    expect(item.self_check).toMatchObject(figures);

    // The flagged sentence's characters are refunded, exactly, in the ledger.
    const weights = [CLEAN, DROPPED_ONCE, NUMBERS, REPEATED].map(countTtsCharacters);
    const total = weights.reduce((a, b) => a + b, 0);
    const paid = Math.floor(credits * (1 - weights[3]! / total));
    expect(paid).toBeLessThan(credits);
    expect(task.credits_captured).toBe(paid);
    expect(item.credits).toBe(paid);
    expect((await getBalance(server.ctx, alice.uid)).balance).toBe(before - paid);

    // The user rewrites the flagged sentence: the new take is heard too, passes, and is charged.
    const again = await call(server.app, 'POST', '/v1/tts/regenerate_sentence', {
      token: alice.token,
      body: { history_id, sentence_index: 3, text: '今天天气很好，大家都在家。' },
    });
    expect(again.body.code).toBe(0);
    expect(again.body.data.credits).toBeGreaterThan(0);
    expect(again.body.data.item.sentences[3].check).toMatchObject({ status: 'passed', attempts: 1, cer: 0 });
    expect(again.body.data.item.sentences[3].check).not.toHaveProperty('failure_code');
    expect(recognizer.heard).toHaveLength(8);
  }, 180_000);

  it('raises no false alarm on clean sentences with numbers and punctuation, streamed', async () => {
    const { tts, recognizer } = install([]);
    const text = '会议在3月5日下午3点开始！价格是15元，对吗？今年是2024年。';
    const before = (await getBalance(server.ctx, alice.uid)).balance;
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { text, voice_id: TEST_NEURAL_VOICE, speed: 1, format: 'wav' },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${alice.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.headers[TTS_HEADERS.historyId] as string;
    const price = Number(res.headers[TTS_HEADERS.credits]);
    const item = await historyItem(id);
    expect(item.status).toBe('succeeded');
    const n = item.sentences.length;
    expect(n).toBeGreaterThanOrEqual(3);
    for (const s of item.sentences) expect(s.check).toMatchObject({ status: 'passed', cer: 0, attempts: 1 });
    // One take and one hearing per sentence.
    expect(tts.calls).toHaveLength(n);
    expect(recognizer.heard).toHaveLength(n);
    expect(item.self_check).toMatchObject({ ran: true, checked: n, regenerated: 0, flagged: 0, mean_cer: 0 });
    expect(item.credits).toBe(price);
    expect((await getBalance(server.ctx, alice.uid)).balance).toBe(before - price);
  }, 60_000);

  it('flags and refunds a streamed sentence that keeps dropping a word', async () => {
    install([{ in: '公园', kind: 'drop', word: '一起', takes: Number.POSITIVE_INFINITY }]);
    const text = CLEAN + DROPPED_ONCE;
    const before = (await getBalance(server.ctx, alice.uid)).balance;
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/tts/generate',
      payload: { text, voice_id: TEST_NEURAL_VOICE, speed: 1, format: 'wav' },
      headers: { ...CLIENT_HEADERS, authorization: `Bearer ${alice.token}` },
    });
    expect(res.statusCode).toBe(200);
    const item = await historyItem(res.headers[TTS_HEADERS.historyId] as string);
    expect(item.status).toBe('succeeded');
    expect(item.sentences[1].check).toMatchObject({
      status: 'flagged',
      problem: 'dropped',
      heard: '他们走向公园，心情非常愉快。',
      failure_code: 5,
    });
    const price = Number(res.headers[TTS_HEADERS.credits]);
    const [a, b] = [CLEAN, DROPPED_ONCE].map(countTtsCharacters);
    const paid = Math.floor(price * (a! / (a! + b!)));
    expect(item.credits).toBe(paid);
    expect((await getBalance(server.ctx, alice.uid)).balance).toBe(before - paid);
  }, 60_000);

  it('changes nothing without a recognizer, and says the check did not run', async () => {
    const { tts } = install([{ in: '公园', kind: 'drop', word: '一起', takes: Number.POSITIVE_INFINITY }]);
    server.ctx.engines.asr = createAsrRegistry([]);
    const started = await call(server.app, 'POST', '/v1/tts/generate', {
      token: alice.token,
      body: { text: CLEAN + DROPPED_ONCE, voice_id: TEST_NEURAL_VOICE, speed: 1, mode: 'task' },
    });
    const { task_id, history_id, credits } = started.body.data;
    const task = await taskFinished(server.ctx, task_id, 60_000);
    expect(task).toMatchObject({ status: 'succeeded', credits_captured: credits });
    // One take per sentence: nothing heard, nothing regenerated.
    expect(tts.calls).toHaveLength(2);
    const item = await historyItem(history_id);
    for (const s of item.sentences) expect(s).not.toHaveProperty('check');
    const none = { ran: false, checked: 0, regenerated: 0, flagged: 0 };
    expect(item.self_check).toMatchObject(none);
    expect((await get(`/v1/tasks/get?task_id=${task_id}`)).body.data.task.self_check).toMatchObject(none);
  }, 60_000);
});

describe('audiobook self-check', () => {
  it('checks each sentence of a paragraph: a dropped word made again, a repeated one flagged and refunded', async () => {
    const { tts, recognizer } = install(
      [
        { in: '公园', kind: 'drop', word: '一起', takes: 1 },
        { in: '出门', kind: 'repeat', word: '天气', takes: Number.POSITIVE_INFINITY },
      ],
      { 二〇二四年: '2024年' },
    );
    const book = ['第一章 清晨', '', CLEAN + DROPPED_ONCE, '', NUMBERS + REPEATED, ''].join('\n');
    const bytes = Buffer.from(book, 'utf8');
    const tus = tusClient(base, alice.token);
    const created = await tus.create(bytes.length, '清晨.txt');
    await tus.patch(created.location, 0, bytes);
    const imported = await call(server.app, 'POST', '/v1/audiobook/import', {
      token: alice.token,
      body: { tus_upload: created.location },
    });
    expect(imported.body.code).toBe(0);
    const workId = imported.body.data.work.work_id as string;
    const chapter = (await get(`/v1/audiobook/get?work_id=${workId}`)).body.data.chapters[0];
    const before = (await getBalance(server.ctx, alice.uid)).balance;
    const started = await call(server.app, 'POST', '/v1/audiobook/synthesize', {
      token: alice.token,
      body: { work_id: workId, chapter_ids: [chapter.chapter_id] },
    });
    expect(started.body.code).toBe(0);
    const task = await taskFinished(server.ctx, started.body.data.task_id, 120_000);
    expect(task).toMatchObject({ status: 'succeeded', error_code: 0 });

    const takes = (part: string) => tts.calls.filter((c) => c.asked.includes(part));
    expect(takes('公园').map((c) => c.speed)).toEqual([undefined, 0.92]);
    expect(takes('出门').map((c) => c.speed)).toEqual([undefined, 0.92, 1.08]);
    expect(takes('安静')).toHaveLength(1);
    expect(takes('收入')).toHaveLength(1);
    expect(recognizer.heard).toHaveLength(7);

    const paragraphs = (
      await get(`/v1/audiobook/paragraphs?work_id=${workId}&chapter_id=${chapter.chapter_id}`)
    ).body.data.list;
    expect(paragraphs.map((p: { check: string }) => p.check)).toEqual(['passed', 'flagged']);
    expect(paragraphs[1].heard).toContain('今天天气天气很好');
    expect(paragraphs[1].takes[0].check).toMatchObject({
      status: 'flagged',
      problem: 'repeated',
      failure_code: 5,
    });
    const view = (await get(`/v1/tasks/get?task_id=${task.id}`)).body.data.task;
    expect(view.self_check).toMatchObject({ ran: true, checked: 4, regenerated: 2, flagged: 1 });

    // Only the flagged sentence's characters are refunded.
    const chars = (t: string) => Array.from(t.replace(/\s/g, '')).length;
    const total = chars(CLEAN + DROPPED_ONCE) + chars(NUMBERS + REPEATED);
    const paid = Math.floor(task.credits_held * (1 - chars(REPEATED) / total));
    expect(task.credits_captured).toBe(paid);
    expect((await getBalance(server.ctx, alice.uid)).balance).toBe(before - paid);
  }, 180_000);
});

describe('dubbing self-check', () => {
  it('hears each fitted line: a dropped word made again at another speed, a repeated one flagged and refunded', async () => {
    const { tts } = install(
      [
        { in: '公园', kind: 'drop', word: '一起', takes: 1 },
        { in: '出门', kind: 'repeat', word: '天气', takes: Number.POSITIVE_INFINITY },
      ],
      {},
      true,
    );
    const srt = [
      `1\n00:00:00,200 --> 00:00:04,200\n${DROPPED_ONCE}\n`,
      `2\n00:00:04,400 --> 00:00:07,400\n${REPEATED}\n`,
    ].join('\n');
    const before = (await getBalance(server.ctx, alice.uid)).balance;
    const created = await call(server.app, 'POST', '/v1/dubbing/srt/create', {
      token: alice.token,
      body: {
        default_voice_id: 'espeak-zh-xiaowen',
        subtitle: { name: '校验.srt', text: srt },
        options: { check: true, condense: false, outputs: ['srt'] },
      },
    });
    expect(created.body.code).toBe(0);
    const task = await taskFinished(server.ctx, created.body.data.task_id, 120_000);
    expect(task).toMatchObject({ status: 'succeeded', error_code: 0 });
    const takes = (part: string) => tts.calls.filter((c) => c.asked.includes(part));
    expect(takes('公园').map((c) => c.speed)).toEqual([undefined, 0.92]);
    expect(takes('出门').map((c) => c.speed)).toEqual([undefined, 0.92, 1.08]);

    const doc = (await get(`/v1/projects/get?project_id=${created.body.data.project_id}`)).body.data.document;
    const [first, second] = doc.tracks[0].cues;
    expect(first.takes[0].check).toMatchObject({ status: 'passed', retries: 1, cer: 0 });
    expect(second.takes[0].check).toMatchObject({
      status: 'failed',
      retries: 2,
      problem: 'repeated',
      heard: '今天天气天气很好，大家都出门了。',
      failure_code: 5,
    });
    const view = (await get(`/v1/tasks/get?task_id=${task.id}`)).body.data.task;
    expect(view.self_check).toMatchObject({ ran: true, checked: 2, regenerated: 2, flagged: 1 });
    // The flagged line's share (by slot length) is refunded.
    const paid = Math.floor(task.credits_held * (4000 / (4000 + 3000)));
    expect(task.credits_captured).toBe(paid);
    expect((await getBalance(server.ctx, alice.uid)).balance).toBe(before - paid);
  }, 180_000);
});
