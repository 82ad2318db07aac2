import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { createJobQueue } from '../src/jobs/index.ts';
import { createLogger } from '../src/logger.ts';
import { getBalance } from '../src/modules/credits/ledger.service.ts';
import { priceTask } from '../src/modules/credits/pricing.service.ts';
import {
  call,
  createTestServer,
  fund,
  signIn,
  spawnPipelineWorker,
  type TestServer,
  taskFinished,
} from './harness.ts';
import { tusClient } from './tus-client.ts';

/*
 * Audiobooks end to end on the real stack: tus upload → import (book-text's importBook) → casting →
 * synthesis task on espeak-ng → export with ffmpeg, read back with ffprobe and ffmpeg's own meters.
 */

const BOOK = [
  '第一章 相遇',
  '清晨的街道很安静。',
  '李雷说：“你好，今天天气很好。”',
  '韩梅梅笑道：“是啊，我们去公园吧。”',
  '他们一起走向公园。',
  '第二章 公园',
  '公园里有很多人。',
  '李雷问：“你想喝水吗？”',
  '韩梅梅说：“好的，谢谢你。”',
  '第三章 回家',
  '太阳落山了，他们回家了。',
].join('\n');

let server: TestServer;
let base: string;
let dir: string;
let alice: { token: string; uid: string };
let bob: { token: string; uid: string };

const finished = (taskId: string, timeoutMs = 60_000) => taskFinished(server.ctx, taskId, timeoutMs);

/** Uploads bytes over tus and imports them as a book. */
async function importBytes(token: string, bytes: Buffer, name: string) {
  const tus = tusClient(base, token);
  const created = await tus.create(bytes.length, name);
  expect(created.status).toBe(201);
  const patched = await tus.patch(created.location, 0, bytes);
  expect(patched.offset).toBe(bytes.length);
  return call(server.app, 'POST', '/v1/audiobook/import', { token, body: { tus_upload: created.location } });
}

const get = (token: string, path: string) => call(server.app, 'GET', path, { token });
const post = (token: string, path: string, body: unknown) => call(server.app, 'POST', path, { token, body });

async function paragraphsOf(token: string, workId: string, chapterId: string) {
  const r = await get(token, `/v1/audiobook/paragraphs?work_id=${workId}&chapter_id=${chapterId}`);
  expect(r.body.code).toBe(0);
  return r.body.data.list as Array<{
    paragraph_id: string;
    segments: Array<{ kind: string; text: string; speaker: string | null }>;
    audio_url: string;
    audio_rev: number;
    stale: boolean;
    takes: Array<{ rev: number; engine: string }>;
  }>;
}

async function audioKeysOf(workId: string) {
  const rows = await server.ctx.db
    .selectFrom('audiobook_paragraphs')
    .select(['id', 'audio_key', 'takes'])
    .where('work_id', '=', workId)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

const bytesOf = async (key: string) => buffer(await server.ctx.storage.read(key));

/** The file of an output: outputs are task artifacts in storage. */
async function outputFile(taskId: string, format: string): Promise<string> {
  const task = await server.ctx.db
    .selectFrom('tasks')
    .select('outputs')
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
  const out = (JSON.parse(task.outputs) as Array<{ key: string; format: string }>).find(
    (o) => o.format === format,
  )!;
  const file = join(dir, `${taskId}.${format}`);
  await writeFile(file, await bytesOf(out.key));
  return file;
}

function ffprobeJson(file: string, args: string[]) {
  return JSON.parse(execFileSync('ffprobe', ['-v', 'error', ...args, '-of', 'json', file]).toString());
}

/** ffmpeg's own figures for a file (astats over 0.5 s windows). */
function ffmpegLevels(file: string) {
  // astats prints its summary at info level on stderr.
  const text = execFileSync('sh', [
    '-c',
    'ffmpeg -hide_banner -nostdin -i "$0" -map 0:a -af astats=length=0.5 -f null - 2>&1',
    file,
  ]).toString();
  const overall = text.slice(text.lastIndexOf('Overall'));
  const num = (label: string) => Number(new RegExp(`${label}:\\s*(-?[0-9.]+)`).exec(overall)![1]);
  return { rms: num('RMS level dB'), peak: num('Peak level dB'), trough: num('RMS trough dB') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-book-'));
  server = await createTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const a = await signIn(server.app, '13900000191');
  const b = await signIn(server.app, '13900000192');
  alice = { token: a.secure_tokens.access_token, uid: a.user_info.uid };
  bob = { token: b.secure_tokens.access_token, uid: b.user_info.uid };
  await fund(server, alice.uid, 10_000);
  await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('audiobooks', () => {
  let workId: string;
  let chapters: Array<{ chapter_id: string; title: string }>;

  it('imports a TXT into chapters, paragraphs with attributed quotes and characters', async () => {
    const r = await importBytes(alice.token, Buffer.from(BOOK, 'utf8'), '小说.txt');
    expect(r.body.code).toBe(0);
    workId = r.body.data.work.work_id;
    expect(r.body.data.work).toMatchObject({
      title: '小说',
      format: 'txt',
      chapters_total: 3,
      chapters_done: 0,
    });
    const detail = (await get(alice.token, `/v1/audiobook/get?work_id=${workId}`)).body.data;
    chapters = detail.chapters;
    expect(detail.chapters.map((c: { title: string }) => c.title)).toEqual([
      '第一章 相遇',
      '第二章 公园',
      '第三章 回家',
    ]);
    expect(detail.chapters.map((c: { paragraphs: number }) => c.paragraphs)).toEqual([4, 3, 1]);
    expect(detail.characters.map((c: { name: string }) => c.name).sort()).toEqual(['李雷', '韩梅梅']);
    const first = await paragraphsOf(alice.token, workId, chapters[0].chapter_id);
    const quote = first[1].segments.find((s) => s.kind === 'quote')!;
    expect(quote).toMatchObject({ speaker: '李雷' });
    expect(quote.text).toContain('你好');
    // The upload is consumed: importing it again finds nothing.
    const leftovers = await server.ctx.db
      .selectFrom('audiobook_works')
      .select('id')
      .where('owner_id', '=', alice.uid)
      .execute();
    expect(leftovers).toHaveLength(1);
  });

  it('refuses to export before anything is synthesised (3002) and leaves no task', async () => {
    const r = await post(alice.token, '/v1/audiobook/export', { work_id: workId, format: 'm4b' });
    expect(r.body.code).toBe(3002);
    const tasks = await server.ctx.db
      .selectFrom('tasks')
      .select('id')
      .where('owner_id', '=', alice.uid)
      .execute();
    expect(tasks).toHaveLength(0);
  });

  it('casts two characters and synthesises one chapter with their voices, charged per character', async () => {
    const detail = (await get(alice.token, `/v1/audiobook/get?work_id=${workId}`)).body.data;
    const byName = Object.fromEntries(
      detail.characters.map((c: { name: string; character_id: string }) => [c.name, c.character_id]),
    );
    const cast = await post(alice.token, '/v1/audiobook/cast', {
      work_id: workId,
      characters: [
        { character_id: byName.李雷, voice_id: 'espeak-zh-xiaotie' },
        { character_id: byName.韩梅梅, voice_id: 'espeak-zh-xiaowen' },
      ],
    });
    expect(cast.body.code).toBe(0);
    const before = (await getBalance(server.ctx, alice.uid)).balance;
    const r = await post(alice.token, '/v1/audiobook/synthesize', {
      work_id: workId,
      chapter_ids: [chapters[0].chapter_id],
    });
    expect(r.body.code).toBe(0);
    expect(r.body.data.paragraphs).toBe(4);
    const task = await finished(r.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const spoken = (await paragraphsOf(alice.token, workId, chapters[0].chapter_id))
      .flatMap((p) => p.segments.map((x) => x.text))
      .join('');
    const chars = Array.from(spoken.replace(/\s/g, '')).length;
    expect(r.body.data.credits).toBe(await priceTask(server.ctx, 'audiobook', { characters: chars }));
    expect((await getBalance(server.ctx, alice.uid)).balance).toBe(before - r.body.data.credits);

    const paragraphs = await paragraphsOf(alice.token, workId, chapters[0].chapter_id);
    expect(paragraphs.every((p) => p.audio_url && !p.stale && p.takes.length === 1)).toBe(true);
    // The character's voice made its quote; the narrator's the rest (honest labels per take).
    expect(paragraphs[1].takes[0].engine).toContain('小铁');
    expect(paragraphs[2].takes[0].engine).toContain('晓雯');
    const after = (await get(alice.token, `/v1/audiobook/get?work_id=${workId}`)).body.data;
    expect(after.chapters[0]).toMatchObject({ status: 'done', paragraphs_done: 4 });
    expect(after.chapters[0].duration_ms).toBeGreaterThan(2000);
    expect(after.chapters[1]).toMatchObject({ status: 'pending', duration_ms: 0 });
  });

  it('regenerates one paragraph as a new take, leaving the others byte-identical', async () => {
    const keys = await audioKeysOf(workId);
    const saved = new Map<string, Buffer>();
    for (const [id, row] of keys) if (row.audio_key) saved.set(id, await bytesOf(row.audio_key));
    const target = (await paragraphsOf(alice.token, workId, chapters[0].chapter_id))[2].paragraph_id;
    const r = await post(alice.token, '/v1/audiobook/synthesize', { work_id: workId, paragraph_id: target });
    expect(r.body.code).toBe(0);
    expect((await finished(r.body.data.task_id)).status).toBe('succeeded');
    const now = await audioKeysOf(workId);
    for (const [id, bytes] of saved) {
      if (id === target) continue;
      expect(now.get(id)!.audio_key).toBe(keys.get(id)!.audio_key);
      expect((await bytesOf(now.get(id)!.audio_key!)).equals(bytes)).toBe(true);
    }
    expect(now.get(target)!.audio_key).not.toBe(keys.get(target)!.audio_key);
    expect(JSON.parse(now.get(target)!.takes)).toHaveLength(2);

    // An edit marks it stale; locking refuses regeneration.
    const p = (await paragraphsOf(alice.token, workId, chapters[0].chapter_id))[3];
    const edit = await post(alice.token, '/v1/audiobook/paragraph_edit', {
      work_id: workId,
      paragraph_id: p.paragraph_id,
      segments: [{ kind: 'narration', text: '他们一起慢慢走向公园。', speaker: null }],
      locked: true,
    });
    expect(edit.body.data.paragraph).toMatchObject({ stale: true, locked: true });
    const refused = await post(alice.token, '/v1/audiobook/synthesize', {
      work_id: workId,
      paragraph_id: p.paragraph_id,
    });
    expect(refused.body.data?.detail?.[0]?.type ?? refused.body.code).toBe('err_invalid_param');
    await post(alice.token, '/v1/audiobook/paragraph_edit', {
      work_id: workId,
      paragraph_id: p.paragraph_id,
      locked: false,
    });
  });

  it('exports an M4B with chapter marks, metadata, cover and an ACX report that matches ffmpeg', async () => {
    // Two chapters with audio (the third is left unselected).
    const s = await post(alice.token, '/v1/audiobook/synthesize', {
      work_id: workId,
      chapter_ids: [chapters[1].chapter_id],
    });
    expect((await finished(s.body.data.task_id)).status).toBe('succeeded');
    await post(alice.token, '/v1/audiobook/chapter_edit', {
      action: 'select',
      work_id: workId,
      chapter_ids: [chapters[2].chapter_id],
      selected: false,
    });
    const cover = join(dir, 'cover.png');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=red:s=64x64',
      '-frames:v',
      '1',
      '-y',
      cover,
    ]);
    const meta = await post(alice.token, '/v1/audiobook/update', {
      work_id: workId,
      author: '测试作者',
      narrator: '测试旁白',
      description: '一本测试书',
      cover_base64: (await readFile(cover)).toString('base64'),
    });
    expect(meta.body.data.work.cover_url).not.toBe('');

    const r = await post(alice.token, '/v1/audiobook/export', {
      work_id: workId,
      format: 'm4b',
      preset: 'acx',
      subtitles: 'srt',
    });
    expect(r.body.code).toBe(0);
    const task = await finished(r.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const m4b = await outputFile(task.id, 'm4b');

    const probe = ffprobeJson(m4b, ['-show_chapters', '-show_format', '-show_streams']);
    expect(probe.chapters.map((c: { tags: { title: string } }) => c.tags.title)).toEqual([
      '第一章 相遇',
      '第二章 公园',
    ]);
    const report = (
      await get(alice.token, `/v1/audiobook/export_report?work_id=${workId}&task_id=${task.id}`)
    ).body.data;
    const durations = report.report.slice(1).map((e: { duration_ms: number }) => e.duration_ms);
    expect(Number(probe.chapters[0].start_time)).toBe(0);
    expect(Number(probe.chapters[1].start_time) * 1000).toBeCloseTo(durations[0], -1);
    expect(Number(probe.format.duration) * 1000).toBeCloseTo(durations[0] + durations[1], -2);
    expect(probe.format.tags).toMatchObject({ title: '小说', artist: '测试作者', composer: '测试旁白' });
    const pic = probe.streams.find((st: { codec_type: string }) => st.codec_type === 'video');
    expect(pic).toMatchObject({ codec_name: 'png', disposition: { attached_pic: 1 } });

    // The report's figures are ffmpeg's: measure the file again ourselves.
    const own = ffmpegLevels(m4b);
    const entry = report.report[0];
    expect(entry.rms_db).toBeCloseTo(own.rms, 0);
    expect(entry.peak_db).toBeCloseTo(own.peak, 0);
    expect(entry.noise_floor_db).toBeCloseTo(own.trough, -1);
    for (const e of report.report) {
      expect(e.rms_db).toBeGreaterThanOrEqual(-23);
      expect(e.rms_db).toBeLessThanOrEqual(-18);
      expect(e.peak_db).toBeLessThanOrEqual(-3);
      expect(e.noise_floor_db).toBeLessThanOrEqual(-60);
      // ACX takes 192 kbps CBR 44.1 kHz MP3 only: an M4B (AAC 64 kbps, 22.05 kHz) is never 合格 for it
      // (issue 30 item 9), whatever its levels.
      expect(e.passed).toBe(false);
      expect(e.problems).toEqual([
        expect.stringMatching(/^ACX 要求 192 kbps CBR 44\.1 kHz MP3，此文件为 M4B /),
      ]);
    }
    // Read-along subtitles per chapter.
    const outputs = JSON.parse(task.outputs) as Array<{ format: string }>;
    expect(outputs.filter((o) => o.format === 'srt')).toHaveLength(2);
  });

  it('exports one 192 kbps CBR 44.1 kHz MP3 for ACX and pushes it to Audiobookshelf', async () => {
    const received: Array<{ auth?: string; body: Buffer; type?: string }> = [];
    const abs = createServer(async (req: IncomingMessage, res) => {
      const body = await buffer(req);
      received.push({ auth: req.headers.authorization, body, type: req.headers['content-type'] });
      if (req.url === '/api/libraries/lib_1') {
        res.setHeader('content-type', 'application/json');
        return res.end(JSON.stringify({ id: 'lib_1', folders: [{ id: 'fol_1', fullPath: '/audiobooks' }] }));
      }
      if (req.url === '/api/upload' && req.method === 'POST') return res.end('OK');
      res.statusCode = 404;
      res.end();
    });
    await new Promise<void>((resolve) => abs.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(abs.address() as AddressInfo).port}`;
      const r = await post(alice.token, '/v1/audiobook/export', {
        work_id: workId,
        format: 'mp3',
        preset: 'acx',
        audiobookshelf: { url, token: 'abs-token', library_id: 'lib_1' },
      });
      const task = await finished(r.body.data.task_id);
      expect(task.status).toBe('succeeded');
      const mp3 = await outputFile(task.id, 'mp3');
      const probe = ffprobeJson(mp3, ['-show_streams']);
      expect(probe.streams[0]).toMatchObject({ codec_name: 'mp3', sample_rate: '44100', bit_rate: '192000' });
      const report = (
        await get(alice.token, `/v1/audiobook/export_report?work_id=${workId}&task_id=${task.id}`)
      ).body.data;
      expect(report.report[0]).toMatchObject({ bitrate_kbps: 192, sample_rate: 44100, passed: true });
      expect(report.push).toEqual({ ok: true, message: '已推送到 Audiobookshelf' });
      const upload = received.find((x) => x.type?.startsWith('multipart/form-data'))!;
      expect(upload.auth).toBe('Bearer abs-token');
      const text = upload.body.toString('latin1');
      expect(text).toContain('name="library"\r\n\r\nlib_1');
      expect(text).toContain('name="folder"\r\n\r\nfol_1');
      expect(upload.body.length).toBeGreaterThan((await readFile(mp3)).length);
    } finally {
      abs.close();
    }
  });

  it('exports a ZIP of per-chapter MP3s, each encoded and measured in its own checkpointed pass', async () => {
    const r = await post(alice.token, '/v1/audiobook/export', {
      work_id: workId,
      format: 'zip',
      preset: 'acx',
      subtitles: 'lrc',
    });
    const task = await finished(r.body.data.task_id);
    expect(task.status).toBe('succeeded');
    const zip = unzipSync(await readFile(await outputFile(task.id, 'zip')));
    const mp3s = Object.keys(zip).filter((n) => n.endsWith('.mp3'));
    expect(mp3s).toHaveLength(2);
    expect(Object.keys(zip).filter((n) => n.endsWith('.lrc'))).toHaveLength(2);
    const report = (
      await get(alice.token, `/v1/audiobook/export_report?work_id=${workId}&task_id=${task.id}`)
    ).body.data.report as Array<{ file: string; rms_db: number; peak_db: number; passed: boolean }>;
    expect(report.map((e) => e.file).sort()).toEqual([...mp3s].sort());
    for (const name of mp3s) {
      const file = join(dir, `${task.id}-${mp3s.indexOf(name)}.mp3`);
      await writeFile(file, zip[name]);
      expect(ffprobeJson(file, ['-show_streams']).streams[0]).toMatchObject({
        codec_name: 'mp3',
        sample_rate: '44100',
        bit_rate: '192000',
      });
      // The figures are the delivered MP3's own.
      const own = ffmpegLevels(file);
      const entry = report.find((e) => e.file === name)!;
      expect(entry.rms_db).toBeCloseTo(own.rms, 0);
      expect(entry.peak_db).toBeCloseTo(own.peak, 0);
      expect(entry.passed).toBe(true);
    }
    // One checkpoint per chapter: a resumed export would skip these.
    const items = await server.ctx.db
      .selectFrom('task_items')
      .select('item')
      .where('task_id', '=', task.id)
      .where('stage', '=', 'export')
      .execute();
    expect(items.map((i) => i.item).sort()).toEqual(['chapter:0', 'chapter:1']);
  });

  it('keeps works and their files from other users', async () => {
    for (const path of [
      `/v1/audiobook/get?work_id=${workId}`,
      `/v1/audiobook/paragraphs?work_id=${workId}&chapter_id=${chapters[0].chapter_id}`,
    ]) {
      const r = await get(bob.token, path);
      expect(r.body.data?.detail?.[0]?.type ?? r.body.code).toBe('err_not_found');
    }
    for (const [path, body] of [
      ['/v1/audiobook/synthesize', { work_id: workId }],
      ['/v1/audiobook/export', { work_id: workId }],
      ['/v1/audiobook/delete', { work_id: workId }],
      ['/v1/audiobook/cast', { work_id: workId, characters: [] }],
    ] as const) {
      const r = await post(bob.token, path, body);
      expect(r.body.data?.detail?.[0]?.type ?? r.body.code).toBe('err_not_found');
    }
    expect((await get(bob.token, '/v1/audiobook/list')).body.data.total).toBe(0);
    const task = (await get(alice.token, `/v1/audiobook/get?work_id=${workId}`)).body.data.work.task_id;
    const other = await get(bob.token, `/v1/tasks/get?task_id=${task}`);
    expect(other.body.data?.detail?.[0]?.type ?? other.body.code).toBe('err_not_found');
  });

  it('refuses a file without text (3001) and leaves nothing behind', async () => {
    const r = await importBytes(alice.token, Buffer.from('\n\n   \n'), '空白.txt');
    expect(r.body.code).toBe(3001);
    const works = await server.ctx.db
      .selectFrom('audiobook_works')
      .select('id')
      .where('owner_id', '=', alice.uid)
      .execute();
    expect(works).toHaveLength(1);
  });

  it('deletes a work with its audio', async () => {
    const keys = [...(await audioKeysOf(workId)).values()]
      .map((r) => r.audio_key)
      .filter(Boolean) as string[];
    const r = await post(alice.token, '/v1/audiobook/delete', { work_id: workId });
    expect(r.body.data.deleted).toBe(1);
    for (const k of keys) expect(await server.ctx.storage.stat(k)).toBeNull();
    const left = await server.ctx.db
      .selectFrom('audiobook_paragraphs')
      .select('id')
      .where('work_id', '=', workId)
      .execute();
    expect(left).toHaveLength(0);
  });
});

describe('audiobook import of an ordinary hard-wrapped TXT', () => {
  // Lines broken at a fixed column (16 characters; the indent of a paragraph's first line counts), so
  // mid-sentence; paragraphs indented, a 序 first and a 注释 section last.
  const wrap = (p: string, indent = '　　') => {
    const chars = [...p];
    const lines = [indent + chars.splice(0, 16 - indent.length).join('')];
    while (chars.length) lines.push(chars.splice(0, 16).join(''));
    return lines.join('\n');
  };
  const PREFACE = '我在年青时候也曾经做过许多梦，后来大半忘却了，但自己也并不以为可惜。';
  const STORY = [
    '清晨的街道很安静，卖早点的摊子刚刚支起来，炉火映红了半条街。',
    '李雷笑着说：“你好，今天天气很好，我们去公园走一走吧。”',
    '韩梅梅笑道：“是啊，我们去公园吧，顺便看看湖边新开的花。”',
  ];
  const NOTES = ['⑴本篇最初发表于一九二二年十二月上海《妇女杂志》第八卷第十二号。', '⑵李雷：虚构人物。'];
  const TXT = [
    '序',
    '',
    wrap(PREFACE),
    '',
    '第一章 相遇',
    '',
    ...STORY.map((p) => `${wrap(p)}\n`),
    '□注释',
    '',
    ...NOTES.map((n) => `${wrap(n, '')}\n`),
  ].join('\r\n');

  it('joins wrapped lines, keeps 序 and 注释 as marked sections and never casts the own voice', async () => {
    const c = await signIn(server.app, '13900000194');
    const carol = { token: c.secure_tokens.access_token, uid: c.user_info.uid };
    // The user's own voices (as a clone makes them), sorted before every library voice.
    const library = await server.ctx.db
      .selectFrom('voices')
      .selectAll()
      .where('voice_id', '=', 'espeak-zh-yunze')
      .executeTakeFirstOrThrow();
    const own = ['male', 'female'].map((gender) => ({
      ...library,
      voice_id: `clone-${gender}-${carol.uid}`,
      owner_id: carol.uid,
      name: `我的声音 ${gender}`,
      gender,
      required_level: 100,
      sort: -1,
    }));
    await server.ctx.db.insertInto('voices').values(own).execute();

    const r = await importBytes(carol.token, Buffer.from(TXT, 'utf8'), '呐喊.txt');
    expect(r.body.code).toBe(0);
    const workId = r.body.data.work.work_id;
    const detail = (await get(carol.token, `/v1/audiobook/get?work_id=${workId}`)).body.data;
    expect(
      detail.chapters.map((ch: { title: string; kind: string; selected: boolean; paragraphs: number }) => [
        ch.title,
        ch.kind,
        ch.selected,
        ch.paragraphs,
      ]),
    ).toEqual([
      ['序', 'preface', true, 1],
      ['第一章 相遇', 'chapter', true, 3],
      // Notes are their own section, left out of the recording until the user ticks them.
      ['注释', 'notes', false, 2],
    ]);
    const texts = async (chapterId: string) =>
      (await paragraphsOf(carol.token, workId, chapterId)).map((p) =>
        p.segments.map((s) => (s.kind === 'quote' ? `“${s.text}”` : s.text)).join(''),
      );
    // Each paragraph whole: no paragraph (and no pause) in the middle of a sentence.
    expect(await texts(detail.chapters[0].chapter_id)).toEqual([PREFACE]);
    expect(await texts(detail.chapters[1].chapter_id)).toEqual(STORY);
    expect(await texts(detail.chapters[2].chapter_id)).toEqual(NOTES);

    // Automatic casting picks library voices only; the own voice is there to choose by hand.
    const characters = detail.characters as Array<{ character_id: string; name: string; voice_id: string }>;
    expect(characters.map((ch) => ch.name).sort()).toEqual(['李雷', '韩梅梅']);
    // 韩梅梅 (a woman's name) is cast; a character of unknown gender keeps the narrator ('').
    expect(characters.find((ch) => ch.name === '韩梅梅')!.voice_id).toMatch(/^espeak-zh-/);
    for (const ch of characters) expect(ch.voice_id === '' || ch.voice_id.startsWith('espeak-')).toBe(true);
    expect(detail.work.narrator_voice_id.startsWith('espeak-')).toBe(true);
    const lilei = characters.find((ch) => ch.name === '李雷')!;
    const cast = await post(carol.token, '/v1/audiobook/cast', {
      work_id: workId,
      characters: [{ character_id: lilei.character_id, voice_id: own[0].voice_id }],
    });
    expect(cast.body.code).toBe(0);
    expect(cast.body.data.characters.find((ch: { name: string }) => ch.name === '李雷').voice_id).toBe(
      own[0].voice_id,
    );
  });
});

describe('audiobook casting of a story told like 《阿Q正传》', () => {
  // Speech verbs after clause fragments (临死时说, 并说, 不回答) and a pronoun after a sentence about a
  // named character: the cast is the people only, and 他 is the one the paragraph is about.
  const STORY = [
    '第一章 优胜记略',
    '阿Q没有家，住在未庄的土谷祠里。',
    '“你算是什么东西！”阿Q瞪着眼睛说。',
    '王胡并不回答，只是笑。阿Q又问：“你笑什么？”',
    '“笑你。”王胡说。',
    '小D走进酒店，放下一碗酒。他笑着说：“阿Q，你又输了。”',
    '阿Q临死时说：“过了二十年又是一个……”',
  ].join('\n');

  it('casts only people, and a pronoun speaker is the character the paragraph is about', async () => {
    const r = await importBytes(bob.token, Buffer.from(STORY, 'utf8'), '阿Q.txt');
    expect(r.body.code).toBe(0);
    const workId = r.body.data.work.work_id;
    const detail = (await get(bob.token, `/v1/audiobook/get?work_id=${workId}`)).body.data;
    expect(detail.characters.map((c: { name: string }) => c.name).sort()).toEqual(['小D', '王胡', '阿Q']);
    const speakers = (await paragraphsOf(bob.token, workId, detail.chapters[0].chapter_id)).map((p) =>
      p.segments.filter((s) => s.kind === 'quote').map((s) => s.speaker),
    );
    expect(speakers).toEqual([[], ['阿Q'], ['阿Q'], ['王胡'], ['小D'], ['阿Q']]);
  });
});

describe('audiobook synthesis after a killed worker', () => {
  const children: ChildProcess[] = [];
  // A server of its own: real time from the start, no scheduled jobs of the tests above.
  beforeAll(async () => {
    await server.close();
    server = await createTestServer();
    server.ctx.clock = systemClock;
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const a = await signIn(server.app, '13900000193');
    alice = { token: a.secure_tokens.access_token, uid: a.user_info.uid };
    await fund(server, alice.uid, 10_000);
  }, 60_000);
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('resumes without redoing finished paragraphs', async () => {
    const lines = ['第一章 长夜'];
    for (let i = 0; i < 30; i++) lines.push(`这是第${i + 1}段，夜色很深，风吹过树林。`);
    const r = await importBytes(alice.token, Buffer.from(lines.join('\n'), 'utf8'), '长夜.txt');
    const work = r.body.data.work.work_id;
    // Real time, a short lease and a separate queue prefix: a worker process takes the task first.
    await server.ctx.jobs.close();
    const prefix = `vwbook-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const log = createLogger('silent');
    const makeQueue = () =>
      createJobQueue({
        db: server.ctx.db,
        clock: systemClock,
        log,
        jobs: server.ctx.jobDefinitions,
        prefix,
        leaseMs: 1000,
        pollIntervalMs: 20,
        app: () => server.ctx,
      });
    server.ctx.jobs = makeQueue();
    const s = await post(alice.token, '/v1/audiobook/synthesize', { work_id: work });
    expect(s.body.data.paragraphs).toBe(30);
    const taskId = s.body.data.task_id;

    const { child, exited } = spawnPipelineWorker(server, prefix);
    children.push(child);
    // Killed once a few paragraphs are finished (their checkpoints written), mid-book.
    for (;;) {
      const n = await server.ctx.db
        .selectFrom('task_items')
        .select('item')
        .where('task_id', '=', taskId)
        .execute();
      if (n.length >= 3) break;
      await new Promise((res) => setTimeout(res, 10));
    }
    child.kill('SIGKILL');
    await exited;
    const done = (
      await server.ctx.db.selectFrom('task_items').select('item').where('task_id', '=', taskId).execute()
    ).map((i) => i.item.slice(2));
    expect(done.length).toBeGreaterThanOrEqual(3);
    expect(done.length).toBeLessThan(30);
    const before = await audioKeysOf(work);

    await server.ctx.jobs.startWorker({ concurrency: 2, heavyConcurrency: 1 });
    const task = await finished(taskId, 120_000);
    expect(task.status).toBe('succeeded');
    const after = await audioKeysOf(work);
    for (const id of done) {
      // Finished before the kill: same audio, one take — not made again.
      expect(after.get(id)!.audio_key).toBe(before.get(id)!.audio_key);
      expect(JSON.parse(after.get(id)!.takes)).toHaveLength(1);
    }
    expect([...after.values()].every((p) => p.audio_key)).toBe(true);
  }, 180_000);
});
