import { createHmac } from 'node:crypto';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Analytics, type AnalyticsTransport, signReport, startHeartbeat, toBase64 } from './analytics.ts';

function setup() {
  const sent: { events: { event: string; props: Record<string, unknown> }[]; beacon: boolean; at: number }[] =
    [];
  const transport: AnalyticsTransport = {
    key: async () => 'k'.repeat(64),
    send: async (body, beacon) => {
      const json = new TextDecoder().decode(Uint8Array.from(atob(body.data), (c) => c.charCodeAt(0)));
      expect(body.sign).toBe(signReport('k'.repeat(64), body.ts, body.data));
      sent.push({ events: JSON.parse(json), beacon, at: Date.now() });
    },
  };
  const a = new Analytics(transport, () => ({ uuid: 'u_1', phone: '138', email: '' }), {
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
    now: () => Date.now(),
  });
  return { a, sent };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('analytics client', () => {
  it('signs like the server (HMAC-SHA256 of ts.data) and base64-encodes UTF-8', () => {
    expect(signReport('key', 5, 'abc')).toBe(createHmac('sha256', 'key').update('5.abc').digest('hex'));
    expect(bytesToHex(hmac(sha256, new TextEncoder().encode('key'), new TextEncoder().encode('5.abc')))).toBe(
      signReport('key', 5, 'abc'),
    );
    expect(Buffer.from(toBase64('中文 ok'), 'base64').toString('utf8')).toBe('中文 ok');
  });

  it('batches events and reports at most every 500 ms, with the user fields', async () => {
    const { a, sent } = setup();
    a.click('x');
    a.click('y');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    expect(sent[0].events.map((e) => e.props.button)).toEqual(['x', 'y']);
    expect(sent[0].events[0]).toMatchObject({
      event: 'h5_button_click',
      uuid: 'u_1',
      phone: '138',
      email: '',
    });
    a.click('z');
    await vi.advanceTimersByTimeAsync(499);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(sent[1].at - sent[0].at).toBeGreaterThanOrEqual(500);
  });

  it('debounces page exposure by 500 ms: only the settled page counts', async () => {
    const { a, sent } = setup();
    a.exposure('/tts');
    await vi.advanceTimersByTimeAsync(300);
    a.exposure('/voices');
    await vi.advanceTimersByTimeAsync(499);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(600); // the report leaves
    expect(sent.flatMap((s) => s.events)).toEqual([
      expect.objectContaining({ event: 'h5_page_exposure', props: { page: '/voices' } }),
    ]);
  });

  it('caps a link click at once a second and sends it by beacon', async () => {
    const { a, sent } = setup();
    expect(a.linkClick('wechat_click')).toBe(true);
    expect(a.linkClick('wechat_click')).toBe(false);
    expect(a.linkClick('bilibiil_click')).toBe(true);
    await vi.advanceTimersByTimeAsync(999);
    expect(a.linkClick('wechat_click')).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(a.linkClick('wechat_click')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    const clicks = sent.flatMap((s) => s.events.map((e) => e.props.button));
    expect(clicks).toEqual(['wechat_click', 'bilibiil_click', 'wechat_click']);
    expect(sent[0].beacon).toBe(true);
  });

  it('sends a heartbeat every 10 s while the page is visible, none while hidden', async () => {
    const { a, sent } = setup();
    let state: DocumentVisibilityState = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    const stop = startHeartbeat(a, document);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.advanceTimersByTimeAsync(600); // the last report leaves
    const beats = () =>
      sent.flatMap((s) => s.events).filter((e) => e.event === 'h5_user_heartbeat_log').length;
    expect(beats()).toBe(3);
    state = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(beats()).toBe(3);
    state = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(10_600);
    expect(beats()).toBe(4);
    stop();
  });
});
