import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineError } from '../errors.ts';
import { pcmMs, readPcm, trimSilence, writePcm } from './pcm.ts';
import { RUBBERBAND_LABEL, stretchToDuration } from './stretch.ts';
import { MAX_SLOW_FACTOR } from './timemap.ts';
import {
  DEFAULT_FIT_CAPS,
  type FitAction,
  type FitCaps,
  type FitLineOptions,
  type FitResult,
} from './types.ts';

/** Slowest the video of a stretch may be played when a line is allowed to slow it (≤ 1.5× longer). */
export const MIN_VIDEO_RATE = 1 / MAX_SLOW_FACTOR;
const MAX_REWRITES = 2;

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const rateText = (r: number) => `${r.toFixed(2)}×`;

/** "超出 0.8 s → 借用间隙 0.3 s，语速 1.12×" from the first overflow and the actions taken. */
export function fitSummary(
  firstOverflowMs: number,
  actions: FitAction[],
  fits: boolean,
  leftMs: number,
): string {
  if (firstOverflowMs <= 0 && !actions.some((a) => a.kind !== 'trim')) return '时长合适';
  const steps: string[] = [];
  const rewrites = actions.filter((a) => a.kind === 'condense').length;
  if (rewrites) steps.push(`精简文本 ${rewrites} 次`);
  for (const a of actions) {
    if (a.kind === 'borrow_gap') steps.push(`借用间隙 ${sec(a.ms ?? 0)}`);
    if (a.kind === 'speed') steps.push(`语速 ${rateText(a.rate ?? 1)}`);
    if (a.kind === 'slow_video') steps.push(`放慢视频 ${sec(a.ms ?? 0)}（${rateText(a.rate ?? 1)}）`);
  }
  const head = `超出 ${sec(firstOverflowMs)}`;
  const tail = fits ? '' : `，仍超出 ${sec(leftMs)}`;
  return steps.length ? `${head} → ${steps.join('，')}${tail}` : `${head}${tail}`;
}

/**
 * The closed-loop timing fit of one line (issue 17). Synthesise → trim silence → measure; when it runs
 * past its slot: (1) borrow silence up to the next cue (keeping minGapMs), (2) speed up with Rubber Band
 * within acceptRate, (3) ask the language model to condense (≤ 2 rewrites) and synthesise again,
 * (4) speed up to maxRate, (5) optionally mark the stretch for slower video. Every step is recorded.
 */
export async function fitLine(opts: FitLineOptions): Promise<FitResult> {
  const caps: FitCaps = { ...DEFAULT_FIT_CAPS, ...opts.caps };
  const { slot, signal } = opts;
  const slotMs = slot.end_ms - slot.start_ms;
  if (!(slotMs > 0)) {
    throw new EngineError(
      'invalid_request',
      '字幕时长必须大于 0',
      `slot ${slot.start_ms}–${slot.end_ms} is empty`,
    );
  }
  const roomEnd =
    opts.nextStartMs !== null ? opts.nextStartMs - caps.minGapMs : (opts.trackEndMs ?? slot.end_ms);
  const gapMs = Math.max(0, roomEnd - slot.end_ms);
  const name = opts.name ?? randomUUID();
  const file = join(opts.workDir, `${name}.wav`);
  const temps: string[] = [];
  const engines = new Set<string>();

  let text = opts.text;
  const condensed: FitAction[] = [];
  let condenseError: string | null = null;
  let firstOverflow: number | null = null;
  try {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      const raw = await opts.synthesize(text, { signal });
      const trimmed = trimSilence(await readPcm(raw, signal));
      let pcm = trimmed.pcm;
      if (!pcm.samples.length) {
        throw new EngineError(
          'media_failed',
          '合成结果没有声音',
          `synthesis of "${text.slice(0, 40)}" is silent`,
        );
      }
      const actions: FitAction[] = [...condensed];
      const cut = trimmed.leadMs + trimmed.tailMs;
      if (cut >= 1) actions.push({ kind: 'trim', ms: Math.round(cut) });
      const spoken = pcmMs(pcm);
      firstOverflow ??= Math.max(0, spoken - slotMs);

      // Fits as it is (the tolerance is for measurement, not for planned overflow).
      if (spoken <= slotMs + caps.toleranceMs) {
        await writePcm(file, pcm);
        return done(pcm.samples.length, text, actions, true, slotMs, spoken);
      }
      // (1) Borrow the gap before the next cue.
      const borrow = Math.min(gapMs, Math.ceil(spoken - slotMs));
      const window = slotMs + borrow;
      if (borrow > 0) actions.push({ kind: 'borrow_gap', ms: borrow });
      if (spoken <= window + caps.toleranceMs) {
        await writePcm(file, pcm);
        return done(pcm.samples.length, text, actions, true, window, spoken);
      }
      const need = spoken / window;
      // (2) within the accept cap a speed-up is the whole fix; (3) above it, a rewrite comes first.
      const canRewrite = opts.condense && attempt < MAX_REWRITES && !condenseError;
      if (need > caps.acceptRate && canRewrite && opts.condense) {
        // Aim a little under the window so the rewrite needs no more than the accept cap.
        const ratio = Math.max(0.3, (window * caps.acceptRate) / spoken) * 0.95;
        let shorter = '';
        try {
          shorter = (await opts.condense(text, ratio, { signal })).trim();
        } catch (err) {
          // A language model that fails (down, refusing) must not fail the line: speed still applies.
          if (signal?.aborted) throw err;
          condenseError = err instanceof EngineError ? err.zh : (err as Error).message;
        }
        if (shorter && shorter !== text && shorter.length < text.length) {
          text = shorter;
          condensed.push({ kind: 'condense', text: shorter });
          continue;
        }
        // The model could not shorten it: fall through to speed.
      }
      // (4) speed up, up to the hard cap.
      const rate = Math.min(need, caps.maxRate);
      const src = join(opts.workDir, `${name}.src.wav`);
      const out = join(opts.workDir, `${name}.fast.wav`);
      temps.push(src, out);
      await writePcm(src, pcm);
      await stretchToDuration(src, out, spoken / rate, signal);
      engines.add(RUBBERBAND_LABEL);
      pcm = trimSilence(await readPcm(out, signal)).pcm;
      const fast = pcmMs(pcm);
      actions.push({ kind: 'speed', rate: Math.round((spoken / fast) * 100) / 100 });
      if (fast <= window + caps.toleranceMs) {
        await writePcm(file, pcm);
        return done(pcm.samples.length, text, actions, true, window, fast);
      }
      // (5) slow the video of this stretch (a mark the render applies), else report unfit.
      // The stretch slowed is the line's window (slot + borrowed gap): it lasts `over` longer.
      const over = fast - window;
      const videoRate = window / (window + Math.ceil(over));
      if (opts.allowSlowVideo && videoRate >= MIN_VIDEO_RATE - 1e-9) {
        actions.push({ kind: 'slow_video', ms: Math.ceil(over), rate: Math.round(videoRate * 1000) / 1000 });
        await writePcm(file, pcm);
        return done(pcm.samples.length, text, actions, true, window + Math.ceil(over), fast);
      }
      await writePcm(file, pcm);
      const reason = condenseError
        ? `语速已到上限 ${rateText(caps.maxRate)} 仍超出 ${sec(over)}；语言模型精简失败：${condenseError}`
        : opts.condense
          ? `语速已到上限 ${rateText(caps.maxRate)}，精简 ${condensed.length} 次后仍超出 ${sec(over)}`
          : `语速已到上限 ${rateText(caps.maxRate)} 仍超出 ${sec(over)}；自动缩写暂未开放，无法自动精简文本`;
      return { ...done(pcm.samples.length, text, actions, false, window, fast), reason };
    }
  } finally {
    await Promise.all(temps.map((t) => rm(t, { force: true })));
  }

  function done(
    samples: number,
    finalText: string,
    actions: FitAction[],
    fits: boolean,
    availableMs: number,
    spokenMs: number,
  ): FitResult {
    const duration = Math.round((samples / 48_000) * 1000);
    const left = Math.max(0, spokenMs - availableMs);
    return {
      file,
      duration_ms: duration,
      text: finalText,
      fits,
      overflow_ms: fits ? 0 : Math.round(left),
      available_ms: Math.round(availableMs),
      actions,
      summary: fitSummary(Math.round(firstOverflow ?? 0), actions, fits, left),
      engines: [...engines],
    };
  }
}
