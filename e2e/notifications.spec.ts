import { expect, test } from '@playwright/test';
import { APP, operator, signInByCode } from './session.ts';

/**
 * The notifications bell (issue 30 item 6): a task that finishes while the workbench is open appears
 * in the bell with the number not yet seen; opening the bell marks it seen, and a click leads to the
 * tool. (Browser push only reaches users with a push service; the bell works without one.)
 */
const PHONE = '13700000306';

test('a finished task appears in the bell, counted until seen, and leads to its tool', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const auth = await signInByCode(page, request, PHONE);
  operator('credits', 'grant', '--user', PHONE, '--amount', '500');
  await page.goto(`${APP}/voice-changer`);
  const bell = page.getByTestId('bell');
  await expect(bell).toBeVisible();
  await expect(page.getByTestId('bell-unread')).toHaveCount(0);
  await bell.click();
  await expect(page.getByTestId('bell-panel')).toContainText('还没有完成的任务');
  await bell.click();

  // A text-to-speech task started elsewhere (the API, another tab) finishes while this page is open.
  const started = await request.post('/v1/tts/generate', {
    headers: { authorization: `Bearer ${auth.secure_tokens.access_token}` },
    data: { text: '铃铛里应当出现这个任务。', voice_id: 'espeak-zh-xiaowen', mode: 'task', name: '铃铛测试' },
  });
  expect((await started.json()).code).toBe(0);

  await expect(page.getByTestId('bell-unread')).toHaveText('1', { timeout: 30_000 });
  await bell.click();
  const item = page.getByTestId('bell-item');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('「铃铛测试」已完成');
  await expect(item).toContainText('文字转语音');
  await expect(item).toHaveAttribute('data-status', 'succeeded');
  await page.screenshot({ path: 'test-results/notifications/bell.png' });
  // Seen once opened; the count stays gone after a reload.
  await expect(page.getByTestId('bell-unread')).toHaveCount(0);
  await item.click();
  await expect(page).toHaveURL(/\/workbench\/tts$/);
  await page.reload();
  await expect(page.getByTestId('bell')).toBeVisible();
  await expect(page.getByTestId('bell-unread')).toHaveCount(0);
});
