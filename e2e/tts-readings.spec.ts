import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { APP, shootFull, storeSession } from './session.ts';

/**
 * The readings view shows how numbers, dates and Latin words will be read (issue 29 item 2): a reading
 * layer above the text, which itself stays as typed.
 */
const SHOTS = 'test-results/tts';
const DEMO = { account: '13800000000', password: 'demo12345' };

test('多音字 mode shows the normalised reading of numbers and Latin words, a Latin word’s reading is corrected there; the text stays as typed', async ({
  page,
  request,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  const res = await request.post('/accounts/v1/auth_with_password', { data: DEMO });
  const body = await res.json();
  expect(body.code).toBe(0);
  await storeSession(page, body.data);
  await page.goto(`${APP}/tts`);
  const text = '2024年，AI公司卖出2台iPhone 15，银行排队3-5天。';
  const box = page.getByTestId('tts-text');
  await box.fill(text);
  await page.getByTestId('polyphone-toggle').click();
  await expect(page.getByTestId('polyphone-view')).toBeVisible();
  const spoken = page.getByTestId('spoken-reading');
  await expect(spoken).toHaveCount(6);
  const pairs = await spoken.evaluateAll((els) =>
    els.map((e) => [e.firstChild?.textContent ?? '', e.getAttribute('data-spoken')]),
  );
  expect(pairs).toEqual([
    ['2024', '二〇二四'],
    ['AI', 'A I'],
    ['2', '两'],
    ['iPhone', 'iPhone'],
    ['15', '十五'],
    ['3-5', '三到五'],
  ]);
  // Polyphones are still offered next to the readings.
  await expect(page.locator('[data-testid="polyphone-spot"][data-char="行"]')).toBeVisible();
  await shootFull(page, `${SHOTS}/tts-spoken-readings.png`);

  // Correct a Latin word's reading: kept in the dictionary, shown at once, the text unchanged.
  const token = body.data.secure_tokens.access_token;
  try {
    await spoken.nth(1).click();
    const editor = page.getByTestId('word-reading-editor');
    await expect(editor.getByTestId('word-reading-input')).toHaveValue('A I');
    await editor.getByTestId('word-reading-input').fill('ai');
    await editor.getByTestId('word-reading-save').click();
    await expect(spoken.nth(1)).toHaveAttribute('data-spoken', 'ai');
    await shootFull(page, `${SHOTS}/tts-word-reading.png`);
  } finally {
    await request.post('/v1/tts/dictionary/delete', {
      headers: { Authorization: `Bearer ${token}` },
      data: { word: 'AI' },
    });
  }
  await page.getByTestId('polyphone-toggle').click();
  await expect(box).toHaveValue(text);
});
