import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { WebhookDeliveryView, WebhookView } from '@vw/contract';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliveryStatusTag, formatDeliveryTime, prettyPayload } from './deliveries.ts';
import { WebhookDeliveries } from './WebhookDeliveries.tsx';

describe('delivery display rules', () => {
  it('tags a delivery by its status and, while pending, by whether it was tried', () => {
    expect(deliveryStatusTag({ status: 'succeeded', attempts: 1 }).label).toBe('成功');
    expect(deliveryStatusTag({ status: 'failed', attempts: 6 }).label).toBe('失败');
    expect(deliveryStatusTag({ status: 'pending', attempts: 2 }).label).toBe('重试中');
    expect(deliveryStatusTag({ status: 'pending', attempts: 0 }).label).toBe('排队中');
  });
  it('indents a JSON payload and shows anything else as it is', () => {
    expect(prettyPayload('{"id":"whd_1","data":{"a":1}}')).toBe(
      '{\n  "id": "whd_1",\n  "data": {\n    "a": 1\n  }\n}',
    );
    expect(prettyPayload('not json')).toBe('not json');
  });
  it('shows times to the second', () => {
    expect(formatDeliveryTime(1_700_000_047)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:07$/);
  });
});

// ---------- the drawer against a fake server ----------

const endpoint: WebhookView = {
  endpoint_id: 'whe_1',
  url: 'https://hooks.example.com/x',
  events: ['task.succeeded'],
  status: 'active',
  consecutive_failures: 0,
  last_status: 'succeeded',
  last_status_code: 200,
  last_error: null,
  last_delivery_time: 1_700_000_000,
  disabled_time: null,
  created_time: 1_700_000_000,
};
const delivery = (id: string, over: Partial<WebhookDeliveryView> = {}): WebhookDeliveryView => ({
  delivery_id: id,
  endpoint_id: 'whe_1',
  event: 'ping',
  status: 'succeeded',
  attempts: 1,
  last_status_code: 200,
  last_error: null,
  payload: JSON.stringify({ id, event: 'ping', data: { endpoint_id: 'whe_1' } }),
  created_time: 1_700_000_000,
  updated_time: 1_700_000_000,
  next_attempt_time: null,
  ...over,
});

let log: WebhookDeliveryView[] = [];
const calls: Array<{ path: string; search: string; body: unknown }> = [];

beforeEach(() => {
  calls.length = 0;
  // antd's table pagination watches the screen width; jsdom has no matchMedia.
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ path: url.pathname, search: url.search, body });
      let data: unknown = {};
      if (url.pathname === '/v1/webhooks/deliveries') data = { total: log.length, list: log };
      if (url.pathname === '/v1/webhooks/redeliver') {
        const again = delivery('whd_again', { event: 'task.failed' });
        log = [again, ...log];
        data = { delivered: true, status_code: 200, error: null, endpoint, delivery: again };
      }
      return new Response(JSON.stringify({ code: 0, msg: 'success', data }));
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const show = (view: WebhookView | null = endpoint, onDelivered = vi.fn()) =>
  render(
    <App>
      <WebhookDeliveries endpoint={view} onClose={() => undefined} onDelivered={onDelivered} />
    </App>,
  );
const rows = () => document.querySelectorAll('.ant-drawer .ant-table-row');

describe('delivery log drawer', () => {
  it('lists the endpoint’s deliveries with their outcome and shows a payload when expanded', async () => {
    log = [
      delivery('whd_2', { status: 'pending', attempts: 2, last_status_code: 500, last_error: 'HTTP 500' }),
      delivery('whd_1'),
    ];
    show();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(calls[0]).toMatchObject({ path: '/v1/webhooks/deliveries' });
    expect(new URLSearchParams(calls[0].search).get('endpoint_id')).toBe('whe_1');
    expect(
      [...document.querySelectorAll('[data-testid="delivery-status"]')].map((e) => e.textContent),
    ).toEqual(['重试中', '成功']);
    expect(rows()[0].textContent).toContain('HTTP 500');
    fireEvent.click(rows()[1].querySelector('.ant-table-row-expand-icon')!);
    const payload = await screen.findByTestId('delivery-payload');
    expect(payload.textContent).toBe(prettyPayload(log[1].payload));
  });

  it('重新投递 sends the delivery again, then shows the new one first and tells the page', async () => {
    log = [delivery('whd_1')];
    const onDelivered = vi.fn();
    show(endpoint, onDelivered);
    await waitFor(() => expect(rows()).toHaveLength(1));
    fireEvent.click(within(rows()[0] as HTMLElement).getByTestId('delivery-redeliver'));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(calls.find((c) => c.path === '/v1/webhooks/redeliver')?.body).toEqual({ delivery_id: 'whd_1' });
    expect(await screen.findByText('已重新投递（HTTP 200）')).toBeTruthy();
    expect(onDelivered).toHaveBeenCalledTimes(1);
    expect(rows()[0].textContent).toContain('任务失败');
  });

  it('offers no redelivery to a disabled endpoint, and says when there is nothing yet', async () => {
    log = [delivery('whd_1')];
    const { unmount } = show({ ...endpoint, status: 'disabled' });
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect((screen.getByTestId('delivery-redeliver') as HTMLButtonElement).disabled).toBe(true);
    unmount();
    log = [];
    show();
    expect(await screen.findByText('还没有投递记录，可以先点“发送测试”')).toBeTruthy();
  });
});
