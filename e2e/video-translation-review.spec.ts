import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { APP, operator, signInByCode } from './session.ts';

/**
 * 视频翻译 paused for review after translation (issue 30): 重新翻译这一句 and 重新配音这一句 at the
 * pause change that line only — the editor keeps 确认并继续 and the project list keeps the project
 * 待确认 (never 已完成, no download) until 确认并继续 finishes the project's own task.
 */
const SHOTS = 'test-results/video-translation-review';
const PHONE = `136${String(Date.now()).slice(-8)}`;
const SRT = [
  '1\n00:00:00,200 --> 00:00:01,800\n今天天气很好。\n',
  '2\n00:00:02,100 --> 00:00:03,800\n我们去公园散步。\n',
].join('\n');

let workDir: string;
let accessToken: string;

type Project = { project: { status: string; task_id: string | null } };
async function getProject(request: APIRequestContext, id: string): Promise<Project> {
  const res = await request.get(`/v1/projects/get?project_id=${id}`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  return (await res.json()).data as Project;
}
async function balance(request: APIRequestContext): Promise<number> {
  const res = await request.get('/v1/balance/get_tenant_balance', {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  return ((await res.json()).data as { balance: number }).balance;
}
async function taskStatus(request: APIRequestContext, id: string): Promise<string> {
  const res = await request.get(`/v1/tasks/get?task_id=${id}`, {
    headers: { Authorization: `Bearer ${accessToken}` },
  });
  return ((await res.json()).data as { task: { status: string } }).task.status;
}

/** The project's row in 视频翻译's list. */
async function listRow(page: Page) {
  await page.goto(`${APP}/video-translation/translate`);
  const row = page.getByTestId('project-list').locator('tr', { hasText: '复核' });
  await expect(row).toHaveCount(1);
  return row;
}

test.beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
  workDir = mkdtempSync(path.join(tmpdir(), 'vw-translate-review-'));
});
test.afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test('a line re-translated and re-dubbed at the review pause leaves the task paused; 确认并继续 finishes it', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const clip = path.join(workDir, '复核.mp4');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'make-subtitled-clip.ts'), clip, '[]'],
    { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'pipe' },
  );
  const srt = path.join(workDir, '复核.srt');
  writeFileSync(srt, SRT);
  const auth = await signInByCode(page, request, PHONE);
  accessToken = auth.secure_tokens.access_token;
  operator('credits', 'grant', '--user', PHONE, '--amount', '2000');
  operator('features', 'set', '--user', PHONE, '--feature', 'video_translate', '--on');

  await page.goto(`${APP}/video-translation`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await page.locator('input[type="file"]').first().setInputFiles(clip);
  await expect(page.getByTestId('vt-file')).toContainText('复核.mp4', { timeout: 60_000 });
  await page.getByTestId('vt-source-language').click();
  await page.locator('.ant-select-item-option').filter({ hasText: '中文' }).first().click();
  await page.getByTestId('vt-subtitle-source').getByText('上传字幕').click();
  await page.getByTestId('vt-subtitle-input').setInputFiles(srt);
  await page.getByTestId('vt-split').click();
  await page.getByTestId('vt-review-translation').click();
  await expect(page.getByTestId('vt-estimate-credits')).toContainText('积分', { timeout: 30_000 });
  const created = page.waitForResponse((r) => r.url().includes('/v1/video-translation/create'));
  await page.getByTestId('vt-start').click();
  const body = (await (await created).json()) as {
    code: number;
    msg: string;
    data: { project_id: string; task_id: string };
  };
  expect(body.code, body.msg).toBe(0);
  const { project_id: projectId, task_id: taskId } = body.data;
  // Paused after translation: the card names the finished stage in Chinese, never its identifier.
  await expect(page.getByTestId('task-paused-hint')).toContainText('回译校对', { timeout: 120_000 });
  await expect(page.getByTestId('vt-started')).not.toContainText(/translation|recognition/);
  await page.getByTestId('vt-open-editor').click();

  const banner = page.getByTestId('translation-paused');
  await expect(banner).toContainText('翻译后');
  const rows = page.getByTestId('cue-row');
  await expect(rows).toHaveCount(2, { timeout: 30_000 });
  const before = await balance(request);

  // 重新翻译这一句: a task of that line; when it ends the project reloads, still paused.
  const retranslated = page.waitForResponse((r) => r.url().includes('/v1/video-translation/retranslate'));
  await rows.nth(1).getByTestId('cue-retranslate').click();
  const line = (await (await retranslated).json()) as {
    code: number;
    data: { credits: number; task_id: string };
  };
  expect(line.code).toBe(0);
  await expect.poll(() => taskStatus(request, line.data.task_id), { timeout: 60_000 }).toBe('succeeded');
  await expect(page.getByText('处理完成，项目已刷新')).toBeVisible({ timeout: 30_000 });
  await expect(banner).toBeVisible();
  await expect(page.getByTestId('translation-continue')).toBeEnabled();
  // Charged for the line, not for translating the video again.
  expect(before - (await balance(request))).toBe(line.data.credits);
  expect(await getProject(request, projectId)).toMatchObject({
    project: { status: 'paused', task_id: taskId },
  });

  // 重新配音这一句: that line's take only; the task still waits.
  const redubbed = page.waitForResponse((r) => r.url().includes('/v1/video-translation/redub'));
  await rows.nth(0).getByTestId('cue-redub').click();
  const redub = (await (await redubbed).json()) as { code: number; data: { task_id: string } };
  expect(redub.code).toBe(0);
  await expect.poll(() => taskStatus(request, redub.data.task_id), { timeout: 120_000 }).toBe('succeeded');
  // The editor reloaded: that line has its take, the other none yet.
  await expect(rows.nth(0).getByTestId('cue-fit')).not.toHaveAttribute('data-status', 'none', {
    timeout: 30_000,
  });
  await expect(rows.nth(1).getByTestId('cue-fit')).toHaveAttribute('data-status', 'none');
  await expect(banner).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/1-editor-paused.png` });

  // The list does not call it finished and offers nothing to download.
  let row = await listRow(page);
  await expect(row.getByTestId('project-status')).toHaveText('待确认');
  await expect(row.getByTestId('project-download')).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/2-list-paused.png` });

  // Back in the editor, 确认并继续 goes on with the project's own task to the end.
  await row.getByTestId('project-open').click();
  await expect(page.getByTestId('translation-continue')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('translation-continue').click();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect
    .poll(async () => (await getProject(request, projectId)).project.status, { timeout: 240_000 })
    .toBe('succeeded');
  row = await listRow(page);
  await expect(row.getByTestId('project-status')).toHaveText('已完成');
  await expect(row.getByTestId('project-download')).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/3-list-done.png` });
});
