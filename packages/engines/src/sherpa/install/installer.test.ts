import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadModelRegistry } from '../models.ts';
import { tinyVitsModel, tinyVitsTokens } from '../tiny-vits.fixture.ts';
import { download, InstallError } from './download.ts';
import { type ArchiveServer, packModelArchive, startArchiveServer } from './fake-archive-server.ts';
import {
  DOWNLOADS_DIR,
  type InstallableEntry,
  type InstallEvent,
  installModels,
  removeModel,
  verifyModels,
} from './installer.ts';
import { readInstallState } from './state.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let root: string;
let modelsDir: string;
let server: ArchiveServer;
let vitsArchive: Buffer;
let segArchive: Buffer;
const bigFile = randomBytes(3 * 1024 * 1024);
const embedA = randomBytes(4096);
const embedB = randomBytes(4096);

/** A test catalogue in the shape of the real one: a TTS archive, single files, a shared folder. */
function catalogue(): InstallableEntry[] {
  return [
    {
      model: {
        id: 'tiny-vits',
        kind: 'vits',
        name: 'Tiny VITS',
        languages: ['en-US'],
        speakers: 1,
        files: { model: 'tiny-vits/model.onnx', tokens: 'tiny-vits/tokens.txt' },
      },
      downloads: [
        {
          path: 'tts-models/tiny-vits.tar.bz2',
          unpack: true,
          bytes: vitsArchive.length,
          sha256: sha(vitsArchive),
        },
      ],
      installedBytes: 64 * 1024,
    },
    {
      model: { id: 'big-vad', kind: 'vad', name: 'Big VAD', files: { model: 'big_vad.onnx' } },
      downloads: [
        { path: 'asr-models/big_vad.onnx', unpack: false, bytes: bigFile.length, sha256: sha(bigFile) },
      ],
      installedBytes: bigFile.length,
    },
    ...(['a', 'b'] as const).map((x) => ({
      model: {
        id: `diar-${x}`,
        kind: 'diarization',
        name: `Diarization ${x}`,
        files: { segmentation: 'seg-3-0/model.onnx', embedding: `embed_${x}.onnx` },
      },
      downloads: [
        {
          path: 'speaker-segmentation-models/seg-3-0.tar.bz2',
          unpack: true,
          bytes: segArchive.length,
          sha256: sha(segArchive),
        },
        // No published digest for the embeddings: recorded at download, reported as not verified.
        {
          path: `speaker-recongition-models/embed_${x}.onnx`,
          unpack: false,
          bytes: (x === 'a' ? embedA : embedB).length,
          sha256: null,
        },
      ],
      installedBytes: 8192,
    })),
  ];
}

const roomy = async () => ({ bavail: 1e9, bsize: 4096 });

function install(ids: string[], extra: Partial<Parameters<typeof installModels>[0]> = {}) {
  const events: InstallEvent[] = [];
  const run = installModels({
    modelsDir,
    baseUrl: server.url,
    catalogue: catalogue(),
    ids,
    statfs: roomy,
    progressEveryMs: 0,
    retryDelaysMs: [],
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { events, run };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'vw-install-'));
  modelsDir = join(root, 'models');
  vitsArchive ??= await packModelArchive(join(root, 'pack'), 'tiny-vits', {
    'model.onnx': tinyVitsModel(),
    'tokens.txt': tinyVitsTokens(),
  });
  segArchive ??= await packModelArchive(join(root, 'pack'), 'seg-3-0', { 'model.onnx': randomBytes(2048) });
  server = await startArchiveServer({
    'tts-models/tiny-vits.tar.bz2': vitsArchive,
    'asr-models/big_vad.onnx': bigFile,
    'speaker-segmentation-models/seg-3-0.tar.bz2': segArchive,
    'speaker-recongition-models/embed_a.onnx': embedA,
    'speaker-recongition-models/embed_b.onnx': embedB,
  });
});

afterEach(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

describe('installModels', () => {
  it('downloads, checks, unpacks a .tar.bz2 and registers a model the engines can load', async () => {
    const { run, events } = install(['tiny-vits']);
    const report = await run;
    expect(report).toMatchObject({ status: 'done', installed: ['tiny-vits'], failed: [] });
    const [model] = await loadModelRegistry(modelsDir);
    expect(model).toMatchObject({ id: 'tiny-vits', kind: 'vits' });
    expect(await readFile(join(modelsDir, 'tiny-vits/tokens.txt'), 'utf8')).toBe(tinyVitsTokens());
    // The archive is gone once unpacked; the state says installed and verified.
    expect(existsSync(join(modelsDir, DOWNLOADS_DIR, 'tiny-vits.tar.bz2'))).toBe(false);
    const state = await readInstallState(modelsDir);
    expect(state.models['tiny-vits']).toMatchObject({ state: 'installed', verified: true });
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['queued', 'state', 'progress', 'installed']),
    );
    expect(events.find((e) => e.type === 'installed')).toMatchObject({ verified: true });

    // A second run finds it installed and asks the server nothing.
    const before = server.requests.length;
    const again = await install(['tiny-vits']).run;
    expect(again).toMatchObject({ status: 'done', already: ['tiny-vits'], installed: [] });
    expect(server.requests.length).toBe(before);
  });

  it('resumes a cut download from its .part with a Range request', async () => {
    server.cutAfter('asr-models/big_vad.onnx', 1024 * 1024);
    const first = await install(['big-vad']).run;
    expect(first.failed).toEqual([expect.objectContaining({ id: 'big-vad', kind: 'network' })]);
    const part = join(modelsDir, 'big_vad.onnx.part');
    const kept = (await stat(part)).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(bigFile.length);
    expect((await readInstallState(modelsDir)).models['big-vad']?.state).toBe('failed');
    expect(await readFile(join(modelsDir, 'models.json'), 'utf8').catch(() => '')).not.toContain('big-vad');

    const second = await install(['big-vad']).run;
    expect(second).toMatchObject({ status: 'done', installed: ['big-vad'] });
    const gets = server.requests.filter((r) => r.method === 'GET' && r.path === 'asr-models/big_vad.onnx');
    expect(gets.at(-1)?.range).toBe(`bytes=${kept}-`);
    expect(server.bytesSent).toBeLessThan(2 * bigFile.length);
    expect(sha(await readFile(join(modelsDir, 'big_vad.onnx')))).toBe(sha(bigFile));
    expect(existsSync(part)).toBe(false);
  });

  it('resumes a cut download within the same run when retries are allowed', async () => {
    server.cutAfter('asr-models/big_vad.onnx', 512 * 1024);
    const report = await install(['big-vad'], { retryDelaysMs: [0] }).run;
    expect(report).toMatchObject({ status: 'done', installed: ['big-vad'], failed: [] });
    const gets = server.requests.filter((r) => r.method === 'GET' && r.path === 'asr-models/big_vad.onnx');
    expect(gets).toHaveLength(2);
    expect(gets[1]?.range).toMatch(/^bytes=\d+-$/);
    expect(server.bytesSent).toBeLessThan(2 * bigFile.length);
  });

  it('refuses a corrupted download: no part left, nothing registered, a checksum error', async () => {
    server.corrupt('tts-models/tiny-vits.tar.bz2');
    const { run, events } = install(['tiny-vits']);
    const report = await run;
    expect(report.failed).toEqual([
      expect.objectContaining({
        id: 'tiny-vits',
        kind: 'checksum',
        error: expect.stringMatching(/checksum mismatch/),
      }),
    ]);
    expect(events.some((e) => e.type === 'failed' && e.kind === 'checksum')).toBe(true);
    expect(existsSync(join(modelsDir, DOWNLOADS_DIR, 'tiny-vits.tar.bz2.part'))).toBe(false);
    expect(existsSync(join(modelsDir, DOWNLOADS_DIR, 'tiny-vits.tar.bz2'))).toBe(false);
    expect(existsSync(join(modelsDir, 'tiny-vits'))).toBe(false);
    expect(existsSync(join(modelsDir, 'models.json'))).toBe(false);
    expect((await readInstallState(modelsDir)).models['tiny-vits']).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/checksum/),
    });
  });

  it('records the digest of a file without a published one and says it was not verified', async () => {
    const report = await install(['diar-a']).run;
    expect(report.installed).toEqual(['diar-a']);
    const state = await readInstallState(modelsDir);
    expect(state.models['diar-a']).toMatchObject({ state: 'installed', verified: false });
    expect(state.digests?.['speaker-recongition-models/embed_a.onnx']).toBe(sha(embedA));
  });

  it('resolves offline within the probe limit against a closed port and tries nothing', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const { run, events } = install(['tiny-vits', 'big-vad'], { baseUrl: `http://127.0.0.1:${port}` });
    const report = await run;
    expect(report.status).toBe('offline');
    expect(report.message).toMatch(/ECONNREFUSED/);
    expect(events).toEqual([{ type: 'offline', reason: report.message }]);
    const state = await readInstallState(modelsDir);
    expect(state.models['tiny-vits']?.state).toBe('offline');
    expect(state.models['big-vad']?.state).toBe('offline');
  });

  it('refuses to start without the disk space the models need, naming the figures', async () => {
    const { run, events } = install(['tiny-vits', 'big-vad'], {
      statfs: async () => ({ bavail: 1000, bsize: 4096 }),
    });
    const report = await run;
    expect(report.status).toBe('no-space');
    expect(report.message).toMatch(/not enough disk space .* MB needed .* MB free/);
    expect(events[0]).toMatchObject({ type: 'no-space', availableBytes: 4_096_000 });
    expect(server.requests).toEqual([]);
    expect((await readInstallState(modelsDir)).models['big-vad']?.state).toBe('failed');
  });

  it('leaves a folder to the process installing into it, and takes over a lock whose process is gone', async () => {
    await mkdir(modelsDir, { recursive: true });
    await writeFile(join(modelsDir, '.install.lock'), String(process.pid));
    const busy = await install(['tiny-vits']).run;
    expect(busy).toMatchObject({ status: 'busy', installed: [] });
    expect(server.requests).toEqual([]);

    // A pid above Linux's pid_max: no such process.
    await writeFile(join(modelsDir, '.install.lock'), '4194305');
    expect(await install(['tiny-vits']).run).toMatchObject({ status: 'done', installed: ['tiny-vits'] });
    expect(existsSync(join(modelsDir, '.install.lock'))).toBe(false);
  });

  it('stops on the signal and keeps the part for the next run', async () => {
    const stop = new AbortController();
    const { run } = install(['big-vad', 'tiny-vits'], {
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'progress') stop.abort();
      },
    });
    const report = await run;
    expect(report.status).toBe('aborted');
    expect(report.failed).toEqual([expect.objectContaining({ id: 'big-vad', kind: 'aborted' })]);
    expect(existsSync(join(modelsDir, 'big_vad.onnx.part'))).toBe(true);
    // Nothing stays "queued" or "downloading" after the run: the state says it stopped.
    const { models } = await readInstallState(modelsDir);
    expect(models['big-vad']).toMatchObject({ state: 'failed', error: expect.stringMatching(/resumes/) });
    expect(models['tiny-vits']).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/stopped before/),
    });
    expect(existsSync(join(modelsDir, '.install.lock'))).toBe(false);
  });
});

describe('removeModel and verifyModels', () => {
  it('removes a model but keeps files another registered model uses', async () => {
    expect((await install(['diar-a', 'diar-b', 'tiny-vits']).run).installed).toHaveLength(3);
    // The shared segmentation archive is fetched once: diar-b finds its folder registered.
    const segGets = server.requests.filter((r) => r.method === 'GET' && r.path.endsWith('seg-3-0.tar.bz2'));
    expect(segGets).toHaveLength(1);
    expect(await removeModel(modelsDir, 'diar-a')).toBe(true);
    const ids = (await loadModelRegistry(modelsDir)).map((m) => m.id);
    expect(ids.sort()).toEqual(['diar-b', 'tiny-vits']);
    expect(existsSync(join(modelsDir, 'embed_a.onnx'))).toBe(false);
    expect(existsSync(join(modelsDir, 'seg-3-0/model.onnx'))).toBe(true);

    expect(await removeModel(modelsDir, 'diar-b')).toBe(true);
    expect(existsSync(join(modelsDir, 'seg-3-0'))).toBe(false);
    expect(existsSync(join(modelsDir, 'tiny-vits/model.onnx'))).toBe(true);
    expect(await removeModel(modelsDir, 'diar-b')).toBe(false);
    expect((await readInstallState(modelsDir)).models['diar-b']).toBeUndefined();

    // The default set leaves removed models out; naming one installs it and forgets the removal.
    const defaults = await install(['diar-a', 'tiny-vits'], { skipRemoved: true }).run;
    expect(defaults).toMatchObject({ status: 'done', installed: [], already: ['tiny-vits'] });
    expect((await install(['diar-a']).run).installed).toEqual(['diar-a']);
    expect((await readInstallState(modelsDir)).removed).toEqual(['diar-b']);
  });

  it('re-hashes single files against the published or recorded digest', async () => {
    await install(['big-vad', 'diar-a']).run;
    const ok = await verifyModels(modelsDir, catalogue());
    expect(ok.every((r) => r.ok)).toBe(true);
    expect(ok.find((r) => r.id === 'diar-a')?.checked).toContain(
      'sha256 of embed_a.onnx (recorded at download)',
    );

    const changed = Buffer.from(embedA);
    changed[0]! ^= 1;
    await writeFile(join(modelsDir, 'embed_a.onnx'), changed);
    await rm(join(modelsDir, 'big_vad.onnx'));
    const bad = await verifyModels(modelsDir, catalogue());
    expect(bad.find((r) => r.id === 'diar-a')).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/sha256/)],
    });
    expect(bad.find((r) => r.id === 'big-vad')).toMatchObject({
      ok: false,
      problems: ['missing big_vad.onnx'],
    });
  });
});

describe('download', () => {
  it('starts over when the server ignores the Range header', async () => {
    const file = join(root, 'x.bin');
    await writeFile(`${file}.part`, bigFile.subarray(0, 1000));
    // A plain static server without ranges: answers 200 with the whole body.
    const plain = (await import('node:http')).createServer((_req, res) => res.end(bigFile));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(plain.address() as { port: number }).port}/x.bin`;
      const got = await download({ url, file, bytes: bigFile.length, sha256: sha(bigFile) });
      expect(got).toMatchObject({ sha256: sha(bigFile), bytes: bigFile.length });
    } finally {
      plain.closeAllConnections();
      await new Promise<void>((r) => plain.close(() => r()));
    }
  });

  it('reports an HTTP error without leaving a file', async () => {
    const file = join(root, 'missing.bin');
    await expect(download({ url: `${server.url}/nope`, file })).rejects.toSatisfy(
      (e) => e instanceof InstallError && e.kind === 'http' && /404/.test(e.message),
    );
    expect(existsSync(file)).toBe(false);
  });
});
