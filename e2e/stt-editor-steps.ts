import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { parseSubtitles } from '../packages/contract/src/helpers/subtitles.ts';
import { APP } from './session.ts';

/** The clip of the speech-to-text journey: what is said when (the fake recogniser answers the same). */
export interface Sentence {
  text: string;
  start_ms: number;
  end_ms: number;
}
export const SCRIPT = JSON.parse(
  readFileSync(path.join(import.meta.dirname, 'fake-asr-script.json'), 'utf8'),
) as {
  duration_ms: number;
  sentences: Sentence[];
};

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'pipe', encoding: 'utf8' });

/** Each sentence spoken by espeak-ng inside its slot (sped up if it would overrun), over a 320×180 video. */
export function generateClip(dir: string): string {
  const inputs: string[] = [];
  const chains: string[] = [];
  SCRIPT.sentences.forEach((s, i) => {
    const wav = path.join(dir, `s${i}.wav`);
    run('espeak-ng', ['-v', 'en-us', '-s', '165', '-w', wav, s.text]);
    const seconds = Number(
      run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav]).trim(),
    );
    const slot = (s.end_ms - s.start_ms) / 1000;
    const tempo = Math.min(2, Math.max(1, seconds / (slot * 0.95)));
    inputs.push('-i', wav);
    chains.push(`[${i + 1}:a]aresample=48000,atempo=${tempo.toFixed(3)},adelay=${s.start_ms}:all=1[a${i}]`);
  });
  const n = SCRIPT.sentences.length;
  const mix = `${SCRIPT.sentences.map((_, i) => `[a${i}]`).join('')}amix=inputs=${n}:normalize=0,apad[aout]`;
  const out = path.join(dir, 'stt-editor-clip.mp4');
  const seconds = String(SCRIPT.duration_ms / 1000);
  run('ffmpeg', [
    '-nostdin',
    '-y',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=320x180:rate=25:duration=${seconds}`,
    ...inputs,
    '-filter_complex',
    [...chains, mix].join(';'),
    '-map',
    '0:v',
    '-map',
    '[aout]',
    '-t',
    seconds,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-movflags',
    '+faststart',
    out,
  ]);
  return out;
}

let page: Page;
const rows = () => page.getByTestId('cue-row');
const row = (i: number) => rows().nth(i);
const saveStatus = () => page.getByTestId('save-status');

/** The cue list as [start, end, text] — what the editor shows. */
async function shownCues(): Promise<Array<[string, string, string]>> {
  const out: Array<[string, string, string]> = [];
  for (let i = 0; i < (await rows().count()); i++) {
    const r = row(i);
    out.push([
      await r.getByLabel('开始时间', { exact: true }).inputValue(),
      await r.getByLabel('结束时间', { exact: true }).inputValue(),
      await r.getByLabel('字幕文本').inputValue(),
    ]);
  }
  return out;
}

const hms = (ms: number) => {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/**
 * The editor part of the journey, on a project recognised from the clip: the cues match the
 * script; edit a text, split a cue, merge two, drag one on the timeline, undo a deletion; the SRT
 * export (through the download center) carries the edited text and times.
 */
export async function editorJourney(on: Page, projectId: string, shots: string): Promise<void> {
  page = on;
  await page.goto(`${APP}/video-translation/editor?id=${encodeURIComponent(projectId)}`);
  await expect(page.getByTestId('video-editor')).toBeVisible();

  // One cue per sentence, at the times the recogniser gave.
  const [s1, s2, s3, s4] = SCRIPT.sentences as [Sentence, Sentence, Sentence, Sentence];
  await expect(rows()).toHaveCount(SCRIPT.sentences.length, { timeout: 20_000 });
  expect(await shownCues()).toEqual(SCRIPT.sentences.map((s) => [hms(s.start_ms), hms(s.end_ms), s.text]));
  await expect(saveStatus()).toHaveText('已保存');

  // A click on a cue seeks there; the player draws that cue over the video.
  await row(1).locator('.vw-ed-cue-index').click();
  await expect(page.getByTestId('subtitle-overlay')).toHaveText(s2.text);
  await page.screenshot({ path: `${shots}/3-editor.png` });

  // 1. Edit the first cue's text (Enter commits).
  const edited = 'Good morning, everyone.';
  await row(0).getByLabel('字幕文本').fill(edited);
  await row(0).getByLabel('字幕文本').press('Enter');
  await expect(saveStatus()).toHaveText(/未保存|保存中|已保存/);

  // 2. Split the second cue: the playhead sits on its start, so it is cut in the middle; the text
  //    at the proportional position, moved to the nearest space.
  const mid = Math.round((s2.start_ms + s2.end_ms) / 2);
  await row(1).getByRole('button', { name: '在光标处拆分' }).click();
  await expect(rows()).toHaveCount(5);
  expect((await shownCues()).slice(1, 3)).toEqual([
    [hms(s2.start_ms), hms(mid), 'This is'],
    [hms(mid), hms(s2.end_ms), 'a test.'],
  ]);

  // 3. Merge the third sentence with the fourth: one cue, texts joined.
  await row(3).getByRole('button', { name: '与下一条合并' }).click();
  await expect(rows()).toHaveCount(4);
  expect((await shownCues())[3]).toEqual([hms(s3.start_ms), hms(s4.end_ms), `${s3.text} ${s4.text}`]);

  // 4. Drag the first cue 2 s to the right on the timeline: it keeps its length and stops at the
  //    next cue's start (never overlapping).
  const firstId = await row(0).getAttribute('data-cue-id');
  const region = page.locator(`[data-testid="timeline-cue"][data-cue-id="${firstId}"]`);
  const pps = Number(await page.getByTestId('timeline-scale').getAttribute('data-pps'));
  const box = (await region.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 2 * pps, y, { steps: 12 });
  await page.mouse.up();
  const length = s1.end_ms - s1.start_ms;
  const firstStart = s2.start_ms - length;
  expect((await shownCues())[0]).toEqual([hms(firstStart), hms(s2.start_ms), edited]);
  await expect(region).toHaveAttribute('data-start', String(firstStart));

  // 5. Delete the last cue, then undo that one step: it comes back.
  await row(3).getByRole('button', { name: '删除' }).click();
  await expect(rows()).toHaveCount(3);
  await page.getByRole('button', { name: '撤销' }).click();
  await expect(rows()).toHaveCount(4);
  const expected: Array<[number, number, string]> = [
    [firstStart, s2.start_ms, edited],
    [s2.start_ms, mid, 'This is'],
    [mid, s2.end_ms, 'a test.'],
    [s3.start_ms, s4.end_ms, `${s3.text} ${s4.text}`],
  ];
  expect(await shownCues()).toEqual(expected.map(([a, b, t]) => [hms(a), hms(b), t]));

  // Autosave (1.5 s after the last edit).
  await expect(saveStatus()).toHaveText('已保存', { timeout: 15_000 });
  await page.screenshot({ path: `${shots}/4-edited.png` });

  // 6. Export SRT through the download center and read the file.
  await page
    .getByRole('button', { name: /导\s*出/ })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByText('SRT', { exact: true }).first().click();
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await dialog.getByRole('button', { name: /导\s*出/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.srt$/);
  const srt = readFileSync((await file.path())!, 'utf8');
  const cues = parseSubtitles(srt);
  expect(cues.map((c) => [c.start_ms, c.end_ms, c.text.replace(/\s*\n\s*/g, ' ')])).toEqual(expected);
  // SRT wants a comma before the milliseconds.
  expect(srt).toContain(`${hms(firstStart).replace('.', ',')} --> ${hms(s2.start_ms).replace('.', ',')}`);
  // The download list (its entry sits in the editor's header on this full-screen page) counts it.
  await expect(page.getByTestId('editor-download-entry')).toContainText('1/1');
  await page.screenshot({ path: `${shots}/5-exported.png` });
}

/**
 * Text typed into a cue is saved as it is typed — no Enter, the box still focused: the status says
 * 未保存 / 保存中… while that is true (the save is held back here until it has been seen), 已保存
 * only once the server has it, and a failed save says so and what to do; a reload shows the text.
 */
export async function typingSavesJourney(on: Page, projectId: string, shots: string): Promise<void> {
  page = on;
  await page.goto(`${APP}/video-translation/editor?id=${encodeURIComponent(projectId)}`);
  await expect(rows().first()).toBeVisible({ timeout: 20_000 });
  await expect(saveStatus()).toHaveText('已保存');

  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route('**/v1/projects/save', async (route) => {
    await held;
    await route.continue();
  });
  const area = row(0).getByLabel('字幕文本');
  const before = await area.inputValue();
  await area.click();
  await area.press('End');
  await page.keyboard.type(' Thanks');
  await expect(saveStatus()).toHaveText(/未保存|保存中/);
  await expect(saveStatus()).toHaveText('保存中…', { timeout: 15_000 });
  await page.screenshot({ path: `${shots}/6-saving.png` });
  release();
  await expect(saveStatus()).toHaveText('已保存', { timeout: 15_000 });
  await expect(area).toBeFocused();
  await page.unroute('**/v1/projects/save');

  // A save that fails says so and what to do, then the automatic retry saves the text.
  await page.route('**/v1/projects/save', (route) => route.abort());
  await page.keyboard.type('!');
  await expect(saveStatus()).toHaveText(/^保存失败：请检查网络.*自动重试/, { timeout: 15_000 });
  await page.screenshot({ path: `${shots}/7-save-failed.png` });
  await page.unroute('**/v1/projects/save');
  await expect(saveStatus()).toHaveText('已保存', { timeout: 20_000 });

  await page.reload();
  await expect(row(0).getByLabel('字幕文本')).toHaveValue(`${before} Thanks!`, { timeout: 20_000 });
}
