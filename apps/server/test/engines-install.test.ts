import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CatalogueEntry } from '@vw/engines';
import { type ArchiveServer, packModelArchive, startArchiveServer } from '@vw/engines/fake-archive-server';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyVitsModel, tinyVitsTokens } from '../../../packages/engines/src/sherpa/tiny-vits.fixture.ts';
import { spawnLogged, stop, waitForHttp, waitUntil } from '../bench/load/processes.ts';
import { loadConfig } from '../src/config.ts';
import { startBackgroundInstall } from '../src/engines/install.ts';
import {
  EngineCommandError,
  engineInstall,
  engineList,
  engineRemove,
  engineVerify,
} from '../src/engines.cli.ts';
import { createTestServer } from './harness.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let root: string;
let archives: ArchiveServer;
let vitsArchive: Buffer;
const vad = randomBytes(200_000);

const licence = (permissive: boolean) => ({
  code: 'Apache-2.0',
  weights: permissive ? 'Apache-2.0' : 'CC-BY-NC-4.0',
  data: permissive ? 'public domain test data' : 'a non-commercial corpus',
  permissive,
  sources: ['https://example.org/licence'],
});

/** A catalogue in the real one's shape, served by the local archive server. */
function catalogue(): CatalogueEntry[] {
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
          bytesExact: true,
          sha256: sha(vitsArchive),
        },
      ],
      installedBytes: 64_000,
      licence: licence(true),
      enables: '语音合成：1 个测试音色',
      recommended: true,
      homepage: 'https://example.org/tiny-vits',
    },
    {
      model: { id: 'test-vad', kind: 'vad', name: 'Test VAD', files: { model: 'test_vad.onnx' } },
      downloads: [
        // An upper bound, without a published digest: installed, recorded, "not verified".
        {
          path: 'asr-models/test_vad.onnx',
          unpack: false,
          bytes: vad.length + 5000,
          bytesExact: false,
          sha256: null,
        },
      ],
      installedBytes: vad.length,
      licence: licence(true),
      enables: '语音识别的断句',
      recommended: true,
      homepage: 'https://example.org/vad',
    },
    {
      model: { id: 'nc-vad', kind: 'vad', name: 'NC VAD', files: { model: 'nc_vad.onnx' } },
      downloads: [
        {
          path: 'asr-models/nc_vad.onnx',
          unpack: false,
          bytes: vad.length,
          bytesExact: true,
          sha256: sha(vad),
        },
      ],
      installedBytes: vad.length,
      licence: licence(false),
      enables: '仅供测试',
      recommended: false,
      homepage: 'https://example.org/nc',
    },
  ];
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'vw-engines-install-'));
  vitsArchive = await packModelArchive(path.join(root, 'pack'), 'tiny-vits', {
    'model.onnx': tinyVitsModel(),
    'tokens.txt': tinyVitsTokens(),
  });
  archives = await startArchiveServer({
    'tts-models/tiny-vits.tar.bz2': vitsArchive,
    'asr-models/test_vad.onnx': vad,
    'asr-models/nc_vad.onnx': vad,
  });
});

afterAll(async () => {
  await archives.close();
  rmSync(root, { recursive: true, force: true });
});

const closedPort = async () => {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
};

function config(name: string, env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: path.join(root, name),
    ENGINES_BASE_URL: archives.url,
    ...env,
  });
}

describe('npm run admin -- engines list | install | remove | verify', () => {
  it('lists, installs the recommended set with progress, verifies and removes', async () => {
    const cfg = config('cli');
    expect(cfg.modelsDir).toBe(path.join(root, 'cli', 'models'));
    const before = (await engineList(cfg, catalogue())).join('\n');
    expect(before).toMatch(/^tiny-vits\s+not installed\s+0 MB\s+recommended$/m);
    expect(before).toMatch(/^test-vad\s+not installed\s+≤0 MB\s+recommended$/m);
    expect(before).toMatch(/^nc-vad\s+not installed.*opt-in \(licence not permissive\)$/m);
    expect(before).toContain('licence: code Apache-2.0; weights CC-BY-NC-4.0');
    expect(before).toContain('enables: 语音合成：1 个测试音色');

    const lines: string[] = [];
    const report = await engineInstall(cfg, { ids: [], recommended: true }, (l) => lines.push(l), {
      catalogue: catalogue(),
      everyMs: 0,
    });
    expect(report).toMatchObject({ status: 'done', failed: [] });
    expect(report.installed.sort()).toEqual(['test-vad', 'tiny-vits']);
    const out = lines.join('\n');
    expect(out).toMatch(/engines: tiny-vits [\d.]+\/[\d.]+ MB, [\d.]+ MB\/s/);
    expect(out).toContain('engines: tiny-vits installed (sha256 verified)');
    expect(out).toContain(
      `engines: test-vad installed — 未核对 (not verified: no published digest; recorded sha256 ${sha(vad)}`,
    );
    // Not named, not permissive: not installed.
    expect(report.installed).not.toContain('nc-vad');

    const after = (await engineList(cfg, catalogue())).join('\n');
    expect(after).toMatch(/^tiny-vits\s+installed\s/m);
    expect(after).toMatch(/^test-vad\s+installed \(未核对 not verified: no published digest\)/m);
    expect(after).toMatch(/^nc-vad\s+not installed/m);

    const verified: string[] = [];
    expect(await engineVerify(cfg, (l) => verified.push(l), catalogue())).toBe(true);
    expect(verified.join('\n')).toMatch(
      /^ok\s+test-vad \(files present, sha256 of test_vad.onnx \(recorded at download\)\)$/m,
    );

    const removed: string[] = [];
    expect(await engineRemove(cfg, 'test-vad', (l) => removed.push(l))).toBe(true);
    expect(removed).toEqual(['test-vad removed']);
    expect(existsSync(path.join(cfg.modelsDir, 'test_vad.onnx'))).toBe(false);
    expect((await engineList(cfg, catalogue())).join('\n')).toMatch(
      /^test-vad\s+not installed \(removed: a server start leaves it out until installed by name\)/m,
    );
  });

  it('installs a model whose licence is not permissive only when named, printing the licence first', async () => {
    const cfg = config('nc');
    const lines: string[] = [];
    const report = await engineInstall(cfg, { ids: ['nc-vad'] }, (l) => lines.push(l), {
      catalogue: catalogue(),
    });
    expect(report.installed).toEqual(['nc-vad']);
    const licenceAt = lines.findIndex((l) =>
      l.includes('weights CC-BY-NC-4.0; training data a non-commercial corpus'),
    );
    const downloadAt = lines.findIndex((l) => l.startsWith('engines: downloading'));
    expect(licenceAt).toBeGreaterThan(-1);
    expect(licenceAt).toBeLessThan(downloadAt);
    expect(lines).toContain('    https://example.org/licence');

    await expect(engineInstall(cfg, { ids: ['nope'] }, () => {}, { catalogue: catalogue() })).rejects.toThrow(
      EngineCommandError,
    );
    await expect(engineInstall(cfg, { ids: [] }, () => {}, { catalogue: catalogue() })).rejects.toThrow(
      /needs model ids or --recommended/,
    );
  });

  it('says in one line that it is offline, and leaves the models marked offline', async () => {
    const cfg = config('offline', { ENGINES_BASE_URL: `http://127.0.0.1:${await closedPort()}` });
    const lines: string[] = [];
    const report = await engineInstall(cfg, { ids: [], recommended: true }, (l) => lines.push(l), {
      catalogue: catalogue(),
    });
    expect(report.status).toBe('offline');
    expect(lines).toEqual([
      expect.stringMatching(
        /^engines: offline \(127\.0\.0\.1:\d+: ECONNREFUSED\) — running on the standard engine; install later with npm run admin -- engines install <id>$/,
      ),
    ]);
    expect((await engineList(cfg, catalogue())).join('\n')).toMatch(/^tiny-vits\s+not installed \(offline/m);
  });
});

describe('the background installation', () => {
  const logger = () => {
    const lines: Array<[string, string]> = [];
    const log = {
      info: (msg: string) => lines.push(['info', msg]),
      warn: (_obj: unknown, msg?: string) => lines.push(['warn', msg ?? String(_obj)]),
    } as unknown as FastifyBaseLogger;
    return { log, lines };
  };

  it('does nothing with ENGINES=none, and installs the recommended set otherwise', async () => {
    const { log, lines } = logger();
    expect(startBackgroundInstall(config('none', { ENGINES: 'none' }), log, catalogue())).toBeNull();

    const cfg = config('bg', { ENGINES: 'recommended' });
    const run = startBackgroundInstall(cfg, log, catalogue(), ['tiny-vits'])!;
    const report = await run.done;
    expect(report).toMatchObject({ status: 'done', installed: ['tiny-vits'] });
    expect(lines).toContainEqual(['info', 'engines: tiny-vits installed (sha256 verified)']);
    expect(JSON.parse(readFileSync(path.join(cfg.modelsDir, 'models.json'), 'utf8')).models[0].id).toBe(
      'tiny-vits',
    );
  });

  it('ENGINES defaults to recommended, and to none for tests', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).ENGINES).toBe('recommended');
    expect(loadConfig({ NODE_ENV: 'test' }).ENGINES).toBe('none');
  });
});

describe('/readyz', () => {
  it('reports engine states without making a missing model a reason to be unready', async () => {
    const server = await createTestServer();
    try {
      const dir = server.config.modelsDir;
      expect(dir).toBe(path.join(server.config.dataDir, 'models'));
      const empty = await server.app.inject({ method: 'GET', url: '/readyz' });
      expect(empty.statusCode).toBe(200);
      expect(empty.json().engines).toEqual({});

      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, 'install-state.json'),
        JSON.stringify({
          updatedAt: new Date().toISOString(),
          pid: process.pid,
          models: {
            'kokoro-x': {
              state: 'downloading',
              bytesDone: 50,
              bytesTotal: 200,
              bytesPerSecond: 10,
              secondsLeft: 15,
            },
            'asr-x': {
              state: 'failed',
              bytesDone: 0,
              bytesTotal: 10,
              bytesPerSecond: 0,
              secondsLeft: null,
              error: 'checksum mismatch',
            },
            'vad-x': {
              state: 'installed',
              bytesDone: 5,
              bytesTotal: 5,
              bytesPerSecond: 0,
              secondsLeft: null,
              verified: false,
            },
          },
        }),
      );
      await writeFile(
        path.join(dir, 'models.json'),
        JSON.stringify({ models: [{ id: 'vad-x', kind: 'vad', files: { model: 'missing.onnx' } }] }),
      );
      const res = await server.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        ready: true,
        engines: {
          'kokoro-x': { state: 'downloading', bytesDone: 50, bytesTotal: 200 },
          'asr-x': { state: 'failed' },
          'vad-x': { state: 'installed', verified: false },
        },
      });
    } finally {
      await server.close();
    }
  });
});

describe('a server started with ENGINES=recommended and no connection', () => {
  it('answers at once, says offline in one log line, and reports the models offline', async () => {
    const dataDir = path.join(root, 'server');
    const port = await closedPort();
    const apiPort = await closedPort();
    const logFile = path.join(root, 'server.log');
    const proc = spawnLogged(
      'server',
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/main.ts', 'all'],
      {
        env: {
          NODE_ENV: 'development',
          ENGINES: 'recommended',
          ENGINES_BASE_URL: `http://127.0.0.1:${port}`,
          HOST: '127.0.0.1',
          PORT: String(apiPort),
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
          JWT_SECRET: 'install-test-secret-install-test-secret',
        },
        logFile,
      },
    );
    try {
      await waitForHttp(`http://127.0.0.1:${apiPort}/readyz`);
      const line = await waitUntil(
        'the offline log line',
        async () =>
          readFileSync(logFile, 'utf8')
            .split('\n')
            .find((l) => l.includes('engines: offline')),
        60_000,
      );
      expect(JSON.parse(line).msg).toMatch(
        /^engines: offline \(127\.0\.0\.1:\d+: ECONNREFUSED\) — running on the standard engine/,
      );
      const ready = await (await fetch(`http://127.0.0.1:${apiPort}/readyz`)).json();
      expect(Object.values(ready.engines).length).toBeGreaterThan(0);
      expect(Object.values(ready.engines).every((m) => (m as { state: string }).state === 'offline')).toBe(
        true,
      );
    } finally {
      await stop(proc);
    }
  }, 120_000);
});
