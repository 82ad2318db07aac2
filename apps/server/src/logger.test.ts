import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './logger.ts';

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
