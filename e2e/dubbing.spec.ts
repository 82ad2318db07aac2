import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { APP, operator, signInByCode } from './session.ts';

/**
 * SRT配音 end to end (issue 17), in order on one page: an SRT whose second line is far too long for
 * its slot and a generated clip (lavfi video + tone) are uploaded on the SRT配音 tab and dubbed with the
 * standard engine (language-model shortening and the automatic check switched off for the first run);
 * the editor shows each line's fit, the long one as not fitting; one click on 缩写 shortens it through
 * the fake OpenAI-compatible chat server (scripts/test.sh starts it on 18791 as LLM_BASE_URL) and the
 * line fits; 渲染导出 renders again and the MP4 and SRT are downloaded through the download center.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = 'test-results/dubbing';
const PHONE = `136${String(Date.now()).slice(-8)}`;
const LONG = '这一句话故意写得很长很长，比它的时间段要长得多，必须缩写以后才能放进这么短的时间里。';
const SRT = [
  '1\n00:00:00,300 --> 00:00:02,600\n小明：大家好，欢迎收看。\n',
  `2\n00:00:03,000 --> 00:00:04,400\n小红：${LONG}\n`,
  '3\n00:00:05,400 --> 00:00:07,600\n小明：谢谢大家。\n',
].join('\n');

let page: Page;
let workDir: string;
let clip: string;
let srtFile: string;
/** A clip with subtitles burned into the picture (the AI配音 flow warns about them). */
let subtitled: string;
let accessToken: string;
let projectId: string;

async function call<T>(request: APIRequestContext, pathAndQuery: string): Promise<T> {
  const res = await request.get(pathAndQuery, { headers: { Authorization: `Bearer ${accessToken}` } });
  const body = (await res.json()) as { code: number; msg?: string; data: T };
  expect(body.code, body.msg).toBe(0);
  return body.data;
}

type Doc = {
  document: {
    tracks: Array<{
      cues: Array<{ id: string; text: string; takes?: Array<{ text: string }>; fit?: { status: string } }>;
    }>;
  };
  project: { status: string };
};

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  mkdirSync(SHOTS, { recursive: true });
  workDir = mkdtempSync(path.join(tmpdir(), 'vw-dub-e2e-'));
  clip = path.join(workDir, 'dub-clip.mp4');
  execFileSync('ffmpeg', [
    ...['-nostdin', '-y', '-loglevel', 'error'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=8'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000:duration=8'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip],
  ]);
  srtFile = path.join(workDir, '节目.srt');
  writeFileSync(srtFile, SRT);
  subtitled = path.join(workDir, '带字幕.mp4');
  const cues = [
    { text: '今天天气很好', start_ms: 200, end_ms: 1800, position: 'bottom' },
    { text: '我们去公园散步', start_ms: 2100, end_ms: 3800, position: 'bottom' },
  ];
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'make-subtitled-clip.ts'),
      subtitled,
      JSON.stringify(cues),
    ],
    { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'pipe' },
  );
  page = await browser.newPage({ acceptDownloads: true, viewport: { width: 1440, height: 900 } });
});

test.afterAll(async () => {
  await page?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

test('an SRT and a clip are dubbed on the SRT配音 tab; the editor shows each line’s fit', async ({
  request,
}) => {
  test.setTimeout(180_000);
  const auth = await signInByCode(page, request, PHONE);
  accessToken = auth.secure_tokens.access_token;
  operator('credits', 'grant', '--user', PHONE, '--amount', '1000');

  await page.goto(`${APP}/video-translation/srt-dubbing`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await page.getByTestId('dub-subtitle-input').setInputFiles(srtFile);
  await expect(page.getByTestId('dub-subtitle-info')).toContainText('3 句');
  await expect(page.getByTestId('dub-subtitle-info')).toContainText('小明、小红');
  await page.getByTestId('dub-media-step').locator('input[type="file"]').setInputFiles(clip);
  // The clip is registered as an asset (uploaded, probed) before the start.
  await expect(page.getByTestId('dub-media-step-file')).toContainText('dub-clip.mp4', { timeout: 60_000 });
  // First run without the language model and the automatic check: the long line must be reported.
  await page.getByText('超长时用语言模型缩写').click();
  await page.getByText('自动校验（语音识别比对）').click();
  const start = page.getByTestId('dub-start');
  await expect(start).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByTestId('dub-estimate-credits')).toContainText('积分');
  await page.screenshot({ path: `${SHOTS}/1-new.png`, fullPage: true });

  const created = page.waitForResponse((r) => r.url().includes('/v1/dubbing/srt/create'));
  await start.click();
  const body = (await (await created).json()) as { code: number; data: { project_id: string } };
  expect(body.code).toBe(0);
  projectId = body.data.project_id;
  await expect
    .poll(async () => (await call<Doc>(request, `/v1/projects/get?project_id=${projectId}`)).project.status, {
      timeout: 120_000,
    })
    .toBe('succeeded');
  await expect(page.getByTestId('dub-outputs')).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${SHOTS}/2-done.png`, fullPage: true });

  await page.getByTestId('dub-open-editor').click();
  await expect(page.getByTestId('dub-panel')).toBeVisible({ timeout: 30_000 });
  const fits = page.getByTestId('cue-fit');
  await expect(fits).toHaveCount(3);
  await expect(fits.nth(0)).toHaveAttribute('data-status', /fits|tight/);
  await expect(fits.nth(1)).toHaveAttribute('data-status', /overflow|unfit/);
  await expect(page.getByTestId('timeline-dub')).toHaveCount(3);
  // Casting lists both speakers.
  await expect(page.getByTestId('dub-cast-speaker')).toHaveCount(2);
  await page.screenshot({ path: `${SHOTS}/3-editor.png` });
});

test('one click on 缩写 shortens the overflowing line with the language model, and it fits', async ({
  request,
}) => {
  test.setTimeout(180_000);
  await page.getByTestId('cue-row').nth(1).locator('.vw-ed-cue-index').click();
  await expect(page.getByTestId('dub-fit-status')).toContainText(/超出|放不下/);
  await expect(page.getByTestId('dub-fit-summary')).not.toBeEmpty();
  await page.getByTestId('dub-fix-shorten').click();
  await expect
    .poll(
      async () => {
        const d = await call<Doc>(request, `/v1/projects/get?project_id=${projectId}`);
        const cue = d.document.tracks[0]!.cues[1]!;
        return `${d.project.status}:${cue.takes?.length}:${cue.fit?.status}`;
      },
      { timeout: 120_000 },
    )
    .toMatch(/^succeeded:2:(fits|tight)$/);
  // The editor reloads the project when the task ends: the line now fits with its shortened take,
  // marked as saying less than its subtitle (the spoken text is shown under it), never just 时长合适.
  await expect(page.getByTestId('cue-fit').nth(1)).toHaveAttribute('data-status', /shortened|cut/, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('cue-row').nth(1).getByTestId('cue-spoken')).toBeVisible();
  await page.getByTestId('cue-row').nth(1).locator('.vw-ed-cue-index').click();
  await expect(page.getByTestId('dub-take')).toHaveCount(2);
  // The project lies over a video: 放慢画面 is offered as a one-click fix too.
  await expect(page.getByTestId('dub-fix-slow_video')).toBeEnabled();
  const shortened = (await call<Doc>(request, `/v1/projects/get?project_id=${projectId}`)).document.tracks[0]!
    .cues[1]!.takes![1]!.text;
  expect([...shortened].length).toBeLessThan([...LONG].length);
  await page.screenshot({ path: `${SHOTS}/4-fixed.png` });
});

test('渲染导出 renders again; the MP4 and the SRT are downloaded', async () => {
  test.setTimeout(180_000);
  await page.getByTestId('dub-render').click();
  const panel = page.getByTestId('dub-panel');
  await expect(panel.getByTestId('dub-output-mp4')).toBeVisible({ timeout: 120_000 });

  const mp4Download = page.waitForEvent('download', { timeout: 30_000 });
  await panel.getByTestId('dub-output-mp4').click();
  const mp4 = await mp4Download;
  expect(mp4.suggestedFilename()).toMatch(/\.mp4$/);
  const probe = JSON.parse(
    execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', (await mp4.path())!]).toString(),
  ) as { streams: Array<{ codec_type: string }> };
  expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);

  const srtDownload = page.waitForEvent('download', { timeout: 30_000 });
  await panel.getByTestId('dub-output-srt').click();
  const srt = readFileSync((await (await srtDownload).path())!, 'utf8');
  expect(srt).toContain('00:00:00,300 --> 00:00:02,600');
  expect(srt).toContain('大家好');
  expect(srt).not.toContain('小明：');
  await page.screenshot({ path: `${SHOTS}/5-exported.png` });
});

test('AI配音 and 视频合成 open their new flows (sources, uploads, options)', async ({ request }) => {
  await page.goto(`${APP}/video-translation/dubbing`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await expect(page.getByTestId('dub-new-ai')).toBeVisible();
  await expect(page.getByTestId('dub-source')).toContainText('语音识别');
  // On-screen recognition as the subtitle source: no subtitle file asked for, the OCR hint shown.
  await page.getByTestId('dub-source').getByText('画面字幕识别').click();
  await expect(page.getByTestId('dub-source-ocr-hint')).toBeVisible();
  await expect(page.getByText('字幕文件', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('dub-slow-video')).toBeVisible();
  await expect(page.getByTestId('dub-review')).toBeVisible();
  await expect(page.getByTestId('dub-video-step')).toBeVisible();
  await expect(page.getByTestId('dub-start')).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/6-ai-new.png`, fullPage: true });

  // 我的素材 is offered, as in the other tools: the clip uploaded for SRT配音 is there.
  const video = page.getByTestId('dub-video-step');
  await video.getByTestId('dub-video-step-source').getByText('我的素材').click();
  await video.getByTestId('dub-video-step-library').click();
  await expect(page.locator('.ant-select-item-option', { hasText: 'dub-clip.mp4' })).toBeVisible();
  await page.keyboard.press('Escape');
  // A video with burned-in subtitles: the flow says they stay on screen and offers to erase them.
  await video.getByTestId('dub-video-step-source').getByText('上传视频').click();
  await video.locator('input[type="file"]').setInputFiles(subtitled);
  await expect(video.getByTestId('dub-video-step-file')).toContainText('带字幕.mp4', { timeout: 60_000 });
  const notice = page.getByTestId('dub-burned-in');
  await expect(notice).toHaveAttribute('data-found', 'true', { timeout: 60_000 });
  await expect(notice).toContainText('画面中已有字幕');
  await expect(notice).toContainText('不会去掉画面上的文字');
  // 画面字幕识别 is the chosen source above: erasing first would leave it nothing to read.
  await expect(notice).toContainText('擦除后就读不到了');
  await page.screenshot({ path: `${SHOTS}/6b-ai-burned-in.png`, fullPage: true });
  // The way the note gives: a 字幕提取 project of this video is offered under 已有字幕项目.
  const post = async <T>(route: string, data: unknown) => {
    const res = await request.post(route, { data, headers: { Authorization: `Bearer ${accessToken}` } });
    const body = (await res.json()) as { code: number; msg?: string; data: T };
    expect(body.code, body.msg).toBe(0);
    return body.data;
  };
  const assets = await call<{ list: Array<{ asset_id: string; name: string }> }>(
    request,
    '/v1/media/list?kind=video&page=1&page_size=50',
  );
  const assetId = assets.list.find((a) => a.name === '带字幕.mp4')!.asset_id;
  const { regions } = await post<{ regions: unknown[] }>('/v1/ocr/detect-regions', { asset_id: assetId });
  await post('/v1/ocr/create', { asset_id: assetId, regions, name: '带字幕-识别' });
  await page.getByTestId('dub-source').getByText('已有字幕项目').click();
  await page.getByTestId('dub-source-project').click();
  await expect(page.locator('.ant-select-item-group', { hasText: '字幕提取' })).toBeVisible();
  await expect(page.locator('.ant-select-item-option', { hasText: '带字幕-识别' })).toBeVisible();
  await page.keyboard.press('Escape');
  // 擦除原字幕 opens 字幕擦除's new flow on this video.
  await page.getByTestId('dub-burned-in-erase').click();
  await expect(page).toHaveURL(/\/video-translation\/erase$/);
  await expect(page.getByTestId('erase-file')).toContainText('带字幕.mp4');

  await page.goto(`${APP}/video-translation/synthesis`);
  await expect(page.getByTestId('project-new')).toBeVisible();
  await page.getByTestId('project-new').click();
  await expect(page.getByTestId('dub-new-synthesis')).toBeVisible();
  await expect(page.getByTestId('dub-track-step')).toBeVisible();
  await expect(page.getByTestId('dub-music-step')).toBeVisible();
  // 我的素材 here too: both videos uploaded so far.
  const synthVideo = page.getByTestId('dub-video-step');
  await synthVideo.getByTestId('dub-video-step-source').getByText('我的素材').click();
  await synthVideo.getByTestId('dub-video-step-library').click();
  await expect(page.locator('.ant-select-item-option', { hasText: 'dub-clip.mp4' })).toBeVisible();
  await page.locator('.ant-select-item-option', { hasText: '带字幕.mp4' }).click();
  await expect(synthVideo.getByTestId('dub-video-step-file')).toContainText('带字幕.mp4');
  // Burning subtitles over burned-in ones: the same notice here.
  await expect(page.getByTestId('dub-burned-in')).toHaveAttribute('data-found', 'true', { timeout: 60_000 });
  await page.screenshot({ path: `${SHOTS}/7-synthesis-new.png`, fullPage: true });

  // The SRT配音 list shows the project made above.
  await page.goto(`${APP}/video-translation/srt-dubbing`);
  await expect(page.getByText('节目').first()).toBeVisible();
});

test('SRT配音 offers 分离人声 with the separator and 双语两行 once a second-language file is chosen', async () => {
  const second = path.join(workDir, 'english.srt');
  writeFileSync(second, '1\n00:00:00,300 --> 00:00:02,600\nHello, welcome.\n');
  await page.goto(`${APP}/video-translation/srt-dubbing`);
  await page.getByRole('button', { name: /新\s*建/ }).click();
  await page.getByTestId('dub-subtitle-input').setInputFiles(srtFile);
  await expect(page.getByTestId('dub-subtitle-info')).toContainText('3 句');
  // scripts/test.sh starts the fake separator as SEPARATOR_URL: the option is enabled.
  await page.getByTestId('dub-background').click();
  const separated = page.locator('.ant-select-item-option', { hasText: '分离人声，保留伴奏' });
  await expect(separated).toBeVisible();
  await expect(separated).not.toHaveClass(/ant-select-item-option-disabled/);
  await separated.click();
  await expect(page.getByTestId('dub-background')).toContainText('分离人声，保留伴奏');
  // 字幕行 appears with subtitles; two lines need the second file.
  await expect(page.getByTestId('dub-subtitle-lines')).toHaveCount(0);
  await page.locator('.vw-vt-field', { hasText: '字幕' }).getByText('不加字幕').click();
  await page.locator('.ant-select-item-option', { hasText: '烧录字幕' }).click();
  await page.getByTestId('dub-subtitle-lines').click();
  await expect(page.locator('.ant-select-item-option', { hasText: '需第二语言字幕' })).toHaveClass(
    /ant-select-item-option-disabled/,
  );
  await page.keyboard.press('Escape');
  await page.getByTestId('dub-second-subtitle-input').setInputFiles(second);
  await expect(page.getByTestId('dub-second-subtitle-info')).toContainText('1 句');
  await page.getByTestId('dub-subtitle-lines').click();
  await page.locator('.ant-select-item-option', { hasText: '双语两行' }).click();
  await expect(page.getByTestId('dub-subtitle-lines')).toContainText('双语两行');
  await page.screenshot({ path: `${SHOTS}/8-srt-stems-bilingual.png`, fullPage: true });
});
