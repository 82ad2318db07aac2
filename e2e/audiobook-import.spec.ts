import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { APP, signInByCode } from './session.ts';

/**
 * Trust at first contact (issue 30): an ordinary Chinese TXT — hard-wrapped at a fixed column, a 序 at
 * the start and a 注释 section at the end — imports as whole paragraphs with the preface and the notes
 * as marked sections (the notes left out until ticked); and the voice cards describe the standard
 * engine as what it is, with no 「播音男声」 and no 高级 badge on a voice that only costs more (its badge
 * names the plan that unlocks it).
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/audiobook-import';
const PHONE = `135${String(Date.now()).slice(-8)}`;
const PREFACE = '我在年青时候也曾经做过许多梦，后来大半忘却了，但自己也并不以为可惜。';
const STORY = [
  '清晨的街道很安静，卖早点的摊子刚刚支起来，炉火映红了半条街。',
  '李雷笑着说：“你好，今天天气很好，我们去公园走一走吧。”',
];
const NOTES = ['⑴本篇最初发表于一九二二年十二月上海《妇女杂志》第八卷第十二号。', '⑵李雷：虚构人物。'];

/** Broken at 16 characters, the first line's indent counted: lines end mid-sentence. */
function wrap(p: string, indent = '　　'): string {
  const chars = [...p];
  const lines = [indent + chars.splice(0, 16 - indent.length).join('')];
  while (chars.length) lines.push(chars.splice(0, 16).join(''));
  return lines.join('\r\n');
}

const TXT = [
  '序',
  '',
  wrap(PREFACE),
  '',
  '第一章 相遇',
  '',
  ...STORY.map((p) => `${wrap(p)}\r\n`),
  '□注释',
  '',
  ...NOTES.map((n) => `${wrap(n, '')}\r\n`),
].join('\r\n');

let page: Page;
let dir: string;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'vw-book-import-'));
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

test.afterAll(async () => {
  await page?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a hard-wrapped TXT imports as whole paragraphs, with 序 and 注释 as skippable sections', async ({
  request,
}) => {
  test.setTimeout(60_000);
  await signInByCode(page, request, PHONE);
  await page.goto(`${APP}/audio-book`);
  await expect(page.getByTestId('audio-book-page')).toBeVisible();
  const file = path.join(dir, '呐喊.txt');
  writeFileSync(file, TXT, 'utf8');
  await page.locator('input[type=file]').setInputFiles(file);

  await expect(page.getByTestId('book-work-page')).toBeVisible({ timeout: 30_000 });
  const chapters = page.getByTestId('book-chapter');
  await expect(chapters).toHaveCount(3);
  await expect(chapters.getByTestId('book-chapter-title')).toHaveText(['序', '第一章 相遇', '注释']);
  // The preface is marked and read; the notes are marked and left out until ticked.
  await expect(chapters.nth(0).getByTestId('book-chapter-kind')).toHaveText('序言');
  await expect(chapters.nth(0).getByRole('checkbox')).toBeChecked();
  await expect(chapters.nth(1).getByTestId('book-chapter-kind')).toHaveCount(0);
  await expect(chapters.nth(1).getByRole('checkbox')).toBeChecked();
  await expect(chapters.nth(2).getByTestId('book-chapter-kind')).toHaveText('附注');
  await expect(chapters.nth(2).getByRole('checkbox')).not.toBeChecked();

  // The first section: one paragraph holding the whole wrapped sentence.
  await expect(page.getByTestId('book-paragraph')).toHaveCount(1);
  await expect(page.getByTestId('book-paragraph')).toContainText(PREFACE);
  await chapters.nth(1).getByTestId('book-chapter-title').click();
  const paragraphs = page.getByTestId('book-paragraph');
  await expect(paragraphs).toHaveCount(2);
  await expect(paragraphs.nth(0)).toContainText(STORY[0]);
  await expect(paragraphs.nth(1)).toContainText('你好，今天天气很好，我们去公园走一走吧。');
  await chapters.nth(2).getByTestId('book-chapter-title').click();
  await expect(page.getByTestId('book-paragraph')).toHaveCount(2);
  await expect(page.getByTestId('book-paragraph').nth(0)).toContainText(NOTES[0]);
  // The mark says why: hovering it explains that the section can be left out.
  await chapters.nth(2).getByTestId('book-chapter-kind').hover();
  await expect(page.getByRole('tooltip')).toContainText('默认不合成');
  await page.screenshot({ path: `${SHOTS}/01-sections.png` });

  // Ticking the notes puts them in the book.
  // (The box follows the saved selection, so it turns once the server has it.)
  await chapters.nth(2).getByRole('checkbox').click();
  await expect(chapters.nth(2).getByRole('checkbox')).toBeChecked();
});

test('voice cards describe the standard engine honestly, naming the plan, never 高级, on a plan-only voice', async () => {
  await page.goto(`${APP}/voices`);
  const grid = page.getByTestId('voice-grid');
  await expect(grid.getByTestId('voice-card').first()).toBeVisible();
  const boyin = grid.locator('[data-testid="voice-card"][data-voice-id="espeak-zh-boyin"]');
  await expect(boyin).toContainText('标准引擎合成的中年男声，机器感明显：音调中等、语速中等。');
  // The badge names the plan that unlocks it, and says the sound is the same.
  await expect(boyin.getByTestId('premium-badge')).toHaveText('专业版');
  await expect(boyin.getByTestId('premium-badge')).toHaveAttribute('data-kind', 'plan');
  await expect(grid).not.toContainText('字正腔圆');
  await expect(grid).not.toContainText('播音男声');
  await expect(grid).not.toContainText('纪录片');
  // Every voice here is the standard engine: none wears the 高级 badge.
  await expect(grid.locator('[data-testid="premium-badge"][data-kind="premium"]')).toHaveCount(0);
  await expect(grid.getByTestId('premium-badge').first()).toBeVisible();
  await boyin.scrollIntoViewIfNeeded();
  await boyin.getByTestId('premium-badge').hover();
  await expect(page.getByRole('tooltip')).toContainText('专业版可用；与其他标准引擎声音同一引擎，音质相同');
  await page.screenshot({ path: `${SHOTS}/02-voice-cards.png` });

  // The TTS voice picker says the same.
  await page.goto(`${APP}/workbench/tts`);
  await page.getByTestId('voice-picker-open').click();
  const picker = page.getByTestId('voice-picker');
  await expect(picker).toBeVisible();
  const row = picker.locator('[data-testid="picker-voice"][data-voice-id="espeak-zh-boyin"]');
  await expect(row.getByTestId('premium-badge')).toHaveText('专业版');
  await expect(picker).not.toContainText('播音');
  await expect(picker.locator('[data-testid="premium-badge"][data-kind="premium"]')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/03-picker.png` });
});
