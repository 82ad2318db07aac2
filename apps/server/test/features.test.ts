import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grantMembership } from '../src/modules/credits/membership.service.ts';
import { runFeaturesCommand } from '../src/modules/features/features.cli.ts';
import { assertFeature } from '../src/modules/features/features.service.ts';
import { updateSetting } from '../src/modules/settings/settings.service.ts';
import { call, createTestServer, fund, signIn, type TestServer } from './harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await createTestServer();
});
afterEach(async () => {
  await server.close();
});

async function user(phone: string) {
  const { secure_tokens, user_info } = await signIn(server.app, phone);
  return { token: secure_tokens.access_token, uid: user_info.uid };
}

const capabilities = async (token: string) =>
  (await call(server.app, 'GET', '/v1/tools/capabilities', { token })).body.data;

describe('feature switches', () => {
  it('follow the plan by default', async () => {
    const free = await user('13900000401');
    expect((await capabilities(free.token)).features).toEqual({
      video_translate: false,
      subtitle_erase: false,
      lip_sync: false,
      remove_watermark: false,
      subtitle_generate: true,
    });
    await grantMembership(server.ctx, { userId: free.uid, level: 200, isAnnual: false, months: 1 });
    expect((await capabilities(free.token)).features).toEqual({
      video_translate: true,
      subtitle_erase: true,
      lip_sync: false,
      remove_watermark: true,
      subtitle_generate: true,
    });
    await grantMembership(server.ctx, { userId: free.uid, level: 300, isAnnual: false, months: 1 });
    expect((await capabilities(free.token)).features.lip_sync).toBe(true);
  });

  it('are overridden per user by the operator command and refused with their own error', async () => {
    const a = await user('13900000402');
    await expect(assertFeature(server.ctx, a.uid, 'subtitle_erase')).rejects.toMatchObject({
      detailType: 'err_subtitle_erase_not_allowed',
    });
    await assertFeature(server.ctx, a.uid, 'subtitle_generate');

    const on = await runFeaturesCommand(server.ctx, 'set', a.uid, { feature: 'subtitle_erase', on: true });
    expect(on.find((l) => l.startsWith('subtitle_erase'))).toMatch(/on .*override \(plan default off\)/);
    await assertFeature(server.ctx, a.uid, 'subtitle_erase');

    await runFeaturesCommand(server.ctx, 'set', a.uid, { feature: 'subtitle_generate', off: true });
    await expect(assertFeature(server.ctx, a.uid, 'subtitle_generate')).rejects.toMatchObject({
      detailType: 'err_subtitle_generate_not_allowed',
    });
    expect((await capabilities(a.token)).features).toMatchObject({
      subtitle_erase: true,
      subtitle_generate: false,
    });

    const back = await runFeaturesCommand(server.ctx, 'set', a.uid, {
      feature: 'subtitle_generate',
      default: true,
    });
    expect(back.find((l) => l.startsWith('subtitle_generate'))).toMatch(/on .*plan default/);
    await expect(runFeaturesCommand(server.ctx, 'set', a.uid, { feature: 'nope', on: true })).rejects.toThrow(
      /--feature/,
    );
    await expect(runFeaturesCommand(server.ctx, 'set', a.uid, { feature: 'lip_sync' })).rejects.toThrow(
      /exactly one/,
    );

    // Another user is unaffected.
    const b = await user('13900000403');
    expect((await capabilities(b.token)).features.subtitle_erase).toBe(false);
  });

  it('answer media limits by plan and each registered tool', async () => {
    server.ctx.toolChecks = {
      ...server.ctx.toolChecks,
      test_tool: async (_ctx, userId) => ({
        tool: 'test_tool',
        available: userId.length > 0,
        reason: '',
        error_type: '',
        engines: [{ id: 'x', label: '测试引擎' }],
      }),
    };
    const a = await user('13900000404');
    const caps = await capabilities(a.token);
    expect(caps.limits).toEqual({
      max_upload_bytes: 200 * 1024 * 1024,
      max_duration_seconds: 600,
      max_width: 1920,
      max_height: 1080,
    });
    expect(caps.tools).toContainEqual(expect.objectContaining({ tool: 'test_tool', available: true }));
    await grantMembership(server.ctx, { userId: a.uid, level: 300, isAnnual: false, months: 1 });
    expect((await capabilities(a.token)).limits.max_width).toBe(3840);
    expect((await call(server.app, 'GET', '/v1/tools/capabilities')).status).toBe(401);
  });
});

describe('pricing of the media tools', () => {
  it('estimates per second of media with a minimum', async () => {
    const a = await user('13900000405');
    await fund(server, a.uid, 1000);
    const estimate = async (task_type: string, seconds: number) =>
      (
        await call(server.app, 'POST', '/v1/balance/credit/estimate', {
          token: a.token,
          body: { task_type, params: { seconds } },
        })
      ).body.data;
    // 10 per started minute, at least 1.
    expect(await estimate('speech_to_text', 61)).toMatchObject({ credits: 20, sufficient: true });
    expect(await estimate('speech_to_text', 0)).toMatchObject({ credits: 1 });
    expect(await estimate('subtitle_ocr', 600)).toMatchObject({ credits: 200 });
    expect(await estimate('subtitle_erase', 30)).toMatchObject({ credits: 60 });
    expect(await estimate('subtitle_erase', 1)).toMatchObject({ credits: 60 });
    expect(await estimate('dubbing', 120)).toMatchObject({ credits: 120 });
    expect(await estimate('video_translation', 3600)).toMatchObject({ credits: 7200, sufficient: false });
    // 3 per started 10 s, at least 3.
    expect(await estimate('voice_changer', 25)).toMatchObject({ credits: 9 });
    expect(await estimate('voice_changer', 1)).toMatchObject({ credits: 3 });

    // A pricing table stored before these tools existed still prices them by the default rows.
    await updateSetting(
      server.ctx,
      'pricing',
      '{"tts":{"basis":"characters","unit":10,"credits":1,"minimum":1}}',
    );
    expect(await estimate('dubbing', 60)).toMatchObject({ credits: 60 });
  });
});
