import { act, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FeedbackBridge } from '@/layout/FeedbackBridge.tsx';
import { useUploadGuardStore } from '@/stores/upload.ts';
import { useUserStore } from '@/stores/user.ts';
import { handleCreditShortage } from './creditShortage.ts';
import { http, rawEndpoint } from './http/client.ts';

const TOOL = rawEndpoint<unknown>('POST', '/p1/some/tool');
const bonus = (credit_type: number, credit_balance = 0) => ({
  level: 300,
  credit_type,
  title: '专业版',
  expired_time: 1_900_000_000,
  credit_balance,
  is_free_package: 0,
  is_annual_package: 0,
  previous:
    credit_type === 3
      ? { level: 200, title: '基础版', expired_time: 1_800_000_000, is_annual_package: 0 }
      : null,
  held_credits: 0,
});

let creditType = 1;
let balance = 0;
let toolReply: { code: number; msg: string; data: unknown } = { code: 1010, msg: '余额不足', data: null };
const paths: string[] = [];

beforeEach(() => {
  creditType = 1;
  balance = 0;
  paths.length = 0;
  toolReply = { code: 1010, msg: '余额不足', data: null };
  useUploadGuardStore.getState().setLeaveAllowed(false);
  useUserStore.getState().reset();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      paths.push(path);
      if (path === '/v1/tenant/get_tenant_bonus')
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: bonus(creditType, balance) }));
      return new Response(JSON.stringify(toolReply));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const bonusFetches = () => paths.filter((p) => p === '/v1/tenant/get_tenant_bonus').length;

describe('credit shortage flow (spec §4, credits)', () => {
  it('handleCreditShortage: refetches; credit_type 3 marks the upload leavable and shows the error', async () => {
    const show = vi.fn();
    await expect(handleCreditShortage(show, async () => bonus(1))).resolves.toBe(false);
    expect(show).not.toHaveBeenCalled();
    expect(useUploadGuardStore.getState().leaveAllowed).toBe(false);
    await expect(handleCreditShortage(show, async () => bonus(3))).resolves.toBe(true);
    expect(show).toHaveBeenCalledTimes(1);
    expect(useUploadGuardStore.getState().leaveAllowed).toBe(true);
  });

  it('shortages arriving together share one refetch; a failed refetch shows nothing', async () => {
    const load = vi.fn(async () => bonus(3));
    const show = vi.fn();
    await Promise.all([handleCreditShortage(show, load), handleCreditShortage(show, load)]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(show).toHaveBeenCalledTimes(1);
    await expect(handleCreditShortage(show, async () => null)).resolves.toBe(false);
  });

  it('a 1010 from any call: credit prompt, tenant bonus refetched, upload stays guarded (credit_type 1)', async () => {
    render(
      <App>
        <FeedbackBridge />
      </App>,
    );
    await act(async () => {
      await http.request(TOOL).catch(() => {});
    });
    expect(await screen.findByTestId('credit-prompt')).toBeTruthy();
    expect(screen.getByTestId('credit-prompt').dataset.level).toBe('warning');
    await waitFor(() => expect(bonusFetches()).toBe(1));
    await waitFor(() => expect(useUserStore.getState().tenantBonus.credit_type).toBe(1));
    expect(useUploadGuardStore.getState().leaveAllowed).toBe(false);
  });

  it('credit_type 3: upload marked leavable and the error shown, also for a request that suppresses errors', async () => {
    creditType = 3;
    toolReply = { code: 422, msg: 'x', data: { detail: [{ type: 'err_balance_insufficient', msg: '' }] } };
    render(
      <App>
        <FeedbackBridge />
      </App>,
    );
    await act(async () => {
      await http.request(TOOL, {}, { suppressError: true }).catch(() => {});
    });
    await waitFor(() => expect(useUploadGuardStore.getState().leaveAllowed).toBe(true));
    const prompt = await screen.findByTestId('credit-prompt');
    expect(prompt.dataset.level).toBe('error');
    expect(prompt.textContent).toContain('当前套餐本期积分已用完');
    expect(prompt.textContent).toContain('您的积分不足，请前往');
    expect(bonusFetches()).toBe(1);
    expect(useUserStore.getState().tenantBonus.credit_type).toBe(3);
  });

  it('credits left but not enough: says what the job needs and what there is, with the top-up (never 已用完)', async () => {
    creditType = 3;
    balance = 300;
    toolReply = { code: 1010, msg: '余额不足', data: { needed: 500, available: 300 } };
    render(
      <App>
        <FeedbackBridge />
      </App>,
    );
    await act(async () => {
      await http.request(TOOL).catch(() => {});
    });
    await waitFor(() => expect(screen.getByTestId('credit-prompt').dataset.level).toBe('error'));
    const prompt = screen.getByTestId('credit-prompt');
    expect(prompt.textContent).toContain('本次需要 500 积分，当前可用 300 积分。');
    expect(prompt.textContent).not.toContain('已用完');
    expect(prompt.textContent).toContain('充值积分');
  });

  it('credit_type 3 with credits left and no figures from the reply says what is left', async () => {
    const show = vi.fn();
    await handleCreditShortage(show, async () => bonus(3, 120));
    expect(show).toHaveBeenCalledWith('当前可用 120 积分，不足以完成本次任务。');
    await handleCreditShortage(show, async () => bonus(1, 120), { needed: 200, available: 120 });
    expect(show).toHaveBeenLastCalledWith('本次需要 200 积分，当前可用 120 积分。');
  });

  it('other errors do not refetch the tenant bonus', async () => {
    toolReply = { code: 9999, msg: '别的错误', data: null };
    render(
      <App>
        <FeedbackBridge />
      </App>,
    );
    await act(async () => {
      await http.request(TOOL).catch(() => {});
    });
    expect(await screen.findByText('别的错误')).toBeTruthy();
    expect(bonusFetches()).toBe(0);
  });
});
