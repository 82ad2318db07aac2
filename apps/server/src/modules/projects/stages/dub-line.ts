import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type CueCheck,
  type CueFit,
  type CueTake,
  type DubSettings,
  MIN_KEPT_SHARE,
  type SubtitleCue,
} from '@vw/contract';
import {
  type ChatClient,
  type FitResult,
  fitLine,
  pcmToBuffer,
  readPcm,
  type SentenceCheck,
  spokenText,
  textUnits,
  wavHeader,
} from '@vw/engines';
import type { AppContext } from '../../../context.ts';
import { newId } from '../../../ids.ts';
import { getUsableVoice, type UsableVoice } from '../../voices/voices.service.ts';
import { atSpeed, speakChecked } from './self-check.ts';

/*
 * The dub stage's work on one line, shared by every dubbing tool: synthesise with the line's voice
 * (any TTS engine the voice library holds, cloned voices included), fit it to its slot in a closed
 * loop (engines `fitLine`: borrow gap, Rubber Band speed within the caps, language-model condense when
 * configured, slow video when allowed), then the speech self-check (self-check.ts): the fitted take is
 * heard by the installed recognizer and made again at another speed when words were dropped, repeated
 * or added (up to twice); a line still wrong keeps its take, flagged with what was heard.
 */

/** The fit's status for the meter: fits, tight (past the accept cap), overflow (runs past), unfit. */
export function fitOf(result: FitResult, caps: { acceptRate: number }): CueFit {
  const rate = result.actions.find((a) => a.kind === 'speed')?.rate ?? 1;
  const status: CueFit['status'] = !result.fits
    ? result.overflow_ms > 0
      ? 'overflow'
      : 'unfit'
    : rate > caps.acceptRate + 1e-6
      ? 'tight'
      : 'fits';
  return {
    status,
    overflow_ms: Math.max(0, Math.round(result.overflow_ms)),
    summary: result.summary.slice(0, 500),
    actions: result.actions.map((a) => ({
      kind: a.kind,
      ...(a.ms !== undefined ? { ms: a.ms } : {}),
      ...(a.rate !== undefined ? { rate: a.rate } : {}),
      ...(a.text !== undefined ? { text: a.text.slice(0, 2000) } : {}),
    })),
    ...(result.reason ? { reason: result.reason.slice(0, 500) } : {}),
  };
}

export interface LineJob {
  ctx: AppContext;
  ownerId: string;
  cue: SubtitleCue;
  voiceId: string;
  /** Start of the next cue (null for the last). */
  nextStartMs: number | null;
  trackEndMs: number;
  /** The dub lies over a video (slowing a stretch of it is possible). */
  hasVideo?: boolean;
  settings: DubSettings;
  workDir: string;
  /** Where the take's WAV is stored. */
  storageKey: (takeId: string) => string;
  chat: ChatClient | null;
  voices: Map<string, Promise<UsableVoice>>;
  signal: AbortSignal;
}

/** Makes one take of a line (synthesis → fit → check, up to 2 regenerations) and stores its audio. */
export async function dubLine(
  job: LineJob,
): Promise<{ take: CueTake; engines: string[]; check?: SentenceCheck }> {
  const { ctx, cue, settings, signal } = job;
  let voice = job.voices.get(job.voiceId);
  if (!voice) {
    voice = getUsableVoice(ctx, job.ownerId, job.voiceId, undefined);
    job.voices.set(job.voiceId, voice);
  }
  const usable = await voice;
  const fix = cue.fix ?? {};
  const caps = {
    acceptRate: settings.accept_rate,
    maxRate: Math.max(settings.max_rate, fix.max_rate ?? 0),
    minGapMs: fix.min_gap_ms ?? settings.min_gap_ms,
    toleranceMs: settings.tolerance_ms,
  };
  let n = 0;
  const synthesize = async (text: string, speed: number) => {
    const result = await ctx.engines.tts.synthesize(
      {
        // The reading a Chinese voice says (numbers, dates, Latin words), the line's text unchanged.
        segments: [{ text: spokenText(text, usable.row.language) }],
        voice: usable.engineVoice,
        language: usable.row.language,
        ...(speed === 1 ? {} : { speed: atSpeed(1, speed) }),
      },
      { signal },
    );
    const file = path.join(job.workDir, `${cue.id}-tts-${n++}.wav`);
    const pcm = pcmToBuffer(result);
    await writeFile(file, Buffer.concat([wavHeader(pcm.length, result.sampleRate), pcm]));
    return file;
  };
  const wantCondense = (settings.condense || fix.condense) && !fix.keep_text && job.chat;
  const condense = wantCondense
    ? (text: string, ratio: number, o: { signal?: AbortSignal }) =>
        job.chat!.condense(text, Math.max(1, Math.floor([...text].length * ratio)), o)
    : undefined;
  let attempt = 0;
  const fitOnce = (speed: number) =>
    fitLine({
      text: cue.text,
      slot: { start_ms: cue.start_ms, end_ms: cue.end_ms },
      nextStartMs: job.nextStartMs,
      trackEndMs: job.trackEndMs,
      synthesize: (text) => synthesize(text, speed),
      condense,
      caps,
      // Step 4: slow this stretch of video (the render applies the time map) when allowed and there is video.
      allowSlowVideo: Boolean(job.hasVideo && (settings.allow_slow_video || fix.slow_video)),
      workDir: job.workDir,
      name: `${cue.id}-${attempt++}`,
      signal,
    });
  // The project's switch (on by default) lets a user skip the check; it runs only with a recognizer.
  const made = settings.check
    ? await speakChecked(ctx, {
        text: (r: FitResult) => r.text,
        language: usable.row.language,
        signal,
        make: fitOnce,
        // The fitted line is our own 16-bit mono WAV: brought to 16 kHz in-process, no ffmpeg per line.
        pcmOf: (r) => readPcm(r.file, signal, 16_000),
      })
    : { audio: await fitOnce(1) };
  const check = made.check ? cueCheckOf(made.check) : undefined;
  const fitResult = made.audio;
  let fit = fitOf(fitResult, caps);
  if (!job.chat && (settings.condense || fix.condense) && !fitResult.fits) {
    fit = {
      ...fit,
      summary: `${fit.summary}（自动缩写暂未开放，未能缩写）`.slice(0, 500),
    };
  }
  if (fitResult.text !== cue.text) fit = shortened(fit, cue.text, fitResult.text);
  const takeId = newId('take');
  const key = job.storageKey(takeId);
  await ctx.storage.putFile(key, fitResult.file, 'audio/wav', { move: true });
  const take: CueTake = {
    id: takeId,
    audio_key: key,
    text: fitResult.text,
    source_text: cue.text,
    voice_id: job.voiceId,
    duration_ms: Math.round(fitResult.duration_ms),
    fit,
    ...(check ? { check } : {}),
    text_rev: cue.text_rev ?? 0,
    created: ctx.clock.now(),
  };
  return {
    take,
    engines: [usable.row.name, ...fitResult.engines],
    ...(made.check ? { check: made.check } : {}),
  };
}

/**
 * A line the language model shortened (or cut): how much of it is still said, in the summary too, so
 * a line that fits only because most of it is gone never reads as simply 时长合适.
 */
function shortened(fit: CueFit, written: string, spoken: string): CueFit {
  const whole = textUnits(written).length;
  const kept = whole ? Math.min(1, textUnits(spoken).length / whole) : 1;
  const share = `朗读文本已精简，保留原文 ${Math.round(kept * 100)}%`;
  const note = kept < MIN_KEPT_SHARE ? `${share}，删减过多，请确认` : share;
  return { ...fit, kept: Math.round(kept * 1000) / 1000, summary: `${fit.summary}（${note}）`.slice(0, 500) };
}

/** A line's self-check as the editor shows it (similarity is 1 − error rate). */
function cueCheckOf(c: SentenceCheck): CueCheck {
  return {
    similarity: Math.round(Math.max(0, 1 - c.cer) * 1000) / 1000,
    heard: c.heard,
    status: c.status === 'flagged' ? 'failed' : 'passed',
    retries: c.attempts - 1,
    cer: c.cer,
    problem: c.problem,
    ms: c.ms,
    ...(c.failure_code ? { failure_code: c.failure_code } : {}),
  };
}
