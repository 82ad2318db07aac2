import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProjectDocument, srtTime } from '@vw/contract';
import { makeSubtitledClip, SUMMARY_PROMPT_MARK, TRANSLATE_PROMPT_MARK } from '@vw/engines';
import { type FakeChatServer, startFakeChatServer } from '@vw/engines/fake-chat-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { createJobQueue } from '../src/jobs/index.ts';
import { createLogger } from '../src/logger.ts';
import { setFeatureOverride } from '../src/modules/features/features.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import {
  call,
  createTestServer,
  fund,
  signIn,
  spawnPipelineWorker,
  type TestServer,
  taskFinished,
} from './harness.ts';

/*
 * 视频翻译 resumed after its worker process is killed between translation and dubbing: the finished
 * stages (recognition, translation, back-translation) are not run again — no new model request — and
 * the task finishes with the same translation, dubbed.
 */

let server: TestServer;
let chat: FakeChatServer;
let dir: string;
let alice: { token: string; uid: string };
const children: ChildProcess[] = [];

const LINES = [
  '第一句话很短。',
  '第二句话稍微长一点。',
  '第三句我们去公园。',
  '第四句天气很好。',
  '第五句大家好。',
  '第六句谢谢收看。',
  '第七句明天见。',
  '第八句再见了。',
];
const SRT = LINES.map(
  (text, i) => `${i + 1}\n${srtTime(300 + i * 1500)} --> ${srtTime(1500 + i * 1500)}\n${text}\n`,
).join('\n');

const isModelWork = (r: FakeChatServer['requests'][number]) =>
  [TRANSLATE_PROMPT_MARK, SUMMARY_PROMPT_MARK].some((m) => r.messages[0]?.content.startsWith(m));

beforeAll(async () => {
  chat = await startFakeChatServer({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'vw-vt-resume-'));
  server = await createTestServer({ LLM_BASE_URL: chat.url, LLM_API_KEY: 'k', LLM_MODEL: 'fake-chat' });
  server.ctx.clock = systemClock;
  const a = await signIn(server.app, '13900000185');
  alice = { token: a.secure_tokens.access_token, uid: a.user_info.uid };
  await fund(server, alice.uid, 10_000);
  await setFeatureOverride(server.ctx, alice.uid, 'video_translate', true);
}, 60_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await server?.close();
  await chat?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('视频翻译 after a killed worker', () => {
  it('resumes at the dub without translating again', async () => {
    const mp4 = join(dir, 'clip.mp4');
    await makeSubtitledClip(mp4, {
      width: 320,
      height: 180,
      duration_ms: 12_500,
      background: 'still',
      cues: [],
      measureBoxes: false,
    });
    const asset = await registerAsset(server.ctx, alice.uid, { file: mp4, name: 'clip.mp4' });
    // Real time, a short lease and a separate queue prefix: a worker process takes the task first.
    await server.ctx.jobs.close();
    const prefix = `vwvt-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    server.ctx.jobs = createJobQueue({
      db: server.ctx.db,
      clock: systemClock,
      log: createLogger('silent'),
      jobs: server.ctx.jobDefinitions,
      prefix,
      leaseMs: 1000,
      pollIntervalMs: 20,
      app: () => server.ctx,
    });
    const res = await call(server.app, 'POST', '/v1/video-translation/create', {
      token: alice.token,
      body: {
        asset_id: asset.id,
        source_language: 'zh',
        target_languages: ['en'],
        subtitle_source: 'subtitle',
        subtitle: { name: 'a.srt', text: SRT },
        split: false,
        subtitles: { lines: 'bilingual', mode: 'soft' },
      },
    });
    expect(res.body.code).toBe(0);
    const taskId = res.body.data.task_id as string;
    const projectId = res.body.data.project_id as string;

    const { child, exited } = spawnPipelineWorker(server, prefix, {
      LLM_BASE_URL: chat.url,
      LLM_API_KEY: 'k',
      LLM_MODEL: 'fake-chat',
    });
    children.push(child);
    // Killed once the back-translation is stored, before the dub is done.
    const stage = (name: string) =>
      server.ctx.db
        .selectFrom('task_stages')
        .select(['status'])
        .where('task_id', '=', taskId)
        .where('name', '=', name)
        .executeTakeFirst();
    for (;;) {
      if ((await stage('back_translate'))?.status === 'done') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    await exited;
    expect((await stage('render'))?.status).not.toBe('done');
    const doc = async () =>
      (await call(server.app, 'GET', `/v1/projects/get?project_id=${projectId}`, { token: alice.token })).body
        .data.document as ProjectDocument;
    const translated = (await doc()).tracks.find((t) => t.kind === 'translation')!.cues.map((c) => c.text);
    expect(translated.every((t) => t !== '')).toBe(true);
    const modelWork = chat.requests.filter(isModelWork).length;

    await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
    const task = await taskFinished(server.ctx, taskId, 180_000);
    expect(task.status, task.error ?? '').toBe('succeeded');
    // Nothing translated again: no summary or translation request after the kill.
    expect(chat.requests.filter(isModelWork).length).toBe(modelWork);
    const after = (await doc()).tracks.find((t) => t.kind === 'translation')!;
    expect(after.cues.map((c) => c.text)).toEqual(translated);
    for (const cue of after.cues) expect(cue.takes?.length, cue.text).toBe(1);
  }, 240_000);
});
