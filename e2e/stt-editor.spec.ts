import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { APP, operator, signInByCode } from './session.ts';
import { editorJourney, generateClip, typingSavesJourney } from './stt-editor-steps.ts';

/**
 * Speech to text into the subtitle editor (issue 13), in order on one page: a clip generated here
 * (espeak-ng sentences in known slots + a lavfi video, muxed by ffmpeg) is uploaded on the 语音转文字
 * tab and recognised through the fake OpenAI-compatible server (e2e/fake-asr-server.mjs, started by
 * scripts/test.sh with OPENAI_ASR_BASE_URL pointing at it); the editor opens with one cue per
 * sentence at the known times; a text is edited, a cue split, two merged, one dragged on the
 * timeline, a deletion undone; the SRT export is downloaded and its text and times asserted.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/stt-editor';
const PHONE = `137${String(Date.now()).slice(-8)}`;

let page: Page;
let workDir: string;
let clip: string;
let accessToken: string;
let projectId: string;

/** An authenticated call to the server (envelope data). */
async function call<T>(request: APIRequestContext, pathAndQuery: string): Promise<T> {
  const res = await request.get(pathAndQuery, { headers: { Authorization: `Bearer ${accessToken}` } });
  const body = (await res.json()) as { code: number; msg?: string; data: T };
  expect(body.code, body.msg).toBe(0);
  return body.data;
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  workDir = mkdtempSync(path.join(tmpdir(), 'vw-stt-e2e-'));
  clip = generateClip(workDir);
  page = await browser.newPage({ acceptDownloads: true });
});

test.afterAll(async () => {
  await page?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test('a generated clip is uploaded on the 语音转文字 tab and recognised through the fake server', async ({
  request,
}) => {
  test.setTimeout(180_000);
  const auth = await signInByCode(page, request, PHONE);
  accessToken = auth.secure_tokens.access_token;
  operator('credits', 'grant', '--user', PHONE, '--amount', '500');

  await page.goto(`${APP}/video-translation/stt`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  // The new flow's UploadDropzone (lib/upload): a file input inside the drop area.
  await page.locator('input[type="file"]').first().setInputFiles(clip);
  const start = page.getByRole('button', { name: /开始识别/ });
  // Enabled once the upload is registered as an asset (and the estimate is shown).
  await expect(start).toBeEnabled({ timeout: 60_000 });
  await page.screenshot({ path: `${SHOTS}/1-stt-ready.png` });

  const created = page.waitForResponse(
    (r) => r.url().includes('/v1/stt/create') && r.request().method() === 'POST',
  );
  await start.click();
  const body = (await (await created).json()) as {
    code: number;
    data: { project_id: string; task_id: string };
  };
  expect(body.code).toBe(0);
  projectId = body.data.project_id;

  // The task runs through the fake recogniser; the tab shows it live, the API says when it is done.
  await expect
    .poll(
      async () => {
        const d = await call<{ project: { status: string } }>(
          request,
          `/v1/projects/get?project_id=${encodeURIComponent(projectId)}`,
        );
        if (d.project.status === 'failed') throw new Error('the speech-to-text task failed');
        return d.project.status;
      },
      { timeout: 120_000, intervals: [500, 1000, 2000] },
    )
    .toBe('succeeded');
  await page.screenshot({ path: `${SHOTS}/2-stt-done.png` });
});

test('the editor: edit, split, merge, drag, undo, then export SRT with the edited text and times', async () => {
  test.setTimeout(120_000);
  await editorJourney(page, projectId, SHOTS);
});

test('text typed into a cue (no Enter) is saved: 未保存 / 保存中… then 已保存, a failure says what to do, a reload keeps it', async () => {
  test.setTimeout(120_000);
  await typingSavesJourney(page, projectId, SHOTS);
});
