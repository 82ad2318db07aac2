import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, createTestServer, latestCode, signIn, type TestServer } from './harness.ts';

// A real 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(fileName: string, bytes: Buffer, contentType: string) {
  const boundary = '----vwtest';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

let server: TestServer;
beforeEach(async () => {
  server = await createTestServer();
});
afterEach(async () => {
  await server.close();
});

async function upload(token: string, fileName: string, bytes: Buffer, contentType = 'image/png') {
  const form = multipart(fileName, bytes, contentType);
  const res = await server.app.inject({
    method: 'POST',
    url: '/v1/user/upload_avatar',
    payload: form.body,
    headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
  });
  return res.json();
}

describe('avatar upload', () => {
  it('stores an image identified by its bytes and serves it through a signed URL', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000070');
    const res = await upload(secure_tokens.access_token, '头像.png', PNG);
    expect(res.code).toBe(0);
    expect(res.data.user_info.avatar_url).toMatch(/^\/files\//); // same origin as the page
    const url = new URL(res.data.user_info.avatar_url, 'http://localhost');
    expect(url.pathname).toMatch(/^\/files\/avatars\/u_[0-9a-f]+\/file_[0-9a-f]+\.png$/);
    const file = await server.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(file.rawPayload, PNG)).toBe(0);
    const info = await call(server.app, 'POST', '/v1/user/get_user_info', {
      token: secure_tokens.access_token,
    });
    expect(info.body.data.user_info.avatar_url).toContain(url.pathname);
  });

  it('refuses a text file renamed to .png and an empty or oversized file, leaving nothing behind', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000071');
    const token = secure_tokens.access_token;
    const fake = await upload(token, 'evil.png', Buffer.from('<?php echo 1; ?>'));
    expect(fake.data.detail[0].type).toBe('err_file_not_supported');
    expect((await upload(token, 'empty.png', Buffer.alloc(0))).data.detail[0].type).toBe('err_file_empty');
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await upload(token, 'big.png', big)).data.detail[0].type).toBe('err_file_too_large');
    const rows = await server.ctx.db.selectFrom('files').selectAll().execute();
    expect(rows).toHaveLength(0);
  });

  it('parses multipart only on the avatar route', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000073');
    const form = multipart('a.png', PNG, 'image/png');
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/user/update_profile',
      payload: form.body,
      headers: { authorization: `Bearer ${secure_tokens.access_token}`, 'content-type': form.contentType },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().data.detail[0].type).toBe('err_invalid_param');
  });

  it('replaces the previous avatar and removes it on account cancellation', async () => {
    const { secure_tokens, user_info } = await signIn(server.app, '13900000072');
    const token = secure_tokens.access_token;
    await upload(token, 'a.png', PNG);
    await upload(token, 'b.png', PNG);
    const files = () =>
      server.ctx.db.selectFrom('files').selectAll().where('owner_id', '=', user_info.uid).execute();
    expect(await files()).toHaveLength(1);

    server.clock.advance(61_000);
    await call(server.app, 'POST', '/accounts/v1/send_verification_code', {
      body: { account: '13900000072', scene: 'cancel_account' },
      token,
    });
    const code = await latestCode(server.app, '13900000072');
    expect(
      (await call(server.app, 'POST', '/accounts/v1/cancel_account', { token, body: { code } })).body.code,
    ).toBe(0);
    expect(await files()).toHaveLength(0);
  });
});
