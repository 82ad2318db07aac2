import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { APP, operator, shootFull, signInByCode } from './session.ts';

/**
 * 视频翻译 end to end (issue 18), in order on one page: a clip with two burned-in Chinese cues
 * (e2e/make-subtitled-clip.ts) is uploaded in the wizard with 画面字幕识别 as the subtitle source, the
 * detected band used for recognition and erasing, English as the target, dubbing and bilingual burned
 * subtitles; the task runs (PP-OCRv4, the fake OpenAI-compatible translator that scripts/test.sh starts
 * on 18791 as LLM_BASE_URL — zh → toneless pinyin), the editor shows source | translation |
 * back-translation; one translation is fixed and that line alone re-dubbed; the MP4 (bilingual,
 * burned) and the bilingual SRT are exported through the download center and read back; a
 * notification click (video-edit with the task id) opens the editor on the project.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/video-translation';
const PHONE = `137${String(Date.now()).slice(-8)}`;
const CUES = [
  { text: '今天天气很好', start_ms: 200, end_ms: 1800, position: 'bottom' },
  { text: '我们去公园散步', start_ms: 2100, end_ms: 3800, position: 'bottom' },
];
const FIXED = 'The weather is lovely today';

let page: Page;
let workDir: string;
let clip: string;
let accessToken: string;
let projectId: string;
let taskId: string;

type Cue = {
  id: string;
  text: string;
  back_text?: string | null;
  takes?: Array<{ text: string }>;
  take_id?: string | null;
};
type Doc = {
  project: { status: string; task_id: string | null };
  document: {
    tracks: Array<{ id: string; kind: string; cues: Cue[] }>;
    translation?: { target_track_id: string; model: string };
  };
};

async function call<T>(request: APIRequestContext, pathAndQuery: string): Promise<T> {
  const res = await request.get(pathAndQuery, { headers: { Authorization: `Bearer ${accessToken}` } });
  const body = (await res.json()) as { code: number; msg?: string; data: T };
  expect(body.code, body.msg).toBe(0);
  return body.data;
}
const getDoc = (request: APIRequestContext) => call<Doc>(request, `/v1/projects/get?project_id=${projectId}`);
const targetCues = (d: Doc) =>
  d.document.tracks.find((t) => t.id === d.document.translation?.target_track_id)?.cues ?? [];

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  workDir = mkdtempSync(path.join(tmpdir(), 'vw-translate-e2e-'));
  clip = path.join(workDir, '公园.mp4');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'make-subtitled-clip.ts'), clip, JSON.stringify(CUES)],
    { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'pipe' },
  );
  page = await browser.newPage({ acceptDownloads: true });
});

test.afterAll(async () => {
  await page?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test('wizard: upload, on-screen subtitles with the detected band, erase, dub, estimate → progress → editor', async ({
  request,
}) => {
  test.setTimeout(300_000);
  const auth = await signInByCode(page, request, PHONE);
  accessToken = auth.secure_tokens.access_token;
  operator('credits', 'grant', '--user', PHONE, '--amount', '2000');
  operator('features', 'set', '--user', PHONE, '--feature', 'video_translate', '--on');
  operator('features', 'set', '--user', PHONE, '--feature', 'subtitle_erase', '--on');

  await page.goto(`${APP}/video-translation`);
  // 视频翻译 is the first tab.
  await expect(page.getByRole('tab', { name: '视频翻译' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await expect(page.getByTestId('vt-new')).toBeVisible();
  // A language model is configured (the fake): no "manual translation" notice, the model is named.
  await expect(page.getByTestId('vt-llm')).toContainText('fake-chat');
  await expect(page.getByTestId('vt-no-llm')).toHaveCount(0);
  await page.locator('input[type="file"]').first().setInputFiles(clip);
  await expect(page.getByTestId('vt-file')).toContainText('公园.mp4', { timeout: 60_000 });

  await expect(page.getByTestId('vt-targets')).toContainText('英语');
  await page.getByTestId('vt-source-language').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '中文' }).first().click();
  // The two cues stay two lines (smart splitting would join cues this short and close).
  await page.getByTestId('vt-split').click();
  // Preferences and glossary are saved per user in the drawer; the glossary reaches the translator.
  await page.getByTestId('vt-prefs-open').click();
  const drawer = page.getByTestId('vt-prefs-drawer');
  await drawer.getByTestId('vt-pref-style').locator('input').fill('口语');
  await drawer.getByPlaceholder('例如：海外年轻用户、专业开发者').fill('海外年轻用户');
  await drawer.getByRole('tab', { name: '术语表' }).click();
  await drawer.getByTestId('vt-glossary-text').fill('公园 = Park\nDeepSeek');
  await expect(drawer.getByTestId('vt-glossary-count')).toHaveText('2 条（其中不翻译 1 条）');
  await page.screenshot({ path: `${SHOTS}/0-glossary.png` });
  await drawer.getByTestId('vt-prefs-save').click();
  await expect(page.getByTestId('vt-prefs-summary')).toHaveText('风格：口语 · 术语 2 条');
  await page
    .getByTestId('vt-subtitle-source')
    .getByText(/画面字幕识别/)
    .click();
  await page.getByTestId('vt-erase').click();
  await expect(page.getByTestId('vt-detected')).toContainText('检测到 1 个字幕区域', { timeout: 60_000 });
  await expect(page.getByTestId('vt-regions-box')).toHaveCount(1);
  await expect(page.getByTestId('vt-estimate-credits')).toContainText('积分', { timeout: 30_000 });
  await shootFull(page, `${SHOTS}/1-wizard.png`);

  const created = page.waitForResponse((r) => r.url().includes('/v1/video-translation/create'));
  await page.getByTestId('vt-start').click();
  const body = (await (await created).json()) as {
    code: number;
    msg: string;
    data: { project_id: string; task_id: string };
  };
  expect(body.code, body.msg).toBe(0);
  projectId = body.data.project_id;
  taskId = body.data.task_id;
  await expect(page.getByTestId('vt-started-item')).toHaveCount(1);
  await expect(page.getByTestId('vt-started-item')).toContainText('英语');
  await page.screenshot({ path: `${SHOTS}/2-progress.png` });
  const open = page.getByTestId('vt-open-editor');
  await expect(open).toBeVisible({ timeout: 240_000 });
  expect((await getDoc(request)).project.status).toBe('succeeded');
  await open.click();

  await expect(page.getByTestId('video-editor')).toBeVisible();
  const rows = page.getByTestId('cue-row');
  await expect(rows).toHaveCount(2, { timeout: 30_000 });
  const doc = await getDoc(request);
  const cues = targetCues(doc);
  for (let i = 0; i < CUES.length; i++) {
    await expect(rows.nth(i).getByLabel('原文')).toHaveValue(CUES[i]!.text);
    // The fake translator answers toneless pinyin; the editor shows what the project holds.
    await expect(rows.nth(i).getByLabel('译文')).toHaveValue(cues[i]!.text);
    // The glossary's term is translated its way.
    expect(cues[i]!.text).toContain(i === 0 ? 'tian qi' : 'Park');
    // Back-translated by the fake's memory: the source again, no drift.
    await expect(rows.nth(i).getByTestId('cue-back')).toContainText(CUES[i]!.text);
    await expect(rows.nth(i).getByTestId('cue-back')).toHaveAttribute('data-flagged', 'false');
  }
  await expect(page.getByTestId('translation-model')).toContainText('fake-chat');
  // Picking a line seeks to it: the player draws the translation with the source under it.
  await rows.nth(1).locator('.vw-ed-cue-index').click();
  await expect(page.getByTestId('subtitle-overlay')).toContainText(cues[1]!.text);
  await expect(page.getByTestId('subtitle-overlay')).toContainText(CUES[1]!.text);
  await expect(page.getByTestId('cue-fit')).toHaveCount(2);
  // The dub track and the mix of the render play in the editor.
  const mix = page.getByTestId('dub-hear').locator('.ant-segmented-item', { hasText: '混音' });
  await expect(mix).not.toHaveClass(/ant-segmented-item-disabled/);
  await mix.click();
  await expect(page.getByTestId('editor-dub-audio')).toHaveAttribute('src', /mix\.mp3/);
  await page.screenshot({ path: `${SHOTS}/3-editor.png` });
});

test('fix a translation, re-dub that line only', async ({ request }) => {
  test.setTimeout(240_000);
  const before = targetCues(await getDoc(request));
  const target = page.getByTestId('cue-row').nth(0).getByLabel('译文');
  await target.click();
  await target.fill(FIXED);
  await target.press('Enter');
  // The old back-translation was of the old text: it is gone until the next back-translation.
  await expect(page.getByTestId('cue-row').nth(0).getByTestId('cue-back')).toContainText('尚未回译');
  await expect(page.getByTestId('save-status')).toHaveText('已保存', { timeout: 15_000 });

  await page.getByTestId('cue-row').nth(0).getByTestId('cue-redub').click();
  await expect
    .poll(
      async () => {
        const d = await getDoc(request);
        const c = targetCues(d);
        return `${d.project.status}:${c[0]!.takes?.length ?? 0}:${c[0]!.takes?.at(-1)?.text}`;
      },
      { timeout: 180_000 },
    )
    .toBe(`succeeded:${(before[0]!.takes?.length ?? 0) + 1}:${FIXED}`);
  // Only that line got a new take.
  const after = targetCues(await getDoc(request));
  expect(after[1]!.takes?.length ?? 0).toBe(before[1]!.takes?.length ?? 0);
  // The editor reloads the project when the task ends: the fixed line is there, not stale.
  await expect(page.getByTestId('cue-row').nth(0).getByLabel('译文')).toHaveValue(FIXED, { timeout: 30_000 });
  await expect(page.getByTestId('cue-fit').nth(0)).not.toHaveAttribute('data-stale', 'true');
  // 回译校对 of the fixed line: the fake translator cannot take this English back to Chinese (it knows
  // only its own translations), so the meaning "drifted" and the line is flagged.
  const back = page.getByTestId('cue-row').nth(0).getByTestId('cue-back');
  await back.getByTestId('cue-back-run').click();
  await expect(back).toHaveAttribute('data-flagged', 'true', { timeout: 60_000 });
  await expect(back.getByTestId('cue-drift')).toContainText('偏移');
  await expect(page.getByTestId('translation-flagged')).toHaveText('1 句语义偏移');
  await page.screenshot({ path: `${SHOTS}/4-redubbed.png` });
});

test('export the MP4 (bilingual, burned) and the bilingual SRT through the download center', async () => {
  test.setTimeout(300_000);
  await page
    .getByRole('button', { name: /导\s*出/ })
    .first()
    .click();
  const dialog = page.getByTestId('translation-export');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('export-video-lines')).toContainText('双语');
  await expect(page.locator('.ant-modal.ant-zoom-appear, .ant-modal.ant-zoom-enter')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/5-export.png` });
  const mp4Download = page.waitForEvent('download', { timeout: 240_000 });
  await page
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /导\s*出/ })
    .click();
  const mp4 = await mp4Download;
  expect(mp4.suggestedFilename()).toMatch(/\.mp4$/);
  const probe = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', (await mp4.path())!]).toString(),
  ) as { streams: Array<{ codec_type: string }> };
  expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);

  await page
    .getByRole('button', { name: /导\s*出/ })
    .first()
    .click();
  await expect(dialog).toBeVisible();
  await dialog.getByText('字幕文件').click();
  await dialog.getByTestId('export-format').getByText('SRT').click();
  await dialog.getByTestId('export-lines').getByText('双语').click();
  const srtDownload = page.waitForEvent('download', { timeout: 30_000 });
  await page
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /导\s*出/ })
    .click();
  const srt = readFileSync((await (await srtDownload).path())!, 'utf8');
  const blocks = srt.trim().split(/\r?\n\r?\n/);
  expect(blocks).toHaveLength(2);
  expect(blocks[0]).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\r?\n/);
  expect(blocks[0]).toContain(FIXED);
  expect(blocks[0]).toContain(CUES[0]!.text);
  expect(blocks[1]).toContain(CUES[1]!.text);
  expect(blocks[1]).toContain('Park');
});

test('a notification click (video-edit with the task id) opens the editor on the project', async () => {
  await page.goto(`${APP}/video-translation/translate`);
  await expect(page.getByTestId('project-list')).toContainText('公园');
  await expect(page.getByTestId('project-languages')).toContainText('英语');
  await page.screenshot({ path: `${SHOTS}/6-list.png` });
  // The worker forwards a click to the open pages (its broadcast channel); the page navigates in the app.
  await page.evaluate(async (id) => {
    const registration = await navigator.serviceWorker.ready;
    registration.active!.postMessage({
      type: 'broadcast',
      message: { type: 'notification-click', payload: { action: 'video-edit', task_id: id } },
    });
  }, taskId);
  await expect(page).toHaveURL(new RegExp(`/video-translation/editor\\?id=${taskId}$`));
  await expect(page.getByTestId('cue-row')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId('cue-row').nth(0).getByLabel('译文')).toHaveValue(FIXED);
  // Opened in a new window (no page open), the worker's URL does the same.
  await page.goto(`${APP}/video-translation/editor?id=${encodeURIComponent(taskId)}`);
  await expect(page.getByTestId('cue-row').nth(1).getByLabel('原文')).toHaveValue(CUES[1]!.text);
});

test('查找 finds 原文; 与下一条合并 merges 原文 and 译文; typed text is saved without Enter', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const rows = page.getByTestId('cue-row');
  const status = page.getByTestId('save-status');
  await expect(rows).toHaveCount(2, { timeout: 30_000 });
  const before = targetCues(await getDoc(request));

  // 公园 is only in the 原文 (the translation says Park).
  await page.getByRole('button', { name: '查找替换' }).click();
  await page.getByTestId('find-bar').getByLabel('查找', { exact: true }).fill('公园');
  await expect(page.getByTestId('find-count')).toHaveText('第 1 / 1 个');
  await page.getByTestId('find-bar').getByRole('button', { name: '关闭' }).click();

  // Merging the two lines merges both languages: one line, one 原文.
  await rows.nth(0).getByRole('button', { name: '与下一条合并' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0).getByLabel('原文')).toHaveValue(`${CUES[0]!.text}${CUES[1]!.text}`);
  await expect(rows.nth(0).getByLabel('译文')).toHaveValue(`${before[0]!.text} ${before[1]!.text}`);
  await expect(status).toHaveText('已保存', { timeout: 15_000 });
  const merged = await getDoc(request);
  const source = merged.document.tracks.find((t) => t.kind === 'source')!.cues;
  expect(source.map((c) => c.text)).toEqual([`${CUES[0]!.text}${CUES[1]!.text}`]);

  // The merged 原文 is one line again, so it can be edited: typed, not confirmed with Enter.
  const area = rows.nth(0).getByLabel('原文');
  await area.click();
  await area.press('End');
  await page.keyboard.type('吧');
  await expect(status).not.toHaveText('已保存');
  await expect(status).toHaveText('已保存', { timeout: 15_000 });
  await expect(area).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/7-merged.png` });
  await page.reload();
  await expect(page.getByTestId('cue-row').nth(0).getByLabel('原文')).toHaveValue(
    `${CUES[0]!.text}${CUES[1]!.text}吧`,
  );
  await expect(page.getByTestId('cue-row')).toHaveCount(1);
});
