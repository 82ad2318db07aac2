import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrainer } from '../clone/trainer.ts';
import { isEngineError } from '../errors.ts';
import { createLipSync } from './http.ts';

// One local server speaking both protocols; what it answers is set per test.
let server: Server;
let base = '';
let answer: { status: number; body: string } = { status: 200, body: '' };
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status);
      res.end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('outside-server clients on engineFetch', () => {
  it('the trainer answers its JSON, and words a failed answer with the status and the server text', async () => {
    answer = { status: 200, body: '{"status":"training"}' };
    expect(await createTrainer(base).status('j 1')).toEqual({ status: 'training' });
    answer = { status: 500, body: 'GPU out of memory' };
    const err = await createTrainer(base)
      .status('j1')
      .catch((e: unknown) => e);
    expect(isEngineError(err, 'remote_error')).toBe(true);
    expect((err as { zh: string }).zh).toBe('训练服务出错（500）：GPU out of memory');
  });

  it('lip sync replaces the video with the answer, and an unreachable server is engine_unavailable', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vw-lip-'));
    const video = path.join(dir, 'v.mp4');
    const audio = path.join(dir, 'a.wav');
    writeFileSync(video, 'old');
    writeFileSync(audio, 'wav');
    answer = { status: 200, body: 'lip-synced' };
    await createLipSync(base).apply(video, audio);
    expect(readFileSync(video, 'utf8')).toBe('lip-synced');

    answer = { status: 503, body: '' };
    const failed = await createLipSync(base)
      .apply(video, audio)
      .catch((e: unknown) => e);
    expect(isEngineError(failed, 'engine_unavailable')).toBe(true);
    expect((failed as { zh: string }).zh).toBe('口型同步服务返回 503');
    expect(readFileSync(video, 'utf8')).toBe('lip-synced');

    const unreachable = await createLipSync('http://127.0.0.1:1')
      .apply(video, audio)
      .catch((e: unknown) => e);
    expect(isEngineError(unreachable, 'engine_unavailable')).toBe(true);
    expect((unreachable as { zh: string }).zh).toMatch(/^口型同步服务无法连接：/);
  });
});
