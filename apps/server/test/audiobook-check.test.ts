import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { type FakeAsr, startFakeAsr } from './fake-asr.ts';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';
import { tusClient } from './tus-client.ts';

/*
 * The automatic check of an audiobook synthesis (issue 30 item 4, the same rule as dubbing): a paragraph
 * the recognizer still does not hear after two regenerations is flagged (failure code 5 for that
 * paragraph, its characters refunded) and the task succeeds with the rest, instead of failing whole.
 */

const FIRST = '清晨的街道很安静。';
const SECOND = '他们一起走向公园，心情非常愉快。';
const BOOK = ['第一章 清晨', '', FIRST, '', SECOND, ''].join('\n');

let server: TestServer;
let asr: FakeAsr;
let base: string;
let alice: { token: string; uid: string };

const get = (path: string) => call(server.app, 'GET', path, { token: alice.token });
const post = (path: string, body: unknown) => call(server.app, 'POST', path, { token: alice.token, body });

beforeAll(async () => {
  asr = await startFakeAsr();
  server = await createTestServer({ OPENAI_ASR_BASE_URL: asr.url, OPENAI_ASR_MODEL: 'fake-whisper' });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const a = await signIn(server.app, '13900000193');
  alice = { token: a.secure_tokens.access_token, uid: a.user_info.uid };
  await fund(server, alice.uid, 10_000);
  await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await asr?.close();
});

describe('audiobook automatic check', () => {
  it('flags the paragraph that never matches, refunds it, and succeeds with the rest', async () => {
    const bytes = Buffer.from(BOOK, 'utf8');
    const tus = tusClient(base, alice.token);
    const created = await tus.create(bytes.length, '清晨.txt');
    await tus.patch(created.location, 0, bytes);
    const imported = await post('/v1/audiobook/import', { tus_upload: created.location });
    expect(imported.body.code).toBe(0);
    const workId = imported.body.data.work.work_id as string;
    const chapter = (await get(`/v1/audiobook/get?work_id=${workId}`)).body.data.chapters[0];
    const paragraphs = async () =>
      (await get(`/v1/audiobook/paragraphs?work_id=${workId}&chapter_id=${chapter.chapter_id}`)).body.data
        .list as Array<{ segments: Array<{ text: string }>; check: string; audio_url: string }>;
    expect((await paragraphs()).map((p) => p.segments.map((s) => s.text).join(''))).toEqual([FIRST, SECOND]);

    // The recognizer hears the first paragraph, whatever it is given.
    asr.answer = {
      text: FIRST,
      language: 'zh',
      duration: 1,
      segments: [{ id: 0, start: 0, end: 1, text: FIRST, words: [] }],
    };
    const heardBefore = asr.requests.length;
    const before = (await getBalance(server.ctx, alice.uid)).balance;
    const started = await post('/v1/audiobook/synthesize', {
      work_id: workId,
      chapter_ids: [chapter.chapter_id],
      check: true,
    });
    expect(started.body.code).toBe(0);
    const task = await taskFinished(server.ctx, started.body.data.task_id, 120_000);
    expect(task).toMatchObject({ status: 'succeeded', error_code: 0 });
    // One hearing of the first paragraph, three of the second (first take + 2 regenerations).
    expect(asr.requests.length - heardBefore).toBe(4);
    const [first, second] = await paragraphs();
    expect(first).toMatchObject({ check: 'passed' });
    // The flagged paragraph shows what the recognizer heard beside it.
    expect(second).toMatchObject({ check: 'flagged', heard: FIRST });
    // The job's figures of the self-check, on the task.
    const view = (await get(`/v1/tasks/get?task_id=${started.body.data.task_id}`)).body.data.task;
    expect(view.self_check).toMatchObject({ ran: true, checked: 2, regenerated: 1, flagged: 1 });
    // Both keep their audio; the flagged paragraph's characters are refunded.
    expect(first!.audio_url).not.toBe('');
    expect(second!.audio_url).not.toBe('');
    const chars = (t: string) => Array.from(t.replace(/\s/g, '')).length;
    const paid = Math.floor(task.credits_held * (1 - chars(SECOND) / (chars(FIRST) + chars(SECOND))));
    expect(task.credits_captured).toBe(paid);
    expect((await getBalance(server.ctx, alice.uid)).balance).toBe(before - paid);
  }, 180_000);
});
