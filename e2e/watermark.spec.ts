import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { psnrAfter } from './psnr.ts';
import { APP, operator, shootFull, signInByCode } from './session.ts';

/**
 * 去水印 (issue 28): a clip whose clean picture is known (smooth face-like gradients with grain, panning
 * slowly, made at test time) gets a semi-transparent logo in its top-left corner (a white plate at 40 % with "VW" at 50 %,
 * e2e/make-watermarked-clip.ts). It is uploaded on the 字幕擦除 page, 去水印 chosen, a wide box drawn
 * over the top-left quarter; the server finds the logo inside it and erases it with 逐帧补全, which
 * un-blends it (its transparency estimated from the video). The report names where and when the logo
 * was and that it was un-blended, the 差异 view shows nothing changed outside the erased
 * box, and the downloaded MP4 matches the clean clip inside the logo far better than the marked one,
 * and outside it as well as an encode allows.
 */
const SHOTS = 'test-results/watermark';
const PHONE = `137${String(Date.now()).slice(-8)}`;
const W = 480;
const H = 270;
const LOGO = { x: 16, y: 16, w: 96, h: 40 };

type Box = { x: number; y: number; w: number; h: number };

/** PSNR (dB) of two videos inside `box` (pixels), over the whole clip. */
function psnrIn(a: string, b: string, box: Box): number {
  const crop = `crop=${box.w}:${box.h}:${box.x}:${box.y}`;
  return psnrAfter(a, b, crop);
}

test('去水印: a drawn area, the logo found in it and filled, the output against the clean clip', async ({
  page,
  request,
}) => {
  // Making the clip (geq), finding, un-blending and checking take a few minutes on a loaded machine.
  test.setTimeout(600_000);
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-watermark-e2e-'));
  try {
    const clean = path.join(dir, 'clean.mp4');
    const marked = path.join(dir, '水印示例.mp4');
    execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'make-watermarked-clip.ts'),
        clean,
        marked,
        'face',
        JSON.stringify([{ rect: LOGO, start_ms: 0, end_ms: 4000 }]),
      ],
      { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'pipe' },
    );

    await signInByCode(page, request, PHONE);
    operator('credits', 'grant', '--user', PHONE, '--amount', '1000');
    operator('features', 'set', '--user', PHONE, '--feature', 'remove_watermark', '--on');

    await page.goto(`${APP}/video-translation/erase`);
    await page.getByRole('button', { name: /新\s*建/ }).click();
    await page.getByTestId('erase-mode').getByText('去水印').click();
    await page.locator('input[type="file"]').first().setInputFiles(marked);
    await expect(page.getByTestId('erase-file')).toContainText('水印示例.mp4', { timeout: 90_000 });
    await expect(page.getByTestId('erase-regions-frame')).toBeVisible({ timeout: 60_000 });
    // A watermark is drawn by hand: nothing is boxed to start with, and the hint says so.
    await expect(page.getByTestId('erase-regions-box')).toHaveCount(0);
    await expect(page.getByTestId('erase-detected')).toContainText('框选水印');
    await expect(page.getByTestId('erase-start')).toBeDisabled();

    // A wide box over the top-left quarter (the logo is somewhere in it).
    const stage = (await page.getByTestId('erase-regions-stage').boundingBox())!;
    await page.mouse.move(stage.x + stage.width * 0.01, stage.y + stage.height * 0.01);
    await page.mouse.down();
    await page.mouse.move(stage.x + stage.width * 0.2, stage.y + stage.height * 0.2, { steps: 5 });
    await page.mouse.move(stage.x + stage.width * 0.45, stage.y + stage.height * 0.45, { steps: 5 });
    await page.mouse.up();
    await expect(page.getByTestId('erase-regions-box')).toHaveCount(1);
    await expect(page.getByTestId('erase-method')).toContainText('逐帧补全');
    await expect(page.getByTestId('erase-start')).toHaveText(/开始去水印/);
    await expect(page.getByTestId('erase-estimate-credits')).toContainText('积分');
    await shootFull(page, `${SHOTS}/1-setup.png`);

    await page.getByTestId('erase-start').click();
    await expect(page.getByTestId('erase-started')).toBeVisible();
    await expect(page.getByTestId('erase-compare')).toBeVisible({ timeout: 180_000 });
    // Where and when the logo was found; the method that erased it.
    await expect(page.getByTestId('erase-watermarks')).toHaveText(/^左上角 [\d:]+ – [\d:]+$/);
    await expect(page.getByTestId('erase-method-used')).toHaveText(
      /^逐帧补全：(水印|\d{1,2}% 的水印像素)按估计的透明度还原出原画面/,
    );
    // The whole box is what was erased: the damage is what changed around it (next to nothing).
    const damage = page.getByTestId('erase-damage');
    await expect(damage).toHaveText(/^水印区域周边最多 [\d.]+% 的像素有明显变化$/);
    expect(Number(/([\d.]+)%/.exec((await damage.textContent()) ?? '')?.[1])).toBeLessThan(2);
    await shootFull(page, `${SHOTS}/2-result.png`);

    // The 差异 view: the picture is unchanged outside the erased box.
    await page.getByTestId('erase-view').getByText('差异').click();
    await expect(page.getByTestId('erase-difference-image')).toBeVisible({ timeout: 30_000 });
    expect(
      Number(await page.getByTestId('erase-difference-outside').getAttribute('data-share')),
    ).toBeLessThan(0.005);
    await shootFull(page, `${SHOTS}/3-difference.png`);
    await page.getByTestId('erase-view').getByText('前后对比').click();

    const saved = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByTestId('erase-download').click();
    const file = (await (await saved).path())!;
    // Inside the logo: the clean picture again, far closer than the marked clip.
    const erased = psnrIn(clean, file, LOGO);
    const before = psnrIn(clean, marked, LOGO);
    expect(erased).toBeGreaterThan(30);
    expect(erased).toBeGreaterThan(before + 12);
    // Away from it (the right half): as the source, up to the re-encode.
    expect(psnrIn(clean, file, { x: W / 2, y: 0, w: W / 2, h: H })).toBeGreaterThan(38);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
