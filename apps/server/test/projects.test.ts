import { inflateRawSync } from 'node:zlib';
import { DEFAULT_SUBTITLE_RULES, type ProjectDocument } from '@vw/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaAssetRow, TaskRow } from '../src/db/schema.ts';
import { attachTask, createProject, writeToolResult } from '../src/modules/projects/projects.service.ts';
import { call, createTestServer, signIn, type TestServer, taskRow } from './harness.ts';

let server: TestServer;
let alice: string;
let aliceId: string;
let bob: string;

const namedError = (body: { code: number; data: { detail?: Array<{ type: string }> } }) =>
  body.code === 0 ? null : (body.data?.detail?.[0]?.type ?? body.code);

/** A media asset row as the uploads module writes it (the file itself stored under its key). */
export async function insertAsset(
  s: TestServer,
  ownerId: string,
  over: Partial<MediaAssetRow> & { id: string },
): Promise<MediaAssetRow> {
  const row: MediaAssetRow = {
    owner_id: ownerId,
    name: 'clip.wav',
    kind: 'audio',
    mime: 'audio/wav',
    size: 4,
    duration_ms: 12_345,
    width: null,
    height: null,
    has_audio: 1,
    has_video: 0,
    probe: '{}',
    sha256: '0'.repeat(64),
    storage_key: `media/${ownerId}/${over.id}.wav`,
    peaks_key: null,
    thumbnail_key: null,
    status: 'ready',
    created_at: s.clock.now(),
    upload_ref: null,
    ...over,
  };
  await s.ctx.db.insertInto('media_assets').values(row).execute();
  return row;
}

const taskRowOf = (ownerId: string, over: Partial<TaskRow> & { id: string }) =>
  taskRow(ownerId, server.clock.now(), {
    stage: 'recognize',
    progress: 42.5,
    started_at: server.clock.now(),
    ...over,
  });

const doc: ProjectDocument = {
  speakers: [
    { id: 'S1', name: '说话人1' },
    { id: 'S2', name: '主持人' },
  ],
  tracks: [
    {
      id: 'src',
      kind: 'source',
      language: 'zh',
      cues: [
        { id: 'c2', start_ms: 3_723_400, end_ms: 3_725_000, text: '第二句\n两行', speaker_id: 'S2' },
        { id: 'c1', start_ms: 1_000, end_ms: 2_500, text: '你好，世界。', speaker_id: 'S1' },
        { id: 'c3', start_ms: 4_000_000, end_ms: 3_999_000, text: 'a < b & c', speaker_id: 'ghost' },
      ],
    },
  ],
  rules: DEFAULT_SUBTITLE_RULES,
};

let sttA: string;
let sttB: string;
let ocr: string;

beforeAll(async () => {
  server = await createTestServer();
  const a = await signIn(server.app, '13900000011');
  alice = a.secure_tokens.access_token;
  aliceId = a.user_info.uid;
  bob = (await signIn(server.app, '13900000012')).secure_tokens.access_token;

  await insertAsset(server, aliceId, {
    id: 'ast_video',
    kind: 'video',
    thumbnail_key: 'thumbs/ast_video.jpg',
  });
  await server.ctx.storage.put('thumbs/ast_video.jpg', Buffer.from('jpeg'), 'image/jpeg');
  const empty = { speakers: [], tracks: [], rules: DEFAULT_SUBTITLE_RULES };
  sttA = (
    await createProject(server.ctx, {
      ownerId: aliceId,
      tool: 'stt',
      name: '第一集',
      sourceAssetId: 'ast_video',
      document: empty,
    })
  ).id;
  await server.ctx.db
    .insertInto('tasks')
    .values(taskRowOf(aliceId, { id: 'task_a', project_id: sttA }))
    .execute();
  await attachTask(server.ctx, aliceId, sttA, 'task_a');
  server.clock.advance(1000);
  sttB = (
    await createProject(server.ctx, {
      ownerId: aliceId,
      tool: 'stt',
      name: '第二集',
      sourceAssetId: null,
      document: doc,
    })
  ).id;
  server.clock.advance(1000);
  ocr = (
    await createProject(server.ctx, {
      ownerId: aliceId,
      tool: 'ocr',
      name: 'OCR',
      sourceAssetId: null,
      document: empty,
    })
  ).id;
});
afterAll(async () => server?.close());

describe('projects', () => {
  it('lists a tool’s projects newest first, paged, with the latest task’s state, cover and duration', async () => {
    const res = await call(server.app, 'GET', '/v1/projects/list?tool=stt&page_size=1', { token: alice });
    expect(res.body.code).toBe(0);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.list).toHaveLength(1);
    expect(res.body.data.list[0]).toMatchObject({
      project_id: sttB,
      name: '第二集',
      status: 'succeeded',
      progress: 100,
      task_id: null,
      duration_ms: null,
      cover_url: '',
    });
    const page2 = await call(server.app, 'GET', '/v1/projects/list?tool=stt&page=2&page_size=1', {
      token: alice,
    });
    const first = page2.body.data.list[0];
    expect(first).toMatchObject({
      project_id: sttA,
      tool: 'stt',
      status: 'running',
      progress: 42.5,
      task_id: 'task_a',
      source_asset_id: 'ast_video',
      duration_ms: 12_345,
      engine_label: '',
    });
    // The cover is a working signed link to the asset's thumbnail.
    const cover = await server.app.inject({ method: 'GET', url: first.cover_url });
    expect(cover.statusCode).toBe(200);
    expect(cover.body).toBe('jpeg');
    const ocrList = await call(server.app, 'GET', '/v1/projects/list?tool=ocr', { token: alice });
    expect(ocrList.body.data.list.map((p: { project_id: string }) => p.project_id)).toEqual([ocr]);
  });

  it('shows a task that names the project before the tool attached it (never "finished" while starting)', async () => {
    const starting = await createProject(server.ctx, {
      ownerId: aliceId,
      tool: 'ocr',
      name: '启动中',
      sourceAssetId: null,
      document: { speakers: [], tracks: [], rules: DEFAULT_SUBTITLE_RULES },
    });
    await server.ctx.db
      .insertInto('tasks')
      .values(
        taskRowOf(aliceId, {
          id: 'task_new',
          tool: 'ocr',
          status: 'queued',
          progress: 0,
          project_id: starting.id,
        }),
      )
      .execute();
    const list = await call(server.app, 'GET', '/v1/projects/list?tool=ocr', { token: alice });
    const view = list.body.data.list.find((p: { project_id: string }) => p.project_id === starting.id);
    expect(view).toMatchObject({ status: 'queued', progress: 0, task_id: 'task_new' });
    await server.ctx.db.deleteFrom('tasks').where('id', '=', 'task_new').execute();
    await server.ctx.db.deleteFrom('projects').where('id', '=', starting.id).execute();
  });

  it('opens a project with its document, version and source media; the stored document is normalised', async () => {
    const res = await call(server.app, 'GET', `/v1/projects/get?project_id=${sttB}`, { token: alice });
    expect(res.body.code).toBe(0);
    expect(res.body.data.version).toBe(0);
    expect(res.body.data.media).toBeNull();
    // Sorted by start; end clamped to start; a cue of a speaker the document lacks has none.
    expect(res.body.data.document.tracks[0].cues.map((c: { id: string }) => c.id)).toEqual([
      'c1',
      'c2',
      'c3',
    ]);
    expect(res.body.data.document.tracks[0].cues[2]).toEqual({
      id: 'c3',
      start_ms: 4_000_000,
      end_ms: 4_000_000,
      text: 'a < b & c',
      speaker_id: null,
    });
    const withMedia = await call(server.app, 'GET', `/v1/projects/get?project_id=${sttA}`, { token: alice });
    expect(withMedia.body.data.media).toMatchObject({
      asset_id: 'ast_video',
      kind: 'video',
      duration_ms: 12_345,
      has_audio: true,
      has_video: false,
      status: 'ready',
    });
    expect(withMedia.body.data.media.url).toMatch(/^\/files\//);
    expect(withMedia.body.data.project).toMatchObject({ project_id: sttA, status: 'running' });
  });

  it('saves with optimistic concurrency: the second save from the same version is refused', async () => {
    const opened = await call(server.app, 'GET', `/v1/projects/get?project_id=${sttA}`, { token: alice });
    const base = opened.body.data.version as number;
    const edited: ProjectDocument = {
      ...doc,
      tracks: [
        {
          id: 'src',
          kind: 'source',
          language: 'zh',
          cues: [
            { id: 'b', start_ms: 5000, end_ms: 4000, text: '后', speaker_id: null },
            { id: 'a', start_ms: 1000, end_ms: 2000, text: '前', speaker_id: 'S1' },
          ],
        },
      ],
    };
    const tabOne = await call(server.app, 'POST', '/v1/projects/save', {
      token: alice,
      body: { project_id: sttA, version: base, document: edited },
    });
    expect(tabOne.body.code).toBe(0);
    expect(tabOne.body.data.version).toBe(base + 1);
    const tabTwo = await call(server.app, 'POST', '/v1/projects/save', {
      token: alice,
      body: { project_id: sttA, version: base, document: doc },
    });
    expect(namedError(tabTwo.body)).toBe('err_project_version_conflict');
    const after = await call(server.app, 'GET', `/v1/projects/get?project_id=${sttA}`, { token: alice });
    expect(after.body.data.version).toBe(base + 1);
    expect(after.body.data.document.tracks[0].cues).toEqual([
      { id: 'a', start_ms: 1000, end_ms: 2000, text: '前', speaker_id: 'S1' },
      { id: 'b', start_ms: 5000, end_ms: 5000, text: '后', speaker_id: null },
    ]);
    // Saving from the new version works; a document breaking the contract is refused as input.
    const next = await call(server.app, 'POST', '/v1/projects/save', {
      token: alice,
      body: { project_id: sttA, version: base + 1, document: edited },
    });
    expect(next.body.data.version).toBe(base + 2);
    const bad = await call(server.app, 'POST', '/v1/projects/save', {
      token: alice,
      body: { project_id: sttA, version: base + 2, document: { ...edited, rules: { max_lines: 0 } } },
    });
    expect(bad.body.code).toBe(422);
  });

  it('a tool result replaces the document with a new version, so an open editor cannot overwrite it', async () => {
    const opened = await call(server.app, 'GET', `/v1/projects/get?project_id=${ocr}`, { token: alice });
    expect(await writeToolResult(server.ctx, aliceId, ocr, doc, 'openai-compatible:whisper-1')).toBe(true);
    const stale = await call(server.app, 'POST', '/v1/projects/save', {
      token: alice,
      body: { project_id: ocr, version: opened.body.data.version, document: opened.body.data.document },
    });
    expect(namedError(stale.body)).toBe('err_project_version_conflict');
    const now = await call(server.app, 'GET', `/v1/projects/get?project_id=${ocr}`, { token: alice });
    expect(now.body.data.project.engine_label).toBe('openai-compatible:whisper-1');
    expect(now.body.data.version).toBe(opened.body.data.version + 1);
  });

  it('renames', async () => {
    const res = await call(server.app, 'POST', '/v1/projects/rename', {
      token: alice,
      body: { project_id: sttB, name: '  第二集（定稿）  ' },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data.project).toMatchObject({ project_id: sttB, name: '第二集（定稿）' });
  });

  async function exportAs(format: string, extra: Record<string, unknown> = {}) {
    const res = await call(server.app, 'POST', '/v1/projects/export', {
      token: alice,
      body: { project_id: sttB, format, ...extra },
    });
    expect(res.body.code).toBe(0);
    const file = await server.app.inject({ method: 'GET', url: res.body.data.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.length).toBe(res.body.data.size);
    return { ...res.body.data, body: file.rawPayload, headers: file.headers };
  }

  it('exports SRT, VTT and TXT with exact content and a download name', async () => {
    const srt = await exportAs('srt');
    expect(srt.file_name).toBe('第二集（定稿）.srt');
    expect(srt.body.toString('utf8')).toBe(
      '1\n00:00:01,000 --> 00:00:02,500\n你好，世界。\n\n' +
        '2\n01:02:03,400 --> 01:02:05,000\n第二句\n两行\n\n' +
        '3\n01:06:40,000 --> 01:06:40,000\na < b & c\n',
    );
    expect(String(srt.headers['content-disposition'])).toContain('attachment');
    const vtt = await exportAs('vtt');
    expect(vtt.body.toString('utf8')).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\n你好，世界。\n\n' +
        '01:02:03.400 --> 01:02:05.000\n第二句\n两行\n\n' +
        '01:06:40.000 --> 01:06:40.000\na &lt; b &amp; c\n',
    );
    const txt = await exportAs('txt');
    expect(txt.body.toString('utf8')).toBe('你好，世界。\n第二句 两行\na < b & c\n');
    const txtFull = await exportAs('txt', { speakers: true, timestamps: true });
    expect(txtFull.body.toString('utf8')).toBe(
      '[00:00:01.000] 说话人1：你好，世界。\n[01:02:03.400] 主持人：第二句 两行\n[01:06:40.000] a < b & c\n',
    );
    // The plain export is still what it was (each option set is its own file).
    const again = await server.app.inject({ method: 'GET', url: txt.url });
    expect(again.body).toBe('你好，世界。\n第二句 两行\na < b & c\n');
  });

  it('exports JSON with times and, when asked, speakers', async () => {
    const json = await exportAs('json', { speakers: true });
    expect(JSON.parse(json.body.toString('utf8'))).toEqual({
      name: '第二集（定稿）',
      language: 'zh',
      cues: [
        { start_ms: 1000, end_ms: 2500, speaker: '说话人1', text: '你好，世界。' },
        { start_ms: 3_723_400, end_ms: 3_725_000, speaker: '主持人', text: '第二句\n两行' },
        { start_ms: 4_000_000, end_ms: 4_000_000, speaker: null, text: 'a < b & c' },
      ],
    });
  });

  it('exports DOCX: a Word zip whose document holds the title and one paragraph per cue', async () => {
    const docx = await exportAs('docx', { speakers: true, timestamps: true });
    expect(docx.file_name).toBe('第二集（定稿）.docx');
    expect(docx.body.subarray(0, 2).toString()).toBe('PK');
    const xml = unzip(docx.body).get('word/document.xml')!.toString('utf8');
    const paragraphs = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
      [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''),
    );
    expect(paragraphs).toEqual([
      '第二集（定稿）',
      '[00:00:01.000] 说话人1：你好，世界。',
      '[01:02:03.400] 主持人：第二句 两行',
      '[01:06:40.000] a &lt; b &amp; c',
    ]);
  });

  it('another user can neither list, open, save, rename, export nor delete them', async () => {
    const list = await call(server.app, 'GET', '/v1/projects/list?tool=stt', { token: bob });
    expect(list.body.data).toEqual({ total: 0, list: [] });
    const get = await call(server.app, 'GET', `/v1/projects/get?project_id=${sttA}`, { token: bob });
    expect(namedError(get.body)).toBe('err_not_found');
    const save = await call(server.app, 'POST', '/v1/projects/save', {
      token: bob,
      body: { project_id: sttA, version: 0, document: doc },
    });
    expect(namedError(save.body)).toBe('err_not_found');
    const rename = await call(server.app, 'POST', '/v1/projects/rename', {
      token: bob,
      body: { project_id: sttA, name: 'mine' },
    });
    expect(namedError(rename.body)).toBe('err_not_found');
    const exp = await call(server.app, 'POST', '/v1/projects/export', {
      token: bob,
      body: { project_id: sttB, format: 'srt' },
    });
    expect(namedError(exp.body)).toBe('err_not_found');
    const del = await call(server.app, 'DELETE', '/v1/projects/delete', {
      token: bob,
      body: { project_id: sttA },
    });
    expect(namedError(del.body)).toBe('err_not_found');
    const still = await call(server.app, 'GET', `/v1/projects/get?project_id=${sttA}`, { token: alice });
    expect(still.body.data.project.name).toBe('第一集');
    const anonymous = await call(server.app, 'GET', '/v1/projects/list?tool=stt');
    expect(anonymous.status).toBe(401);
  });

  it('deletes a project with its tasks and exports; the source asset stays', async () => {
    await server.ctx.db
      .insertInto('task_stages')
      .values({
        task_id: 'task_a',
        name: 'recognize',
        seq: 0,
        status: 'done',
        progress: 1,
        attempts: 1,
        result: '{}',
        artifacts: JSON.stringify(['tasks/task_a/out.srt']),
        error: null,
        started_at: 1,
        finished_at: 2,
      })
      .execute();
    await server.ctx.storage.put('tasks/task_a/out.srt', Buffer.from('x'), 'text/plain');
    const exported = await call(server.app, 'POST', '/v1/projects/export', {
      token: alice,
      body: { project_id: sttA, format: 'srt' },
    });
    expect(exported.body.code).toBe(0);
    const del = await call(server.app, 'DELETE', '/v1/projects/delete', {
      token: alice,
      body: { project_id: sttA },
    });
    expect(del.body).toMatchObject({ code: 0, data: { deleted: 1 } });
    expect(await server.ctx.db.selectFrom('tasks').select('id').where('id', '=', 'task_a').execute()).toEqual(
      [],
    );
    expect(
      await server.ctx.db.selectFrom('task_stages').select('name').where('task_id', '=', 'task_a').execute(),
    ).toEqual([]);
    expect(await server.ctx.storage.stat('tasks/task_a/out.srt')).toBeNull();
    expect(await server.ctx.storage.stat(`exports/${aliceId}/${sttA}/subtitles.srt`)).toBeNull();
    expect((await server.app.inject({ method: 'GET', url: exported.body.data.url })).statusCode).toBe(404);
    const gone = await call(server.app, 'GET', `/v1/projects/get?project_id=${sttA}`, { token: alice });
    expect(namedError(gone.body)).toBe('err_not_found');
    expect(
      await server.ctx.db.selectFrom('media_assets').select('id').where('id', '=', 'ast_video').execute(),
    ).toHaveLength(1);
  });
});

/** The entries of a zip file (stored or deflated), read through its central directory. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}
