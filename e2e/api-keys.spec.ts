import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  test,
} from '@playwright/test';
import { APP, operator, shootFull, signInByCode } from './session.ts';

/**
 * API keys journey (issue 8), in order on one signed-in page: create a key (shown once, copied),
 * call the public TTS endpoint with it from the test, see its usage on the page, register a webhook
 * and send a test delivery to a receiver run by the test, see it in the delivery log and send it
 * again, revoke the key and see the call refused, open the public API docs.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/api-keys';
const PHONE = `137${String(Date.now()).slice(-8)}`;

let context: BrowserContext;
let page: Page;
let secret = '';
let receiver: Server;
const received: Array<{ headers: Record<string, unknown>; body: string }> = [];

const shoot = (name: string) => shootFull(page, `${SHOTS}/${name}.png`);
/**
 * Closing an antd dialog animates its wrapper out, and the wrapper takes clicks until it is hidden:
 * the next click waits for no dialog to be left on the page, not for time.
 */
const dialogsGone = () => expect(page.locator('.ant-modal-wrap:visible')).toHaveCount(0);

const speak = (request: APIRequestContext, key: string, text: string) =>
  request.post('/api/v1/tts', {
    headers: { 'x-api-key': key },
    data: { text, voice_id: 'espeak-zh-xiaowen', format: 'mp3' },
  });

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  page = await context.newPage();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
});

test.afterAll(async () => {
  await context?.close();
  await new Promise<void>((r) => receiver?.close(() => r()));
});

test('create a key: shown once with a copy button and a warning', async ({ request }) => {
  await signInByCode(page, request, PHONE);
  operator('credits', 'grant', '--user', PHONE, '--amount', '500');

  await page.goto(`${APP}/api-keys`);
  await expect(page.getByTestId('api-keys-page')).toBeVisible();
  await expect(page.getByTestId('key-table')).toContainText('还没有 API 密钥');
  await expect(page.getByTestId('webhook-table')).toBeVisible();

  await page.getByTestId('create-key').click();
  await page.getByTestId('create-key-name').fill('我的脚本');
  await page.getByTestId('create-key-limit').fill('200');
  await page.getByTestId('create-key-submit').click();
  const value = page.getByTestId('secret-value');
  await expect(value).toHaveValue(/^vwk_[0-9A-Za-z]{38}$/);
  secret = await value.inputValue();
  await expect(page.getByText('关闭后将无法再次查看完整密钥')).toBeVisible();
  await page.getByTestId('secret-copy').click();
  await expect(page.getByText('已复制到剪贴板')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.getByTestId('secret-done').click();
  await dialogsGone();

  // The list shows only the recognisable parts; the quick start carries the new key.
  await expect(page.getByTestId('key-masked').first()).toHaveText(
    `${secret.slice(0, 8)}…${secret.slice(-4)}`,
  );
  await expect(page.getByTestId('key-status').first()).toHaveText('可用');
  await expect(page.getByTestId('key-name').first()).toHaveText('我的脚本');
  await page.getByTestId('key-rename').first().click();
  await page.getByTestId('rename-input').fill('我的脚本（生产）');
  await page.getByTestId('rename-submit').click();
  await dialogsGone();
  await expect(page.getByTestId('key-name').first()).toHaveText('我的脚本（生产）');
  await expect(page.getByTestId('quick-start-code')).toContainText(`X-API-Key: ${secret}`);
  await page.getByRole('tab', { name: 'OpenAI SDK' }).click();
  await expect(page.getByTestId('quick-start-code')).toContainText('/api/v1');
  await shoot('03-list-quick-start');
});

test('call the TTS endpoint with the key and see the usage on the page', async ({ request }) => {
  const res = await speak(request, secret, '这是用 API 密钥合成的一句话。');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('audio/mpeg');
  expect(res.headers()['ratelimit-limit']).toBeTruthy();
  expect((await res.body()).length).toBeGreaterThan(1000);
  const credits = Number(res.headers()['x-credits']);
  const characters = Number(res.headers()['x-characters']);
  expect(credits).toBeGreaterThan(0);

  await page.reload();
  await expect(page.getByTestId('key-credits').first()).toHaveText(`${credits} / 200`);
  await expect(page.getByTestId('key-requests').first()).toHaveText('1');
  await expect(page.getByTestId('key-usage-totals')).toHaveText(
    `合计 1 次请求 · ${credits} 积分 · ${characters} 字`,
  );
});

test('register a webhook endpoint and send a signed test delivery', async () => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await page.getByTestId('webhook-url').fill(url);
  await page.getByTestId('webhook-add').click();
  await expect(page.getByTestId('secret-value')).toHaveValue(/^whsec_/);
  await page.getByTestId('secret-done').click();
  await dialogsGone();
  await expect(page.getByTestId('webhook-table')).toContainText(url);
  await page.getByTestId('webhook-test').click();
  await expect(page.getByText('测试事件已送达（HTTP 200）')).toBeVisible();
  await expect(page.getByTestId('webhook-last')).toContainText('成功 200');
  expect(received).toHaveLength(1);
  expect(String(received[0].headers['x-vw-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(JSON.parse(received[0].body).event).toBe('ping');
});

test('the delivery log shows the ping with its payload, and 重新投递 sends it again', async () => {
  await page.getByTestId('webhook-deliveries').click();
  const table = page.getByTestId('delivery-table');
  const rows = table.locator('.ant-table-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('delivery-status')).toHaveText('成功');
  await expect(rows.first()).toContainText('测试');
  await expect(rows.first()).toContainText('200');
  await rows.first().locator('.ant-table-row-expand-icon').click();
  const payload = page.getByTestId('delivery-payload');
  await expect(payload).toContainText('"event": "ping"');
  // The payload shown is the body the receiver got (indented for reading).
  expect(JSON.parse((await payload.textContent()) ?? '')).toEqual(JSON.parse(received[0].body));

  await rows.first().getByTestId('delivery-redeliver').click();
  await expect(page.getByText('已重新投递（HTTP 200）')).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByTestId('delivery-status')).toHaveText('成功');
  expect(received).toHaveLength(2);
  const again = JSON.parse(received[1].body);
  expect(again.event).toBe('ping');
  expect(again.id).not.toBe(JSON.parse(received[0].body).id);
  expect(again.data).toEqual(JSON.parse(received[0].body).data);
  await page.locator('.ant-drawer-close').click();
  await expect(table).toBeHidden();
});

test('revoke the key and see the call refused', async ({ request }) => {
  await page.getByTestId('key-revoke').first().click();
  await expect(page.locator('.ant-modal-confirm-title')).toHaveText('撤销这个密钥？');
  await page.getByTestId('revoke-confirm').click();
  await dialogsGone();
  await expect(page.getByTestId('key-status').first()).toHaveText('已撤销');
  const refused = await speak(request, secret, '撤销之后不能再调用。');
  expect(refused.status()).toBe(401);
  const body = await refused.json();
  expect(body.data.detail[0].type).toBe('err_apikey_revoked');
  expect(body.msg).toBe('API 密钥已撤销');
});

test('the docs link opens the public API documentation', async () => {
  const [docs] = await Promise.all([context.waitForEvent('page'), page.getByTestId('api-docs-link').click()]);
  await expect(docs.getByText('声音工作台开放接口').first()).toBeVisible({ timeout: 20_000 });
  await expect(docs.getByText('/api/v1/audio/speech').first()).toBeVisible();
  await expect(docs.getByText('/api/v1/tts').first()).toBeVisible();
  await docs.close();
});
