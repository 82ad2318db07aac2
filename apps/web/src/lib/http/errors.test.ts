import { accountsCalls, clientMessages, codeMessages, namedErrorMessages } from '@vw/contract';
import { describe, expect, it, vi } from 'vitest';
import { HttpClient } from './client.ts';
import { ApiError, describeEnvelopeError } from './errors.ts';

describe('describeEnvelopeError (spec §8)', () => {
  it('1010 → insufficient-credits prompt', () => {
    expect(describeEnvelopeError(1010, '余额不足', null)).toEqual({
      kind: 'credit',
      text: clientMessages.insufficientCredits,
    });
  });
  it('422 err_balance_insufficient → insufficient-credits prompt', () => {
    const data = { detail: [{ type: 'err_balance_insufficient', msg: '' }] };
    expect(describeEnvelopeError(422, 'x', data).kind).toBe('credit');
  });
  it('422 with another detail type → its mapped message', () => {
    const data = { detail: [{ type: 'err_task_running', msg: '' }] };
    expect(describeEnvelopeError(422, 'x', data)).toEqual({
      kind: 'message',
      text: namedErrorMessages.err_task_running,
    });
    const missing = { detail: [{ type: 'value_error.missing', msg: '' }] };
    expect(describeEnvelopeError(422, 'x', missing).text).toBe('缺少必填字段');
  });
  it('422 with an unknown detail type → err_system', () => {
    const data = { detail: [{ type: 'err_something_new', msg: '' }] };
    expect(describeEnvelopeError(422, 'x', data).text).toBe(namedErrorMessages.err_system);
  });
  it('422 without detail → msg, or the generic system error', () => {
    expect(describeEnvelopeError(422, '参数不对', null).text).toBe('参数不对');
    expect(describeEnvelopeError(422, '', {}).text).toBe(namedErrorMessages.err_system);
  });
  it('other codes: "Balance not enough" in msg → credit prompt', () => {
    expect(describeEnvelopeError(5555, 'Balance not enough for task', null).kind).toBe('credit');
  });
  it('other codes: the code table wins over msg', () => {
    expect(describeEnvelopeError(2001, 'order paid', null)).toEqual({
      kind: 'message',
      text: codeMessages[2001],
    });
    expect(describeEnvelopeError(3002, '', null).text).toBe(codeMessages[3002]);
  });
  it('other codes: msg, or "Operation failed !"', () => {
    expect(describeEnvelopeError(9999, '出了点问题', null).text).toBe('出了点问题');
    expect(describeEnvelopeError(9999, '', null).text).toBe('Operation failed !');
  });
  it('401 shows nothing (the refresh flow handles it)', () => {
    expect(describeEnvelopeError(401, 'x', null).kind).toBe('none');
  });
});

describe('general error handling in the client', () => {
  const envelope =
    (code: number, msg: string, data: unknown = null, status = 200) =>
    async () =>
      new Response(JSON.stringify({ code, msg, data }), { status });

  it('network failure → 网络异常！ only', async () => {
    const onError = vi.fn();
    const client = new HttpClient({
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof fetch,
      hooks: { onError },
    });
    const err = await client.request(accountsCalls.getUserInfo).catch((e) => e as ApiError);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('network');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0][0]).toEqual({ kind: 'network', text: '网络异常！' });
  });

  it('business error → shown once with the mapped text; the error carries code and type', async () => {
    const onError = vi.fn();
    const data = { detail: [{ type: 'err_verification_code_invalid', msg: '' }] };
    const client = new HttpClient({ fetch: envelope(422, 'bad', data) as typeof fetch, hooks: { onError } });
    const err = (await client.request(accountsCalls.getUserInfo).catch((e) => e)) as ApiError;
    expect(err.code).toBe(422);
    expect(err.type).toBe('err_verification_code_invalid');
    expect(err.message).toBe('验证码错误');
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('credit shortage → credit display kind', async () => {
    const onError = vi.fn();
    const client = new HttpClient({ fetch: envelope(1010, '余额不足') as typeof fetch, hooks: { onError } });
    await client.request(accountsCalls.getUserInfo).catch(() => {});
    expect(onError.mock.calls[0][0].kind).toBe('credit');
  });

  it('non-network HTTP error shows its message', async () => {
    const onError = vi.fn();
    const client = new HttpClient({
      fetch: envelope(404, '接口不存在', null, 404) as typeof fetch,
      hooks: { onError },
    });
    const err = (await client.request(accountsCalls.getUserInfo).catch((e) => e)) as ApiError;
    expect(err.kind).toBe('http');
    expect(onError.mock.calls[0][0].text).toBe('接口不存在');
  });

  it('per-request suppression: rejects without showing anything', async () => {
    const onError = vi.fn();
    const client = new HttpClient({ fetch: envelope(9999, 'boom') as typeof fetch, hooks: { onError } });
    await expect(client.request(accountsCalls.getUserInfo, {}, { suppressError: true })).rejects.toThrow(
      'boom',
    );
    expect(onError).not.toHaveBeenCalled();
  });
});
