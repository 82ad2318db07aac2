import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { APP, operator, shootFull, signInByCode } from './session.ts';

/**
 * Payments journeys (issue 5) with the sandbox provider, in order on one signed-in page: buy a
 * membership (member tab, agreement, QR, confirm on the sandbox pay page, 支付成功, plan badge),
 * buy a credit pack (balance grows), let a QR code expire and refresh it, and see every
 * disabled-product tip. The e2e server runs with PAYMENT_ORDER_TTL=20 so the expiry is quick.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/payments';
const PHONE = `134${String(Date.now()).slice(-8)}`;

let page: Page;
let browserRef: Browser;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  browserRef = browser;
  page = await browser.newPage();
  await signInByCode(page, page.request, PHONE);
  await page.goto(`${APP}/subscription`);
  await expect(page.getByTestId('sub-plan-name')).toHaveText('免费版');
  // The free plan's monthly credits (runtime setting free_monthly_credits, 500 by default): a new
  // user can try the tools, and the plan card says how much.
  await expect(page.getByTestId('sub-credits')).toHaveText('500');
  await expect(page.locator('[data-testid="plan-tier"][data-level="100"]')).toContainText('500 积分 / 月');
});
test.afterAll(async () => {
  await page.close();
});

const dialog = () => page.getByTestId('payment-dialog');
const product = (id: string) => dialog().locator(`[data-product-id="${id}"]`);
const qr = () => page.getByTestId('pay-qr');

/** Opens the QR's link (the sandbox pay page) as a phone would, in its own browser context, and pays there. */
async function payOnSandboxPage(): Promise<void> {
  const codeUrl = await qr().getAttribute('data-code-url');
  expect(codeUrl).toContain('/pay/sandbox/');
  const phone = await browserRef.newPage();
  await phone.goto(codeUrl!);
  await expect(phone.getByText('沙箱支付 · 不会产生真实扣款')).toBeVisible();
  await phone.getByRole('button', { name: '确认支付' }).click();
  await expect(phone.getByText('支付成功，可以回到电脑上查看结果。')).toBeVisible();
  await phone.close();
}

test('the subscribe tip and the profile popup open the payment box', async () => {
  // A premium voice's 去订阅 opens the subscription box on the first plan at level 300.
  await page.goto(`${APP}/voices`);
  const premium = page.locator('[data-testid="voice-card"][data-premium="true"]').first();
  await premium.getByTestId('voice-use').hover({ force: true });
  await page.getByTestId('subscribe-tip').getByRole('button', { name: '去订阅' }).click();
  await expect(product('member_300_month')).toHaveAttribute('aria-pressed', 'true');
  await page.locator('.ant-modal-close').click();

  // The profile popup's 购买积分 opens the credit box; without a plan it lands on the member tab.
  await page.getByTestId('user-card').click();
  await page.getByTestId('profile-popup').getByText('购买积分', { exact: true }).click();
  await expect(dialog().getByRole('tab', { name: '会员套餐' })).toHaveAttribute('aria-selected', 'true');
  await expect(dialog().locator('[aria-pressed="true"]')).toHaveCount(0);
  await page.locator('.ant-modal-close').click();
  await page.goto(`${APP}/subscription`);
});

test('buys a membership: member tab, agreement, QR, sandbox confirmation, 支付成功, new plan', async () => {
  await page.getByTestId('sub-current').getByRole('button', { name: '升级套餐' }).click();
  await expect(dialog()).toBeVisible();
  // The next level above the free plan is preselected; without the agreement there is no QR.
  await expect(product('member_200_month')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('pay-agree-first')).toHaveText('请勾选下方协议');

  // Credit packs need a membership: the tab says so and 去升级 returns to the member tab.
  await dialog().getByRole('tab', { name: '积分充值' }).click();
  await expect(page.getByTestId('pay-needs-membership')).toContainText('请升级到基础版以上的套餐');
  await expect(product('credit_1000')).toHaveAttribute('aria-disabled', 'true');
  await page.getByTestId('pay-needs-membership').getByRole('button', { name: '去升级' }).click();
  await expect(dialog().getByRole('tab', { name: '会员套餐' })).toHaveAttribute('aria-selected', 'true');

  await product('member_300_month').click();
  await expect(page.getByTestId('pay-amount')).toHaveText('¥99');
  await page.getByTestId('pay-agree').check();
  await expect(qr()).toBeVisible();
  await expect(page.getByTestId('pay-countdown')).toContainText('二维码有效期');
  await shootFull(page, `${SHOTS}/member-qr.png`);

  await payOnSandboxPage();
  await expect(page.getByTestId('pay-success')).toBeVisible({ timeout: 10_000 });
  // Paid means fulfilled (one transaction): the dialog says what the user now has, not "within 2-3 minutes".
  await expect(page.getByTestId('pay-success')).toHaveText('支付成功：专业版（月付）已开通，权益已生效');
  await expect(page.getByText(/2-3\s*分钟/)).toHaveCount(0);
  await expect(page.getByTestId('pay-success')).toBeHidden({ timeout: 5_000 });
  await expect(page.getByTestId('sub-plan-name')).toHaveText('专业版');
  // The plan's 8,000 and the free month's 500, which last until the month ends.
  await expect(page.getByTestId('sub-credits')).toHaveText('8,500');
});

test('buys a credit pack: the smallest pack is preselected and the balance grows', async () => {
  await page.getByTestId('sub-current').getByRole('button', { name: '购买积分' }).click();
  await expect(dialog().getByRole('tab', { name: '积分充值' })).toHaveAttribute('aria-selected', 'true');
  await expect(product('credit_1000')).toHaveAttribute('aria-pressed', 'true');
  await product('credit_5000').click();
  await page.getByTestId('pay-agree').check();
  await expect(qr()).toBeVisible();
  await expect(page.getByTestId('pay-amount')).toHaveText('¥48');
  await payOnSandboxPage();
  await expect(page.getByTestId('pay-success')).toHaveText('支付成功：5,000 积分已到账，可立即使用', {
    timeout: 10_000,
  });
  await expect(page.getByTestId('sub-credits')).toHaveText('13,500', { timeout: 10_000 });
});

test('a QR code expires and a click brings a fresh one; Alipay shows its own code', async () => {
  await page.getByTestId('sub-current').getByRole('button', { name: '购买积分' }).click();
  await page.getByTestId('pay-agree').check();
  await expect(qr()).toBeVisible();
  const first = await qr().getAttribute('data-code-url');
  // The order lives 20 s (PAYMENT_ORDER_TTL); the wait leaves room for a busy machine.
  await expect(page.getByTestId('pay-qr-expired')).toContainText('二维码过期 请点击刷新', {
    timeout: 45_000,
  });
  await page.getByTestId('pay-qr-expired').click();
  await expect(page.getByTestId('pay-qr-expired')).toBeHidden();
  await expect(qr()).toBeVisible();
  expect(await qr().getAttribute('data-code-url')).not.toBe(first);

  await dialog().getByText('支付宝').click();
  await expect(qr()).toBeVisible();
  await expect(page.getByText('请使用支付宝扫码支付')).toBeVisible();
  // Closing resets the dialog: WeChat again, agreement cleared.
  await page.locator('.ant-modal-close').click();
  await page.getByTestId('sub-current').getByRole('button', { name: '购买积分' }).click();
  await expect(page.getByTestId('pay-agree-first')).toBeVisible();
  await expect(page.getByText('请使用微信扫码支付')).toBeVisible();
  await page.locator('.ant-modal-close').click();
});

test('disables what cannot be bought, with the tips', async () => {
  // A monthly professional member: lower plans are disabled.
  await page.getByTestId('sub-current').getByRole('button', { name: '升级套餐' }).click();
  await expect(product('member_400_month')).toHaveAttribute('aria-pressed', 'true');
  await expect(product('member_200_month')).toHaveAttribute('aria-disabled', 'true');
  await product('member_200_month').hover();
  await expect(page.getByRole('tooltip')).toHaveText('暂不支持购买低版本套餐');
  await page.locator('.ant-modal-close').click();

  // An annual member: monthly plans are disabled.
  operator('plan', 'set', '--user', PHONE, '--level', '300', '--months', '12', '--annual');
  await page.reload();
  await page.getByTestId('sub-current').getByRole('button', { name: '升级套餐' }).click();
  await expect(product('member_400_month')).toHaveAttribute('aria-disabled', 'true');
  await product('member_400_month').hover();
  await expect(page.getByRole('tooltip').filter({ hasText: '年度' })).toHaveText(
    '您已是年度会员，暂不支持购买月度会员',
  );
  await expect(product('member_400_year')).toHaveAttribute('aria-pressed', 'true');
  await page.locator('.ant-modal-close').click();

  // The top plan, annual: nothing is selected and the dialog says there is nothing higher.
  operator('plan', 'set', '--user', PHONE, '--level', '400', '--months', '12', '--annual');
  await page.reload();
  await page.getByTestId('sub-current').getByRole('button', { name: '升级套餐' }).click();
  await expect(page.getByTestId('pay-top-level')).toHaveText('您已是最高级套餐用户，暂不支持重复购买套餐');
  // No plan can be selected: the top plans too are disabled, with the same tip.
  for (const id of ['member_200_month', 'member_300_year', 'member_400_month', 'member_400_year'])
    await expect(product(id)).toHaveAttribute('aria-disabled', 'true');
  await expect(dialog().locator('[aria-pressed="true"]')).toHaveCount(0);
  await product('member_400_year').hover();
  await expect(page.getByRole('tooltip').filter({ hasText: '最高级' })).toHaveText(
    '您已是最高级套餐用户，暂不支持重复购买套餐',
  );
});
