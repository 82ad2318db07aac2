import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { APP, operator, shootFull, signInByCode } from './session.ts';

/*
 * Voice cloning (issue 16), in order on one page: the microphone is Chromium's fake capture device
 * playing a generated WAV (espeak-ng speech at −20 dB RMS), so "recording" records known speech.
 * Record a sample → the check report → consent (checkbox + the shown sentence read aloud; the e2e
 * fake recognizer is told to hear that sentence) → create a fast clone (standard engine: 标准引擎近似)
 * → preview a candidate and save → use the cloned voice on /tts.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/voice-clone';
// Outside test-results (Playwright empties that folder at the start of a run).
const WAV = path.join(tmpdir(), 'vw-e2e-voice-clone', 'fake-mic.wav');
const FAKE_ASR = `http://127.0.0.1:${process.env.FAKE_ASR_PORT ?? '18789'}`;

// The fake microphone's file must exist before the browser starts.
mkdirSync(path.dirname(WAV), { recursive: true });
mkdirSync(SHOTS, { recursive: true });
const RAW = `${WAV}.raw.wav`;
execFileSync('espeak-ng', [
  '-v',
  'en-us',
  '-s',
  '160',
  '-w',
  RAW,
  'Voice cloning needs a clean sample. Read a few sentences in a quiet room and keep a steady distance from the microphone. Speak naturally and do not rush. The quick brown fox jumps over the lazy dog.',
]);
execFileSync('ffmpeg', [
  '-hide_banner',
  '-loglevel',
  'error',
  '-i',
  RAW,
  '-ar',
  '48000',
  '-ac',
  '1',
  '-af',
  'volume=-1dB,alimiter=limit=0.5:level=0',
  '-c:a',
  'pcm_s16le',
  '-y',
  WAV,
]);

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-audio-capture=${WAV}`,
    ],
  },
});

let page: Page;
const shoot = (name: string) => shootFull(page, `${SHOTS}/${name}.png`);
const PHONE = `139${String(Date.now()).slice(-8)}`;

/** Records `seconds` from the fake microphone with the Recorder inside `scope`. */
async function record(scope: string, seconds: number) {
  const box = page.getByTestId(scope);
  await box.getByTestId('record-start').click();
  await expect(box.getByTestId('recording-time')).toContainText(`0:${String(seconds).padStart(2, '0')}`, {
    timeout: (seconds + 10) * 1000,
  });
  await box.getByTestId('record-stop').click();
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  operator('settings', 'set', 'voice_clone_switch', 'true');
  page = await browser.newPage();
});

test.afterAll(async () => {
  await fetch(`${FAKE_ASR}/__hear`, { method: 'DELETE' }).catch(() => undefined);
  operator('settings', 'set', 'voice_clone_switch', 'false');
  await page?.close();
});

test('clone home: quota, engines and the two ways in', async ({ request }) => {
  test.setTimeout(60_000);
  await signInByCode(page, request, PHONE);
  await page.goto(`${APP}/voice-cloning`);
  await expect(page.getByTestId('clone-home')).toBeVisible();
  await expect(page.getByTestId('clone-quota-fast')).toContainText('0 / 1');
  await expect(page.getByTestId('clone-engines')).toContainText('标准引擎近似');
  // engines this server does not run are not shown to users (the operator sees them in the admin CLI)
  await expect(page.getByTestId('clone-engines')).not.toContainText('GPT-SoVITS');
  await expect(page.getByTestId('clone-home')).not.toContainText('未配置');
  await shoot('home-empty');
  await page.getByTestId('clone-way-fast').click();
  await expect(page.getByTestId('normal-clone')).toBeVisible();
});

test('record a sample from the microphone and see the check report', async () => {
  test.setTimeout(90_000);
  await page.locator('.ant-select').first().click();
  await page.locator('.ant-select-item-option').filter({ hasText: '英语' }).click();
  await page.getByTestId('clone-source').getByText('在线录音').click();
  await record('clone-sample-recorder', 13);
  await expect(page.getByTestId('clone-assets').locator('li')).toHaveCount(1, { timeout: 20_000 });
  const report = page.getByTestId('clone-report');
  await expect(report).toBeVisible({ timeout: 30_000 });
  await expect(report.getByTestId('clone-overall-items')).toContainText('总时长');
  await expect(report.getByTestId('check-duration')).toHaveAttribute('data-status', 'pass');
  await expect(report.getByTestId('clone-file-items')).toContainText('真峰值');
  await expect(report.getByTestId('check-speaker')).toHaveAttribute('data-status', 'not_checked');
  // A recommended fix runs in one click and offers before/after playback.
  const fixAll = report.getByTestId('clone-fix-all');
  if (await fixAll.count()) {
    await fixAll.click();
    await expect(page.getByTestId('clone-before-after')).toBeVisible({ timeout: 30_000 });
  }
  await expect(page.getByTestId('clone-report-verdict')).toHaveText('样本检测通过', { timeout: 30_000 });
  await shoot('check-report');
});

test('consent: the checkbox and the shown sentence read aloud', async () => {
  test.setTimeout(60_000);
  const sentence = (await page.getByTestId('clone-consent-sentence').textContent())?.trim() ?? '';
  expect(sentence.length).toBeGreaterThan(10);
  // The e2e recognizer hears whatever it is told: here, the sentence (a real one would hear the user).
  await fetch(`${FAKE_ASR}/__hear`, { method: 'POST', body: JSON.stringify({ text: sentence }) });
  await page.getByTestId('clone-consent-check').click();
  await record('clone-consent', 3);
  await expect(page.getByTestId('clone-consent-recorded')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('clone-name').fill('我的英文声音');
  await expect(page.getByTestId('clone-create')).toBeEnabled();
  await shoot('consent');
});

test('create the fast clone, preview a candidate and save it', async () => {
  test.setTimeout(90_000);
  await page.getByTestId('clone-create').click();
  await expect(page.getByTestId('clone-candidates')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('clone-engine-note')).toContainText('标准引擎近似');
  const candidates = page.getByTestId('clone-candidate');
  expect(await candidates.count()).toBeGreaterThanOrEqual(1);
  await candidates.first().getByTestId('clone-preview').click();
  const audio = page.getByTestId('clone-preview-audio').first();
  await expect(audio).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => a.readyState >= 2 && a.duration > 0.5), {
      timeout: 15_000,
    })
    .toBe(true);
  await shoot('candidates');
  await page.getByTestId('clone-save').click();
  await expect(page.getByTestId('clone-saved')).toBeVisible();
});

test('use the cloned voice on /tts', async () => {
  test.setTimeout(60_000);
  await page.getByTestId('clone-use-tts').click();
  await expect(page.getByTestId('tts-page')).toBeVisible();
  await expect(page.getByTestId('voice-current')).toContainText('我的英文声音', { timeout: 15_000 });
  await page.getByTestId('tts-text').fill('Hello, this is my cloned voice speaking.');
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('tts-result')).toHaveAttribute('data-phase', 'done', { timeout: 30_000 });
  await shoot('tts-with-clone');
  // In 我的声音 of the library, and listed on the clone home with its honest label.
  await page.goto(`${APP}/voice-cloning`);
  const row = page.getByTestId('clone-list').locator('tr', { hasText: '我的英文声音' });
  await expect(row).toContainText('标准引擎近似');
  await expect(row.getByTestId('clone-status')).toHaveText('可用');
  await expect(page.getByTestId('clone-quota-fast')).toContainText('1 / 1');
  await shoot('home-with-clone');
  // 我的声音 in the voice library, with the honest label, and the way to manage it.
  await page.goto(`${APP}/voices`);
  await page.getByRole('tab', { name: '我的声音' }).click();
  await expect(page.getByTestId('voice-grid')).toContainText('我的英文声音');
  await expect(page.getByTestId('voice-grid')).toContainText('标准引擎近似');
  await expect(page.getByTestId('mine-manage')).toBeVisible();
  await shoot('voices-mine');
});
