import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type FakeSeparatorServer, startFakeSeparatorServer } from '@vw/engines/fake-separator-server';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { call, createTestServer, fund, signIn, type TestServer, taskFinished } from './harness.ts';

/*
 * Dubbing background `separated` (issue 17): the accompaniment stem of a separator (SEPARATOR_URL, a
 * local fake speaking vw-sep/1 that splits at 500 Hz) goes under the dub instead of the ducked original,
 * and the stems ZIP holds the real vocals/accompaniment with the dub. Without a separator it is refused.
 */

const run = promisify(execFile);
const VOICE = 'espeak-zh-xiaoya';
let server: TestServer;
let bare: TestServer;
let fake: FakeSeparatorServer;
let dir: string;
let alice: string;
let clip: MediaAssetRow;

const finished = (taskId: string, timeoutMs = 120_000) => taskFinished(server.ctx, taskId, timeoutMs);

/** Mean level (dB) of a file's audio between two times after a band filter (volumedetect). */
async function bandDb(file: string, filter: string, fromS: number, toS: number): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    ...['-hide_banner', '-ss', String(fromS), '-to', String(toS), '-i', file],
    ...['-vn', '-af', `${filter},volumedetect`, '-f', 'null', '-'],
  ]);
  const m = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  return !m || m[1] === '-inf' ? -120 : Number(m[1]);
}

const LOW = 'bandpass=f=150:w=40';
const HIGH = 'bandpass=f=3000:w=200';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-dub-stems-'));
  fake = await startFakeSeparatorServer({ apiKey: 'sep-key' });
  [server, bare] = await Promise.all([
    createTestServer({ SEPARATOR_URL: fake.url, SEPARATOR_API_KEY: 'sep-key', SEPARATOR_MODEL: 'htdemucs' }),
    createTestServer(),
  ]);
  const a = await signIn(server.app, '13900000091');
  alice = a.secure_tokens.access_token;
  await fund(server, a.user_info.uid, 5000);
  // 4 s video: a 150 Hz "bed" and a 3 kHz "voice" in the original audio.
  const mp4 = join(dir, 'clip.mp4');
  await run('ffmpeg', [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'color=c=0x336699:size=320x180:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=150:sample_rate=48000'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=3000:sample_rate=48000'],
    ...['-filter_complex', '[1][2]amix=inputs=2:normalize=0[a]', '-map', '0:v', '-map', '[a]'],
    ...['-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', mp4],
  ]);
  clip = await registerAsset(server.ctx, a.user_info.uid, { file: mp4, name: '短片.mp4' });
  await server.ctx.jobs.startWorker({ concurrency: 2 });
}, 120_000);

afterAll(async () => {
  await Promise.all([server?.close(), bare?.close()]);
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('separated background (分离人声，保留伴奏)', () => {
  it('lays the accompaniment under the dub and exports the real stems', async () => {
    const caps = (await call(server.app, 'GET', '/v1/tools/capabilities', { token: alice })).body.data;
    const srt = JSON.stringify(caps).includes('"separator"');
    expect(srt).toBe(true);

    const created = await call(server.app, 'POST', '/v1/dubbing/srt/create', {
      token: alice,
      body: {
        default_voice_id: VOICE,
        subtitle: { name: '分离.srt', text: '1\n00:00:00,200 --> 00:00:01,800\n你好。\n' },
        media_asset_id: clip.id,
        options: { check: false, condense: false, background: 'separated', outputs: ['mp4', 'stems'] },
      },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task.status).toBe('succeeded');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ model: 'htdemucs', authorization: 'Bearer sep-key' });
    const render = await server.ctx.db
      .selectFrom('task_stages')
      .select('result')
      .where('task_id', '=', task.id)
      .where('name', '=', 'render')
      .executeTakeFirstOrThrow();
    expect(render.result).toContain('fake-split');

    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${task.id}`, { token: alice });
    const outputs = view.body.data.task.outputs as Array<{ format: string; url: string }>;
    const fetchOut = async (format: string, name: string) => {
      const res = await server.app.inject({
        method: 'GET',
        url: outputs.find((o) => o.format === format)!.url,
      });
      expect(res.statusCode).toBe(200);
      const file = join(dir, name);
      await writeFile(file, res.rawPayload);
      return file;
    };
    // The mix: after the line (2.5–3.8 s) the bed is there at full level and the "voice" is gone.
    const mp4 = await fetchOut('mp4', 'out.mp4');
    const low = await bandDb(mp4, LOW, 2.5, 3.8);
    const high = await bandDb(mp4, HIGH, 2.5, 3.8);
    expect(low).toBeGreaterThan(-40);
    expect(low - high).toBeGreaterThan(25);

    // The stems ZIP: the separator's vocals and accompaniment, and the dub.
    const zip = unzipSync(new Uint8Array(await readFile(await fetchOut('zip', 'stems.zip'))));
    expect(Object.keys(zip).sort()).toEqual(['accompaniment.wav', 'dub.wav', 'subtitles.srt', 'vocals.wav']);
    for (const name of ['vocals.wav', 'accompaniment.wav']) await writeFile(join(dir, name), zip[name]!);
    const acc = join(dir, 'accompaniment.wav');
    const voc = join(dir, 'vocals.wav');
    expect((await bandDb(acc, LOW, 0, 4)) - (await bandDb(acc, HIGH, 0, 4))).toBeGreaterThan(25);
    expect((await bandDb(voc, HIGH, 0, 4)) - (await bandDb(voc, LOW, 0, 4))).toBeGreaterThan(25);
  });

  it('is refused without a separator, offering the other backgrounds (no settings named), with nothing left behind', async () => {
    const b = await signIn(bare.app, '13900000092');
    const token = b.secure_tokens.access_token;
    await fund(bare, b.user_info.uid, 5000);
    const caps = JSON.stringify((await call(bare.app, 'GET', '/v1/tools/capabilities', { token })).body.data);
    expect(caps).toContain('separator_missing');
    expect(caps).toContain('人声分离暂未开放');
    expect(caps).not.toContain('SEPARATOR_URL');
    const res = await call(bare.app, 'POST', '/v1/dubbing/srt/create', {
      token,
      body: {
        default_voice_id: VOICE,
        subtitle: { name: 'a.srt', text: '1\n00:00:00,200 --> 00:00:01,800\n你好。\n' },
        options: { background: 'separated' },
      },
    });
    expect(res.body.code).not.toBe(0);
    expect(res.body.data?.detail?.[0]?.type).toBe('err_interface_unavailable');
    expect(res.body.msg).toBe('人声分离暂未开放：请改选「静音原声」或「保留原声」，或联系管理员');
    const left = await bare.ctx.db.selectFrom('projects').select('id').execute();
    expect(left).toHaveLength(0);
    const tasks = await bare.ctx.db.selectFrom('tasks').select('id').execute();
    expect(tasks).toHaveLength(0);
  });
});

describe('bilingual two-line subtitles (双语字幕)', () => {
  it('pairs the second file by time overlap into two-line subtitles (ASS and burned render)', async () => {
    const first = '1\n00:00:00,200 --> 00:00:01,800\n你好。\n\n2\n00:00:02,000 --> 00:00:03,500\n再见。\n';
    // Times differ a little, and listed out of order: pairing is by overlap, not by index.
    const second = '1\n00:00:02,100 --> 00:00:03,400\nGoodbye.\n\n2\n00:00:00,300 --> 00:00:01,700\nHello.\n';
    const created = await call(server.app, 'POST', '/v1/dubbing/srt/create', {
      token: alice,
      body: {
        default_voice_id: VOICE,
        subtitle: { name: '中文.srt', text: first },
        second_subtitle: { name: 'english.srt', text: second },
        media_asset_id: clip.id,
        options: {
          check: false,
          condense: false,
          background: 'mute',
          subtitle_mode: 'burn',
          subtitle_lines: 'bilingual',
          outputs: ['mp4', 'ass'],
        },
      },
    });
    expect(created.body.code).toBe(0);
    const task = await finished(created.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const got = await call(server.app, 'GET', `/v1/projects/get?project_id=${created.body.data.project_id}`, {
      token: alice,
    });
    const tracks = got.body.data.document.tracks as Array<{ kind: string; cues: Array<{ text: string }> }>;
    expect(tracks.map((t) => t.kind)).toEqual(['source', 'translation']);

    const view = await call(server.app, 'GET', `/v1/tasks/get?task_id=${task.id}`, { token: alice });
    const outputs = view.body.data.task.outputs as Array<{ format: string; url: string }>;
    expect(outputs.map((o) => o.format).sort()).toEqual(['ass', 'mp4']);
    const ass = (
      await server.app.inject({ method: 'GET', url: outputs.find((o) => o.format === 'ass')!.url })
    ).payload;
    const dialogue = ass.split('\n').filter((l) => l.startsWith('Dialogue:'));
    expect(dialogue).toHaveLength(2);
    // Line 1 over line 2, the second in its own size/colour override.
    expect(dialogue[0]).toMatch(/你好。\\N\{\\fs\d+\\c&H[0-9A-F]+\}Hello\./);
    expect(dialogue[1]).toMatch(/再见。\\N\{\\fs\d+\\c&H[0-9A-F]+\}Goodbye\./);
    const mp4 = await server.app.inject({ method: 'GET', url: outputs.find((o) => o.format === 'mp4')!.url });
    expect(mp4.statusCode).toBe(200);
    expect(mp4.rawPayload.length).toBeGreaterThan(1000);
  });
});
