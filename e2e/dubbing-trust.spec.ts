import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { APP, operator, signInByCode } from './session.ts';

/**
 * What a dub really says (issue 30 items 2–4), in the editor of SRT配音 projects:
 * - a line the language model shortened shows its spoken text under the subtitle, marked; one that kept
 *   less than 60 % of its characters is flagged (删减过多, never 时长合适). 接受精简 clears the flag,
 *   保留原文 dubs the whole line again (faster, in a longer slot) and the spoken text is the subtitle.
 * - with 自动校验 on, a line the recognizer still does not hear after two regenerations is flagged
 *   (failure code 5, its credits refunded) while the task succeeds; the panel says which line and why.
 * - the subtitle picker names only real speaker labels (主持人：, not 她说：), and none on 视频合成.
 * The recognizer is the fake OpenAI-compatible server: POST /__hear makes it hear one sentence.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/dubbing-trust';
const PHONE = `137${String(Date.now()).slice(-8)}`;
const FAKE_ASR = `http://127.0.0.1:${process.env.FAKE_ASR_PORT ?? '18789'}`;
const SHORT = '大家好，欢迎收看。';
const LONG = '这一句话故意写得很长很长，比它的时间段要长得多，必须缩写以后才能放进这么短的时间里。';
const OTHER = '我们明天早上八点出发。';
const srt = (lines: Array<[string, string]>) =>
  lines.map(([time, text], i) => `${i + 1}\n${time}\n${text}\n`).join('\n');

let page: Page;
let token: string;

type Cue = {
  id: string;
  text: string;
  take_id?: string;
  takes?: Array<{ id: string; text: string; accepted?: boolean; fit: { kept?: number } }>;
};
type Project = { project: { status: string }; document: { tracks: Array<{ cues: Cue[] }> } };

async function api<T>(request: APIRequestContext, method: 'GET' | 'POST', url: string, body?: unknown) {
  const res = await request.fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    ...(body ? { data: body } : {}),
  });
  const json = (await res.json()) as { code: number; msg?: string; data: T };
  expect(json.code, json.msg).toBe(0);
  return json.data;
}

const projectOf = (request: APIRequestContext, id: string) =>
  api<Project>(request, 'GET', `/v1/projects/get?project_id=${id}`);

/** Starts an SRT配音 and waits for its task to succeed; answers the project id. */
async function dub(request: APIRequestContext, name: string, text: string, options: object) {
  const created = await api<{ project_id: string; task_id: string }>(
    request,
    'POST',
    '/v1/dubbing/srt/create',
    {
      subtitle: { name, text },
      default_voice_id: 'espeak-zh-xiaoya',
      options: { outputs: ['mp3'], ...options },
    },
  );
  await expect
    .poll(async () => (await projectOf(request, created.project_id)).project.status, { timeout: 120_000 })
    .toBe('succeeded');
  return created.project_id;
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

test.afterAll(async () => {
  await fetch(`${FAKE_ASR}/__hear`, { method: 'DELETE' }).catch(() => undefined);
  await page?.close();
});

test('a shortened line shows what is spoken; too short is flagged; 接受精简 and 保留原文 act on it', async ({
  request,
}) => {
  test.setTimeout(240_000);
  const auth = await signInByCode(page, request, PHONE);
  token = auth.secure_tokens.access_token;
  operator('credits', 'grant', '--user', PHONE, '--amount', '2000');
  const projectId = await dub(
    request,
    '精简.srt',
    srt([
      ['00:00:00,300 --> 00:00:02,600', SHORT],
      ['00:00:03,000 --> 00:00:03,900', LONG],
    ]),
    { check: false, condense: true },
  );

  await page.goto(`${APP}/video-translation/editor?id=${projectId}`);
  await expect(page.getByTestId('dub-panel')).toBeVisible({ timeout: 30_000 });
  const rows = page.getByTestId('cue-row');
  await expect(rows).toHaveCount(2);
  // The short line says what it shows: no spoken-text note.
  await expect(rows.nth(0).getByTestId('cue-spoken')).toHaveCount(0);
  // The long line was cut by the language model: spoken text beside the subtitle, flagged, not green.
  const spoken = rows.nth(1).getByTestId('cue-spoken');
  await expect(spoken).toBeVisible();
  await expect(spoken).toHaveAttribute('data-flag', 'cut');
  const doc = await projectOf(request, projectId);
  const cue = doc.document.tracks[0]!.cues[1]!;
  const take = cue.takes!.find((t) => t.id === cue.take_id)!;
  expect([...take.text].length).toBeLessThan([...LONG].length);
  await expect(spoken).toContainText(take.text);
  await expect(spoken).toContainText(`保留 ${Math.round(take.fit.kept! * 100)}%`);
  await expect(rows.nth(1).getByTestId('cue-fit')).toHaveAttribute('data-status', 'cut');
  await expect(rows.nth(1).getByTestId('cue-fit')).toHaveText(/删减过多/);
  await expect(page.getByTestId('dub-cut-lines')).toContainText('第 2 句');
  await expect(page.getByTestId('timeline-dub').nth(1)).toHaveClass(/is-cut/);
  await page.screenshot({ path: `${SHOTS}/1-cut-flagged.png` });

  // 接受精简: the flag goes (saved with the document), the spoken text stays shown.
  await rows.nth(1).locator('.vw-ed-cue-index').click();
  await expect(page.getByTestId('dub-spoken')).toContainText(take.text);
  await page.getByTestId('dub-accept-spoken').click();
  await expect(rows.nth(1).getByTestId('cue-fit')).not.toHaveAttribute('data-status', 'cut');
  await expect(spoken).toHaveAttribute('data-flag', '');
  await expect(page.getByTestId('dub-cut-lines')).toHaveCount(0);
  await expect
    .poll(async () => {
      const c = (await projectOf(request, projectId)).document.tracks[0]!.cues[1]!;
      return c.takes!.find((t) => t.id === c.take_id)!.accepted ?? false;
    })
    .toBe(true);
  await page.screenshot({ path: `${SHOTS}/2-accepted.png` });

  // 保留原文: the whole line is dubbed again; what is spoken is the subtitle, nothing to show.
  await page.getByTestId('dub-keep-text').click();
  await expect
    .poll(
      async () => {
        const c = (await projectOf(request, projectId)).document.tracks[0]!.cues[1]!;
        return `${c.takes!.length}:${c.takes!.find((t) => t.id === c.take_id)!.text}`;
      },
      { timeout: 120_000 },
    )
    .toBe(`2:${LONG}`);
  await expect(rows.nth(1).getByTestId('cue-spoken')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('dub-spoken')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/3-kept-original.png` });
});

test('自动校验: a line the recognizer does not hear is flagged (code 5, refunded) and the task succeeds', async ({
  request,
}) => {
  test.setTimeout(240_000);
  // The recognizer hears the first line whatever it is given: the second never matches.
  await fetch(`${FAKE_ASR}/__hear`, { method: 'POST', body: JSON.stringify({ text: SHORT }) });
  // Started on the SRT配音 page (自动校验 is on by default): when the task ends, the page already
  // names the flagged line before anything is downloaded.
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-dub-trust-'));
  const file = path.join(dir, '校验.srt');
  writeFileSync(
    file,
    srt([
      ['00:00:00,300 --> 00:00:03,000', SHORT],
      ['00:00:03,500 --> 00:00:06,500', OTHER],
    ]),
  );
  await page.goto(`${APP}/video-translation/srt-dubbing`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await page.getByTestId('dub-subtitle-input').setInputFiles(file);
  await expect(page.getByTestId('dub-subtitle-info')).toContainText('2 句');
  await expect(page.getByTestId('dub-start')).toBeEnabled({ timeout: 60_000 });
  const created = page.waitForResponse((r) => r.url().includes('/v1/dubbing/srt/create'));
  await page.getByTestId('dub-start').click();
  const body = (await (await created).json()) as { code: number; data: { project_id: string } };
  expect(body.code).toBe(0);
  const projectId = body.data.project_id;
  await expect(page.getByTestId('dub-check-failed')).toContainText('第 2 句', { timeout: 120_000 });
  expect((await projectOf(request, projectId)).project.status).toBe('succeeded');
  await page.screenshot({ path: `${SHOTS}/4-check-done.png`, fullPage: true });
  rmSync(dir, { recursive: true, force: true });

  await page.getByTestId('dub-open-editor').click();
  await expect(page.getByTestId('dub-panel')).toBeVisible({ timeout: 30_000 });
  const rows = page.getByTestId('cue-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByTestId('cue-fit')).toHaveAttribute('data-status', /fits|tight/);
  await expect(rows.nth(0).getByTestId('cue-check-failed')).toHaveCount(0);
  await expect(rows.nth(1).getByTestId('cue-fit')).toHaveAttribute('data-status', 'mismatch');
  const note = rows.nth(1).getByTestId('cue-check-failed');
  await expect(note).toContainText('失败码 5');
  await expect(note).toContainText(`识别为「${SHORT}」`);
  await expect(page.getByTestId('dub-check-failed')).toContainText('第 2 句');
  await expect(page.getByTestId('dub-check-failed')).toContainText('积分已退还');
  await expect(page.getByTestId('timeline-dub').nth(1)).toHaveClass(/is-mismatch/);
  await page.screenshot({ path: `${SHOTS}/5-check-flagged.png` });
});

test('the subtitle picker names only real speaker labels, and none where nothing is spoken (视频合成)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vw-dub-names-'));
  const file = path.join(dir, '采访.srt');
  writeFileSync(
    file,
    srt([
      ['00:00:00,300 --> 00:00:02,000', '主持人：欢迎来到今天的节目。'],
      ['00:00:02,300 --> 00:00:04,000', '她说：我明天就回来。'],
      ['00:00:04,300 --> 00:00:06,000', '一位乘客告诉我们：车晚点了两个小时。'],
    ]),
  );
  await page.goto(`${APP}/video-translation/srt-dubbing`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await page.getByTestId('dub-subtitle-input').setInputFiles(file);
  const info = page.getByTestId('dub-subtitle-info');
  await expect(info).toContainText('3 句');
  await expect(info).toContainText('主持人');
  await expect(info).not.toContainText('她说');
  await expect(info).not.toContainText('乘客');

  await page.goto(`${APP}/video-translation/synthesis`);
  await page.getByTestId('project-new').click();
  await expect(page.getByTestId('dub-new-synthesis')).toBeVisible();
  await page.getByTestId('dub-subtitle-input').setInputFiles(file);
  await expect(info).toContainText('3 句');
  await expect(info).not.toContainText('主持人');
  await page.screenshot({ path: `${SHOTS}/6-synthesis-subtitle.png`, fullPage: true });
  rmSync(dir, { recursive: true, force: true });
});
