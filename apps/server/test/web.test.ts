import { mkdirSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it('serves a new build switched in while it runs, without a restart (the build swaps a link)', async () => {
    const web = mkdtempSync(path.join(tmpdir(), 'vw-web-'));
    const writeBuild = (name: string, files: Record<string, string>) => {
      mkdirSync(path.join(web, name, 'assets'), { recursive: true });
      for (const [file, text] of Object.entries(files)) writeFileSync(path.join(web, name, file), text);
    };
    writeBuild('dist-1', { 'index.html': '<title>一</title>', 'assets/index-1.js': 'one()' });
    symlinkSync('dist-1', path.join(web, 'dist'));
    const server = await createTestServer({ WEB_DIST_DIR: path.join(web, 'dist') });
    const get = (url: string) => server.app.inject({ method: 'GET', url });
    try {
      expect((await get('/workbench/tts')).body).toContain('一');
      expect((await get('/workbench/assets/index-1.js')).body).toBe('one()');

      // The next build, carrying the previous one's hashed files for tabs still open, switched in
      // with one rename.
      writeBuild('dist-2', {
        'index.html': '<title>二</title>',
        'assets/index-2.js': 'two()',
        'assets/index-1.js': 'one()',
      });
      symlinkSync('dist-2', path.join(web, 'dist.next'));
      renameSync(path.join(web, 'dist.next'), path.join(web, 'dist'));

      for (const url of ['/workbench', '/workbench/', '/workbench/video-translation/editor?id=1']) {
        const page = await get(url);
        expect(page.statusCode, url).toBe(200);
        expect(page.body, url).toContain('二');
        expect(page.headers['cache-control'], url).toBe('no-cache');
      }
      const fresh = await get('/workbench/assets/index-2.js');
      expect(fresh.body).toBe('two()');
      expect(fresh.headers['cache-control']).toContain('immutable');
      expect((await get('/workbench/assets/index-1.js')).body).toBe('one()');
      // A hashed file no build has is missing, not a page.
      const missing = await get('/workbench/assets/index-0.js');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).not.toContain('<title>');
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
