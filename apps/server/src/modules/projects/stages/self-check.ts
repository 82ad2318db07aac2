import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type AsrProvider,
  compareSpeech,
  encodeWav,
  type Pcm,
  resamplePcm,
  SELF_CHECK_RULES,
  type SelfCheckFigures,
  type SentenceCheck,
  type SpeechComparison,
} from '@vw/engines';
import type { AppContext } from '../../../context.ts';
import { newId } from '../../../ids.ts';
import { withScratchDir } from '../../../media/scratch.ts';

/*
 * Speech that checks itself, shared by TTS, dubbing and audiobooks: each synthesised sentence is heard
 * by the installed recognizer and compared with its text (engines tts/self-check.ts); a sentence with
 * words dropped, repeated or added is made again (up to twice, at another speed), and if it is still
 * wrong it is kept, flagged with what was heard, and its credits refunded by the tool (failure code 5
 * for that item). Without a recognizer nothing is heard and nothing costs more.
 */

export type { SelfCheckFigures, SentenceCheck };

/**
 * The standard engine reads by rules: it never drops or repeats a word, and a recognizer that cannot
 * follow its machine voice would only remake and refund sound sentences. TTS checks the other
 * engines; dubbing and audiobooks hear every line (their check switch: is the speech understood).
 */
const RULE_BASED_ENGINES = new Set(['espeak']);

/** Failure code of a flagged item (spec §8: 文本相似度不匹配, refunded). */
export const SELF_CHECK_FAILURE_CODE = 5 as const;

const base = (language: string) => language.toLowerCase().split(/[-_]/)[0]!;

/** The recognizer that hears sentences in this language, or null (no recognizer, or not this language). */
export function selfChecker(app: AppContext, language: string): AsrProvider | null {
  let recognizer: AsrProvider;
  try {
    recognizer = app.engines.asr.get();
  } catch {
    return null;
  }
  const { languages } = recognizer;
  return languages === 'any' || languages.includes(base(language)) ? recognizer : null;
}

/** What the recognizer hears in a sentence's audio: PCM straight in where it can, else a WAV file. */
export async function hearPcm(
  app: AppContext,
  recognizer: AsrProvider,
  pcm: Pcm,
  options: { language: string; signal?: AbortSignal },
): Promise<string> {
  const opts = { language: base(options.language), signal: options.signal };
  const transcript = recognizer.transcribePcm
    ? await recognizer.transcribePcm(pcm.sampleRate === 16_000 ? pcm : await resamplePcm(pcm, 16_000), opts)
    : await withScratchDir(app, `self-check-${newId('chk')}`, async (dir) => {
        const file = path.join(dir, 'sentence.wav');
        await writeFile(file, encodeWav(pcm));
        return recognizer.transcribe(file, opts);
      });
  return transcript.segments
    .map((s) => s.text)
    .join(' ')
    .trim();
}

export interface CheckedSpeech<T> {
  audio: T;
  /** Absent when no check ran (no recognizer for the language, or it failed to answer). */
  check?: SentenceCheck;
}

/**
 * Makes one sentence and checks it: `make(speed)` synthesises it at a speed factor (1 the first time,
 * then SELF_CHECK_RULES.speeds); `text` is what it should say (or what a take says, when a take may
 * shorten it). The take heard best is kept. A take that is not PCM itself gives its speech by `pcmOf`.
 */
export async function speakChecked<T>(
  app: AppContext,
  options: {
    text: string | ((audio: T) => string);
    language: string;
    signal?: AbortSignal;
    make: (speed: number) => Promise<T>;
    pcmOf?: (audio: T) => Pcm | Promise<Pcm>;
    /** The engine that speaks (TTS): a rule-based one is not checked (RULE_BASED_ENGINES). */
    engine?: string;
  },
): Promise<CheckedSpeech<T>> {
  const { text, language, signal, make } = options;
  const first = await make(1);
  if (options.engine && RULE_BASED_ENGINES.has(options.engine)) return { audio: first };
  const recognizer = selfChecker(app, language);
  if (!recognizer) return { audio: first };
  let best: { audio: T; heard: string; comparison: SpeechComparison } | null = null;
  let ms = 0;
  let attempts = 0;
  for (let attempt = 0; attempt <= SELF_CHECK_RULES.retries; attempt++) {
    const audio = attempt === 0 ? first : await make(SELF_CHECK_RULES.speeds[attempt - 1] ?? 1);
    attempts++;
    const started = performance.now();
    let heard: string;
    try {
      const pcm = options.pcmOf ? await options.pcmOf(audio) : (audio as Pcm);
      heard = await hearPcm(app, recognizer, pcm, { language, signal });
    } catch (err) {
      signal?.throwIfAborted();
      // A recognizer that fails does not fail the synthesis: this sentence goes unchecked.
      app.log.warn({ err }, 'self-check: recognition failed, sentence left unchecked');
      return best ? { audio: best.audio } : { audio };
    } finally {
      ms += performance.now() - started;
    }
    const said = typeof text === 'string' ? text : text(audio);
    const comparison = compareSpeech(said, heard, { language });
    if (!best || better(comparison, best.comparison)) best = { audio, heard, comparison };
    if (!comparison.problem) break;
  }
  const kept = best!;
  const flagged = Boolean(kept.comparison.problem);
  return {
    audio: kept.audio,
    check: {
      status: flagged ? 'flagged' : 'passed',
      cer: kept.comparison.cer,
      heard: kept.heard.slice(0, 2000),
      problem: kept.comparison.problem,
      attempts,
      ms: Math.round(ms),
      ...(flagged ? { failure_code: SELF_CHECK_FAILURE_CODE } : {}),
    },
  };
}

/** A passing take beats a failing one; then the lower error rate. */
function better(a: SpeechComparison, b: SpeechComparison): boolean {
  if (!a.problem !== !b.problem) return !a.problem;
  return a.cer < b.cer;
}

/** A speed factor applied to a request's speed, inside what every engine accepts (0.25–4). */
export const atSpeed = (speed: number | undefined, factor: number) =>
  Math.min(4, Math.max(0.25, Math.round((speed ?? 1) * factor * 100) / 100));

/**
 * Credits kept when some items were flagged: the flagged items' share of the work (characters or
 * milliseconds) is refunded, rounded in the user's favour.
 */
export function creditsAfterFlags(held: number, items: Array<{ weight: number; flagged: boolean }>): number {
  const total = items.reduce((n, i) => n + i.weight, 0);
  const flagged = items.reduce((n, i) => n + (i.flagged ? i.weight : 0), 0);
  if (total <= 0 || flagged <= 0) return held;
  return Math.max(0, Math.floor(held * (1 - flagged / total)));
}

/** Writes a job's figures on its task (the task view shows them). */
export async function recordTaskFigures(app: AppContext, taskId: string, figures: SelfCheckFigures) {
  await app.db
    .updateTable('tasks')
    .set({ self_check: JSON.stringify(figures) })
    .where('id', '=', taskId)
    .execute();
}
