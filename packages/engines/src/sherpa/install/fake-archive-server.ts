/**
 * A local stand-in for the sherpa-onnx release downloads, for tests: real HTTP with Range requests,
 * and faults on demand (a connection cut mid-body, a corrupted body). Also packs model folders as
 * upstream packs its archives (.tar.bz2 of one top folder).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { EngineError } from '../../errors.ts';
import { runTool } from '../../process/tool.ts';

export interface ArchiveRequest {
  method: string;
  path: string;
  range?: string;
}

export interface ArchiveServer {
  /** Base URL to hand the installer (no trailing slash). */
  url: string;
  /** Every request, in order. */
  requests: ArchiveRequest[];
  /** Body bytes written to clients so far. */
  bytesSent: number;
  /** Serves `body` at `path` (e.g. 'tts-models/x.tar.bz2'). */
  put(path: string, body: Buffer): void;
  /** The next GET of `path` sends this many bytes of the body, then cuts the connection. */
  cutAfter(path: string, bytes: number): void;
  /** GETs of `path` send a body of the right length with one byte changed, until `corrupt(path, false)`. */
  corrupt(path: string, on?: boolean): void;
  close(): Promise<void>;
}

export async function startArchiveServer(files: Record<string, Buffer> = {}): Promise<ArchiveServer> {
  const bodies = new Map(Object.entries(files));
  const cuts = new Map<string, number>();
  const corrupted = new Set<string>();
  const state = { requests: [] as ArchiveRequest[], bytesSent: 0 };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    const range = req.headers.range;
    state.requests.push({ method: req.method ?? 'GET', path, ...(range ? { range } : {}) });
    let body = bodies.get(path);
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    if (req.method === 'HEAD') {
      res.writeHead(200, { 'content-length': body.length, 'accept-ranges': 'bytes' }).end();
      return;
    }
    if (corrupted.has(path)) {
      body = Buffer.from(body);
      body[Math.floor(body.length / 2)]! ^= 0xff;
    }
    let start = 0;
    const m = range ? /^bytes=(\d+)-$/.exec(range) : null;
    if (m) {
      start = Number(m[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, {
        'content-length': body.length - start,
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
        'accept-ranges': 'bytes',
      });
    } else {
      res.writeHead(200, { 'content-length': body.length, 'accept-ranges': 'bytes' });
    }
    const slice = body.subarray(start);
    const cut = cuts.get(path);
    if (cut !== undefined) {
      cuts.delete(path);
      const sent = slice.subarray(0, cut);
      state.bytesSent += sent.length;
      res.write(sent, () => res.socket?.destroy());
      return;
    }
    state.bytesSent += slice.length;
    res.end(slice);
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get bytesSent() {
      return state.bytesSent;
    },
    put: (path, body) => void bodies.set(path, body),
    cutAfter: (path, bytes) => void cuts.set(path, bytes),
    corrupt: (path, on = true) => void (on ? corrupted.add(path) : corrupted.delete(path)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes `files` (path → content) under `<root>/<folder>/` and packs that folder as upstream does:
 * `tar cjf <folder>.tar.bz2 <folder>`. Resolves the archive's bytes.
 */
export async function packModelArchive(
  root: string,
  folder: string,
  files: Record<string, Buffer | string>,
): Promise<Buffer> {
  for (const [name, content] of Object.entries(files)) {
    const file = join(root, folder, name);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  const archive = join(root, `${folder}.tar.bz2`);
  await runTool('tar', ['cjf', archive, '-C', root, folder], {
    errors: {
      missing: () => new EngineError('engine_unavailable', '缺少 tar', 'tar is not installed'),
      aborted: () => new EngineError('aborted', '已取消', 'tar stopped'),
      failed: (exit, stderr) =>
        new EngineError('engine_unavailable', '打包失败', `tar exited ${exit}: ${stderr}`),
    },
  }).done;
  return readFile(archive);
}
