import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { APP, operator, signInByCode } from './session.ts';

/**
 * The download center (onboarding issue) with the TTS history as its tool, in order on one page:
 * a batch of three MP3s streams into a chosen folder with progress and the panel counts 3/3; the
 * same batch again gets numbered names; a running download is cancelled (已取消); a failing one shows
 * 重新下载 and the retry succeeds.
 *
 * Chromium's folder picker is a native dialog: the journey answers it with a folder of the page's
 * origin-private file system (a real FileSystemDirectoryHandle), and reads the files back from it.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/downloads';
const PHONE = `135${String(Date.now()).slice(-8)}`;
const STAMP = String(Date.now()).slice(-5);
const NAMES = [`下载测试${STAMP}甲`, `下载测试${STAMP}乙`, `下载测试${STAMP}丙`];

let page: Page;

/** Files in the picked folder: name → size and first bytes. */
const pickedFiles = () =>
  page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('picked', { create: true });
    const out: Record<string, { size: number; head: number[] }> = {};
    for await (const [name, handle] of (
      dir as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }
    ).entries()) {
      const file = await handle.getFile();
      out[name] = { size: file.size, head: [...new Uint8Array(await file.slice(0, 3).arrayBuffer())] };
    }
    return out;
  });

const isMp3 = (head: number[]) => head[0] === 0xff || String.fromCharCode(...head) === 'ID3';
const panel = () => page.getByTestId('download-panel');
const rows = () => panel().getByTestId('download-row');

async function openPanel() {
  if (!(await panel().isVisible())) await page.getByTestId('download-entry').click();
  await expect(panel()).toBeVisible();
}

async function closePanel() {
  if (await panel().isVisible()) await panel().getByRole('button', { name: '关闭' }).click();
  await expect(panel()).toBeHidden();
}

async function batchDownload(kind: 'MP3 音频' | 'WAV 音频' | 'SRT 字幕') {
  await page.getByTestId('history-batch-download').click();
  await page.getByRole('menuitem', { name: kind }).click();
}

async function selectItems(names: string[]) {
  for (const name of names) {
    await page.getByTestId('history-item').filter({ hasText: name }).getByRole('checkbox').check();
  }
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  page = await browser.newPage({ acceptDownloads: true });
  // The folder picker answers with a folder of the origin-private file system.
  await page.addInitScript(() => {
    (
      window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }
    ).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle('picked', { create: true });
  });
});

test.afterAll(async () => {
  await page?.close();
});

test('a batch of three downloads streams into the chosen folder; the panel counts 3/3', async ({
  request,
}) => {
  const auth = await signInByCode(page, request, PHONE);
  operator('credits', 'grant', '--user', PHONE, '--amount', '500');
  const headers = { Authorization: `Bearer ${auth.secure_tokens.access_token}` };
  const voices = await (await request.get('/p1/voices/get_default_voice', { headers })).json();
  const voice = Object.values(voices.data.default_voice_map as Record<string, string>)[0];
  for (const [i, name] of NAMES.entries()) {
    const res = await request.post('/v1/tts/generate', {
      headers,
      data: { text: `这是第${i + 1}段下载测试语音，编号${STAMP}。`, voice_id: voice, name, mode: 'stream' },
    });
    expect(res.status(), await res.text().catch(() => '')).toBe(200);
    expect(res.headers()['x-history-id']).toBeTruthy();
  }
  await page.goto(`${APP}/tts`);
  await expect(page.getByTestId('history-item')).toHaveCount(3);
  // No task yet: no sidebar entry.
  await expect(page.getByTestId('download-entry')).toHaveCount(0);

  await page.getByTestId('history-select-all').click();
  await batchDownload('MP3 音频');
  await expect(page.getByTestId('download-entry')).toContainText('3/3', { timeout: 20_000 });
  await openPanel();
  await expect(page.getByTestId('download-count')).toHaveText('下载列表 3/3');
  await expect(rows()).toHaveCount(3);
  for (const row of await rows().all()) {
    await expect(row).toHaveAttribute('data-state', 'success');
    await expect(row.getByTestId('download-tag')).toHaveText('MP3');
    await expect(row.getByTestId('download-progress')).toHaveAttribute('data-percent', '100');
    await expect(row.getByTestId('download-done')).toBeVisible();
  }
  const box = await panel().boundingBox();
  expect([box?.width, box?.height]).toEqual([516, 363]);
  const files = await pickedFiles();
  for (const name of NAMES) {
    expect(files[`${name}.mp3`]?.size).toBeGreaterThan(1000);
    expect(isMp3(files[`${name}.mp3`].head)).toBe(true);
  }
});

test('the same files again get numbered names in the folder', async () => {
  await batchDownload('MP3 音频');
  await openPanel(); // a click outside closed it
  await expect(page.getByTestId('download-count')).toHaveText('下载列表 6/6', { timeout: 20_000 });
  const files = await pickedFiles();
  for (const name of NAMES) expect(files[`${name} (1).mp3`]?.size).toBe(files[`${name}.mp3`].size);
  await expect(panel().getByText(`${NAMES[0]} (1).mp3`)).toBeVisible();
});

test('a running download is cancelled and shows 已取消; a failed one is retried with 重新下载', async () => {
  // The first SRT stalls on the way, so it is still running when cancelled.
  let releaseSlow!: () => void;
  const slow = new Promise<void>((r) => {
    releaseSlow = r;
  });
  await page.route('**/files/**', async (route) => {
    if (route.request().url().includes('srt')) {
      await slow;
      await route.continue().catch(() => {});
      return;
    }
    await route.continue();
  });
  await closePanel(); // it covers the history list
  await page.getByTestId('history-select-all').click(); // clear
  await selectItems([NAMES[0], NAMES[1]]);
  await batchDownload('SRT 字幕');
  await openPanel();
  // The list shows the newest first: the batch's first task (the one running) is the last waiting row.
  await expect(panel().locator('[data-state="normal"]')).toHaveCount(2);
  const first = panel().locator('[data-state="normal"]').last();
  await first.hover();
  await expect(first.getByTestId('download-cancel')).toBeVisible();
  await first.getByTestId('download-cancel').click();
  await expect(panel().getByText('已取消')).toHaveCount(1);
  releaseSlow();
  await page.unroute('**/files/**');
  // The other one of the batch carries on.
  await expect(panel().locator('[data-state="success"]')).toHaveCount(7, { timeout: 20_000 });
  await expect(panel().locator('[data-state="cancel"]')).toHaveCount(1);

  // A file the server refuses: error with the toast, then a retry that works.
  await page.route('**/files/**', (route) => route.fulfill({ status: 500, body: 'boom' }));
  await closePanel();
  await page.getByTestId('history-select-all').click(); // all
  await page.getByTestId('history-select-all').click(); // none
  await selectItems([NAMES[2]]);
  await batchDownload('WAV 音频');
  await openPanel();
  const failed = panel().locator('[data-state="error"]');
  await expect(failed).toHaveCount(1);
  await expect(page.getByText(`${NAMES[2]}.wav 下载失败：HTTP 错误 500`)).toBeVisible();
  await expect(failed.getByTestId('download-retry')).toHaveText('重新下载');
  await page.unroute('**/files/**');
  const saved = page.waitForEvent('download');
  await failed.getByTestId('download-retry').click();
  const download = await saved;
  expect(download.suggestedFilename()).toBe(`${NAMES[2]}.wav`);
  await expect(panel().locator('[data-state="error"]')).toHaveCount(0);
  await expect(page.getByTestId('download-count')).toHaveText('下载列表 8/9');
  const retried = rows().filter({ hasText: `${NAMES[2]}.wav` });
  await expect(retried).toHaveAttribute('data-state', 'success');
  await expect(retried.getByTestId('download-progress')).toHaveAttribute('data-percent', '100');
  await page.waitForTimeout(300); // the progress bar's own animation
  await page.screenshot({ path: `${SHOTS}/panel-final.png` });
});
