import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ProjectDocument } from '@vw/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAssetRow } from '../src/db/schema.ts';
import { registerAsset } from '../src/modules/uploads/register.ts';
import { call, createTestServer, fund, signIn, type TestServer } from './harness.ts';

/*
 * Issue 30 item 2: importing subtitles never rewrites a sentence. Speaker labels are read only in the
 * forms subtitle files use for speakers (名字：, [名字], dialogue dashes); a line opening with a clause
 * (她说：…) keeps its words; 视频合成 (no voices) keeps every line exactly as written. The document is
 * written when the task is created, so no worker runs here.
 */

const run = promisify(execFile);
let server: TestServer;
let dir: string;
let alice: string;
let clip: MediaAssetRow;

/** Real-world lines: drama labels, an interview, a news report, a vlog, fansub dialogue. */
const LINES = [
  '旁白：很久很久以前，在一座山里。',
  '[李雷] 我们走吧。',
  '她说：我明天就回来。',
  '他笑着说：那你可要小心了。',
  '一位乘客告诉我们：车晚点了两个小时。',
  '- 你去哪儿？\n- 回家。',
  '注意：前方施工，请绕行。',
  '主持人：欢迎来到今天的节目。',
];
const SRT = LINES.map((text, i) => `${i + 1}\n00:00:0${i},000 --> 00:00:0${i},900\n${text}\n`).join('\n');

const cuesOf = async (projectId: string) => {
  const res = await call(server.app, 'GET', `/v1/projects/get?project_id=${projectId}`, { token: alice });
  expect(res.body.code).toBe(0);
  const doc = res.body.data.document as ProjectDocument;
  const names = new Map(doc.speakers.map((s) => [s.id, s.name]));
  return doc.tracks[0]!.cues.map((c) => [c.speaker_id ? names.get(c.speaker_id) : null, c.text]);
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-dub-speakers-'));
  server = await createTestServer();
  const a = await signIn(server.app, '13900000091');
  alice = a.secure_tokens.access_token;
  await fund(server, a.user_info.uid, 5000);
  const mp4 = join(dir, 'clip.mp4');
  await run('ffmpeg', [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=9'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', mp4],
  ]);
  clip = await registerAsset(server.ctx, a.user_info.uid, { file: mp4, name: '短片.mp4' });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('subtitle import keeps the user’s sentences', () => {
  it('SRT配音 reads speaker labels and keeps clauses that end in a colon', async () => {
    const created = await call(server.app, 'POST', '/v1/dubbing/srt/create', {
      token: alice,
      body: { default_voice_id: 'espeak-zh-xiaoya', subtitle: { name: '采访.srt', text: SRT } },
    });
    expect(created.body.code).toBe(0);
    expect(await cuesOf(created.body.data.project_id)).toEqual([
      ['旁白', '很久很久以前，在一座山里。'],
      ['李雷', '我们走吧。'],
      [null, '她说：我明天就回来。'],
      [null, '他笑着说：那你可要小心了。'],
      [null, '一位乘客告诉我们：车晚点了两个小时。'],
      [null, '你去哪儿？\n回家。'],
      [null, '注意：前方施工，请绕行。'],
      ['主持人', '欢迎来到今天的节目。'],
    ]);
  });

  it('视频合成 has no voices: every line stays exactly as written', async () => {
    const created = await call(server.app, 'POST', '/v1/synthesis/create', {
      token: alice,
      body: {
        video_asset_id: clip.id,
        audio_tracks: [],
        subtitle: { name: '采访.srt', text: `${SRT}\n9\n00:00:08,000 --> 00:00:08,900\n[静音] 掌声\n` },
        options: { subtitle_mode: 'burn' },
      },
    });
    expect(created.body.code).toBe(0);
    expect(await cuesOf(created.body.data.project_id)).toEqual(
      [...LINES, '[静音] 掌声'].map((text) => [null, text]),
    );
  });
});
