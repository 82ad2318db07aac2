import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { APP, signInByCode } from './session.ts';

/**
 * Audiobooks (issue 19), in order on one page: a TXT book written here is uploaded on /audio-book
 * and imported into chapters; a chapter is renamed and two merged; two characters are cast; a chapter
 * is synthesised (espeak-ng) with live progress; one paragraph is regenerated into a second take;
 * a word's pronunciation is fixed from a text selection (saved to the user's dictionary, the paragraph
 * marked stale, then regenerated); an M4B is exported with the ACX preset, downloaded and read back with ffprobe.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/audiobook';
const PHONE = `136${String(Date.now()).slice(-8)}`;
const BOOK = [
  '第一章 相遇',
  '清晨的街道很安静，银行还没开门。',
  '李雷说：“你好，今天天气很好。”',
  '韩梅梅笑道：“是啊，我们去公园吧。”',
  '第二章 公园',
  '公园里有很多人。',
  '第三章 午后',
  '李雷问：“你想喝水吗？”',
  '韩梅梅说：“好的，谢谢你。”',
].join('\n');

let page: Page;
let dir: string;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  dir = mkdtempSync(path.join(tmpdir(), 'vw-book-e2e-'));
  page = await browser.newPage({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
});

test.afterAll(async () => {
  await page?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a book is imported, edited, cast, synthesised, regenerated and exported as M4B', async ({
  request,
}) => {
  test.setTimeout(90_000);
  await signInByCode(page, request, PHONE);
  await page.goto(`${APP}/audio-book`);
  await expect(page.getByTestId('audio-book-page')).toBeVisible();
  // A book's limit is its size: no media duration limit in the hint.
  await expect(page.getByTestId('upload-limit')).toContainText('单个文件不超过');
  await expect(page.getByTestId('upload-limit')).not.toContainText('时长');
  await page.screenshot({ path: `${SHOTS}/00-books.png` });
  const file = path.join(dir, '公园.txt');
  writeFileSync(file, BOOK, 'utf8');
  await page.locator('input[type=file]').setInputFiles(file);

  // Opened on the work page: three chapters, the first one's paragraphs.
  await expect(page.getByTestId('book-work-page')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('book-work-title')).toHaveText('公园');
  const chapters = page.getByTestId('book-chapter');
  await expect(chapters).toHaveCount(3);
  await expect(page.getByTestId('book-paragraph')).toHaveCount(3);
  await expect(page.getByTestId('book-character')).toHaveCount(2);

  // Rename the second chapter, then merge it with the third.
  await chapters.nth(1).getByTestId('book-chapter-rename').click();
  await page.getByTestId('book-chapter-name').fill('第二章 公园午后');
  await page.getByRole('button', { name: '保存' }).click();
  await expect(chapters.nth(1).getByTestId('book-chapter-title')).toHaveText('第二章 公园午后');
  await chapters.nth(1).getByTestId('book-chapter-merge').click();
  await expect(chapters).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/01-work.png` });

  // Cast both characters.
  for (const [name, voice] of [
    ['李雷', '小铁'],
    ['韩梅梅', '晓雅'],
  ]) {
    await page.getByTestId(`book-voice-${name}`).click();
    await page.keyboard.type(voice);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(`book-voice-${name}`)).toContainText(voice);
  }

  // Synthesise the first chapter (opened from the list) (the automatic check off: the e2e recognizer is a fixed script).
  const check = page.getByTestId('book-check');
  if (await check.isVisible()) await check.uncheck();
  await chapters.first().getByTestId('book-chapter-title').click();
  await expect(page.getByTestId('book-paragraph').first()).toContainText('清晨的街道很安静');
  await page.getByTestId('book-synth-chapter').click();
  await expect(page.getByTestId('book-task')).toContainText('已完成', { timeout: 60_000 });
  await expect(chapters.first()).toContainText('已合成');
  await expect(page.getByTestId('book-play-from')).toHaveCount(3);

  // Regenerate one paragraph: a second take appears.
  await page.getByTestId('book-paragraph').nth(1).getByTestId('book-regenerate').click();
  await expect(page.getByTestId('book-paragraph').nth(1).getByTestId('book-takes')).toContainText('2', {
    timeout: 30_000,
  });
  // That task has finished before the next one starts.
  await expect(page.getByTestId('book-task')).toContainText('已完成', { timeout: 30_000 });
  await page.screenshot({ path: `${SHOTS}/02-synthesised.png` });

  // Speakers were attributed by the configured language model (the e2e fake chat server).
  await expect(page.getByTestId('book-attribution')).toContainText('语言模型');

  // Pronunciation fix: select 银行 in the first paragraph, see its readings, pick one, type the pinyin
  // back, save to the dictionary: that paragraph turns stale, then is regenerated.
  const first = page.getByTestId('book-paragraph').first();
  await first.getByTestId('book-paragraph-text').evaluate((el) => {
    const node = [...el.querySelectorAll('*'), el]
      .flatMap((e) => [...e.childNodes])
      .find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.includes('银行'))!;
    const at = node.textContent!.indexOf('银行');
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + 2);
    window.getSelection()!.removeAllRanges();
    window.getSelection()!.addRange(range);
  });
  await first.getByTestId('book-pron-fix').click();
  const dialog = page.getByTestId('book-pron-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('book-pron-word')).toHaveValue('银行');
  // Readings are written with tone marks, never tone digits.
  await expect(page.getByTestId('book-pron-pinyin')).toHaveValue('yín háng');
  await expect(page.getByTestId('book-pron-readings')).toContainText('háng');
  await dialog.locator('label').filter({ hasText: 'xíng' }).click();
  await expect(page.getByTestId('book-pron-pinyin')).toHaveValue('yín xíng');
  await page.getByTestId('book-pron-pinyin').fill('yin2hang2');
  await expect(page.getByTestId('book-pron-error')).toContainText('需要 2 个拼音');
  await page.getByTestId('book-pron-pinyin').fill('yín háng');
  await page.screenshot({ path: `${SHOTS}/02b-pronunciation.png` });
  await page.getByTestId('book-pron-save').click();
  await expect(dialog).toBeHidden();
  await expect(first.getByText('已过期')).toBeVisible();
  await expect(page.getByTestId('book-paragraph').nth(2).getByText('已过期')).toHaveCount(0);
  await first.getByTestId('book-regenerate').click();
  // The first regeneration's message may still be showing.
  await expect(page.getByText('已开始重新生成该段').last()).toBeVisible();
  await expect(first.getByTestId('book-takes')).toContainText('2', { timeout: 30_000 });
  await expect(first.getByText('已过期')).toHaveCount(0);

  // Export an M4B with the ACX preset: levels are ACX's, but ACX takes 192 kbps 44.1 kHz MP3 only, so
  // the dialog says so and the report never calls the M4B 合格 (issue 30 item 9).
  await page.getByTestId('book-export').click();
  await expect(page.getByTestId('book-export-acx-m4b')).toContainText('ACX 只接受 192 kbps 44.1 kHz MP3');
  await page.getByTestId('book-export-start').click();
  await expect(page.getByTestId('book-report')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('book-report').getByText('合格', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('book-report').getByText('不合格', { exact: true })).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/03-export.png` });
  const download = page.waitForEvent('download');
  await page.getByTestId('book-downloads').getByText('.m4b').click();
  const m4b = path.join(dir, 'book.m4b');
  await (await download).saveAs(m4b);
  const probe = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', m4b], { encoding: 'utf8' }),
  );
  expect(probe.chapters.map((c: { tags: { title: string } }) => c.tags.title)).toEqual(['第一章 相遇']);

  // The works list shows the progress.
  await page.goto(`${APP}/audio-book`);
  await expect(page.getByTestId('book-row')).toHaveCount(1);
  await expect(page.getByTestId('book-chapters')).toContainText('1/2');
  await page.screenshot({ path: `${SHOTS}/04-list.png` });
});
