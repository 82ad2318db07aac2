import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createTestServer } from './harness.ts';

describe('web app under /workbench/', () => {
  it('serves index.html for deep links and hashed assets with a long cache', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'vw-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>声音工作台</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    const server = await createTestServer({ WEB_DIST_DIR: dist });
    try {
      const deep = await server.app.inject({
        method: 'GET',
        url: '/workbench/video-translation/editor?id=1',
      });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain('声音工作台');
      expect(deep.headers['cache-control']).toBe('no-cache');
      const asset = await server.app.inject({ method: 'GET', url: '/workbench/assets/index-abc123.js' });
      expect(asset.body).toBe('console.log(1)');
      expect(asset.headers['cache-control']).toContain('immutable');
      const compressed = await server.app.inject({
        method: 'GET',
        url: '/workbench/assets/index-abc123.js',
        headers: { 'accept-encoding': 'br, gzip' },
      });
      expect(compressed.headers['content-encoding']).toBe('br');
      expect(compressed.rawPayload.equals(brotliCompressSync('console.log(1)'))).toBe(true);
      const root = await server.app.inject({ method: 'GET', url: '/' });
      expect(root.statusCode).toBe(302);
      expect(root.headers.location).toBe('/workbench/');
    } finally {
      await server.close();
    }
  });

  it('tells the visitor the web app is unavailable (the build command is for the operator log)', async () => {
    const server = await createTestServer({ WEB_DIST_DIR: path.join(tmpdir(), 'vw-no-such-dist') });
    try {
      const res = await server.app.inject({ method: 'GET', url: '/workbench/tts' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toBe('网页端暂不可用，请稍后再试或联系管理员');
    } finally {
      await server.close();
    }
  });
});
