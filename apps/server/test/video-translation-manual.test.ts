import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ProjectDocument, srtTime } from '@vw/contract';
import { makeSubtitledClip } from '@vw/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * 视频翻译 without a language model: the task stops after recognition (paused, with the reason), the
 * translation is written by hand in the editor, and 继续 dubs and renders it — through a local
 * vw-lipsync/1 server (口型同步) that answers a known video.
 */

let server: TestServer;
let dir: string;
let alice: string;
let aliceId: string;
let lipsync: Server;
/** What the fake lip-sync server received, and the MP4 it answers with. */
const lipCalls: Array<{ type: string; bytes: number; auth: string }> = [];
let lipAnswer: Buffer;

const SRT = ['你好，朋友。', '欢迎来到这里。']
  .map((text, i) => `${i + 1}\n${srtTime(300 + i * 2000)} --> ${srtTime(2000 + i * 2000)}\n${text}\n`)
  .join('\n');

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);
const post = (url: string, body: unknown) => call(server.app, 'POST', url, { token: alice, body });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-vt-manual-'));
  lipsync = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      lipCalls.push({
        type: `${req.method} ${req.url} ${req.headers['content-type']?.split(';')[0]}`,
        bytes: body.length,
        auth: String(req.headers.authorization),
      });
      // Both parts arrived: the rendered video and the mixed audio.
      const ok = body.includes('name="video"') && body.includes('name="audio"');
      res.writeHead(ok ? 200 : 400, { 'content-type': 'video/mp4' }).end(ok ? lipAnswer : undefined);
    });
  });
  await new Promise<void>((r) => lipsync.listen(0, '127.0.0.1', r));
  server = await createTestServer({
    LIPSYNC_URL: `http://127.0.0.1:${(lipsync.address() as AddressInfo).port}`,
    LIPSYNC_API_KEY: 'lip-key',
  });
  const a = await signIn(server.app, '13900000187');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  await fund(server, aliceId, 5000);
  await setFeatureOverride(server.ctx, aliceId, 'video_translate', true);
  await server.ctx.jobs.startWorker({ concurrency: 2 });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await new Promise((r) => lipsync?.close(r));
  await rm(dir, { recursive: true, force: true });
});

describe('视频翻译 without a language model', () => {
  it('pauses after recognition, takes a hand-made translation, dubs it after 继续 and lip-syncs the video', async () => {
    const langs = await call(server.app, 'GET', '/v1/video-translation/languages', { token: alice });
    expect(langs.body.data.llm.configured).toBe(false);
    // the user is told what happens instead, never the operator's settings
    expect(langs.body.data.llm.reason).toBe('自动翻译暂未开放：识别后请在编辑器中手动翻译，其余步骤照常进行');

    const mp4 = join(dir, 'clip.mp4');
    await makeSubtitledClip(mp4, {
      width: 320,
      height: 180,
      duration_ms: 4500,
      background: 'still',
      cues: [],
    });
    await copyFile(mp4, join(dir, 'answer.mp4'));
    lipAnswer = await readFile(join(dir, 'answer.mp4'));
    const asset = await registerAsset(server.ctx, aliceId, { file: mp4, name: 'clip.mp4' });
    // 口型同步 is behind the lip_sync switch (a higher plan).
    const refused = await post('/v1/video-translation/create', {
      asset_id: asset.id,
      target_languages: ['en'],
      subtitle_source: 'subtitle',
      subtitle: { name: 'a.srt', text: SRT },
      lip_sync: true,
    });
    expect(namedError(refused.body)).toBe('err_lip_sync_not_allowed');
    await setFeatureOverride(server.ctx, aliceId, 'lip_sync', true);
    expect(langs.body.data.lip_sync.available).toBe(true);
    const res = await post('/v1/video-translation/create', {
      asset_id: asset.id,
      source_language: 'zh',
      target_languages: ['en'],
      subtitle_source: 'subtitle',
      subtitle: { name: 'a.srt', text: SRT },
      split: false,
      subtitles: { lines: 'bilingual', mode: 'soft' },
      lip_sync: true,
    });
    expect(res.body.code).toBe(0);
    const { task_id: taskId, project_id: projectId } = res.body.data as {
      task_id: string;
      project_id: string;
    };
    const paused = await taskPaused(server.ctx, taskId);
    expect(paused.pause_point).toBe('recognition');
    const split = await server.ctx.db
      .selectFrom('task_stages')
      .select('result')
      .where('task_id', '=', taskId)
      .where('name', '=', 'split')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(split.result!).message).toContain('手动翻译');

    // No model: re-translating is refused with what to configure.
    const again = await post('/v1/video-translation/retranslate', { project_id: projectId });
    expect(namedError(again.body)).toBe('err_interface_unavailable');

    const got = await call(server.app, 'GET', `/v1/projects/get?project_id=${projectId}`, { token: alice });
    const doc = got.body.data.document as ProjectDocument;
    expect(doc.translation?.model).toContain('手动翻译');
    const manual = ['Hello, my friend.', 'Welcome here.'];
    const target = doc.tracks.find((t) => t.kind === 'translation')!;
    expect(target.cues.map((c) => c.text)).toEqual(['', '']);
    target.cues.forEach((c, i) => {
      c.text = manual[i]!;
    });
    const saved = await post('/v1/projects/save', {
      project_id: projectId,
      version: got.body.data.version,
      document: doc,
    });
    expect(saved.body.code).toBe(0);

    expect((await post('/v1/video-translation/continue', { project_id: projectId })).body.code).toBe(0);
    const task = await taskFinished(server.ctx, taskId, 120_000);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const after = (
      await call(server.app, 'GET', `/v1/projects/get?project_id=${projectId}`, { token: alice })
    ).body.data.document as ProjectDocument;
    const cues = after.tracks.find((t) => t.kind === 'translation')!.cues;
    expect(cues.map((c) => c.text)).toEqual(manual);
    for (const cue of cues) expect(cue.takes?.find((t) => t.id === cue.take_id)?.source_text).toBe(cue.text);
    // The rendered video went through the lip-sync server once, and its answer is the output.
    expect(lipCalls).toHaveLength(1);
    expect(lipCalls[0]).toMatchObject({
      type: 'POST /v1/lipsync multipart/form-data',
      auth: 'Bearer lip-key',
    });
    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${taskId}`, { token: alice });
    const video = (view.body.data.task.outputs as Array<{ format: string; url: string }>).find(
      (o) => o.format === 'mp4',
    )!;
    const got2 = await server.app.inject({ method: 'GET', url: video.url });
    expect(Buffer.compare(got2.rawPayload, lipAnswer)).toBe(0);
    const cont = await post('/v1/video-translation/continue', { project_id: projectId });
    expect(namedError(cont.body)).toBe('err_task_not_paused');
  }, 180_000);
});
