import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProjectDocument, type ProjectView, srtTime } from '@vw/contract';
import { makeSubtitledClip, TRANSLATE_PROMPT_MARK } from '@vw/engines';
import { type FakeChatServer, startFakeChatServer } from '@vw/engines/fake-chat-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { setFeatureOverride } from '../src/modules/features/features.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import {
  call,
  createTestServer,
  fund,
  signIn,
  type TestServer,
  taskFinished,
  taskPaused,
} from './harness.ts';

/*
 * 视频翻译 paused for review after translation (issue 30): a line action there (re-translate,
 * back-translate, re-dub one line) changes its line only, costs that line only, and leaves the task
 * paused — the project stays paused until 确认并继续 finishes its own task.
 */

vi.setConfig({ testTimeout: 240_000 });

let server: TestServer;
let chat: FakeChatServer;
let dir: string;
let alice: string;
let aliceId: string;
let assetId: string;

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);
const post = (url: string, body: unknown) => call(server.app, 'POST', url, { token: alice, body });
const target = (doc: ProjectDocument) => doc.tracks.find((t) => t.kind === 'translation')!;
const translateRequests = () =>
  chat.requests.filter((r) => r.messages[0]?.content.startsWith(TRANSLATE_PROMPT_MARK)).length;

async function project(id: string) {
  const res = await call(server.app, 'GET', `/v1/projects/get?project_id=${id}`, { token: alice });
  expect(res.body.code).toBe(0);
  return res.body.data as { project: ProjectView; document: ProjectDocument };
}
async function listed(id: string) {
  const res = await call(server.app, 'GET', '/v1/projects/list?tool=translate', { token: alice });
  return (res.body.data.list as ProjectView[]).find((p) => p.project_id === id)!;
}
async function taskView(id: string) {
  const res = await call(server.app, 'GET', `/v1/tasks/get?task_id=${id}`, { token: alice });
  return res.body.data.task as {
    status: string;
    stages: Array<{ name: string }>;
    outputs: Array<{ format: string }>;
    credits_captured: number;
  };
}
const taskRow = (id: string) =>
  server.ctx.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const SRT = [
  { text: '今天我们去公园。', start: 200, end: 2200 },
  { text: '那里有很多花。', start: 2400, end: 4200 },
  { text: '天气很好。', start: 4400, end: 5600 },
]
  .map((l, i) => `${i + 1}\n${srtTime(l.start)} --> ${srtTime(l.end)}\n${l.text}\n`)
  .join('\n');

beforeAll(async () => {
  chat = await startFakeChatServer({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'vw-vt-pause-'));
  server = await createTestServer({ LLM_BASE_URL: chat.url, LLM_API_KEY: 'k', LLM_MODEL: 'fake-chat' });
  const a = await signIn(server.app, '13900000191');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  await fund(server, aliceId, 5000);
  await setFeatureOverride(server.ctx, aliceId, 'video_translate', true);
  const mp4 = join(dir, 'clip.mp4');
  await makeSubtitledClip(mp4, { width: 320, height: 180, duration_ms: 6000, background: 'still', cues: [] });
  assetId = (await registerAsset(server.ctx, aliceId, { file: mp4, name: '公园.mp4' })).id;
  await server.ctx.jobs.startWorker({ concurrency: 2 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chat?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('视频翻译: line actions at the review pause', () => {
  it('change and charge their line only, leave the task paused and the project unfinished until 确认并继续', async () => {
    const res = await post('/v1/video-translation/create', {
      asset_id: assetId,
      source_language: 'zh',
      target_languages: ['en'],
      subtitle_source: 'subtitle',
      subtitle: { name: '字幕.srt', text: SRT },
      split: false,
      dub: { enabled: true },
      subtitles: { lines: 'none', mode: 'burn' },
      review: { after_recognition: false, after_translation: true },
    });
    expect(res.body.code).toBe(0);
    const { task_id: taskId, project_id: projectId } = res.body.data as {
      task_id: string;
      project_id: string;
    };
    const full = res.body.data.credits as number;
    expect((await taskPaused(server.ctx, taskId)).pause_point).toBe('translation');
    const start = await getBalance(server.ctx, aliceId);
    expect(start.held).toBe(full);
    const line = target((await project(projectId)).document).cues[1]!;
    const lineMs = line.end_ms - line.start_ms;
    let spent = 0;

    /** The paused task and its project are as they were: nothing but the line changed. */
    const stillPaused = async () => {
      expect(await taskRow(taskId)).toMatchObject({
        status: 'paused',
        pause_point: 'translation',
        credits_held: full,
      });
      const { project: view } = await project(projectId);
      expect(view).toMatchObject({ status: 'paused', task_id: taskId });
      expect((await listed(projectId)).status).toBe('paused');
      expect(await getBalance(server.ctx, aliceId)).toEqual({ balance: start.balance - spent, held: full });
    };

    // 重新翻译这一句: the model is asked again (not the cache), for that line, at that line's price.
    const asked = translateRequests();
    const again = await post('/v1/video-translation/retranslate', {
      project_id: projectId,
      cue_ids: [line.id],
    });
    expect(again.body.code).toBe(0);
    // 120 a started minute: 1.8 s of it, not the whole video's minute.
    expect(again.body.data.credits).toBe(Math.ceil((lineMs / 60_000) * 120));
    expect(again.body.data.credits).toBeLessThan(full);
    const retranslated = await taskFinished(server.ctx, again.body.data.task_id);
    expect(retranslated).toMatchObject({ status: 'succeeded', credits_captured: again.body.data.credits });
    spent += again.body.data.credits;
    expect(translateRequests()).toBe(asked + 1);
    // Its task has its own stages only (nothing reported done that did not run) and no outputs.
    const view = await taskView(again.body.data.task_id);
    expect(view.stages.map((s) => s.name)).toEqual(['translate', 'back_translate']);
    expect(view.outputs).toEqual([]);
    const cue = target((await project(projectId)).document).cues[1]!;
    expect(cue.text_rev).toBe((line.text_rev ?? 0) + 1);
    await stillPaused();

    // 回译校对 of that line: the same.
    const back = await post('/v1/video-translation/back-translate', {
      project_id: projectId,
      cue_ids: [line.id],
    });
    expect(back.body.data.credits).toBe(Math.ceil((lineMs / 60_000) * 120));
    expect((await taskFinished(server.ctx, back.body.data.task_id)).status).toBe('succeeded');
    spent += back.body.data.credits;
    expect((await taskView(back.body.data.task_id)).stages.map((s) => s.name)).toEqual(['back_translate']);
    await stillPaused();

    // 重新配音这一句: that line's take, no render (the paused task renders when it goes on).
    const redub = await post('/v1/video-translation/redub', {
      project_id: projectId,
      scope: 'line',
      cue_id: line.id,
    });
    expect(redub.body.code).toBe(0);
    expect(redub.body.data.credits).toBe(Math.ceil((lineMs / 60_000) * 60));
    const redubbed = await taskFinished(server.ctx, redub.body.data.task_id, 120_000);
    expect(redubbed.status, redubbed.error ?? '').toBe('succeeded');
    spent += redub.body.data.credits;
    const redubView = await taskView(redub.body.data.task_id);
    expect(redubView.stages.map((s) => s.name)).toEqual(['prepare', 'dub']);
    expect(redubView.outputs).toEqual([]);
    const dubbed = target((await project(projectId)).document).cues;
    expect(dubbed[1]!.takes).toHaveLength(1);
    expect(dubbed[0]!.takes ?? []).toHaveLength(0);
    await stillPaused();

    // A render now would finish the project past its review: refused, nothing held.
    const render = await post('/v1/video-translation/redub', { project_id: projectId, scope: 'render' });
    expect(namedError(render.body)).toBe('err_invalid_param');
    await stillPaused();

    // 确认并继续: the task itself goes on and finishes the project (the line's take is kept).
    expect((await post('/v1/video-translation/continue', { project_id: projectId })).body.code).toBe(0);
    const done = await taskFinished(server.ctx, taskId, 180_000);
    expect(done.status, done.error ?? '').toBe('succeeded');
    expect(done.credits_captured).toBe(full);
    const { project: finished, document } = await project(projectId);
    expect(finished).toMatchObject({ status: 'succeeded', task_id: taskId });
    expect((await listed(projectId)).status).toBe('succeeded');
    expect((await taskView(taskId)).outputs.map((o) => o.format)).toContain('mp4');
    const cues = target(document).cues;
    expect(cues[1]!.takes).toHaveLength(1);
    for (const c of cues) expect(c.takes?.find((t) => t.id === c.take_id)?.source_text).toBe(c.text);
    // The hold became the charge (the balance shown excludes held credits).
    expect(await getBalance(server.ctx, aliceId)).toEqual({ balance: start.balance - spent, held: 0 });
  });
});
