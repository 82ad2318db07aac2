import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { APP, operator, pickOption, shootFull, signInByCode } from './session.ts';

/**
 * Voice changer (issue 16): a spoken clip generated here (espeak-ng, a low voice) is uploaded on
 * /voice-changer, converted to a built-in female voice with the offline engine (Rubber Band R3), and
 * both the original and the converted audio load and play in the A/B players (their <audio>
 * elements report durations); the engine label, the method (signal processing), the measured F0 and
 * envelope change, and the history row are shown.
 */
const SHOTS = 'test-results/voice-changer';
const PHONE = `136${String(Date.now()).slice(-8)}`;

test('convert a generated clip on /voice-changer and play original and converted', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-vc-e2e-'));
  try {
    const clip = path.join(dir, '我的声音.wav');
    execFileSync('espeak-ng', [
      '-v',
      'en-us',
      '-p',
      '30',
      '-w',
      clip,
      'hello there, this is my own voice speaking',
    ]);
    await signInByCode(page, request, PHONE);
    operator('credits', 'grant', '--user', PHONE, '--amount', '200');

    await page.goto(`${APP}/voice-changer`);
    await expect(page.getByTestId('voice-changer-page')).toBeVisible();
    // One upload limit on the page: the tool's 5 minutes / 50 MB (tighter than the plan's), stated once.
    await expect(page.getByTestId('upload-limit')).toHaveText('单个文件不超过 50 MB，时长不超过 5 分钟');
    await expect(page.getByTestId('voice-changer-page').getByText(/不超过|最长/)).toHaveCount(1);
    await page.locator('input[type="file"]').first().setInputFiles(clip);
    await expect(page.getByTestId('vc-file')).toContainText('我的声音.wav', { timeout: 30_000 });
    await pickOption(page, 'vc-voice', '晓萌');
    await expect(page.getByTestId('vc-estimate-credits')).toBeVisible();
    const start = page.getByTestId('vc-start');
    await expect(start).toBeEnabled();
    await shootFull(page, `${SHOTS}/1-ready.png`);

    await start.click();
    const result = page.getByTestId('vc-result');
    await expect(result).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('vc-engine')).toContainText('Rubber Band R3');
    await expect(page.getByTestId('vc-f0')).toContainText('晓萌');
    // The card says how it was made and what it measured on the result: a low male voice toward a
    // female one goes up in pitch and, with the formants following, in envelope (timbre) too.
    await expect(page.getByTestId('vc-kind')).toContainText('非神经网络');
    const factor = async (id: string) =>
      Number((await page.getByTestId(id).textContent())?.match(/×([\d.]+)/)?.[1] ?? Number.NaN);
    expect(await factor('vc-measured-f0')).toBeGreaterThan(1.3);
    expect(await factor('vc-measured-envelope')).toBeGreaterThan(1.05);
    await result.screenshot({ path: `${SHOTS}/3-card.png` });

    // Both players load their audio (durations known) and play.
    for (const id of ['vc-original', 'vc-converted']) {
      const audio = page.getByTestId(id).locator('audio');
      await expect
        .poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration), { timeout: 15_000 })
        .toBeGreaterThan(1.5);
      await audio.evaluate((a: HTMLAudioElement) => {
        a.muted = true;
        return a.play();
      });
      await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0);
      await audio.evaluate((a: HTMLAudioElement) => a.pause());
    }
    // A/B keeps the position and switches to the original.
    await page.getByTestId('vc-ab').click();
    await expect(page.getByTestId('vc-ab')).toContainText('原声');
    await expect(page.getByTestId('vc-download')).toHaveAttribute('href', /.+/);
    await expect(page.getByTestId('vc-history-row').first()).toContainText('我的声音');
    await shootFull(page, `${SHOTS}/2-result.png`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
