import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ProjectDocument, srtTime, type VoiceCloneView } from '@vw/contract';
import { type FakeChatServer, startFakeChatServer } from '@vw/engines/fake-chat-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { localPathOf } from '../src/media/files.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { setFeatureOverride } from '../src/modules/features/features.service.ts';
import { updateSetting } from '../src/modules/settings/settings.service.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { defaultVoiceFor } from '../src/modules/video-translation/video-translation.languages.ts';
import { SPEAKER_CONSENT_STATEMENT } from '../src/modules/voices/clones.ts';
import { pickCloneEngine } from '../src/modules/voices/cloning.ts';
import { findStages } from '../src/tasks/tasks.repo.ts';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';

/*
 * 视频翻译 with dub.clone_speakers (issue 18): the speaker's speech is cut from the video, cloned as a
 * fast clone of the user (attestation consent) and the translation is dubbed with that voice. The clip
 * is espeak-ng reading Chinese (known text and times) under a plain picture; the fake chat server
 * translates (zh → toneless pinyin).
 */

vi.setConfig({ testTimeout: 240_000 });

const run = promisify(execFile);
const ff = (...args: string[]) =>
  run('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args, '-y']);

let server: TestServer;
let chat: FakeChatServer;
let dir: string;
let alice: { token: string; id: string };
let bob: { token: string; id: string };
let clip: MediaAssetRow;
let times: Array<{ start: number; end: number }>;

const SPEECH = [
  '今天我们来聊一聊城市里的公园',
  '早上很多老人在这里打太极拳',
  '中午的时候孩子们在草地上放风筝',
  '晚上年轻人喜欢沿着湖边慢慢散步',
];

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);

async function user(phone: string) {
  const s = await signIn(server.app, phone, `10.18.0.${phone.slice(-2)}`);
  return { token: s.secure_tokens.access_token as string, id: s.user_info.uid as string };
}

/** One cue per sentence (its known times, with a little of the pause around it), said by `speaker`. */
function srt(speaker: string) {
  return SPEECH.map(
    (text, i) =>
      `${i + 1}\n${srtTime(Math.max(0, times[i]!.start - 250))} --> ${srtTime(times[i]!.end + 250)}\n${speaker}：${text}\n`,
  ).join('\n');
}

const body = (speaker: string, over: Record<string, unknown> = {}) => ({
  asset_id: clip.id,
  source_language: 'zh',
  target_languages: ['en'],
  subtitle_source: 'subtitle',
  subtitle: { name: '字幕.srt', text: srt(speaker) },
  split: false,
  dub: { enabled: true, clone_speakers: true, clone_consent: true },
  subtitles: { lines: 'none', mode: 'burn' },
  ...over,
});

const post = (url: string, b: unknown, token = alice.token) =>
  call(server.app, 'POST', url, { token, body: b });

async function project(id: string, token = alice.token) {
  const res = await call(server.app, 'GET', `/v1/projects/get?project_id=${id}`, { token });
  expect(res.body.code).toBe(0);
  return res.body.data.document as ProjectDocument;
}

const count = async (table: 'projects' | 'tasks' | 'credit_holds' | 'voice_clones' | 'voices') =>
  Number(
    (
      await server.ctx.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const counts = async () => ({
  projects: await count('projects'),
  tasks: await count('tasks'),
  holds: await count('credit_holds'),
  clones: await count('voice_clones'),
  voices: await count('voices'),
});

async function cloneStage(taskId: string) {
  const stage = (await findStages(server.ctx.db, taskId)).find((s) => s.name === 'clone_voices');
  expect(stage?.status).toBe('done');
  return JSON.parse(stage!.result!) as {
    speakers: Array<{ speaker: string; voice_id?: string; engine_label?: string; reason?: string }>;
  };
}

beforeAll(async () => {
  chat = await startFakeChatServer({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'vw-vt-clone-'));
  server = await createTestServer({
    LLM_BASE_URL: chat.url,
    LLM_API_KEY: 'test-key',
    LLM_MODEL: 'fake-chat',
  });
  await updateSetting(server.ctx, 'voice_clone_switch', 'true');
  alice = await user('13900001851');
  bob = await user('13900001852');
  for (const u of [alice, bob]) {
    await fund(server, u.id, 20_000);
    await setFeatureOverride(server.ctx, u.id, 'video_translate', true);
  }
  // Chinese speech (sentence by sentence, 600 ms pauses: known times) at the levels a fast clone's
  // sample check asks for, under a plain picture.
  const PAUSE_MS = 600;
  const silence = join(dir, 'pause.wav');
  await ff(
    '-f',
    'lavfi',
    '-i',
    'anullsrc=r=22050:cl=mono',
    '-t',
    String(PAUSE_MS / 1000),
    '-c:a',
    'pcm_s16le',
    silence,
  );
  const parts = [silence];
  times = [];
  let at = PAUSE_MS;
  for (const [i, text] of SPEECH.entries()) {
    const wav = join(dir, `s${i}.wav`);
    await run('espeak-ng', ['-v', 'cmn', '-s', '150', '-w', wav, text]);
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'format=duration',
      '-of',
      'csv=p=0',
      wav,
    ]);
    const ms = Math.round(Number(probe.stdout.trim()) * 1000);
    times.push({ start: at, end: at + ms });
    at += ms + PAUSE_MS;
    parts.push(wav, silence);
  }
  const list = join(dir, 'parts.txt');
  await writeFile(list, parts.map((p) => `file '${p}'`).join('\n'));
  const raw = join(dir, 'raw.wav');
  await ff('-f', 'concat', '-safe', '0', '-i', list, '-c:a', 'pcm_s16le', raw);
  const speech = join(dir, 'speech.wav');
  await ff('-i', raw, '-ar', '48000', '-ac', '1', '-af', 'volume=-2dB,alimiter=limit=0.5:level=0', speech);
  const mp4 = join(dir, 'speaker.mp4');
  await ff(
    '-f',
    'lavfi',
    '-i',
    'color=c=gray:s=320x240:r=10',
    '-i',
    speech,
    '-shortest',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '192k',
    mp4,
  );
  clip = await registerAsset(server.ctx, alice.id, { file: mp4, name: '访谈.mp4' });
  expect(Number(clip.duration_ms)).toBeGreaterThan(12_000);
  await server.ctx.jobs.startWorker({ concurrency: 2 });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await chat?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('视频翻译: per-speaker voices cloned from the video', () => {
  it('says whether speakers can be cloned, with the engine that clones them', async () => {
    const on = await call(server.app, 'GET', '/v1/video-translation/languages', { token: alice.token });
    expect(on.body.data.clone).toEqual({
      available: true,
      reason: '',
      engine_label: pickCloneEngine(server.ctx).label,
    });
    await updateSetting(server.ctx, 'voice_clone_switch', 'false');
    try {
      const off = await call(server.app, 'GET', '/v1/video-translation/languages', { token: alice.token });
      expect(off.body.data.clone.available).toBe(false);
      expect(off.body.data.clone.reason).toContain('声音克隆');
    } finally {
      await updateSetting(server.ctx, 'voice_clone_switch', 'true');
    }
  });

  it('refuses clone_speakers without the consent, and while the switch is off; nothing left behind', async () => {
    const before = await counts();
    const noConsent = await post(
      '/v1/video-translation/create',
      body('主持人', { dub: { enabled: true, clone_speakers: true } }),
    );
    expect(namedError(noConsent.body)).toBe('err_invalid_param');
    await updateSetting(server.ctx, 'voice_clone_switch', 'false');
    try {
      const off = await post('/v1/video-translation/create', body('主持人'));
      expect(namedError(off.body)).toBe('err_permission_deny');
    } finally {
      await updateSetting(server.ctx, 'voice_clone_switch', 'true');
    }
    expect(await counts()).toEqual(before);
    expect((await getBalance(server.ctx, alice.id)).balance).toBe(20_000);
  });

  let cloneVoice: string;

  it('clones the speaker, keeps the attestation with the clone and dubs every line with it', async () => {
    const res = await post('/v1/video-translation/create', body('主持人'));
    expect(res.body.code).toBe(0);
    const taskId = res.body.data.task_id as string;
    expect((await taskFinished(server.ctx, taskId, 200_000)).status).toBe('succeeded');

    const result = await cloneStage(taskId);
    expect(result.speakers).toHaveLength(1);
    const [spoken] = result.speakers;
    expect(spoken!.speaker).toBe('主持人');
    expect(spoken!.reason).toBeUndefined();
    expect(spoken!.engine_label).toBe(pickCloneEngine(server.ctx).label);
    cloneVoice = spoken!.voice_id!;

    // The clone is the user's: in the clone list (attestation consent) and in the voice library.
    const list = await call(server.app, 'GET', '/v1/voice-clone/list', { token: alice.token });
    const clone = (list.body.data.clones as VoiceCloneView[]).find((c) => c.voice_id === cloneVoice)!;
    expect(clone.kind).toBe('fast');
    expect(clone.status).toBe('ready');
    expect(clone.language).toBe('zh');
    expect(clone.engine_label).toBe(spoken!.engine_label);
    expect(clone.consent).toMatchObject({
      verified_by: 'attestation',
      sentence: SPEAKER_CONSENT_STATEMENT,
      project_id: res.body.data.project_id,
    });
    expect(clone.sample_count).toBe(1);
    expect(clone.sample_duration_ms).toBeGreaterThan(10_000);
    const row = await server.ctx.db
      .selectFrom('voice_clones')
      .selectAll()
      .where('id', '=', clone.clone_id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.consent)).toMatchObject({
      kind: 'attestation',
      statement: SPEAKER_CONSENT_STATEMENT,
      account: '13900001851',
      project_id: res.body.data.project_id,
    });
    const voice = await server.ctx.db
      .selectFrom('voices')
      .select(['voice_id', 'owner_id'])
      .where('voice_id', '=', cloneVoice)
      .executeTakeFirstOrThrow();
    expect(voice.owner_id).toBe(alice.id);
    const overview = await call(server.app, 'GET', '/v1/voice-clone/overview', { token: alice.token });
    expect(overview.body.data.quota.fast.used).toBe(1);

    // The speaker speaks with the clone: the document, every line's take, and the remembered name.
    const doc = await project(res.body.data.project_id);
    expect(doc.translation?.clone_speakers).toBe(true);
    expect(doc.speakers.find((s) => s.name === '主持人')?.voice_id).toBe(cloneVoice);
    const lines = doc.tracks.find((t) => t.kind === 'translation')!.cues;
    expect(lines).toHaveLength(SPEECH.length);
    for (const cue of lines) {
      expect(cue.takes?.find((t) => t.id === cue.take_id)?.voice_id).toBe(cloneVoice);
    }
    const remembered = await server.ctx.db
      .selectFrom('speaker_voices')
      .select('voice_id')
      .where('owner_id', '=', alice.id)
      .where('name', '=', '主持人')
      .executeTakeFirst();
    expect(remembered?.voice_id).toBe(cloneVoice);
  });

  it('keeps the default voice and says why when the fast-clone quota is used up (the task succeeds)', async () => {
    const before = await counts();
    const res = await post('/v1/video-translation/create', body('嘉宾'));
    expect(res.body.code).toBe(0);
    expect((await taskFinished(server.ctx, res.body.data.task_id, 200_000)).status).toBe('succeeded');
    const result = await cloneStage(res.body.data.task_id);
    expect(result.speakers).toEqual([{ speaker: '嘉宾', reason: '快速克隆次数不足' }]);
    const doc = await project(res.body.data.project_id);
    expect(doc.speakers.find((s) => s.name === '嘉宾')?.voice_id ?? null).toBeNull();
    for (const cue of doc.tracks.find((t) => t.kind === 'translation')!.cues) {
      expect(cue.takes?.find((t) => t.id === cue.take_id)?.voice_id).toBe(
        await defaultVoiceFor(server.ctx, 'en'),
      );
    }
    // No clone, no library voice, no stored sample was added.
    const after = await counts();
    expect(after.clones).toBe(before.clones);
    expect(after.voices).toBe(before.voices);
    const keys: string[] = [];
    for await (const o of server.ctx.storage.list(`voice-clones/${alice.id}/`)) keys.push(o.key);
    expect(keys.every((k) => k.includes(`/${cloneVoice}/`))).toBe(true);
  });

  it("clones the video's voice as the default dub voice when the lines name no speaker", async () => {
    const carol = await user('13900001853');
    await fund(server, carol.id, 20_000);
    await setFeatureOverride(server.ctx, carol.id, 'video_translate', true);
    const own = await registerAsset(server.ctx, carol.id, { file: await copyOf(clip), name: '旁白.mp4' });
    const plain = srt('').replace(/：/g, '');
    const res = await post(
      '/v1/video-translation/create',
      body('', { asset_id: own.id, subtitle: { name: '字幕.srt', text: plain } }),
      carol.token,
    );
    expect(res.body.code).toBe(0);
    expect((await taskFinished(server.ctx, res.body.data.task_id, 200_000)).status).toBe('succeeded');
    const [spoken] = (await cloneStage(res.body.data.task_id)).speakers;
    expect(spoken!.speaker).toBe('旁白');
    expect(spoken!.voice_id).toMatch(/^vc/);
    const doc = await project(res.body.data.project_id, carol.token);
    expect(doc.speakers).toEqual([]);
    expect(doc.dub?.default_voice_id).toBe(spoken!.voice_id);
    for (const cue of doc.tracks.find((t) => t.kind === 'translation')!.cues) {
      expect(cue.takes?.find((t) => t.id === cue.take_id)?.voice_id).toBe(spoken!.voice_id);
    }
    const clones = await server.ctx.db
      .selectFrom('voice_clones')
      .select(['id', 'owner_id'])
      .where('owner_id', '=', carol.id)
      .execute();
    expect(clones).toEqual([{ id: spoken!.voice_id, owner_id: carol.id }]);
  });

  it('never lets another user reach the clone', async () => {
    const bobClip = await registerAsset(server.ctx, bob.id, {
      file: await copyOf(clip),
      name: '访谈.mp4',
    });
    const before = await counts();
    for (const dub of [
      { enabled: true, speaker_voices: { 主持人: cloneVoice } },
      { enabled: true, default_voice_id: cloneVoice },
    ]) {
      const res = await post(
        '/v1/video-translation/create',
        body('主持人', { asset_id: bobClip.id, dub }),
        bob.token,
      );
      expect(namedError(res.body)).toBe('err_not_found');
    }
    expect(await counts()).toEqual(before);
    const list = await call(server.app, 'GET', '/v1/voice-clone/list', { token: bob.token });
    expect(list.body.data.clones).toEqual([]);
    const del = await post('/v1/voice-clone/delete', { clone_id: cloneVoice }, bob.token);
    expect(namedError(del.body)).toBe('err_not_found');
  });
});

/** A local copy of an asset's file (registerAsset takes the file over). */
async function copyOf(asset: MediaAssetRow): Promise<string> {
  const out = join(dir, `copy-${Math.random().toString(36).slice(2)}.mp4`);
  const file = await localPathOf(server.ctx, asset.storage_key, dir);
  await ff('-i', file, '-c', 'copy', out);
  return out;
}
