import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const APP = '/workbench';

interface AuthData {
  secure_tokens: {
    access_token: string;
    refresh_token: string;
    expires_in: number;
    refresh_token_expires_in: number;
  };
  user_info: { uid: string; [field: string]: unknown };
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
      auth.user_info.uid,
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

/** Runs an operator command (`npm run admin -- …`) against the server's data folder (E2E_DATA_DIR). */
export function operator(...args: string[]): string {
  const env = { ...process.env };
  if (process.env.E2E_DATA_DIR) env.DATA_DIR = process.env.E2E_DATA_DIR;
  return execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env,
    stdio: 'pipe',
    encoding: 'utf8',
  });
}

/** The newest verification code sent to `to` since `after`, read from the dev outbox. */
export async function latestCode(request: APIRequestContext, to: string, after: number): Promise<string> {
  for (let i = 0; i < 40; i++) {
    const res = await request.get(`/dev/outbox?to=${encodeURIComponent(to)}`);
    const body = (await res.json()) as { data: { messages: Array<{ text: string; created_at: number }> } };
    const fresh = body.data.messages
      .filter((m) => m.created_at >= after)
      .sort((a, b) => b.created_at - a.created_at);
    const code = fresh[0]?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no verification code for ${to} in the dev outbox`);
}

/**
 * Signs in by code through the API (creating the account), hands the session to the page and returns
 * the sign-in answer's data. The first-login survey is skipped by the operator and the preview marked
 * as seen, unless `onboarding` is set (the onboarding journey's own).
 */
export async function signInByCode(
  page: Page,
  request: APIRequestContext,
  phone: string,
  { onboarding = false } = {},
): Promise<AuthData> {
  const sentAt = Date.now() - 2000;
  const sent = await request.post('/accounts/v1/send_verification_code', {
    data: { account: phone, scene: 'login' },
  });
  expect((await sent.json()).code).toBe(0);
  const code = await latestCode(request, phone, sentAt);
  const res = await request.post('/accounts/v1/auth_with_verification_code', {
    data: { account: phone, code },
  });
  const body = await res.json();
  expect(body.code).toBe(0);
  if (!onboarding) operator('questionnaire', 'skip', '--user', phone);
  await storeSession(page, body.data, { onboarding });
  return body.data;
}
