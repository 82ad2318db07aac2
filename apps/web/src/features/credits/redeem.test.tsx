import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/http/errors.ts';
import { useUserStore } from '@/stores/user.ts';
import { RedeemDialog } from './RedeemDialog.tsx';
import { isRedeemCodeComplete, redeemFailure, sanitizeRedeemCode } from './redeem.ts';

const CODE = 'ABCD1234EFGH5678';

describe('redeem code input rules (spec §5)', () => {
  it('keeps letters and digits only, at most 16', () => {
    expect(sanitizeRedeemCode('ab-cd 12_34!你好')).toBe('abcd1234');
    expect(sanitizeRedeemCode('ABCD-1234-EFGH-5678-XYZ')).toBe(CODE);
    expect(sanitizeRedeemCode('')).toBe('');
  });
  it('is complete at exactly 16', () => {
    expect(isRedeemCodeComplete(CODE)).toBe(true);
    expect(isRedeemCodeComplete(CODE.slice(1))).toBe(false);
    expect(isRedeemCodeComplete('')).toBe(false);
  });
});

describe('redeem failures (spec §8)', () => {
  const biz = (code: number, msg = '') =>
    new ApiError({ kind: 'business', code, display: { kind: 'message', text: 'x' }, serverMessage: msg });
  it.each([
    [5000, '兑换码错误'],
    [5001, '兑换码已被使用，请重新输入'],
    [5002, '兑换码已过期，请重新输入'],
    [2000, '您已是会员用户，暂不支持兑换低版本套餐'],
  ])('%i → inline %s', (code, text) => {
    expect(redeemFailure(biz(code, 'server says'))).toEqual({ where: 'inline', text });
  });
  it.each([
    [5003, '操作过于频繁，请等待30分钟后再试'],
    [2004, '您已是年度会员，暂不支持兑换月度会员'],
  ])('%i → toast %s', (code, text) => {
    expect(redeemFailure(biz(code, 'server says'))).toEqual({ where: 'toast', text });
  });
  it('other codes toast the server message, or 兑换失败，请稍后再试', () => {
    expect(redeemFailure(biz(9999, '服务器说不行'))).toEqual({ where: 'toast', text: '服务器说不行' });
    expect(redeemFailure(biz(9999))).toEqual({ where: 'toast', text: '兑换失败，请稍后再试' });
  });
  it('network failure toasts 兑换失败，请稍后再试', () => {
    const e = new ApiError({ kind: 'network', display: { kind: 'network', text: '网络异常！' } });
    expect(redeemFailure(e)).toEqual({ where: 'toast', text: '兑换失败，请稍后再试' });
    expect(redeemFailure(new Error('boom'))).toEqual({ where: 'toast', text: '兑换失败，请稍后再试' });
  });
});

// ---------- the dialog against a fake server ----------

const closeIcon = () => document.querySelector('.ant-modal-close') as HTMLElement;

type Reply = { code: number; msg?: string; data?: unknown } | 'network' | Promise<never>;
let replies: Reply[] = [];
const calls: Array<{ path: string; body: unknown }> = [];
const bonus = {
  level: 300,
  credit_type: 1,
  title: '专业版',
  expired_time: 1_900_000_000,
  credit_balance: 5000,
  is_free_package: 0,
  is_annual_package: 0,
  previous: null,
  held_credits: 0,
};

beforeEach(() => {
  replies = [];
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname;
      calls.push({ path, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (path === '/v1/tenant/get_tenant_bonus')
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: bonus }));
      const r = replies.shift() ?? { code: 0, data: {} };
      if (r === 'network') throw new TypeError('Failed to fetch');
      if (r instanceof Promise) return r;
      return new Response(JSON.stringify({ msg: '', data: null, ...r }));
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function setup() {
  const onClose = vi.fn();
  const utils = render(
    <App>
      <RedeemDialog open onClose={onClose} />
    </App>,
  );
  const input = () =>
    screen.getByTestId('redeem-input').querySelector('input') ?? screen.getByTestId('redeem-input');
  const button = () => screen.getByTestId('redeem-submit') as HTMLButtonElement;
  const type = (v: string) => fireEvent.change(input(), { target: { value: v } });
  const redeemCalls = () => calls.filter((c) => c.path === '/v1/redeem/use');
  return { ...utils, onClose, input, button, type, redeemCalls };
}

describe('redeem dialog', () => {
  it('strips the input, enables 立即兑换 only at exactly 16 and never submits an empty code', async () => {
    const d = setup();
    expect(d.button().disabled).toBe(true);
    fireEvent.submit(d.button().closest('form')!);
    d.type('ab-cd');
    expect((d.input() as HTMLInputElement).value).toBe('abcd');
    expect(d.button().disabled).toBe(true);
    d.type(`${CODE}ZZZ`);
    expect((d.input() as HTMLInputElement).value).toBe(CODE);
    expect(d.button().disabled).toBe(false);
    d.type('');
    fireEvent.submit(d.button().closest('form')!);
    await act(async () => {});
    expect(d.redeemCalls()).toHaveLength(0);
  });

  it('ignores a second submit while the first is in flight', async () => {
    let release!: (r: Response) => void;
    replies.push(new Promise<never>((resolve) => (release = resolve as never)));
    const d = setup();
    d.type(CODE);
    fireEvent.click(d.button());
    fireEvent.click(d.button());
    fireEvent.submit(d.button().closest('form')!);
    await act(async () => {});
    expect(d.redeemCalls()).toHaveLength(1);
    expect(d.redeemCalls()[0].body).toEqual({ code: CODE });
    await act(async () => {
      release(new Response(JSON.stringify({ code: 5000, msg: 'bad', data: null })));
    });
    expect(await screen.findByText('兑换码错误')).toBeTruthy();
  });

  it.each([
    [5000, '兑换码错误'],
    [5001, '兑换码已被使用，请重新输入'],
    [5002, '兑换码已过期，请重新输入'],
    [2000, '您已是会员用户，暂不支持兑换低版本套餐'],
  ])('%i shows inline and typing clears it', async (code, text) => {
    replies.push({ code, msg: 'server text' });
    const d = setup();
    d.type(CODE);
    fireEvent.click(d.button());
    await waitFor(() => expect(screen.getByTestId('redeem-error').textContent).toBe(text));
    d.type(`${CODE.slice(0, 15)}X`);
    expect(screen.getByTestId('redeem-error').textContent).toBe('');
  });

  it.each([
    [{ code: 5003, msg: 'x' }, '操作过于频繁，请等待30分钟后再试'],
    [{ code: 2004, msg: 'x' }, '您已是年度会员，暂不支持兑换月度会员'],
    [{ code: 7777, msg: '兑换服务维护中' }, '兑换服务维护中'],
    [{ code: 7777, msg: '' }, '兑换失败，请稍后再试'],
    ['network' as const, '兑换失败，请稍后再试'],
  ])('%j shows a toast', async (reply, text) => {
    replies.push(reply);
    const d = setup();
    d.type(CODE);
    fireEvent.click(d.button());
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByTestId('redeem-error').textContent).toBe('');
  });

  it('success view, tenant bonus reloaded; closing resets everything', async () => {
    useUserStore.getState().reset();
    replies.push({ code: 0, data: { package_name: '专业版', expire_time: 1_900_000_000 } });
    const d = setup();
    d.type(CODE);
    fireEvent.click(d.button());
    expect(await screen.findByText('恭喜你兑换成功')).toBeTruthy();
    expect(screen.getByTestId('redeem-package').textContent).toBe('专业版会员套餐');
    expect(screen.getByTestId('redeem-expiry').textContent).toMatch(/^有效期至 \d{4}-\d{2}-\d{2}$/);
    await waitFor(() => expect(useUserStore.getState().tenantBonus.level).toBe(300));
    expect(calls.some((c) => c.path === '/v1/tenant/get_tenant_bonus')).toBe(true);
    fireEvent.click(screen.getByTestId('redeem-start'));
    expect(d.onClose).toHaveBeenCalledTimes(1);
    // Reopened: empty input, no success view.
    d.rerender(
      <App>
        <RedeemDialog open onClose={d.onClose} />
      </App>,
    );
    expect((d.input() as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('redeem-success')).toBeNull();
  });

  it('closes only by its close icon (not by Escape or the mask)', async () => {
    const d = setup();
    d.type('abc');
    const wrap = document.querySelector('.ant-modal-wrap') as HTMLElement;
    fireEvent.keyDown(wrap, { key: 'Escape', code: 'Escape', keyCode: 27 });
    fireEvent.mouseDown(wrap);
    fireEvent.mouseUp(wrap);
    fireEvent.click(wrap);
    expect(d.onClose).not.toHaveBeenCalled();
    fireEvent.click(closeIcon());
    expect(d.onClose).toHaveBeenCalledTimes(1);
    expect((d.input() as HTMLInputElement).value).toBe('');
  });

  it('a late answer after closing is ignored', async () => {
    let release!: (r: Response) => void;
    replies.push(new Promise<never>((resolve) => (release = resolve as never)));
    const d = setup();
    d.type(CODE);
    fireEvent.click(d.button());
    fireEvent.click(closeIcon());
    await act(async () => {
      release(new Response(JSON.stringify({ code: 5000, msg: 'bad', data: null })));
    });
    expect(screen.getByTestId('redeem-error').textContent).toBe('');
    expect(d.button().disabled).toBe(true);
  });
});
