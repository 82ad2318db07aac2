import { expect, type Page } from '@playwright/test';

export const APP = '/workbench';

interface AuthData {
  secure_tokens: {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    refresh_token_expires_in: number;
  };
  user_info: unknown;
}

/**
 * Stores a signed-in session the way the web client does, so the next navigation starts signed in.
 * The one-time video-translation preview is marked as seen (journeys about other pages), unless
 * `onboarding` is set; a pending survey needs `npm run admin -- questionnaire skip` or answers.
 */
export async function storeSession(
  page: Page,
  auth: AuthData,
  options: { onboarding?: boolean } = {},
): Promise<void> {
  await page.goto(`${APP}/login`);
  if (!options.onboarding) {
    await page.evaluate(
      (uid) => localStorage.setItem(`videoTranslationPreview${uid}`, '1'),
      (auth.user_info as { uid: string }).uid,
    );
  }
  await page.evaluate(({ secure_tokens: t, user_info: user }) => {
    const now = Math.floor(Date.now() / 1000);
    localStorage.setItem(
      'secure_tokens',
      JSON.stringify({
        access_token: t.access_token,
        refresh_token: t.refresh_token,
        access_expires_at: now + t.expires_in,
        refresh_expires_at: now + t.refresh_token_expires_in,
      }),
    );
    localStorage.setItem('access_token', t.access_token);
    localStorage.setItem('user_info', JSON.stringify(user));
  }, auth);
}

/** A full-height screenshot: the page scrolls inside the content column, so grow the viewport first. */
export async function shootFull(page: Page, file: string): Promise<void> {
  await page.waitForTimeout(500); // antd's open animations
  const height = await page.evaluate(() => {
    const el = document.querySelector('[data-testid="content"]');
    return Math.max(900, (el?.scrollHeight ?? 900) + 20);
  });
  await page.setViewportSize({ width: 1440, height });
  await page.screenshot({ path: file });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Chooses an option of an antd Select; a click during the dropdown's opening animation can miss, so retry. */
export async function pickOption(page: Page, selectTestId: string, option: string): Promise<void> {
  const select = page.getByTestId(selectTestId);
  await select.click();
  await expect(async () => {
    await page.locator('.ant-select-item-option').filter({ hasText: option }).click({ timeout: 2000 });
    await expect(select).toContainText(option, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}
