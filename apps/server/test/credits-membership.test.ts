import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobContext } from '../src/jobs/index.ts';
import { addMonthsClamped, DAY_MS } from '../src/modules/credits/calendar.ts';
import { creditSweepJob } from '../src/modules/credits/credits.jobs.ts';
import { findUsersWithDueWork } from '../src/modules/credits/credits.repo.ts';
import { getBalance, grantCredits, spendCredits } from '../src/modules/credits/ledger.service.ts';
import { getTenantBonus, grantMembership } from '../src/modules/credits/membership.service.ts';
import { createRedeemBatch } from '../src/modules/redeem/redeem.service.ts';
import { call, createTestServer, signIn, type TestServer } from './harness.ts';

let server: TestServer;
beforeEach(async () => {
  server = await createTestServer();
});
afterEach(async () => {
  await server.close();
});

// 2026-01-31 10:00 in China (UTC+8).
const JAN_31 = Date.UTC(2026, 0, 31, 2, 0, 0);
const chinaDate = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);

describe('calendar', () => {
  it('clamps month ends from the original anchor: Jan 31 → Feb 28 → Mar 31', () => {
    const dates = Array.from({ length: 14 }, (_, i) => chinaDate(addMonthsClamped(JAN_31, i)));
    expect(dates).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
      '2026-08-31',
      '2026-09-30',
      '2026-10-31',
      '2026-11-30',
      '2026-12-31',
      '2027-01-31',
      '2027-02-28',
    ]);
    expect(chinaDate(addMonthsClamped(Date.UTC(2027, 11, 31, 2), 2))).toBe('2028-02-29');
  });
});

describe('membership issuance', () => {
  const lotsOf = (userId: string) =>
    server.ctx.db
      .selectFrom('credit_lots')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('effective_at')
      .execute();

  it('issues an annual plan month by month from a Jan 31 anchor, each month once', async () => {
    const clock = server.clock;
    clock.advance(JAN_31 - clock.now());
    await grantMembership(server.ctx, { userId: 'u_annual', level: 300, isAnnual: true, months: 12 });
    for (let day = 0; day < 14 * 31; day += 3) {
      clock.advance(3 * DAY_MS);
      await getBalance(server.ctx, 'u_annual');
    }
    const lots = await lotsOf('u_annual');
    expect(lots).toHaveLength(12);
    expect(lots.map((l) => chinaDate(l.effective_at))).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
      '2026-06-30',
      '2026-07-31',
      '2026-08-31',
      '2026-09-30',
      '2026-10-31',
      '2026-11-30',
      '2026-12-31',
    ]);
    // Each month's credits expire when the next month starts; all are used up or expired now.
    for (const [i, lot] of lots.slice(0, -1).entries()) expect(lot.expires_at).toBe(lots[i + 1].effective_at);
    expect(chinaDate(lots[11].expires_at)).toBe('2027-01-31');
    expect(lots.every((l) => l.amount === 8000 && l.remaining === 0)).toBe(true);
    const bonus = await getTenantBonus(server.ctx, 'u_annual');
    expect(bonus).toMatchObject({ level: 100, credit_type: 2, is_free_package: 1, credit_balance: 0 });
    expect(bonus.previous).toMatchObject({ level: 300, title: '专业版', is_annual_package: 1 });
  });

  it('catches up after a long pause, issuing each month exactly once', async () => {
    const clock = server.clock;
    clock.advance(JAN_31 - clock.now());
    await grantMembership(server.ctx, { userId: 'u_pause', level: 200, isAnnual: true, months: 12 });
    clock.advance(200 * DAY_MS);
    const [a, b] = await Promise.all([getBalance(server.ctx, 'u_pause'), getBalance(server.ctx, 'u_pause')]);
    expect(a).toEqual(b);
    const lots = await lotsOf('u_pause');
    expect(lots).toHaveLength(7); // Jan 31 … Jul 31 have started by Aug 19
    expect(new Set(lots.map((l) => l.grant_key)).size).toBe(7);
    expect(a.balance).toBe(2000); // only the current month's credits are left
  });

  it('sweeps only the accounts with work due, each of them once', async () => {
    const { clock, ctx } = server;
    clock.advance(JAN_31 - clock.now());
    const due = () => findUsersWithDueWork(ctx.db, clock.now());
    const sweep = () => creditSweepJob.handler({}, { app: ctx } as unknown as JobContext);
    const account = (userId: string) =>
      ctx.db
        .selectFrom('credit_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
    await grantMembership(ctx, { userId: 'u_swept', level: 300, isAnnual: false, months: 2 });
    await grantCredits(ctx, {
      userId: 'u_gifted',
      source: 'gift',
      amount: 50,
      expiresAt: clock.now() + DAY_MS,
      grantKey: 'sweep-gift',
      remark: '',
    });
    await getBalance(ctx, 'u_free'); // a free account with nothing to do
    expect(await due()).toEqual([]);
    expect((await account('u_swept')).due_at).toBe(addMonthsClamped(JAN_31, 1));

    // A paid account from before due times were kept is swept once and then has its real one.
    await ctx.db.updateTable('credit_accounts').set({ due_at: 0 }).where('user_id', '=', 'u_swept').execute();
    expect(await due()).toEqual(['u_swept']);
    expect(await sweep()).toEqual({ users: 1 });
    expect((await account('u_swept')).due_at).toBe(addMonthsClamped(JAN_31, 1));

    clock.advance(2 * DAY_MS); // the gift expired
    expect(await due()).toEqual(['u_gifted']);
    expect(await sweep()).toEqual({ users: 1 });
    expect(await due()).toEqual([]);

    clock.advance(28 * DAY_MS); // Mar 2: the second month is due
    expect(await due()).toEqual(['u_swept']);
    await sweep();
    expect(await due()).toEqual([]);
    expect(await lotsOf('u_swept')).toHaveLength(2);

    clock.advance(60 * DAY_MS); // past the plan's end
    expect(await due()).toEqual(['u_swept']);
    await sweep();
    expect(await due()).toEqual([]);
    expect(await account('u_swept')).toMatchObject({ level: 100, due_at: null });
    expect(await getBalance(ctx, 'u_swept')).toEqual({ balance: 0, held: 0 });
  });

  it('extends the same plan, upgrades to a higher one, refuses a lower one (2000) and monthly for annual members (2004)', async () => {
    await grantMembership(server.ctx, { userId: 'u_rules', level: 300, isAnnual: false, months: 1 });
    const first = await getTenantBonus(server.ctx, 'u_rules');
    await grantMembership(server.ctx, { userId: 'u_rules', level: 300, isAnnual: false, months: 1 });
    const extended = await getTenantBonus(server.ctx, 'u_rules');
    expect(extended.expired_time).toBeGreaterThan(first.expired_time + 27 * 86400);
    await expect(
      grantMembership(server.ctx, { userId: 'u_rules', level: 200, isAnnual: false, months: 1 }),
    ).rejects.toMatchObject({ code: 2000 });
    await grantMembership(server.ctx, { userId: 'u_rules', level: 400, isAnnual: true, months: 12 });
    const upgraded = await getTenantBonus(server.ctx, 'u_rules');
    expect(upgraded).toMatchObject({ level: 400, title: '企业版', is_annual_package: 1, credit_type: 1 });
    expect(upgraded.previous).toMatchObject({ level: 300 });
    await expect(
      grantMembership(server.ctx, { userId: 'u_rules', level: 400, isAnnual: false, months: 1 }),
    ).rejects.toMatchObject({ code: 2004 });
  });

  it('reports credit_type 3 when the plan credits of the period are used up', async () => {
    await grantMembership(server.ctx, { userId: 'u_used', level: 200, isAnnual: false, months: 1 });
    await grantCredits(server.ctx, {
      userId: 'u_used',
      source: 'topup',
      amount: 500,
      expiresAt: server.clock.now() + 700 * DAY_MS,
      grantKey: 'used-topup',
      remark: '',
    });
    expect((await getTenantBonus(server.ctx, 'u_used')).credit_type).toBe(1);
    await spendCredits(server.ctx, {
      userId: 'u_used',
      holdKey: 'used-1',
      amount: 2100,
      tool: 'tts',
      taskId: 't',
      taskName: 't',
    });
    const bonus = await getTenantBonus(server.ctx, 'u_used');
    expect(bonus).toMatchObject({ level: 200, credit_type: 3, credit_balance: 400 });
  });
});

describe('credits over HTTP', () => {
  it('shows the tenant bonus, lots, details, usage and an estimate to their owner only', async () => {
    const a = await signIn(server.app, '13900000101');
    const b = await signIn(server.app, '13900000102');
    const token = a.secure_tokens.access_token;
    const free = await call(server.app, 'GET', '/v1/tenant/get_tenant_bonus', { token });
    expect(free.body.data).toMatchObject({
      level: 100,
      credit_type: 2,
      title: '免费版',
      is_free_package: 1,
      credit_balance: 0,
      previous: null,
    });

    await grantMembership(server.ctx, { userId: a.user_info.uid, level: 300, isAnnual: false, months: 1 });
    for (let i = 0; i < 3; i++) {
      const spent = await call(server.app, 'POST', '/dev/credits/spend', {
        token,
        body: { credits: 100 + i, task_name: `任务${i}` },
      });
      expect(spent.body.code).toBe(0);
      server.clock.advance(1000);
    }
    const bonus = await call(server.app, 'GET', '/v1/tenant/get_tenant_bonus', { token });
    expect(bonus.body.data).toMatchObject({
      level: 300,
      credit_type: 1,
      credit_balance: 8000 - 303,
      is_free_package: 0,
    });

    const balance = await call(server.app, 'GET', '/v1/balance/get_tenant_balance', { token });
    expect(balance.body.data.lots).toHaveLength(1);
    expect(balance.body.data.lots[0]).toMatchObject({
      source: 'membership',
      source_name: '会员积分',
      remaining: 7697,
    });

    const consume = await call(server.app, 'GET', '/v1/balance/credit/consume-details?page=1&page_size=2', {
      token,
    });
    expect(consume.body.data.total).toBe(3);
    expect(consume.body.data.list).toHaveLength(2);
    expect(consume.body.data.list[0]).toMatchObject({
      tool: 'tts',
      tool_name: '文字转语音',
      credits: 102,
      task_name: '任务2',
    });
    expect(consume.body.data.list[0].lots[0]).toMatchObject({ source: 'membership', credits: 102 });
    const earn = await call(server.app, 'GET', '/v1/balance/credit/earn-details?source=membership', {
      token,
    });
    expect(earn.body.data).toMatchObject({ total: 1, list: [{ amount: 8000 }] });

    const usage = await call(server.app, 'POST', '/p1/balance/credit_usage', { token, body: {} });
    expect(usage.body.data.total).toBe(303);
    expect(usage.body.data.days).toEqual([
      { date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), tool: 'tts', credits: 303 },
    ]);

    const estimate = await call(server.app, 'POST', '/v1/balance/credit/estimate', {
      token,
      body: { task_type: 'tts', params: { characters: 95 } },
    });
    expect(estimate.body.data).toEqual({ credits: 10, balance: 7697, sufficient: true });

    const other = await call(server.app, 'GET', '/v1/balance/credit/consume-details', {
      token: b.secure_tokens.access_token,
    });
    expect(other.body.data.total).toBe(0);
    const broke = await call(server.app, 'POST', '/dev/credits/spend', {
      token: b.secure_tokens.access_token,
      body: { credits: 1 },
    });
    expect(broke.body.code).toBe(1010);
  });

  it('exports the consumption as an .xlsx, one export at a time', async () => {
    const a = await signIn(server.app, '13900000103');
    const token = a.secure_tokens.access_token;
    await grantCredits(server.ctx, {
      userId: a.user_info.uid,
      source: 'gift',
      amount: 50,
      expiresAt: server.clock.now() + DAY_MS,
      grantKey: 'exp-gift',
      remark: '',
    });
    await call(server.app, 'POST', '/dev/credits/spend', {
      token,
      body: { credits: 7, task_name: '第一段配音' },
    });
    await call(server.app, 'POST', '/dev/credits/spend', {
      token,
      body: { credits: 5, tool: 'voice_changer', task_name: '变声' },
    });
    // No export yet: status 3 with a message the client shows (spec §8 Export).
    const none = await call(server.app, 'POST', '/v1/balance/credit/export-task-status', { token });
    expect(none.body).toMatchObject({ code: 0, msg: '没有进行中的导出，请重新导出', data: { status: 3 } });
    const now = Math.floor(server.clock.now() / 1000);
    const range = { start_time: now - 3600, end_time: now + 3600 };
    const started = await call(server.app, 'POST', '/v1/balance/credit/download-consume-details', {
      token,
      body: range,
    });
    expect(started.body.code).toBe(0);
    const second = await call(server.app, 'POST', '/v1/balance/credit/download-consume-details', {
      token,
      body: range,
    });
    expect(second.body.data.detail[0].type).toBe('err_task_running');
    expect(
      (await call(server.app, 'POST', '/v1/balance/credit/export-task-status', { token })).body.data.status,
    ).toBe(0);
    await server.ctx.jobs.startWorker({ concurrency: 1 });
    let status = await call(server.app, 'POST', '/v1/balance/credit/export-task-status', { token });
    for (let i = 0; i < 100 && status.body.data.status === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = await call(server.app, 'POST', '/v1/balance/credit/export-task-status', { token });
    }
    expect(status.body.data).toMatchObject({
      status: 2,
      file_name: expect.stringMatching(/^积分消耗明细_.*\.xlsx$/),
    });
    const url = new URL(status.body.data.download_url, 'http://localhost');
    const file = await server.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, '时间', '工具', '任务', '消耗积分', '扣除批次']);
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(2).getCell(2).value).toBe('文字转语音');
    expect(sheet.getRow(2).getCell(3).value).toBe('第一段配音');
    expect(sheet.getRow(2).getCell(4).value).toBe(7);
    expect(String(sheet.getRow(2).getCell(5).value)).toContain('平台赠送');
    expect(sheet.getRow(3).getCell(2).value).toBe('变声器');
  });
});

describe('redeem codes', () => {
  const redeem = (token: string, code: string) =>
    call(server.app, 'POST', '/v1/redeem/use', { token, body: { code } });

  it('redeems a plan code once and answers each refusal with its code', async () => {
    const a = await signIn(server.app, '13900000110');
    const token = a.secure_tokens.access_token;
    const { codes } = await createRedeemBatch(server.ctx, {
      kind: 'plan',
      level: 300,
      months: 1,
      count: 2,
      validDays: 30,
    });
    const ok = await redeem(token, `${codes[0].slice(0, 4).toLowerCase()}-${codes[0].slice(4)}`);
    expect(ok.body.code).toBe(0);
    expect(ok.body.data.package_name).toBe('专业版会员套餐');
    expect(ok.body.data.expire_time).toBeGreaterThan(Math.floor(server.clock.now() / 1000) + 27 * 86400);
    expect((await call(server.app, 'GET', '/v1/tenant/get_tenant_bonus', { token })).body.data.level).toBe(
      300,
    );

    expect((await redeem(token, codes[0])).body.code).toBe(5001);
    expect((await redeem(token, 'ZZZZZZZZZZZZZZZZ')).body.code).toBe(5000);
    const lower = await createRedeemBatch(server.ctx, {
      kind: 'plan',
      level: 200,
      months: 1,
      count: 1,
      validDays: 30,
    });
    const refused = await redeem(token, lower.codes[0]);
    expect(refused.body).toMatchObject({ code: 2000, msg: '您已是会员用户，暂不支持兑换低版本套餐' });
    // A refused grant leaves the code unused.
    const row = await server.ctx.db
      .selectFrom('redeem_codes')
      .selectAll()
      .where('code', '=', lower.codes[0])
      .executeTakeFirst();
    expect(row?.used_by).toBeNull();

    server.clock.advance(31 * DAY_MS);
    const fresh = server.ctx.accessTokens.sign(a.user_info.uid);
    expect((await redeem(fresh, codes[1])).body.code).toBe(5002);
  });

  it('refuses a monthly package to an annual member (2004) and grants credit packages', async () => {
    const a = await signIn(server.app, '13900000111');
    const token = a.secure_tokens.access_token;
    await grantMembership(server.ctx, { userId: a.user_info.uid, level: 300, isAnnual: true, months: 12 });
    const monthly = await createRedeemBatch(server.ctx, {
      kind: 'plan',
      level: 300,
      months: 1,
      count: 1,
      validDays: 30,
    });
    expect((await redeem(token, monthly.codes[0])).body.code).toBe(2004);
    const credits = await createRedeemBatch(server.ctx, {
      kind: 'credits',
      credits: 888,
      count: 1,
      validDays: 30,
    });
    const res = await redeem(token, credits.codes[0]);
    expect(res.body.data.package_name).toBe('888 积分');
    const lots = await call(server.app, 'GET', '/v1/balance/get_tenant_balance', { token });
    expect(lots.body.data.lots.map((l: { source: string }) => l.source)).toContain('redeem');
  });

  it('locks redeeming for 30 minutes after 5 failures (5003)', async () => {
    const a = await signIn(server.app, '13900000112');
    const token = a.secure_tokens.access_token;
    for (let i = 0; i < 5; i++) expect((await redeem(token, `WRONGCODE000000${i}`)).body.code).toBe(5000);
    const { codes } = await createRedeemBatch(server.ctx, {
      kind: 'credits',
      credits: 10,
      count: 1,
      validDays: 30,
    });
    expect((await redeem(token, codes[0])).body.code).toBe(5003);
    server.clock.advance(30 * 60_000 + 1);
    expect((await redeem(server.ctx.accessTokens.sign(a.user_info.uid), codes[0])).body.code).toBe(0);
  });

  it('lets one of 50 simultaneous users redeem a code', async () => {
    const { codes } = await createRedeemBatch(server.ctx, {
      kind: 'credits',
      credits: 100,
      count: 1,
      validDays: 30,
    });
    const { redeemCode } = await import('../src/modules/redeem/redeem.service.ts');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => redeemCode(server.ctx, `u_concurrent_${i}`, codes[0])),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      results.every((r) => r.status === 'fulfilled' || (r.reason as { code: number }).code === 5001),
    ).toBe(true);
    const lots = await server.ctx.db
      .selectFrom('credit_lots')
      .selectAll()
      .where('source', '=', 'redeem')
      .execute();
    expect(lots).toHaveLength(1);
  });
});
