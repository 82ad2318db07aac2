import { mkdirSync, readFileSync } from 'node:fs';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { APP, shootFull, storeSession } from './session.ts';

/**
 * Text to speech and the voice library (issue 6), in order on one signed-in page: type Chinese text,
 * pick a voice, generate, hear it play, download MP3 and SRT, fix a polyphone (seen in the pinyin
 * the server reports and in the next SRT), find the item in the history; then the voice library.
 * Signs in as the demo account (it has credits to spend).
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/tts';
const DEMO = { account: '13800000000', password: 'demo12345' };
/** Unique per run so the history item is this run's. */
const STAMP = String(Date.now()).slice(-5);
const TEXT = `第${STAMP}号测试：我去银行取钱。他行走得很快。`;

let page: Page;
let token = '';

async function signIn(request: APIRequestContext) {
  const res = await request.post('/accounts/v1/auth_with_password', { data: DEMO });
  const body = await res.json();
  expect(body.code).toBe(0);
  token = body.data.secure_tokens.access_token;
  await storeSession(page, body.data);
}

const shoot = (name: string) => shootFull(page, `${SHOTS}/${name}.png`);

/** Clicks a download menu entry and returns the download with its saved text. */
async function download(kind: 'mp3' | 'wav' | 'srt') {
  await page.getByTestId('tts-result').getByTestId('download').click();
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(`download-${kind}`).click(),
  ]);
  const file = await dl.path();
  return { name: dl.suggestedFilename(), bytes: readFileSync(file) };
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  page = await browser.newPage({ acceptDownloads: true });
});

test.afterAll(async () => {
  await page?.close();
});

test('the /tts page opens with the default voice and the editor', async ({ request }) => {
  await signIn(request);
  await page.goto(`${APP}/tts`);
  await expect(page.getByTestId('tts-page')).toBeVisible();
  // The default voice of the map arrives (the page waits for the voice list).
  await expect(page.getByTestId('voice-current')).toHaveAttribute('data-voice-id', /.+/);
  await expect(page.getByTestId('speed-slider')).toHaveAttribute('data-rate', '1');
  await expect(page.getByTestId('char-count')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('generate')).toBeDisabled();
});

test('type Chinese text, insert a pause, pick a voice and a speed', async () => {
  const box = page.getByTestId('tts-text');
  await box.fill(TEXT);
  await expect(page.getByTestId('char-count')).toHaveAttribute('data-count', String([...TEXT].length));
  // A pause at the end; markup does not count.
  await box.press('End');
  await page.getByTestId('insert-pause').click();
  await page.getByTestId('pause-preset-500').click();
  await expect(box).toHaveValue(`${TEXT}<break time="500ms"/>`);
  await expect(page.getByTestId('char-count')).toHaveAttribute('data-count', String([...TEXT].length));
  await box.fill(TEXT);

  await page.getByTestId('voice-picker-open').click();
  const picker = page.getByTestId('voice-picker');
  await expect(picker).toBeVisible();
  await picker.getByPlaceholder('搜索声音名称、风格或场景').fill('晓');
  await expect(picker.getByTestId('picker-voice').first()).toBeVisible();
  // A premium voice shows the subscribe tip on hover.
  await picker.getByPlaceholder('搜索声音名称、风格或场景').fill('');
  const locked = picker.locator('[data-testid="picker-voice"][data-locked="true"]').first();
  if (await locked.count()) {
    await locked.hover();
    await expect(page.getByTestId('subscribe-tip')).toContainText('需要订阅高级会员使用');
    await expect(page.getByTestId('subscribe-tip')).toContainText('去订阅');
  }
  const voice = picker
    .locator('[data-testid="picker-voice"]:not([data-locked])', { hasText: '晓雅' })
    .first();
  const voiceId = await voice.getAttribute('data-voice-id');
  await voice.click();
  await expect(picker).toBeHidden();
  await expect(page.getByTestId('voice-current')).toHaveAttribute('data-voice-id', voiceId ?? '');

  // One step faster: 1.05.
  const handle = page.getByTestId('speed-slider').getByRole('slider');
  await handle.focus();
  await handle.press('ArrowRight');
  await expect(page.getByTestId('speed-slider')).toHaveAttribute('data-rate', '1.05');
});

test('generate: the audio plays, the waveform is drawn, MP3 and SRT download', async () => {
  await page.getByTestId('generate').click();
  await expect(page.getByTestId('tts-result')).toHaveAttribute('data-phase', 'done', { timeout: 30_000 });
  const audio = page.getByTestId('tts-audio');
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => (Number.isFinite(a.duration) ? a.duration : 0)))
    .toBeGreaterThan(0);
  // It plays: the clock moves.
  await audio.evaluate((a: HTMLAudioElement) => a.play());
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(0);
  await expect(page.getByTestId('waveform')).toBeVisible();
  await expect(page.getByTestId('sentence')).toHaveCount(2);
  await audio.evaluate((a: HTMLAudioElement) => a.pause());

  const name = TEXT.slice(0, 20);
  const mp3 = await download('mp3');
  expect(mp3.name).toBe(`${name}.mp3`);
  // An MP3 frame or an ID3 tag.
  expect(mp3.bytes[0] === 0xff || mp3.bytes.subarray(0, 3).toString() === 'ID3').toBe(true);
  const srt = await download('srt');
  expect(srt.name).toBe(`${name}.srt`);
  const srtText = srt.bytes.toString('utf8');
  expect(srtText).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}/);
  expect(srtText).toContain('我去银行取钱');
  await expect(page.getByTestId('download-entry')).toBeVisible();
  await shoot('tts-generated');
});

test('fix a polyphone: the server reports the new reading, and the next SRT carries the text', async ({
  request,
}) => {
  await page.getByTestId('polyphone-toggle').click();
  await expect(page.getByTestId('polyphone-view')).toBeVisible();
  // 行 of 行走 (the second 行 in the text).
  const spot = page.locator('[data-testid="polyphone-spot"][data-char="行"]').nth(1);
  await expect(spot).toBeVisible();
  const before = await spot.getAttribute('data-pinyin');
  expect(before).toBe('xing2');
  await spot.click();
  const editor = page.getByTestId('polyphone-editor');
  await editor.locator('label', { has: page.locator('[data-pinyin="hang2"]') }).click();
  await editor.getByText('同时保存到我的发音词典').click();
  // Save the word 行走 (character with its next neighbour).
  await editor
    .locator('label', { has: page.getByTestId('polyphone-word') })
    .filter({ hasText: '行走' })
    .click();
  await editor.getByTestId('polyphone-apply').click();
  await expect(page.locator('[data-testid="polyphone-spot"][data-char="行"]').nth(1)).toHaveAttribute(
    'data-pinyin',
    'hang2',
  );

  // The server now reads 行走 with the dictionary entry.
  const res = await request.post('/v1/tts/readings', {
    headers: { Authorization: `Bearer ${token}` },
    data: { text: '他行走得很快' },
  });
  const readings = (await res.json()).data.readings as Array<{
    text: string;
    pinyin: string;
    from_dictionary: boolean;
  }>;
  const xing = readings.find((r) => r.text.includes('行'));
  expect(xing?.pinyin).toContain('hang2');
  expect(xing?.from_dictionary).toBe(true);

  // The place is marked in the text itself.
  await page.getByTestId('polyphone-toggle').click();
  await expect(page.getByTestId('tts-text')).toHaveValue(/<phoneme ph="hang2">行<\/phoneme>走/);

  await page.getByTestId('generate').click();
  await expect(page.getByTestId('tts-result')).toHaveAttribute('data-phase', 'done', { timeout: 30_000 });
  const srt = await download('srt');
  expect(srt.bytes.toString('utf8')).toContain('他行走得很快');

  // Clean up the dictionary entry so later runs start from the default reading.
  await request.post('/v1/tts/dictionary/delete', {
    headers: { Authorization: `Bearer ${token}` },
    data: { word: '行走' },
  });
});

test('history shows the items; rename one', async () => {
  const history = page.getByTestId('tts-history');
  const item = history
    .getByTestId('history-item')
    .filter({ hasText: `第${STAMP}号` })
    .first();
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute('data-status', 'succeeded');
  await item.getByTestId('history-rename').click();
  const input = item
    .getByTestId('history-rename-input')
    .locator('input')
    .or(item.getByTestId('history-rename-input'));
  await input.first().fill(`测试录音 ${STAMP}`);
  await input.first().press('Enter');
  await expect(history.getByTestId('history-name').filter({ hasText: `测试录音 ${STAMP}` })).toBeVisible();
});

test('the voice library: filters, favourite, premium tip, use this voice', async () => {
  await page.goto(`${APP}/voices`);
  await expect(page.getByTestId('voices-page')).toBeVisible();
  const grid = page.getByTestId('voice-grid');
  await expect(grid.getByTestId('voice-card').first()).toBeVisible();
  const all = await grid.getByTestId('voice-card').count();
  await page.getByTestId('filter-gender').getByRole('button', { name: '男声' }).click();
  await expect.poll(() => grid.getByTestId('voice-card').count()).toBeLessThan(all);
  await page.getByTestId('filter-gender').getByRole('button', { name: '全部' }).click();

  const locked = grid.locator('[data-testid="voice-card"][data-premium="true"]').first();
  if (await locked.count()) {
    await locked.getByTestId('voice-use').hover({ force: true });
    await expect(page.getByTestId('subscribe-tip')).toBeVisible();
  }

  const card = grid.getByTestId('voice-card').filter({ hasText: '云飞' }).first();
  const fav = card.getByTestId('voice-favorite');
  const was = await fav.getAttribute('aria-pressed');
  await fav.click();
  await expect(fav).toHaveAttribute('aria-pressed', was === 'true' ? 'false' : 'true');
  if (was !== 'true') {
    await page.getByRole('tab', { name: '我的收藏' }).click();
    await expect(page.getByTestId('voice-card').filter({ hasText: '云飞' })).toBeVisible();
    await page.getByRole('tab', { name: '全部声音' }).click();
    await page.getByTestId('voice-card').filter({ hasText: '云飞' }).getByTestId('voice-favorite').click();
  }
  await page.getByRole('tab', { name: '我的声音' }).click();
  await expect(page.getByTestId('mine-empty')).toBeVisible();
  await page.getByRole('tab', { name: '全部声音' }).click();

  const target = page.getByTestId('voice-card').filter({ hasText: '云飞' }).first();
  const id = await target.getAttribute('data-voice-id');
  await target.getByTestId('voice-use').click();
  await expect(page).toHaveURL(/\/workbench\/tts$/);
  await expect(page.getByTestId('voice-current')).toHaveAttribute('data-voice-id', id ?? '');
});
