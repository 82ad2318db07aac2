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
  // A pause at the end: a mark beside the text (never a tag in it), not counted.
  await box.press('End');
  await page.getByTestId('insert-pause').click();
  await page.getByTestId('pause-preset-500').click();
  await expect(page.getByTestId('pause-mark')).toHaveAttribute('data-ms', '500');
  await expect(box).toHaveValue(TEXT);
  await expect(page.getByTestId('char-count')).toHaveAttribute('data-count', String([...TEXT].length));
  // Backspace right after it removes the pause, not a character.
  await box.press('Backspace');
  await expect(page.getByTestId('pause-mark')).toHaveCount(0);
  await expect(box).toHaveValue(TEXT);

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

  // The place is marked beside the text; the text stays as typed.
  await page.getByTestId('polyphone-toggle').click();
  await expect(page.getByTestId('tts-text')).toHaveValue(TEXT);
  await expect(page.getByTestId('reading-mark')).toHaveAttribute('data-pinyin', 'hang2');
  await expect(page.getByTestId('reading-mark')).toHaveAttribute('data-at', String(TEXT.lastIndexOf('行')));

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

/** 鲁迅《故乡》(1921, public domain), with many polyphones. */
const GUXIANG =
  '我冒了严寒，回到相隔二千余里，别了二十余年的故乡去。时候既然是深冬；渐近故乡时，天气又阴晦了，' +
  '冷风吹进船舱中，呜呜的响，从篷隙向外一望，苍黄的天底下，远近横着几个萧索的荒村，没有一些活气。' +
  '我的心禁不住悲凉起来了。阿！这不是我二十年来时时记得的故乡？我所记得的故乡全不如此。' +
  '他的长子还在长大，行了长长的路。';

interface Reading {
  at: number;
  char: string;
  pinyin: string;
}

/** Every spot of the 多音字 view: its character, offset and reading, and whether the user marked it. */
async function spots() {
  await expect(page.getByTestId('polyphone-view')).toBeVisible();
  await expect(page.getByTestId('polyphone-spot').first()).toBeVisible();
  return page.getByTestId('polyphone-spot').evaluateAll((els) =>
    els.map((e) => ({
      at: Number(e.getAttribute('data-offset')),
      char: e.getAttribute('data-char') ?? '',
      pinyin: e.getAttribute('data-pinyin') ?? '',
      marked: e.classList.contains('is-marked'),
      label: e.querySelector('rt')?.textContent ?? '',
    })),
  );
}

/** Opens 多音字 and checks every spot sits on its character and the marked ones are exactly `marks`. */
async function expectSpots(text: string, marks: Reading[]) {
  await page.getByTestId('polyphone-toggle').click();
  const all = await spots();
  expect(all.length).toBeGreaterThan(20);
  for (const s of all) {
    expect(text[s.at], `spot at ${s.at}`).toBe(s.char);
    // Labels are pinyin with tone marks: never tone digits (de0, zhang3).
    expect(s.label).not.toMatch(/\d/);
  }
  const marked = all.filter((s) => s.marked).map(({ at, char, pinyin }) => ({ at, char, pinyin }));
  expect(marked).toEqual([...marks].sort((a, b) => a.at - b.at));
  await page.getByTestId('polyphone-toggle').click();
  await expect(page.getByTestId('tts-text')).toHaveValue(text);
}

/** Types `insert` at `at` (replacing `remove` characters) the way a user does, in the text box. */
async function typeAt(at: number, insert: string, remove = 0) {
  const box = page.getByTestId('tts-text');
  await box.evaluate(
    (a: HTMLTextAreaElement, [s, e]) => {
      a.focus();
      a.setSelectionRange(s, e);
    },
    [at, at + remove],
  );
  if (remove) await box.press('Backspace');
  if (insert) await page.keyboard.insertText(insert);
}

test('polyphone readings stay marks on their characters through edits, 多音字 and a reload', async () => {
  const box = page.getByTestId('tts-text');
  await box.fill(GUXIANG);
  await page.getByTestId('polyphone-toggle').click();
  const before = await spots();

  // Choose another reading at five places spread over the paragraph.
  const places = [
    GUXIANG.indexOf('了'),
    GUXIANG.indexOf('的'),
    GUXIANG.indexOf('得'),
    GUXIANG.indexOf('长子'),
    GUXIANG.lastIndexOf('长'),
  ];
  let marks: Reading[] = [];
  for (const at of places) {
    const spot = before.find((s) => s.at === at);
    expect(spot, `a polyphone at ${at}`).toBeTruthy();
    await page.locator(`[data-testid="polyphone-spot"][data-offset="${at}"]`).click();
    const editor = page.getByTestId('polyphone-editor');
    const options = editor.getByTestId('polyphone-reading');
    await expect(options.first()).toBeAttached();
    const labels = await editor
      .locator('label', { has: page.getByTestId('polyphone-reading') })
      .allTextContents();
    expect(labels.length).toBeGreaterThan(1);
    expect(labels.join(' '), 'reading labels').not.toMatch(/\d/);
    const values = await options.evaluateAll((els) => els.map((e) => e.getAttribute('data-pinyin') ?? ''));
    // Each reading is offered once (de5 and de0 are one reading).
    expect(new Set(labels).size).toBe(labels.length);
    const pinyin = values.find((v) => v !== spot?.pinyin) ?? '';
    await editor.locator('label', { has: page.locator(`[data-pinyin="${pinyin}"]`) }).click();
    await editor.getByTestId('polyphone-apply').click();
    // The popover closes (so the next place's options are the only ones).
    await expect(editor).toHaveCount(0);
    await expect(page.locator(`[data-testid="polyphone-spot"][data-offset="${at}"]`)).toHaveAttribute(
      'data-pinyin',
      pinyin,
    );
    marks.push({ at, char: GUXIANG[at], pinyin });
  }
  await page.getByTestId('polyphone-toggle').click();
  // The text box shows the text as typed, the readings as marks over their characters.
  await expect(box).toHaveValue(GUXIANG);
  await expect(page.getByTestId('reading-mark')).toHaveCount(marks.length);
  await shoot('tts-reading-marks');

  // Edits before, between and right next to the marked characters.
  let text = GUXIANG;
  const edit = async (at: number, insert: string, remove = 0) => {
    await typeAt(at, insert, remove);
    text = text.slice(0, at) + insert + text.slice(at + remove);
    const delta = insert.length - remove;
    // Marks after the change move with their characters; a removed character takes its mark along.
    marks = marks
      .filter((m) => m.at < at || m.at >= at + remove)
      .map((m) => (m.at >= at + remove ? { ...m, at: m.at + delta } : m));
    await expect(box).toHaveValue(text);
  };
  await edit(0, '【节选】');
  await edit(text.indexOf('我冒了严寒，'), '', '我冒了严寒，'.length - 1); // with its marked 了
  expect(marks).toHaveLength(4);
  const zhang = marks[2].at;
  await edit(zhang + 1, '长'); // an equal character typed right after a marked one
  await edit(zhang, '年'); // and one typed right before it
  await edit(text.indexOf('天气'), '那时');
  await expectSpots(text, marks);

  // A pause: a mark too, sent with the readings as the server's markup.
  await typeAt(text.indexOf('我的心'), '');
  await page.getByTestId('insert-pause').click();
  await page.getByTestId('pause-preset-1000').click();
  await expect(page.getByTestId('pause-mark')).toHaveAttribute('data-at', String(text.indexOf('我的心')));
  await expect(box).toHaveValue(text);
  await shoot('tts-pause-mark');

  // The draft survives a reload and leaving the page.
  await page.reload();
  await expect(box).toHaveValue(text);
  await expect(page.getByTestId('pause-mark')).toHaveCount(1);
  await expectSpots(text, marks);
  const nav = page.getByTestId('sidebar');
  await nav.locator('a.vw-nav-item:not([href$="/tts"])').first().click();
  await expect(page.getByTestId('tts-page')).toBeHidden();
  await nav.locator('a.vw-nav-item[href$="/tts"]').first().click();
  await expect(box).toHaveValue(text);
  await expect(page.getByTestId('reading-mark')).toHaveCount(marks.length);

  let wire = '';
  for (let i = 0; i < text.length; i++) {
    if (i === text.indexOf('我的心')) wire += '<break time="1000ms"/>';
    const m = marks.find((x) => x.at === i);
    wire += m ? `<phoneme ph="${m.pinyin}">${text[i]}</phoneme>` : text[i];
  }
  const [req] = await Promise.all([
    page.waitForRequest((r) => r.url().includes('/v1/tts/generate') && r.method() === 'POST'),
    page.getByTestId('generate').click(),
  ]);
  expect(req.postDataJSON().text).toBe(wire);
  await expect(page.getByTestId('tts-result')).toHaveAttribute('data-phase', 'done', { timeout: 60_000 });

  // Editing one sentence before regenerating it: its text as typed, its readings kept as marks.
  const sentence = page.getByTestId('sentence').filter({ hasText: '行了长长的路' });
  await sentence.getByTestId('sentence-regenerate').click();
  const sentenceBox = page.locator('.vw-sentence-edit textarea');
  const shown = await sentenceBox.inputValue();
  expect(shown).toContain('行了长长的路');
  expect(shown).not.toContain('<');
  await sentenceBox.evaluate((a: HTMLTextAreaElement) => {
    a.focus();
    a.setSelectionRange(0, 0);
  });
  await page.keyboard.insertText('后来');
  await expect(sentenceBox).toHaveValue(`后来${shown}`);
  const [again] = await Promise.all([
    page.waitForRequest((r) => r.url().includes('/v1/tts/regenerate_sentence')),
    page.getByTestId('sentence-regenerate-confirm').click(),
  ]);
  const sentWire = wire.slice(wire.lastIndexOf('他的'));
  expect(shown).toBe(sentWire.replace(/<[^>]+>/g, ''));
  expect(again.postDataJSON().text).toBe(`后来${sentWire}`);
  // The editor takes the item's new text, readings still marks on their characters.
  await expect(box).toHaveValue(text.replace('他的', '后来他的'));
  await expect(page.getByTestId('reading-mark')).toHaveCount(marks.length);
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
