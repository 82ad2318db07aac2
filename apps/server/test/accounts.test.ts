import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '../src/errors.ts';
import { REFRESH_REUSE_GRACE_MS } from '../src/modules/accounts/sessions.service.ts';
import { sendVerificationCode } from '../src/modules/accounts/verification.service.ts';
import { call, createTestServer, latestCode, signIn, type TestServer } from './harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await createTestServer();
});
afterEach(async () => {
  await server.close();
});

const send = (account: string, scene = 'login', ip = '10.0.0.1', token?: string) =>
  call(server.app, 'POST', '/accounts/v1/send_verification_code', { body: { account, scene }, ip, token });
const auth = (account: string, code: string) =>
  call(server.app, 'POST', '/accounts/v1/auth_with_verification_code', { body: { account, code } });
const refresh = (refresh_token: string) =>
  call(server.app, 'POST', '/accounts/v1/token', { body: { refresh_token } });
const userInfo = (token?: string) => call(server.app, 'POST', '/v1/user/get_user_info', { token });
const detailType = (res: { body: { data: { detail?: Array<{ type: string }> } } }) =>
  res.body.data?.detail?.[0]?.type;

describe('sign-in by verification code', () => {
  it('creates the user on first sign-in with type 2 and a pending questionnaire', async () => {
    const first = await signIn(server.app, '13912345678');
    expect(first.user_info).toMatchObject({
      type: 2,
      phone: '13912345678',
      nickname: '用户5678',
      user_persona_questionnaire_status: 2,
    });
    expect((first as unknown as { is_new_user: boolean }).is_new_user).toBe(true);
    server.clock.advance(61_000);
    const again = await signIn(server.app, '+8613912345678');
    expect(again.user_info.uid).toBe(first.user_info.uid);
    const info = await userInfo(again.secure_tokens.access_token);
    expect(info.body.data.user_info.uid).toBe(first.user_info.uid);
  });

  it('signs in by e-mail, case-insensitively', async () => {
    const res = await signIn(server.app, 'Ada@Example.com');
    expect(res.user_info).toMatchObject({ email: 'ada@example.com', phone: '', nickname: 'ada' });
  });

  it('rejects a wrong code, burns the code after 5 wrong tries, and expires codes after 5 minutes', async () => {
    await send('13900000001');
    const code = await latestCode(server.app, '13900000001');
    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await auth('13900000001', wrong);
    expect(bad.body.code).toBe(422);
    expect(detailType(bad)).toBe('err_verification_code_invalid');
    for (let i = 0; i < 3; i++) await auth('13900000001', wrong);
    expect(detailType(await auth('13900000001', wrong))).toBe('err_verification_code_too_many_attempts');
    expect(detailType(await auth('13900000001', code))).toBe('err_verification_code_too_many_attempts');

    server.clock.advance(61_000);
    await send('13900000001');
    const fresh = await latestCode(server.app, '13900000001');
    server.clock.advance(5 * 60_000 + 1);
    expect(detailType(await auth('13900000001', fresh))).toBe('err_verification_code_expired');
  });

  it('uses a code once', async () => {
    await send('13900000002');
    const code = await latestCode(server.app, '13900000002');
    expect((await auth('13900000002', code)).body.code).toBe(0);
    expect(detailType(await auth('13900000002', code))).toBe('err_verification_code_expired');
  });

  // The limits live in the service; calling it directly keeps the per-route flood guard (real time) out of it.
  const sendDirect = async (account: string, ip = '10.0.0.1') => {
    try {
      await sendVerificationCode(server.ctx, { account, scene: 'login', ip, user: null });
      return 'sent';
    } catch (err) {
      return (err as AppError).detailType;
    }
  };

  it('limits sends per target: 1 a minute, 5 an hour, 10 a day', async () => {
    const target = '13900000003';
    expect(await sendDirect(target)).toBe('sent');
    expect(await sendDirect(target)).toBe('err_verification_code_too_frequent');
    for (let i = 0; i < 4; i++) {
      server.clock.advance(61_000);
      expect(await sendDirect(target)).toBe('sent');
    }
    server.clock.advance(61_000);
    expect(await sendDirect(target)).toBe('err_verification_code_too_frequent'); // 6th within the hour
    server.clock.advance(3600_000);
    for (let i = 0; i < 5; i++) {
      expect(await sendDirect(target)).toBe('sent');
      server.clock.advance(61_000);
    }
    server.clock.advance(3600_000);
    expect(await sendDirect(target)).toBe('err_verification_code_too_frequent'); // 11th within the day
    server.clock.advance(24 * 3600_000);
    expect(await sendDirect(target)).toBe('sent');
  });

  it('limits sends per client IP across targets', async () => {
    for (let i = 0; i < 20; i++) expect(await sendDirect(`1390000${1000 + i}`, '10.9.9.9')).toBe('sent');
    expect(await sendDirect('13911112222', '10.9.9.9')).toBe('err_verification_code_too_frequent');
    expect(await sendDirect('13911112222', '10.9.9.8')).toBe('sent');
    server.clock.advance(3600_001);
    expect(await sendDirect('13911113333', '10.9.9.9')).toBe('sent');
  });

  it('answers HTTP 429 with Retry-After when a client floods the send route', async () => {
    let last = await send('13800001111', 'login', '10.7.7.7');
    for (let i = 0; i < 12; i++) last = await send(`1380000${2000 + i}`, 'login', '10.7.7.7');
    expect(last.status).toBe(429);
    expect(last.body.code).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses users of type 1', async () => {
    const { user_info, secure_tokens } = await signIn(server.app, '13900000004');
    await server.ctx.db.updateTable('users').set({ type: 1 }).where('id', '=', user_info.uid).execute();
    server.clock.advance(61_000);
    await send('13900000004');
    const code = await latestCode(server.app, '13900000004');
    expect(detailType(await auth('13900000004', code))).toBe('err_account_refused');
    expect((await refresh(secure_tokens.refresh_token)).status).toBe(401);
  });
});

describe('refresh tokens', () => {
  it('rotates on every use and keeps the user signed in', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000010');
    const res = await refresh(secure_tokens.refresh_token);
    expect(res.body.code).toBe(0);
    const next = res.body.data.secure_tokens;
    expect(next.refresh_token).not.toBe(secure_tokens.refresh_token);
    expect(next.expires_in).toBe(900);
    expect(next.refresh_token_expires_in).toBe(30 * 24 * 3600);
    expect(res.body.data.user_info.phone).toBe('13900000010');
    expect((await userInfo(next.access_token)).body.code).toBe(0);
  });

  it('stores only hashes', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000011');
    const rows = await server.ctx.db.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(secure_tokens.refresh_token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    const codes = await server.ctx.db.selectFrom('verification_codes').select('code_hash').execute();
    expect(codes.every((c) => /^[0-9a-f]{64}$/.test(c.code_hash))).toBe(true);
  });

  it('lets two tabs refresh with one token inside the grace window', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000012');
    const [a, b] = await Promise.all([
      refresh(secure_tokens.refresh_token),
      refresh(secure_tokens.refresh_token),
    ]);
    expect(a.body.code).toBe(0);
    expect(b.body.code).toBe(0);
    expect((await refresh(b.body.data.secure_tokens.refresh_token)).body.code).toBe(0);
  });

  it('revokes the whole family when a rotated token is reused after the grace window', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000013');
    const rotated = (await refresh(secure_tokens.refresh_token)).body.data.secure_tokens;
    server.clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    const replay = await refresh(secure_tokens.refresh_token);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe(401);
    expect((await refresh(rotated.refresh_token)).status).toBe(401);
  });

  it('refuses unknown and expired refresh tokens', async () => {
    expect((await refresh('rt_nonsense')).status).toBe(401);
    const { secure_tokens } = await signIn(server.app, '13900000014');
    server.clock.advance(30 * 24 * 3600_000 + 1);
    expect((await refresh(secure_tokens.refresh_token)).status).toBe(401);
  });

  it('sign-out revokes the refresh token', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000015');
    const out = await call(server.app, 'POST', '/accounts/v1/sign_out', {
      body: { refresh_token: secure_tokens.refresh_token },
    });
    expect(out.body.code).toBe(0);
    expect((await refresh(secure_tokens.refresh_token)).status).toBe(401);
  });
});

describe('access tokens and envelopes', () => {
  it('accepts bodiless calls that still say Content-Type: application/json', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000022');
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/user/get_user_info',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secure_tokens.access_token}` },
    });
    expect(res.json()).toMatchObject({ code: 0, data: { user_info: { phone: '13900000022' } } });
  });

  it('answers HTTP 401 for a missing, forged or expired access token', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000020');
    expect((await userInfo()).status).toBe(401);
    expect((await userInfo(`${secure_tokens.access_token}x`)).status).toBe(401);
    const ok = await userInfo(secure_tokens.access_token);
    expect(ok.status).toBe(200);
    server.clock.advance(901_000);
    const expired = await userInfo(secure_tokens.access_token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ code: 401, msg: '登录已失效，请重新登录', data: null });
  });

  it('answers code 422 with detail types for malformed input', async () => {
    const missing = await call(server.app, 'POST', '/accounts/v1/send_verification_code', {
      body: { scene: 'login' },
    });
    expect(missing.status).toBe(200);
    expect(missing.body.code).toBe(422);
    expect(missing.body.data.detail[0]).toMatchObject({
      type: 'value_error.missing',
      loc: ['body', 'account'],
    });
    const invalid = await send('not-an-account');
    expect(detailType(invalid)).toBe('err_account_invalid');
    expect(invalid.body.msg).toBe('请输入正确的手机号或邮箱');
    const badScene = await send('13900000021', 'nope');
    expect(badScene.body.data.detail[0]).toMatchObject({
      type: 'value_error.invalid',
      loc: ['body', 'scene'],
    });
    const badJson = await server.app.inject({
      method: 'POST',
      url: '/accounts/v1/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"refresh_token":',
    });
    expect(badJson.json()).toMatchObject({ code: 422, data: { detail: [{ type: 'err_invalid_param' }] } });
  });

  it('hides internals of unexpected errors behind err_system', async () => {
    const local = await createTestServer({}, (app) => {
      app.get('/test/boom', async () => {
        throw new Error('secret internals: password=hunter2');
      });
    });
    const res = await local.app.inject({ method: 'GET', url: '/test/boom' });
    await local.close();
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('hunter2');
    expect(res.json()).toMatchObject({ code: 500, data: { detail: [{ type: 'err_system' }] } });
  });

  it('sends security headers and answers unknown paths with a 404 envelope', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(404);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it("answers calls with the headers of a response that is never a page, pages with helmet's", async () => {
    const { secure_tokens } = await signIn(server.app, '13900000023');
    const answered = await server.app.inject({
      method: 'POST',
      url: '/v1/user/get_user_info',
      headers: { authorization: `Bearer ${secure_tokens.access_token}` },
    });
    const refused = await server.app.inject({ method: 'POST', url: '/v1/user/get_user_info' });
    expect(answered.json().code).toBe(0);
    expect(refused.statusCode).toBe(401);
    for (const res of [answered, refused]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    const docs = await server.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    expect(docs.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(docs.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('passwords', () => {
  it('sets, uses, changes and resets a password', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000030');
    const token = secure_tokens.access_token;
    const weak = await call(server.app, 'POST', '/v1/user/change_password', {
      token,
      body: { new_password: 'abcdefgh' },
    });
    expect(detailType(weak)).toBe('err_password_too_weak');
    const set = await call(server.app, 'POST', '/v1/user/change_password', {
      token,
      body: { new_password: 'secret123' },
    });
    expect(set.body.code).toBe(0);

    const login = (password: string) =>
      call(server.app, 'POST', '/accounts/v1/auth_with_password', {
        body: { account: '13900000030', password },
      });
    expect((await login('secret123')).body.code).toBe(0);
    expect(detailType(await login('wrong1234'))).toBe('err_password_incorrect');
    const unknown = await call(server.app, 'POST', '/accounts/v1/auth_with_password', {
      body: { account: '13900009999', password: 'secret123' },
    });
    expect(detailType(unknown)).toBe('err_password_incorrect');

    const noOld = await call(server.app, 'POST', '/v1/user/change_password', {
      token,
      body: { new_password: 'other1234' },
    });
    expect(detailType(noOld)).toBe('err_password_incorrect');
    const changed = await call(server.app, 'POST', '/v1/user/change_password', {
      token,
      body: { old_password: 'secret123', new_password: 'other1234' },
    });
    expect(changed.body.code).toBe(0);
    expect((await login('other1234')).body.code).toBe(0);

    server.clock.advance(61_000);
    expect((await send('13900000030', 'reset_pwd')).body.code).toBe(0);
    const code = await latestCode(server.app, '13900000030');
    const reset = await call(server.app, 'POST', '/accounts/v1/reset_pwd', {
      body: { account: '13900000030', code, new_password: 'brandnew99' },
    });
    expect(reset.body.code).toBe(0);
    expect((await login('brandnew99')).body.code).toBe(0);
    expect((await refresh(secure_tokens.refresh_token)).status).toBe(401); // reset signs everyone out
    const hashes = await server.ctx.db.selectFrom('users').select('password_hash').execute();
    expect(hashes[0].password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a reset code for an unknown account', async () => {
    expect(detailType(await send('13900000031', 'reset_pwd'))).toBe('err_user_not_fount');
  });
});

describe('profile and ownership', () => {
  it('binds an e-mail proven by a code, and refuses one bound to another user', async () => {
    const a = await signIn(server.app, '13900000040');
    const b = await signIn(server.app, 'bob@example.com');
    const tokenA = a.secure_tokens.access_token;
    expect((await send('bob@example.com', 'bind', '10.0.0.1', tokenA)).body.data.detail[0].type).toBe(
      'err_account_already_bound',
    );
    expect((await send('ann@example.com', 'bind')).status).toBe(401);
    expect((await send('ann@example.com', 'bind', '10.0.0.1', tokenA)).body.code).toBe(0);
    const code = await latestCode(server.app, 'ann@example.com');
    const bound = await call(server.app, 'POST', '/v1/user/bind_account', {
      token: tokenA,
      body: { account: 'ann@example.com', code },
    });
    expect(bound.body.data.user_info).toMatchObject({ phone: '13900000040', email: 'ann@example.com' });
    const bInfo = await userInfo(b.secure_tokens.access_token);
    expect(bInfo.body.data.user_info.email).toBe('bob@example.com');
  });

  it('changes only the caller’s own profile', async () => {
    const a = await signIn(server.app, '13900000041');
    const b = await signIn(server.app, '13900000042');
    await call(server.app, 'POST', '/v1/user/update_profile', {
      token: a.secure_tokens.access_token,
      body: { nickname: '小安' },
    });
    expect((await userInfo(a.secure_tokens.access_token)).body.data.user_info.nickname).toBe('小安');
    expect((await userInfo(b.secure_tokens.access_token)).body.data.user_info.nickname).toBe('用户0042');
  });

  it('shows every write to the user at once, whichever module made it (user_info is cached briefly)', async () => {
    const { user_info, secure_tokens } = await signIn(server.app, '13900000043');
    const token = secure_tokens.access_token;
    const info = async () => (await userInfo(token)).body.data.user_info;
    // Read once, so the row is in the cache: questionnaire pending.
    expect((await info()).user_persona_questionnaire_status).toBe(2);
    // Another module's own UPDATE (as onboarding writes the questionnaire status), read right after.
    await server.ctx.db
      .updateTable('users')
      .set({ questionnaire_status: 1, nickname: '写后即读' })
      .where('id', '=', user_info.uid)
      .execute();
    expect(await info()).toMatchObject({ user_persona_questionnaire_status: 1, nickname: '写后即读' });
    await call(server.app, 'POST', '/v1/user/update_profile', { token, body: { nickname: '再改' } });
    expect((await info()).nickname).toBe('再改');
  });
});

describe('cancel account', () => {
  it('needs a cancel code for the user’s own account, then removes personal data and every session', async () => {
    const a = await signIn(server.app, '13900000050');
    const other = await signIn(server.app, '13900000051');
    const token = a.secure_tokens.access_token;
    expect(detailType(await send('13900000051', 'cancel_account', '10.0.0.1', token))).toBe(
      'err_permission_deny',
    );
    server.clock.advance(61_000); // the sign-in code went to the same phone a moment ago
    expect((await send('13900000050', 'cancel_account', '10.0.0.1', token)).body.code).toBe(0);
    const code = await latestCode(server.app, '13900000050');
    const wrong = await call(server.app, 'POST', '/accounts/v1/cancel_account', {
      token,
      body: { code: code === '123456' ? '654321' : '123456' },
    });
    expect(detailType(wrong)).toBe('err_verification_code_invalid');
    const ok = await call(server.app, 'POST', '/accounts/v1/cancel_account', { token, body: { code } });
    expect(ok.body.code).toBe(0);

    expect((await userInfo(token)).status).toBe(401);
    expect((await refresh(a.secure_tokens.refresh_token)).status).toBe(401);
    const row = await server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', a.user_info.uid)
      .executeTakeFirst();
    expect(row).toMatchObject({ phone: null, email: null, password_hash: null, nickname: '已注销用户' });
    expect(row?.cancelled_at).not.toBeNull();
    expect((await userInfo(other.secure_tokens.access_token)).body.code).toBe(0);

    server.clock.advance(61_000);
    const again = await signIn(server.app, '13900000050');
    expect(again.user_info.uid).not.toBe(a.user_info.uid);
  });
});

describe('app config', () => {
  it('reads the voice clone switch from runtime settings (default off)', async () => {
    const { secure_tokens } = await signIn(server.app, '13900000060');
    const get = () =>
      call(server.app, 'GET', '/p1/appconfig/get_app_config', { token: secure_tokens.access_token });
    expect((await get()).body.data).toEqual({ voice_clone_config: { voice_clone_switch: false } });
    const { updateSetting } = await import('../src/modules/settings/settings.service.ts');
    await updateSetting(server.ctx, 'voice_clone_switch', 'true');
    expect((await get()).body.data.voice_clone_config.voice_clone_switch).toBe(true);
  });
});

describe('OpenAPI', () => {
  it('documents every call with a stable operationId', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = res.json();
    expect(doc.paths['/accounts/v1/token'].post.operationId).toBe('refreshToken');
    expect(doc.paths['/v1/user/get_user_info'].post.operationId).toBe('getUserInfo');
    expect(doc.paths['/p1/appconfig/get_app_config'].get.operationId).toBe('getAppConfig');
    const docsPage = await server.app.inject({ method: 'GET', url: '/docs/' });
    expect(docsPage.statusCode).toBe(200);
  });
});
