import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { psnrAfter } from './psnr.ts';
import { APP, operator, shootFull, signInByCode } from './session.ts';

/**
 * 字幕提取 and 字幕擦除 (issue 15), in order on one page: a clip with two burned-in Chinese cues
 * (libass + Noto Sans CJK, espeak-ng speech; e2e/make-subtitled-clip.ts) is uploaded on the 字幕提取
 * tab; the detected band is drawn over a frame; recognition runs on the offline PP-OCRv4 engine and
 * the editor opens with the two cues. On 字幕擦除 the same video is picked from 我的素材, a box is
 * drawn over the band by hand, the before/after frame previewed, the erase run with 逐帧补全 (the
 * default); the compare slider and the check report (no residual text, the method named) show, and
 * the MP4 downloads through the download center — inside the text's box it matches the same clip made
 * without subtitles (PSNR by ffmpeg) far better than the subtitled one.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/subtitle-tools';
const PHONE = `136${String(Date.now()).slice(-8)}`;
const CUES = [
  { text: '今天天气很好', start_ms: 200, end_ms: 1800, position: 'bottom' },
  { text: '我们去公园散步', start_ms: 2100, end_ms: 3800, position: 'bottom' },
];

type Box = { x: number; y: number; w: number; h: number };
let page: Page;
let workDir: string;
let clip: string;
let clean: string;
/** Where each cue's text was drawn (0..1). */
let textBoxes: Box[];

const makeClip = (out: string, cues: typeof CUES): { boxes: Box[] } =>
  JSON.parse(
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'make-subtitled-clip.ts'),
        out,
        JSON.stringify(cues),
      ],
      { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'pipe' },
    ).toString(),
  );

/** PSNR (dB) of two videos inside `box`, from `fromS` to `toS`. */
function psnrIn(a: string, b: string, box: Box, fromS: number, toS: number): number {
  const crop = `trim=${fromS}:${toS},crop=trunc(iw*${box.w}/2)*2:trunc(ih*${box.h}/2)*2:iw*${box.x}:ih*${box.y}`;
  return psnrAfter(a, b, crop);
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  workDir = mkdtempSync(path.join(tmpdir(), 'vw-subtitles-e2e-'));
  clip = path.join(workDir, '字幕示例.mp4');
  clean = path.join(workDir, 'clean.mp4');
  textBoxes = makeClip(clip, CUES).boxes;
  // The same picture without subtitles: what the erase should give back.
  makeClip(clean, []);
  page = await browser.newPage({ acceptDownloads: true });
});

test.afterAll(async () => {
  await page?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test('字幕提取: upload, the detected band, recognition, the editor with the recognised cues', async ({
  request,
}) => {
  test.setTimeout(90_000);
  await signInByCode(page, request, PHONE);
  operator('credits', 'grant', '--user', PHONE, '--amount', '1000');
  // The free plan has no 字幕擦除: the reason replaces the start button until the operator turns it on.
  await page.goto(`${APP}/video-translation/erase`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await expect(page.getByTestId('erase-reason')).toHaveText(
    '当前账号未开通字幕擦除（升级到基础会员或以上即可使用）',
  );
  await expect(page.getByTestId('erase-start')).toHaveCount(0);
  operator('features', 'set', '--user', PHONE, '--feature', 'subtitle_erase', '--on');

  await page.goto(`${APP}/video-translation/ocr`);
  await expect(page.getByRole('tab', { name: '字幕提取' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await page.locator('input[type="file"]').first().setInputFiles(clip);
  await expect(page.getByTestId('ocr-file')).toContainText('字幕示例.mp4', { timeout: 30_000 });

  // The band the server detected is drawn over a frame of the video.
  await expect(page.getByTestId('ocr-detected')).toContainText('检测到 1 个字幕区域', { timeout: 30_000 });
  await expect(page.getByTestId('ocr-regions-frame')).toBeVisible();
  const band = page.getByTestId('ocr-regions-box');
  await expect(band).toHaveCount(1);
  const stage = (await page.getByTestId('ocr-regions-stage').boundingBox())!;
  const drawn = (await band.boundingBox())!;
  // In the lower part, spanning the width.
  expect(drawn.y - stage.y).toBeGreaterThan(stage.height * 0.7);
  expect(drawn.width).toBeGreaterThan(stage.width * 0.5);
  await expect(page.getByTestId('ocr-estimate-credits')).toContainText('积分');
  await shootFull(page, `${SHOTS}/1-ocr-detected.png`);

  await page.getByTestId('ocr-start').click();
  await expect(page.getByTestId('ocr-started')).toBeVisible();
  const open = page.getByTestId('ocr-open-editor');
  await expect(open).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: `${SHOTS}/2-ocr-done.png` });
  await open.click();

  await expect(page.getByTestId('video-editor')).toBeVisible();
  const rows = page.getByTestId('cue-row');
  await expect(rows).toHaveCount(2, { timeout: 20_000 });
  for (let i = 0; i < CUES.length; i++) {
    await expect(rows.nth(i).getByLabel('字幕文本')).toHaveValue(CUES[i].text);
  }
  await page.screenshot({ path: `${SHOTS}/3-editor.png` });
});

test('字幕擦除: a drawn box, before/after preview, erase with 逐帧补全, compare slider and report, download', async () => {
  test.setTimeout(150_000);
  await page.goto(`${APP}/video-translation/erase`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await page.getByTestId('erase-source').getByText('我的素材').click();
  // Picking the video replaces the select by the chosen file (so no pickOption, which re-reads the select).
  await page.getByTestId('erase-library').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '字幕示例.mp4' }).first().click();
  await expect(page.getByTestId('erase-file')).toContainText('字幕示例.mp4');
  await expect(page.getByTestId('erase-regions-box')).toHaveCount(1, { timeout: 30_000 });

  // Replace the detected band by a box drawn by hand over the lower part of the frame.
  await page.getByTestId('erase-regions-remove').click();
  await expect(page.getByTestId('erase-regions-box')).toHaveCount(0);
  const stage = (await page.getByTestId('erase-regions-stage').boundingBox())!;
  await page.mouse.move(stage.x + stage.width * 0.05, stage.y + stage.height * 0.84);
  await page.mouse.down();
  await page.mouse.move(stage.x + stage.width * 0.5, stage.y + stage.height * 0.93, { steps: 5 });
  await page.mouse.move(stage.x + stage.width * 0.95, stage.y + stage.height * 0.995, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByTestId('erase-regions-box')).toHaveCount(1);

  // 逐帧补全 is the recommended method for subtitles, chosen to start with.
  await expect(page.getByTestId('erase-method')).toContainText('逐帧补全');

  // Before/after of the current frame with the chosen box and method.
  await page.getByTestId('erase-preview-run').click();
  await expect(page.getByTestId('erase-preview-after')).toBeVisible({ timeout: 30_000 });
  const [before, after] = await Promise.all([
    page.getByTestId('erase-preview-before').getAttribute('src'),
    page.getByTestId('erase-preview-after').getAttribute('src'),
  ]);
  expect(before).not.toBe(after);
  await expect(page.getByTestId('erase-estimate-credits')).toContainText('积分');
  await shootFull(page, `${SHOTS}/4-erase-setup.png`);

  await page.getByTestId('erase-start').click();
  await expect(page.getByTestId('erase-started')).toBeVisible();
  await expect(page.getByTestId('erase-compare')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('erase-report')).toBeVisible();
  await expect(page.getByTestId('erase-residual-chars')).toHaveText('0');
  await expect(page.getByTestId('erase-clean')).toBeVisible();
  await expect(page.getByTestId('erase-method-used')).toHaveText(/^逐帧补全：\d+% 取自前后画面/);
  // What changed besides the text, measured against the source.
  await expect(page.getByTestId('erase-damage')).toHaveText(/最多 [\d.]+% 的像素/);
  // The slider moves the split between the original and the result.
  const slider = page.getByTestId('erase-compare').locator('.ant-slider-handle');
  await slider.focus();
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('erase-compare-after')).toHaveAttribute('style', /inset\(0px 0px 0px 70%\)/);
  // Seeking the result moves the original under it to the same time (the frame with the first cue).
  await page.getByTestId('erase-compare-after').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1;
  });
  await expect
    .poll(() => page.getByTestId('erase-compare-before').evaluate((v: HTMLVideoElement) => v.currentTime))
    .toBeCloseTo(1, 1);
  await shootFull(page, `${SHOTS}/5-erase-result.png`);

  // The damage view: the difference between the source and the result at an erased moment is dark
  // everywhere but inside the erased box (read from the picture's own pixels).
  await page.getByTestId('erase-view').getByText('差异').click();
  await expect(page.getByTestId('erase-difference-image')).toBeVisible({ timeout: 30_000 });
  const outside = Number(await page.getByTestId('erase-difference-outside').getAttribute('data-share'));
  expect(outside).toBeLessThan(0.005);
  // The band drawn above (the erased box), with a little room for the outline of its edge.
  const box = { x: 0.03, y: 0.82, w: 0.94, h: 0.18 };
  const pixels = await page
    .getByTestId('erase-difference-image')
    .evaluate(async (img: HTMLImageElement, b) => {
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const { data } = g.getImageData(0, 0, c.width, c.height);
      let outSum = 0;
      let outN = 0;
      let inMax = 0;
      for (let y = 0; y < c.height; y++) {
        for (let x = 0; x < c.width; x++) {
          const v = data[(y * c.width + x) * 4];
          const fx = x / c.width;
          const fy = y / c.height;
          if (fy >= b.y && fy <= b.y + b.h && fx >= b.x && fx <= b.x + b.w) {
            inMax = Math.max(inMax, v);
          } else {
            outSum += v;
            outN++;
          }
        }
      }
      return { outMean: outSum / outN, inMax };
    }, box);
  expect(pixels.outMean).toBeLessThan(2);
  expect(pixels.inMax).toBeGreaterThan(100);
  await expect(page.getByTestId('erase-difference-outside')).toContainText('擦除区域外有明显变化的像素');
  await shootFull(page, `${SHOTS}/6-erase-difference.png`);
  // Another moment (the slider, a second later): another frame, still dark outside the band.
  const firstUrl = await page.getByTestId('erase-difference-image').getAttribute('src');
  await page.getByTestId('erase-difference').locator('.ant-slider-handle').focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('erase-difference-image')).not.toHaveAttribute('src', firstUrl!);
  expect(Number(await page.getByTestId('erase-difference-outside').getAttribute('data-share'))).toBeLessThan(
    0.005,
  );
  await page.getByTestId('erase-view').getByText('前后对比').click();
  await expect(page.getByTestId('erase-compare')).toBeVisible();

  const saved = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByTestId('erase-download').click();
  const file = await saved;
  expect(file.suggestedFilename()).toMatch(/\.mp4$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(4, 8).toString()).toBe('ftyp');
  // Inside the first cue's text the result is the clean picture again (the subtitled clip is far off).
  const erased = psnrIn(clean, (await file.path())!, textBoxes[0], 0.3, 1.7);
  const burned = psnrIn(clean, clip, textBoxes[0], 0.3, 1.7);
  expect(erased).toBeGreaterThan(30);
  expect(erased).toBeGreaterThan(burned + 6);
  await expect(page.getByTestId('download-entry')).toContainText('1/1');

  // Back in the list, the project opens its result (not the editor).
  await page.getByTestId('erase-another').click();
  const row = page.locator('.ant-table-row').filter({ hasText: '字幕示例' });
  await expect(row.getByTestId('project-status')).toHaveText('已完成');
  await row.getByTestId('project-open').click();
  await expect(page.getByTestId('erase-project').getByTestId('erase-report')).toBeVisible();
});
