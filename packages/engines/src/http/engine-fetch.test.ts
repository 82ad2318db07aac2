import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { engineFetch, type RemoteErrors, serverMessage } from './engine-fetch.ts';

const errors: RemoteErrors = {
  aborted: () => new EngineError('aborted', '已取消', 'aborted'),
  timedOut: () => new EngineError('timeout', '超时', 'timed out'),
  unreachable: (cause) => new EngineError('engine_unavailable', '无法连接', `unreachable: ${cause.message}`),
  failed: (status, body) =>
    new EngineError('remote_error', `出错（${status}）`, `${status}: ${serverMessage(body)}`),
};

let server: Server;
let base: string;
/** Answers still to give, in order; then 200 "ok". */
let script: Array<{ status: number; body: string }> = [];
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
    const next = script.shift() ?? { status: 200, body: 'ok' };
    res.writeHead(next.status).end(next.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const call = (path: string, more: { idempotent?: boolean; signal?: AbortSignal; timeoutMs?: number } = {}) =>
  engineFetch(`${base}${path}`, { method: 'POST', body: 'x', timeoutMs: 1000, errors, ...more });

describe('engineFetch', () => {
  it('returns the whole answer, and asks an idempotent call again after a 503', async () => {
    script = [{ status: 503, body: '{"error":{"message":"restarting"}}' }];
    requests = 0;
    const { response, body } = await call('/', { idempotent: true });
    expect(response.status).toBe(200);
    expect(body.toString()).toBe('ok');
    expect(requests).toBe(2);
  });

  it('never repeats a call that is not idempotent, nor a 4xx; the server message reaches the error', async () => {
    script = [{ status: 503, body: '{"error":{"message":"restarting"}}' }];
    requests = 0;
    await expect(call('/')).rejects.toMatchObject({ code: 'remote_error', en: '503: restarting' });
    script = [{ status: 400, body: 'bad input' }];
    await expect(call('/', { idempotent: true })).rejects.toMatchObject({ en: '400: bad input' });
    expect(requests).toBe(2);
  });

  it('maps an unreachable server, a timeout and a cancel to the caller’s errors', async () => {
    await expect(engineFetch('http://127.0.0.1:1/', { timeoutMs: 1000, errors })).rejects.toMatchObject({
      code: 'engine_unavailable',
    });
    await expect(call('/slow', { timeoutMs: 200, idempotent: true })).rejects.toMatchObject({
      code: 'timeout',
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(call('/slow', { signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
  });
});
