import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createAliyunSmsSender, signAliyunRpc } from './aliyun-sms.ts';
import { createSmtpSender } from './smtp.ts';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** A local stand-in for dysmsapi that checks the signature the way the real service does. */
async function fakeAliyun(secret: string, answer: { Code: string; Message: string }) {
  const received: Array<Record<string, string>> = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const params = Object.fromEntries(new URLSearchParams(body));
    received.push(params);
    const { Signature, ...rest } = params;
    const ok = Signature === signAliyunRpc('POST', rest, secret);
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(ok ? answer : { Code: 'SignatureDoesNotMatch', Message: 'bad signature' }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, received };
}

const message = { to: '+8613812345678', subject: 's', text: 't', params: { code: '123456' } };
const options = (endpoint: string, accessKeySecret = 'secret-1') => ({
  accessKeyId: 'LTAI-test',
  accessKeySecret,
  signName: '声音工作台',
  templateCode: 'SMS_0001',
  endpoint,
});

describe('Aliyun SMS', () => {
  it('signs SendSms so the service accepts it, with the template parameters', async () => {
    const fake = await fakeAliyun('secret-1', { Code: 'OK', Message: 'OK' });
    await createAliyunSmsSender(options(fake.url), Date.now).send(message);
    expect(fake.received[0]).toMatchObject({
      Action: 'SendSms',
      PhoneNumbers: '13812345678',
      SignName: '声音工作台',
      TemplateCode: 'SMS_0001',
      TemplateParam: '{"code":"123456"}',
      SignatureMethod: 'HMAC-SHA1',
    });
  });

  it('fails loudly on a refused message or a wrong secret', async () => {
    const refusing = await fakeAliyun('secret-1', {
      Code: 'isv.BUSINESS_LIMIT_CONTROL',
      Message: '触发流控',
    });
    await expect(createAliyunSmsSender(options(refusing.url), Date.now).send(message)).rejects.toThrow(
      /BUSINESS_LIMIT_CONTROL/,
    );
    const strict = await fakeAliyun('secret-1', { Code: 'OK', Message: 'OK' });
    await expect(createAliyunSmsSender(options(strict.url, 'wrong'), Date.now).send(message)).rejects.toThrow(
      /SignatureDoesNotMatch/,
    );
  });

  it('percent-encodes per RFC 3986 before signing', () => {
    const a = signAliyunRpc('POST', { A: "it's (ok)*", B: '~' }, 's');
    const b = signAliyunRpc('POST', { A: "it's (ok)*", B: '%7E' }, 's');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });
});

describe('SMTP', () => {
  it('delivers mail to an SMTP server', async () => {
    const mails: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (c) => {
          data += c;
        });
        stream.on('end', () => {
          mails.push(data);
          callback();
        });
      },
    });
    server.listen(0, '127.0.0.1');
    await once(server.server, 'listening');
    closers.push(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.server.address() as AddressInfo).port;
    const sender = createSmtpSender(`smtp://127.0.0.1:${port}`, 'Voice Workbench <no-reply@example.com>');
    await sender.send({ to: 'ada@example.com', subject: '验证码', text: '您的验证码是 123456', params: {} });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: ada@example.com');
    expect(mails[0]).toMatch(/Subject: =\?UTF-8\?/);
  });
});
