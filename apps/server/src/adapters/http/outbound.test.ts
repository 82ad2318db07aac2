import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isPublicAddress, postOnce } from './outbound.ts';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A local receiver on 127.0.0.1 answering with `answer`; records what reached it. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    received.push({ headers: req.headers, body });
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { port: (server.address() as AddressInfo).port, received };
}

const post = { headers: { 'content-type': 'application/json' }, body: '{"event":"ping"}', timeoutMs: 2000 };

describe('isPublicAddress', () => {
  it('tells public internet addresses from private, loopback, link-local and reserved ones', () => {
    for (const address of ['8.8.8.8', '223.5.5.5', '172.15.0.1', '172.32.0.1', '2606:4700:4700::1111']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.169.254', // cloud metadata
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe('postOnce', () => {
  it('posts the body with its headers and answers the status without following a redirect', async () => {
    const rx = await receiver((_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    });
    const { status } = await postOnce(`http://localhost:${rx.port}/hook`, { ...post, publicOnly: false });
    expect(status).toBe(302);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0].body).toBe('{"event":"ping"}');
    expect(rx.received[0].headers['content-type']).toBe('application/json');
  });

  it('connects only to public addresses when asked: a name resolving to loopback or a literal one', async () => {
    const rx = await receiver((_req, res) => res.end('ok'));
    for (const url of [`http://localhost:${rx.port}/hook`, `http://127.0.0.1:${rx.port}/hook`]) {
      await expect(postOnce(url, { ...post, publicOnly: true })).rejects.toMatchObject({
        code: 'EADDRNOTPUBLIC',
      });
    }
    expect(rx.received).toHaveLength(0);
  });

  it('gives up at the time limit', async () => {
    const rx = await receiver(() => {}); // never answers
    await expect(
      postOnce(`http://127.0.0.1:${rx.port}/hook`, { ...post, timeoutMs: 200, publicOnly: false }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
