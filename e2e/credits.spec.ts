import { mkdirSync, readFileSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { APP, operator, pickOption, shootFull, signInByCode } from './session.ts';

/**
 * Credits and memberships journeys (issue 4), in order on one signed-in page: redeem a code made
 * by the operator command, see the plan and expiry update; grant credits, spend some through the
 * development-only spend endpoint, see them on /usage and export the consumption details.
 * The operator commands write to the server's data folder (E2E_DATA_DIR).
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/credits';
/** A fresh account per run: sign-in by code creates it. */
const PHONE = `139${String(Date.now()).slice(-8)}`;

let page: Page;

const shoot = (name: string) => shootFull(page, `${SHOTS}/${name}.png`);

const accessToken = () => page.evaluate(() => localStorage.getItem('access_token'));

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  page = await browser.newPage();
});

test.afterAll(async () => {
  await page?.close();
});

test('redeem a membership code from the operator command: plan badge and expiry update', async ({
  request,
}) => {
  await signInByCode(page, request, PHONE);
  await page.goto(`${APP}/subscription`);
  await expect(page.getByTestId('subscription-page')).toBeVisible();
  await expect(page.getByTestId('plan-badge').first()).toHaveAttribute('data-free', 'true');
  await expect(page.getByTestId('plan-tiers')).toBeVisible();
  await expect(page.getByTestId('credit-rules')).toContainText('优先扣除最早到期的积分');
  const expiryBefore = await page.getByTestId('sub-expiry').textContent();

  const code = operator('redeem', 'create', '--level', '300', '--months', '1', '--count', '1')
    .trim()
    .split('\n')
    .pop()!
    .trim();
  expect(code).toMatch(/^[A-Za-z0-9]{16}$/);

  // Open the dialog from the profile popup.
  await page.getByTestId('user-card').click();
  await page.getByTestId('profile-popup').getByText('兑换会员', { exact: true }).click();
  const dialog = page.getByTestId('redeem-dialog');
  await expect(dialog).toBeVisible();
  const submit = page.getByTestId('redeem-submit');
  await expect(submit).toBeDisabled();
  const input = page.getByTestId('redeem-input');
  // Separators and other characters are stripped; a wrong code shows inline.
  await input.fill('ZZZZ-ZZZZ-ZZZZ-ZZZZ');
  await expect(input).toHaveValue('ZZZZZZZZZZZZZZZZ');
  await submit.click();
  await expect(page.getByTestId('redeem-error')).toHaveText('兑换码错误');
  await input.fill(`${code.slice(0, 8)}-${code.slice(8)}`);
  await expect(page.getByTestId('redeem-error')).toHaveText('');
  await expect(input).toHaveValue(code);
  // Escape does not close it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(submit).toBeEnabled();

  await submit.click();
  const success = page.getByTestId('redeem-success');
  await expect(success).toContainText('恭喜你兑换成功');
  await expect(page.getByTestId('redeem-package')).toContainText('会员套餐');
  await expect(page.getByTestId('redeem-expiry')).toHaveText(/有效期至 \d{4}-\d{2}-\d{2}/);
  const redeemedExpiry = (await page.getByTestId('redeem-expiry').textContent())!.replace('有效期至 ', '');
  await page.getByTestId('redeem-start').click();
  await expect(success).toBeHidden();

  // The tenant bonus was reloaded: paid badge, new expiry.
  await expect(page.getByTestId('sidebar').getByTestId('plan-badge')).toHaveAttribute('data-free', 'false');
  await expect(page.getByTestId('sub-expiry')).toHaveText(redeemedExpiry);
  expect(redeemedExpiry).not.toBe(expiryBefore);
  await page.getByTestId('user-card').click();
  await expect(page.getByTestId('plan-expiry')).toHaveText(redeemedExpiry);
  await page.mouse.click(900, 450);

  // The same code cannot be used twice.
  await page.getByTestId('user-card').click();
  await page.getByTestId('profile-popup').getByText('兑换会员', { exact: true }).click();
  await expect(page.getByTestId('redeem-input')).toHaveValue('');
  await page.getByTestId('redeem-input').fill(code);
  await page.getByTestId('redeem-submit').click();
  await expect(page.getByTestId('redeem-error')).toHaveText('兑换码已被使用，请重新输入');
  await page.locator('.ant-modal-close').click();
  await expect(page.getByTestId('redeem-dialog')).toBeHidden();

  await page.reload();
  await expect(page.getByTestId('sub-current')).toBeVisible();
  await expect(page.getByTestId('plan-tier').filter({ hasText: '当前套餐' })).toHaveCount(1);
  await shoot('subscription');
});

test('usage page shows the consumption and the export downloads an .xlsx file', async ({ request }) => {
  operator('credits', 'grant', '--user', PHONE, '--amount', '500');
  const token = await accessToken();
  for (const [credits, tool, task_name] of [
    [120, 'tts', '产品介绍配音'],
    [35, 'voice_changer', '客服录音变声'],
    [48, 'tts', '有声书第一章'],
  ] as const) {
    const res = await request.post('/dev/credits/spend', {
      headers: { Authorization: `Bearer ${token}` },
      data: { credits, tool, task_name },
    });
    expect(res.status(), `POST /dev/credits/spend: ${await res.text()}`).toBe(200);
  }

  await page.goto(`${APP}/usage`);
  await expect(page.getByTestId('usage-page')).toBeVisible();
  const table = page.getByTestId('consume-table');
  await expect(table).toContainText('产品介绍配音');
  await expect(table).toContainText('客服录音变声');
  await expect(table).toContainText('-120');
  await expect(page.getByTestId('usage-total')).toContainText('203');
  await expect(page.getByTestId('credit-lot').first()).toBeVisible();
  await expect(page.locator('.vw-chart-col[data-total="203"]')).toHaveCount(1);

  // Filter by tool.
  await pickOption(page, 'consume-tool-filter', '变声器');
  await expect(table).toContainText('客服录音变声');
  await expect(table).not.toContainText('产品介绍配音');
  await page.getByTestId('consume-tool-filter').locator('.ant-select-clear').click({ force: true });
  await expect(table).toContainText('产品介绍配音');

  // Earn details list the grant and the redeemed membership credits.
  await page.getByRole('tab', { name: '获得明细' }).click();
  await expect(page.getByTestId('earn-table')).toContainText('500');
  await expect(page.getByTestId('earn-table')).toContainText('会员积分');
  // Filter by source.
  await pickOption(page, 'earn-source-filter', '平台赠送');
  await expect(page.getByTestId('earn-table')).not.toContainText('会员积分');
  await expect(page.getByTestId('earn-table')).toContainText('500');
  await page.getByRole('tab', { name: '消耗明细' }).click();
  await expect(table).toContainText('产品介绍配音');

  const download = page.waitForEvent('download', { timeout: 45_000 });
  await page.getByTestId('export-consume').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  // An .xlsx is a zip archive.
  expect(
    readFileSync(await file.path())
      .subarray(0, 2)
      .toString('latin1'),
  ).toBe('PK');
  await expect(page.getByText('消耗明细已导出')).toBeVisible();
});

test('balance detail from the profile popup: balance, lots and a link to /usage', async () => {
  await page.goto(`${APP}/tts`);
  await page.getByTestId('user-card').click();
  const balance = (await page.getByTestId('credit-balance').textContent())!.trim();
  await page.locator('.vw-plan-credits').click();
  const detail = page.getByTestId('balance-detail');
  await expect(detail).toBeVisible();
  await expect(page.getByTestId('balance-amount')).toHaveText(balance);
  await expect(detail.getByTestId('credit-lot').first()).toBeVisible();
  await page.getByTestId('balance-usage-link').click();
  await expect(page).toHaveURL(/\/workbench\/usage$/);
  await expect(detail).toBeHidden();
});
