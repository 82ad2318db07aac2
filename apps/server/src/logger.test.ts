import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, requestLoggerFactory, scrubSecrets } from './logger.ts';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, sink };
}

describe('log scrubbing', () => {
  it('replaces secret values at any depth and keeps the rest', () => {
    const scrubbed = scrubSecrets({
      user: 'u1',
      body: { password: 'hunter22', nested: [{ refresh_token: 'rt_x', keep: 1 }] },
      headers: { Authorization: 'Bearer abc' },
    });
    expect(scrubbed).toEqual({
      user: 'u1',
      body: { password: '[redacted]', nested: [{ refresh_token: '[redacted]', keep: 1 }] },
      headers: { Authorization: '[redacted]' },
    });
  });

  it('is applied to every log line, child loggers included', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ formatters: { log: (o) => scrubSecrets(o) as Record<string, unknown> } }, sink);
    log.child({ reqId: 1 }).info({ new_password: 'secret123' }, 'changed');
    expect(lines.join('')).not.toContain('secret123');
    expect(lines.join('')).toContain('[redacted]');
  });
});

describe('request loggers', () => {
  it("a request's lines carry its id and the client's device and bundle ids, its children's too", async () => {
    const { lines, sink } = capture();
    const app = Fastify({
      loggerInstance: pino({ level: 'info' }, sink),
      childLoggerFactory: requestLoggerFactory,
    });
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/loud', async (request) => {
      request.log.warn({ step: 1 }, 'first');
      request.log.child({ part: 'inner' }).error('second');
      request.log.debug('below the level');
      return { ok: true };
    });
    const headers = { 'x-device-id': 'dev-1', 'x-bundle-id': 'com.example.app' };
    await app.inject({ method: 'GET', url: '/quiet', headers });
    const loud = await app.inject({ method: 'GET', url: '/loud', headers });
    await app.close();
    // Fastify's own request lines (incoming, completed) go through the same factory.
    const ofRequest = lines.filter((l) => l.reqId !== undefined);
    expect(ofRequest.length).toBeGreaterThan(2);
    for (const line of ofRequest)
      expect(line).toMatchObject({ deviceId: 'dev-1', bundleId: 'com.example.app' });
    const first = ofRequest.find((l) => l.msg === 'first');
    const second = ofRequest.find((l) => l.msg === 'second');
    expect(first).toMatchObject({ step: 1, level: 40 });
    expect(second).toMatchObject({ part: 'inner', level: 50, reqId: first?.reqId });
    expect(ofRequest.some((l) => l.msg === 'below the level')).toBe(false);
    expect(loud.statusCode).toBe(200);
  });

  it('reads the bindings only when the request first logs, and keeps the level it was given', () => {
    const { lines, sink } = capture();
    const parent = pino({ level: 'info' }, sink);
    let reads = 0;
    const log = lazyChildLogger(parent, () => ({ reqId: 'r1', deviceId: reads++ }), { level: 'warn' });
    expect(log.level).toBe('warn');
    expect(reads).toBe(0);
    log.info('dropped: below warn');
    log.warn('kept');
    log.error('kept too');
    expect(reads).toBe(1);
    expect(lines.map((l) => [l.msg, l.reqId, l.deviceId])).toEqual([
      ['kept', 'r1', 0],
      ['kept too', 'r1', 0],
    ]);
  });
});
