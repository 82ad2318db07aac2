import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ProjectDocument, srtTime } from '@vw/contract';
import { grabFrame, makeSubtitledClip, SUMMARY_PROMPT_MARK, TRANSLATE_PROMPT_MARK } from '@vw/engines';
import { type FakeChatServer, startFakeChatServer } from '@vw/engines/fake-chat-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { setFeatureOverride } from '../src/modules/features/features.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { openTaskEventStream } from '../src/tasks/tasks.service.ts';
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
 * 视频翻译 (issue 18) against the fake OpenAI-compatible chat server (zh → en = toneless pinyin,
 * back-translation from its memory) and the offline OCR engine, on clips with burned-in Chinese
 * subtitles of known text and times.
 */

// Whole tasks (ffmpeg, OCR, synthesis) share 2 cores with other suites: one may take minutes.
vi.setConfig({ testTimeout: 240_000 });

const run = promisify(execFile);
let server: TestServer;
let chat: FakeChatServer;
let dir: string;
let alice: string;
let aliceId: string;
let bob: string;
let bobId: string;
let subtitled: MediaAssetRow;

const WRONG = '这句翻译错了';
const CUES = [
  { text: '今天天气很好', start_ms: 300, end_ms: 2300, position: 'bottom' as const },
  { text: '我们去公园散步', start_ms: 2700, end_ms: 4700, position: 'bottom' as const },
];

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);

const finished = (taskId: string, timeoutMs = 180_000) => taskFinished(server.ctx, taskId, timeoutMs);

const post = (url: string, body: unknown, token = alice) => call(server.app, 'POST', url, { token, body });

async function project(id: string, token = alice) {
  const res = await call(server.app, 'GET', `/v1/projects/get?project_id=${id}`, { token });
  expect(res.body.code).toBe(0);
  return res.body.data as { document: ProjectDocument; version: number };
}

const target = (doc: ProjectDocument) => doc.tracks.find((t) => t.kind === 'translation')!;
const translateRequests = () =>
  chat.requests.filter((r) => r.messages[0]?.content.startsWith(TRANSLATE_PROMPT_MARK));

function srtOf(lines: Array<{ text: string; start: number; end: number }>) {
  return lines.map((l, i) => `${i + 1}\n${srtTime(l.start)} --> ${srtTime(l.end)}\n${l.text}\n`).join('\n');
}

const SRT = srtOf([
  { text: '今天我们去公园。', start: 200, end: 2200 },
  { text: WRONG, start: 2400, end: 4200 },
  { text: '天气很好。', start: 4400, end: 5600 },
]);

/** A translation from the uploaded SRT: no dub, no subtitles in the render (fast). */
const srtBody = (over: Record<string, unknown> = {}) => ({
  asset_id: subtitled.id,
  source_language: 'zh',
  target_languages: ['en'],
  subtitle_source: 'subtitle',
  subtitle: { name: '字幕.srt', text: SRT },
  // Cue by cue (smart splitting would join these short lines): the lines stay as written.
  split: false,
  dub: { enabled: false },
  subtitles: { lines: 'none', mode: 'burn' },
  ...over,
});

async function outputsOf(taskId: string, token = alice) {
  const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${taskId}`, { token });
  return view.body.data.task.outputs as Array<{ name: string; format: string; url: string }>;
}

async function download(url: string, name: string): Promise<string> {
  const res = await server.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  const file = join(dir, name);
  await writeFile(file, res.rawPayload);
  return file;
}

/** Text the OCR engine reads in the lower third of a frame. */
async function lowerText(file: string, atMs: number): Promise<string> {
  const jpg = join(dir, `frame-${atMs}-${Math.random().toString(36).slice(2, 6)}.jpg`);
  await grabFrame(file, atMs, jpg);
  const lines = await server.ctx.engines.ocr.recognize(jpg);
  return lines
    .filter((l) => l.box.y > 0.6)
    .map((l) => l.text)
    .join(' ');
}

const counts = async () => ({
  projects: Number(
    (
      await server.ctx.db
        .selectFrom('projects')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  tasks: Number(
    (
      await server.ctx.db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
  holds: Number(
    (
      await server.ctx.db
        .selectFrom('credit_holds')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ),
});

beforeAll(async () => {
  chat = await startFakeChatServer({ port: 0, mistranslate: { [WRONG]: 'The stock market fell sharply' } });
  dir = await mkdtemp(join(tmpdir(), 'vw-vt-'));
  server = await createTestServer({
    LLM_BASE_URL: chat.url,
    LLM_API_KEY: 'test-key',
    LLM_MODEL: 'fake-chat',
  });
  const a = await signIn(server.app, '13900000181');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  const b = await signIn(server.app, '13900000182');
  bob = b.secure_tokens.access_token;
  bobId = b.user_info.uid;
  await fund(server, aliceId, 20_000);
  await setFeatureOverride(server.ctx, aliceId, 'video_translate', true);
  await setFeatureOverride(server.ctx, aliceId, 'subtitle_erase', true);
  const mp4 = join(dir, 'subtitled.mp4');
  await makeSubtitledClip(mp4, {
    width: 960,
    height: 540,
    duration_ms: 5800,
    background: 'moving',
    cues: CUES,
    speech: true,
  });
  await copyFile(mp4, join(dir, 'subtitled-original.mp4'));
  subtitled = await registerAsset(server.ctx, aliceId, { file: mp4, name: '带字幕.mp4' });
  await server.ctx.jobs.startWorker({ concurrency: 2 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chat?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('视频翻译: translation, back-translation, cache', () => {
  let projectId: string;

  it('lists the configured languages and says what translates', async () => {
    const res = await call(server.app, 'GET', '/v1/video-translation/languages', { token: alice });
    expect(res.body.code).toBe(0);
    const data = res.body.data;
    expect(data.target.map((t: { code: string }) => t.code)).toEqual(
      expect.arrayContaining(['en', 'ja', 'ko', 'zh-Hant', 'es', 'fr', 'de', 'ru', 'th', 'vi']),
    );
    expect(data.llm).toEqual({ configured: true, model: 'fake-chat', reason: '' });
    expect(data.embedding.configured).toBe(false);
    expect(data.lip_sync.available).toBe(false);
    expect(data.lip_sync.reason).toBe('口型同步暂未开放，请联系管理员');
  });

  it('sends the saved preferences and glossary in the prompt, flags the wrong line, and keeps them on the project', async () => {
    const prefs = { style: '口语', audience: '小学生', tone: '轻松', instructions: '句子尽量短' };
    expect((await post('/v1/video-translation/preferences', { preferences: prefs })).body.code).toBe(0);
    const glossary = [
      { term: '公园', translation: 'Central Park' },
      { term: '今天', translation: null },
    ];
    const saved = await post('/v1/video-translation/glossary', { entries: glossary });
    expect(saved.body.data.entries).toEqual(glossary);
    const got = await call(server.app, 'GET', '/v1/video-translation/glossary', { token: alice });
    expect(got.body.data.entries).toEqual(glossary);

    const before = chat.requests.length;
    const res = await post('/v1/video-translation/create', srtBody({ name: '偏好' }));
    expect(res.body.code).toBe(0);
    projectId = res.body.data.project_id;
    expect(res.body.data.items).toHaveLength(1);
    const task = await finished(res.body.data.task_id);
    expect(task.status, task.error ?? '').toBe('succeeded');

    const prompts = chat.requests.slice(before);
    const translate = prompts.filter((r) => r.messages[0]?.content.startsWith(TRANSLATE_PROMPT_MARK));
    expect(translate.length).toBeGreaterThan(0);
    const system = translate[0]!.messages[0]!.content;
    for (const word of ['口语', '小学生', '轻松', '句子尽量短', 'Central Park', '今天'])
      expect(system).toContain(word);
    // The summary of the whole video went with the chunk.
    expect(prompts.some((r) => r.messages[0]?.content.startsWith(SUMMARY_PROMPT_MARK))).toBe(true);

    const { document } = await project(projectId);
    expect(document.translation?.preferences).toEqual(prefs);
    expect(document.translation?.model).toContain('fake-chat');
    const view = await call(server.app, 'GET', `/v1/projects/get?project_id=${projectId}`, { token: alice });
    expect(view.body.data.project.engine_label).toContain('翻译 · fake-chat');
    expect(document.translation?.summary).not.toBe('');
    const cues = target(document).cues;
    expect(cues).toHaveLength(3);
    // Glossary: 公园 → Central Park; 今天 is kept as it is.
    expect(cues[0]!.text).toContain('Central Park');
    expect(cues[0]!.text).toContain('今天');
    expect(cues[2]!.text.toLowerCase()).toContain('tian qi hen hao');
    // Every translation line points at its source line.
    const sourceIds = new Set(document.tracks.find((t) => t.kind === 'source')!.cues.map((c) => c.id));
    for (const c of cues) expect(c.source_ids?.every((id) => sourceIds.has(id))).toBe(true);
    // Back-translation: the faithful lines come back; the wrong one drifts and is flagged.
    expect(cues[1]!.text).toBe('The stock market fell sharply');
    expect(cues[1]!.drift).toMatchObject({ flagged: true, method: 'overlap' });
    expect(cues[2]!.drift).toMatchObject({ flagged: false, method: 'overlap' });
    expect(cues[2]!.back_text).toContain('天气很好');
    expect(cues[2]!.drift!.score).toBeGreaterThan(cues[1]!.drift!.score);
  });

  it('asks the model again on 重新翻译 (the cache would answer what is already there)', async () => {
    const { document } = await project(projectId);
    const asked = translateRequests().length;
    const before = chat.requests.length;
    const res = await post('/v1/video-translation/retranslate', { project_id: projectId });
    expect(res.body.code).toBe(0);
    expect(res.body.data.lines).toBe(3);
    expect((await finished(res.body.data.task_id)).status).toBe('succeeded');
    expect(translateRequests().length).toBe(asked + 1);
    const after = await project(projectId);
    // The fake model answers as before; each line was translated again.
    expect(target(after.document).cues.map((c) => c.text)).toEqual(target(document).cues.map((c) => c.text));
    expect(target(after.document).cues.map((c) => c.text_rev)).toEqual(
      target(document).cues.map((c) => (c.text_rev ?? 0) + 1),
    );
    // A new preference is another key: the model is asked again.
    await post('/v1/video-translation/retranslate', {
      project_id: projectId,
      cue_ids: [target(document).cues[2]!.id],
      instructions: '更正式',
    }).then(async (r) => expect((await finished(r.body.data.task_id)).status).toBe('succeeded'));
    expect(translateRequests().at(-1)!.messages[0]!.content).toContain('更正式');
    expect(chat.requests.length).toBeGreaterThan(before);
  });

  it('pauses after translation for review, back-translates again on request, and goes on after 继续', async () => {
    const res = await post('/v1/video-translation/create', srtBody({ review: { after_translation: true } }));
    expect(res.body.code).toBe(0);
    const taskId = res.body.data.task_id as string;
    expect((await taskPaused(server.ctx, taskId)).pause_point).toBe('translation');
    const paused = (await project(res.body.data.project_id)).document;
    expect(target(paused).cues.every((c) => c.text !== '' && c.drift)).toBe(true);
    const again = await post('/v1/video-translation/back-translate', {
      project_id: res.body.data.project_id,
      cue_ids: [target(paused).cues[1]!.id],
    });
    expect(again.body.data.lines).toBe(1);
    expect((await finished(again.body.data.task_id)).status).toBe('succeeded');
    expect(
      (await post('/v1/video-translation/continue', { project_id: res.body.data.project_id })).body.code,
    ).toBe(0);
    expect((await finished(taskId)).status).toBe('succeeded');
  });

  it('exports bilingual SRT and the CSV of speaker, start, end, source and translation', async () => {
    const srt = await post('/v1/video-translation/export', {
      project_id: projectId,
      format: 'srt',
      lines: 'bilingual',
    });
    expect(srt.body.code).toBe(0);
    const text = (await server.app.inject({ method: 'GET', url: srt.body.data.url })).body;
    expect(text).toContain('00:00:02,400 --> 00:00:04,200\nThe stock market fell sharply\n这句翻译错了');
    const csv = await post('/v1/video-translation/export', { project_id: projectId, format: 'csv' });
    const rows = (await server.app.inject({ method: 'GET', url: csv.body.data.url })).body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe('speaker,start,end,source,translation');
    expect(rows[2]).toBe(',2.400,4.200,这句翻译错了,The stock market fell sharply');
  });

  it('makes one project per target, Traditional Chinese through OpenCC, and keeps a speaker’s voice', async () => {
    const named = srtOf([
      { text: '小明：今天我们去公园。', start: 200, end: 2200 },
      { text: '小红：天气很好。', start: 2400, end: 4200 },
    ]);
    const body = srtBody({
      subtitle: { name: '对话.srt', text: named },
      target_languages: ['en', 'zh-Hant'],
      dub: { enabled: false, speaker_voices: { 小明: 'espeak-en-james' } },
    });
    const estimate = await post('/v1/video-translation/estimate', body);
    expect(estimate.body.data.credits).toBe(estimate.body.data.per_target * 2);
    expect(estimate.body.data.sufficient).toBe(true);
    const res = await post('/v1/video-translation/create', body);
    expect(res.body.code).toBe(0);
    expect(res.body.data.credits).toBe(estimate.body.data.credits);
    const items = res.body.data.items as Array<{
      target_language: string;
      task_id: string;
      project_id: string;
    }>;
    expect(items.map((i) => i.target_language)).toEqual(['en', 'zh-Hant']);
    for (const item of items) expect((await finished(item.task_id)).status).toBe('succeeded');
    const hant = (await project(items[1]!.project_id)).document;
    expect(target(hant).cues.map((c) => c.text)).toEqual(['今天我們去公園。', '天氣很好。']);
    expect(hant.translation?.model).toContain('OpenCC');
    // A later project: 小明 speaks with the voice he had, without being told again.
    const later = await post(
      '/v1/video-translation/create',
      srtBody({ subtitle: { name: '对话.srt', text: named }, target_languages: ['ja'] }),
    );
    expect((await finished(later.body.data.task_id)).status).toBe('succeeded');
    const speakers = (await project(later.body.data.project_id)).document.speakers;
    expect(speakers.find((s) => s.name === '小明')?.voice_id).toBe('espeak-en-james');
    expect(speakers.find((s) => s.name === '小红')?.voice_id ?? null).toBeNull();
    const remembered = await call(server.app, 'GET', '/v1/video-translation/speaker-voices', {
      token: alice,
    });
    expect(remembered.body.data.voices).toEqual({ 小明: 'espeak-en-james' });
  });

  it('refuses bad input with the contract codes and leaves nothing behind', async () => {
    const before = await counts();
    const balance = await getBalance(server.ctx, aliceId);
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [srtBody({ target_languages: ['xx'] }), 'err_target_language_not_supported'],
      [srtBody({ target_languages: ['en', 'tlh'] }), 'err_target_language_not_supported'],
      [
        srtBody({ subtitle: { name: 'a.srt', text: '1\n00:00:00,000 --> 00:00:01,000\n[静音]\n' } }),
        'err_video_without_subtitle',
      ],
      [srtBody({ subtitle: { name: 'a.srt', text: ' \n' } }), 'err_file_empty'],
      [srtBody({ subtitle: undefined }), 'err_invalid_param'],
      [srtBody({ asset_id: 'nope' }), 'err_not_found'],
      [srtBody({ target_languages: [] }), 'invalid'],
      [srtBody({ lip_sync: true }), 'err_lip_sync_not_allowed'],
      [srtBody({ dub: { enabled: true, default_voice_id: 'no-such-voice' } }), 'err_not_found'],
      [srtBody(), 'err_video_translate_not_allowed', bob],
    ];
    for (const [body, code, token] of cases) {
      const res = await post('/v1/video-translation/create', body, token ?? alice);
      const got = namedError(res.body);
      // 'invalid': refused by the contract's schema (its own field error).
      if (code === 'invalid') expect(got).not.toBeNull();
      else expect(got, JSON.stringify(body).slice(0, 120)).toBe(code);
    }
    expect(await counts()).toEqual(before);
    expect(await getBalance(server.ctx, aliceId)).toEqual(balance);
    // Line actions on nothing, or on a project that is not a translation.
    for (const url of ['/v1/video-translation/retranslate', '/v1/video-translation/redub']) {
      const res = await post(url, { project_id: 'prj_nope', scope: 'all' });
      expect(namedError(res.body)).toBe('err_dubbing_task_not_found');
    }
  });

  it('keeps the project, its task, events and files from another user', async () => {
    const { document } = await project(projectId);
    const cueId = target(document).cues[0]!.id;
    const got = await call(server.app, 'GET', `/v1/projects/get?project_id=${projectId}`, { token: bob });
    expect(namedError(got.body)).toBe('err_not_found');
    for (const [url, body] of [
      ['/v1/video-translation/retranslate', { project_id: projectId }],
      ['/v1/video-translation/back-translate', { project_id: projectId }],
      ['/v1/video-translation/redub', { project_id: projectId, scope: 'line', cue_id: cueId }],
      ['/v1/video-translation/continue', { project_id: projectId }],
      ['/v1/video-translation/export', { project_id: projectId, format: 'csv' }],
    ] as const) {
      const res = await post(url, body, bob);
      expect(namedError(res.body), url).toBe('err_dubbing_task_not_found');
    }
    const list = await call(server.app, 'GET', '/v1/projects/list?tool=translate', { token: bob });
    expect(list.body.data.total).toBe(0);
    const glossary = await call(server.app, 'GET', '/v1/video-translation/glossary', { token: bob });
    expect(glossary.body.data.entries).toEqual([]);
    // Bob's own run: his event stream (replayed from the start) carries his task only.
    await setFeatureOverride(server.ctx, bobId, 'video_translate', true);
    await fund(server, bobId, 2000);
    // Alice's files: the output links of her task are signed for her; Bob's asset list has none of hers.
    const assets = await server.ctx.db
      .selectFrom('media_assets')
      .select('id')
      .where('owner_id', '=', bobId)
      .execute();
    expect(assets).toHaveLength(0);
    const copy = join(dir, 'bob.mp4');
    await copyFile(join(dir, 'subtitled-original.mp4'), copy);
    const asset = await registerAsset(server.ctx, bobId, { file: copy, name: 'bob.mp4' });
    const mine = await post('/v1/video-translation/create', srtBody({ asset_id: asset.id }), bob);
    expect(mine.body.code).toBe(0);
    const stream = await openTaskEventStream(server.ctx, bobId, 0);
    const seen: string[] = [];
    for await (const event of stream.events) {
      seen.push(event.task.task_id);
      if (event.type === 'task.succeeded' && event.task.task_id === mine.body.data.task_id) break;
    }
    stream.close();
    const alicesTasks = await server.ctx.db
      .selectFrom('tasks')
      .select('id')
      .where('owner_id', '=', aliceId)
      .execute();
    expect(alicesTasks.length).toBeGreaterThan(0);
    for (const t of alicesTasks) expect(seen).not.toContain(t.id);
    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${alicesTasks[0]!.id}`, { token: bob });
    expect(view.body.code).not.toBe(0);
  });
});

describe('视频翻译: the whole flow on burned-in subtitles', () => {
  it('reads the subtitles, translates, erases them, dubs the translation and burns it in one render', async () => {
    const res = await post('/v1/video-translation/create', {
      asset_id: subtitled.id,
      name: '整片',
      // Detected: on-screen text has no language; its script tells it.
      source_language: 'auto',
      target_languages: ['en'],
      subtitle_source: 'ocr',
      use_glossary: false,
      erase: { enabled: true },
      dub: { enabled: true },
      subtitles: { lines: 'target', mode: 'burn' },
    });
    expect(res.body.code).toBe(0);
    const task = await finished(res.body.data.task_id);
    expect(task.status, task.error ?? '').toBe('succeeded');
    const { document } = await project(res.body.data.project_id);
    const source = document.tracks.find((t) => t.kind === 'source')!;
    expect(document.translation?.source_language).toBe('zh');
    expect(source.language).toBe('zh');
    // The editor checks the English track by English limits, not the Chinese 16 a line.
    expect(document.rules).toMatchObject({ max_chars_per_line: 42, max_cps: 17 });
    // Read from the picture, punctuated by the language model (words unchanged), then re-segmented by
    // smart splitting.
    const read = source.cues.map((c) => c.text).join('');
    expect(read.replace(/[\s\p{P}]/gu, '')).toBe(CUES.map((c) => c.text).join(''));
    expect(read).toContain('。');
    const cues = target(document).cues;
    const english = cues.map((c) => c.text.toLowerCase()).join(' ');
    expect(english).toContain('jin tian tian qi hen hao');
    expect(english).toContain('wo men qu gong yuan san bu');
    // Dubbed: every line has its take in English, fitted into its slot.
    for (const cue of cues) {
      const take = cue.takes?.find((t) => t.id === cue.take_id);
      expect(take?.source_text).toBe(cue.text);
      expect(take?.voice_id).toMatch(/^espeak-en-/);
    }
    expect(document.translation?.erase_regions.length).toBeGreaterThan(0);
    const outputs = await outputsOf(res.body.data.task_id);
    const mp4 = await download(outputs.find((o) => o.format === 'mp4')!.url, 'translated.mp4');
    for (const cue of CUES) {
      const mid = Math.round((cue.start_ms + cue.end_ms) / 2);
      const seen = await lowerText(mp4, mid);
      // The original Chinese is erased; the burned translation is read back in its place.
      expect(seen, `at ${mid} ms`).not.toMatch(/\p{Script=Han}/u);
    }
    const first = (await lowerText(mp4, 1300)).toLowerCase().replace(/[^a-z]/g, '');
    expect(first).toContain('tianqi');
    const second = (await lowerText(mp4, 3700)).toLowerCase().replace(/[^a-z]/g, '');
    expect(second).toContain('gongyuan');
    // The dubbed track is the audio of the video: loud where the lines are spoken.
    const { stdout } = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_entries',
      'stream=codec_name',
      '-of',
      'csv=p=0',
      mp4,
    ]);
    expect(String(stdout).trim()).toBe('aac');

    // A fixed translation, re-dubbed: that line gets a new take, the others keep theirs.
    const open = await call(server.app, 'GET', `/v1/projects/get?project_id=${res.body.data.project_id}`, {
      token: alice,
    });
    const doc = open.body.data.document as ProjectDocument;
    const fixed = target(doc).cues[0]!;
    fixed.text = 'The weather is fine today.';
    const saved = await post('/v1/projects/save', {
      project_id: res.body.data.project_id,
      version: open.body.data.version,
      document: doc,
    });
    expect(saved.body.code).toBe(0);
    const redub = await post('/v1/video-translation/redub', {
      project_id: res.body.data.project_id,
      scope: 'line',
      cue_id: fixed.id,
      outputs: ['srt'],
    });
    expect(redub.body.data.lines).toBe(1);
    expect((await finished(redub.body.data.task_id)).status).toBe('succeeded');
    const after = target((await project(res.body.data.project_id)).document).cues;
    const line = after.find((c) => c.id === fixed.id)!;
    expect(line.takes).toHaveLength(2);
    expect(line.takes!.find((t) => t.id === line.take_id)!.source_text).toBe('The weather is fine today.');
    for (const c of after.filter((c) => c.id !== fixed.id)) expect(c.takes).toHaveLength(1);
    const srt = (await outputsOf(redub.body.data.task_id)).find((o) => o.format === 'srt')!;
    expect((await server.app.inject({ method: 'GET', url: srt.url })).body).toContain(
      'The weather is fine today.',
    );

    // The editor's dub panel works on translation projects: the players' links, and dubbing's own
    // regenerate path runs this project's pipeline.
    const media = await call(server.app, 'GET', `/v1/dubbing/media?project_id=${res.body.data.project_id}`, {
      token: alice,
    });
    expect(media.body.data.dub_url).not.toBe('');
    expect(Object.keys(media.body.data.takes)).toHaveLength(
      after.reduce((n, c) => n + (c.takes?.length ?? 0), 0),
    );
    const regen = await post('/v1/dubbing/regenerate', {
      project_id: res.body.data.project_id,
      scope: 'render',
      outputs: ['vtt'],
    });
    expect(regen.body.code).toBe(0);
    expect((await finished(regen.body.data.task_id)).status).toBe('succeeded');
    expect((await outputsOf(regen.body.data.task_id)).map((o) => o.format)).toEqual(['vtt']);
    const bobs = await call(server.app, 'GET', `/v1/dubbing/media?project_id=${res.body.data.project_id}`, {
      token: bob,
    });
    expect(namedError(bobs.body)).toBe('err_not_found');
  });
});
