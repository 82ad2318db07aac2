import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { runFfmpeg } from '../media/run.ts';

/**
 * A local separator speaking vw-sep/1 (./http.ts) for tests (port 0) and e2e. Not product code and not
 * a separator: it "splits" by frequency — the input low-passed at 500 Hz is the accompaniment, high-passed
 * at 500 Hz the vocals — so a test can check which stem went where. The point is the protocol.
 */
export interface FakeSeparatorServer {
  url: string;
  /** Requests received (model field, bytes of audio, authorization header). */
  requests: Array<{ model: string | null; bytes: number; authorization: string | null }>;
  close(): Promise<void>;
}

const body = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

export async function startFakeSeparatorServer(
  opts: { port?: number; host?: string; apiKey?: string; fail?: number } = {},
): Promise<FakeSeparatorServer> {
  const requests: FakeSeparatorServer['requests'] = [];
  const server = createServer(async (req, res) => {
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    try {
      if (req.method === 'GET' && req.url === '/health')
        return json(200, { status: 'ok', model: 'fake-split' });
      if (req.method !== 'POST' || req.url !== '/separate')
        return json(404, { error: { message: 'not found' } });
      if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`)
        return json(401, { error: { message: 'bad key' } });
      if (opts.fail) return json(opts.fail, { error: { message: 'model crashed' } });
      const raw = await body(req);
      const form = await new Request('http://fake/separate', {
        method: 'POST',
        headers: { 'content-type': String(req.headers['content-type'] ?? '') },
        body: raw,
      }).formData();
      const audio = form.get('audio');
      if (!(audio instanceof Blob)) return json(400, { error: { message: 'audio missing' } });
      const model = form.get('model');
      requests.push({
        model: typeof model === 'string' ? model : null,
        bytes: audio.size,
        authorization: req.headers.authorization ?? null,
      });
      const dir = await mkdtemp(join(tmpdir(), 'fake-sep-'));
      try {
        const input = join(dir, 'in.wav');
        await writeFile(input, Buffer.from(await audio.arrayBuffer()));
        const split = async (filter: string, out: string) => {
          await runFfmpeg(['-i', input, '-af', filter, '-c:a', 'pcm_s16le', '-y', join(dir, out)]);
          return new Uint8Array(await readFile(join(dir, out)));
        };
        const zip = zipSync(
          {
            'htdemucs/vocals.wav': await split('highpass=f=500:poles=2,highpass=f=500:poles=2', 'v.wav'),
            'htdemucs/no_vocals.wav': await split('lowpass=f=500:poles=2,lowpass=f=500:poles=2', 'a.wav'),
          },
          { level: 0 },
        );
        res.writeHead(200, { 'content-type': 'application/zip', 'x-separator-model': 'fake-split (500 Hz)' });
        res.end(Buffer.from(zip));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } catch (err) {
      json(500, { error: { message: (err as Error).message } });
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startFakeSeparatorServer({ port: Number(process.argv[2] ?? 18792) });
  console.log(`fake separator on ${s.url}`);
}
