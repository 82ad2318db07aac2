import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('defaults to the embedded SQLite file, local files and port 8787', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(8787);
    expect(config.database.kind).toBe('sqlite');
    expect(config.storage.kind).toBe('local');
    expect(config.publicUrl).toBe('http://localhost:8787');
    expect(config.isProduction).toBe(false);
  });

  it('stops with a message naming each bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x/db' })).toThrow(
      /JWT_SECRET: required with DATABASE_URL/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'b' })).toThrow(/S3_BUCKET.*together/);
    expect(() => loadConfig({ SMS_PROVIDER: 'aliyun' })).toThrow(/ALIYUN_SMS_ACCESS_KEY_ID: required/);
  });

  it('switches to PostgreSQL and S3 when configured', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@h/db',
      JWT_SECRET: 'x'.repeat(32),
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@h/db' });
    expect(config.storage.kind).toBe('s3');
  });
});
