import { normalizeText, readsAsChinese } from '../text/normalize.ts';

/*
 * Speech that checks itself (issue 32 item 4): what a sentence should say against what a recognizer
 * heard in its audio. Pure: the text is read the way the voice reads it (numbers, dates, Latin words
 * written out by the one reading layer), both sides alike, then aligned unit by unit so the check can
 * tell a dropped word from a repeated or an extra one.
 */

/** When a sentence counts as wrong, and how often it is made again before it is flagged. */
export const SELF_CHECK_RULES = {
  /** Above this character error rate the sentence is not what was written. */
  maxCer: 0.15,
  /** A run of this many units dropped or added is a word lost or added (a Han character is a unit). */
  minRun: 2,
  /** Regenerations after the first take. */
  retries: 2,
  /** Speed of each regeneration (the engines here are deterministic for one speed: a new speed is a new take). */
  speeds: [0.92, 1.08],
} as const;

const HAN = /\p{Script=Han}/u;

/**
 * The units compared: Han characters one by one, other words whole, after the reading layer for
 * Chinese (2024年 and 二〇二四年 are the same units; 〇/零 and 两/二 are folded, as recognizers write
 * either). Case, width and punctuation do not count.
 */
export function speechUnits(text: string, language?: string): string[] {
  const read = readsAsChinese(language, text) ? normalizeText(text).spoken : text;
  const out: string[] = [];
  for (const token of read
    .normalize('NFKC')
    .toLowerCase()
    .match(/\p{Script=Han}|(?:(?!\p{Script=Han})[\p{L}\p{N}'])+/gu) ?? []) {
    if (HAN.test(token)) out.push(token === '〇' ? '零' : token === '两' ? '二' : token);
    else out.push(token.replace(/'/g, ''));
  }
  return out;
}

export type AlignKind = 'same' | 'changed' | 'dropped' | 'extra';

/** One step of the alignment: a unit of the text against a unit heard (either may be missing). */
export interface AlignStep {
  kind: AlignKind;
  expected?: string;
  heard?: string;
}

/**
 * Minimum edit alignment (Levenshtein with its path). Among alignments with the fewest edits it takes
 * the one with the most matches, so a lost word reads as dropped units rather than a chain of changes.
 */
export function alignUnits(expected: string[], heard: string[]): AlignStep[] {
  const n = expected.length;
  const m = heard.length;
  // Cost in one number: edits first, then unmatched units (fewer is better) as the tie-break.
  const big = n + m + 1;
  const d: Float64Array[] = Array.from({ length: n + 1 }, () => new Float64Array(m + 1));
  for (let i = 0; i <= n; i++) d[i][0] = i * big + i;
  for (let j = 0; j <= m; j++) d[0][j] = j * big + j;
  const sub = (i: number, j: number) => (expected[i - 1] === heard[j - 1] ? 0 : big + 2);
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      d[i][j] = Math.min(d[i - 1][j - 1] + sub(i, j), d[i - 1][j] + big + 1, d[i][j - 1] + big + 1);
    }
  }
  const steps: AlignStep[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && d[i][j] === d[i - 1][j - 1] + sub(i, j)) {
      const kind = expected[i - 1] === heard[j - 1] ? 'same' : 'changed';
      steps.push({ kind, expected: expected[--i], heard: heard[--j] });
    } else if (i > 0 && d[i][j] === d[i - 1][j] + big + 1) {
      steps.push({ kind: 'dropped', expected: expected[--i] });
    } else {
      steps.push({ kind: 'extra', heard: heard[--j] });
    }
  }
  return gather(steps.reverse());
}

/**
 * Moves each run of dropped or extra units past matches of its own first unit (a rotation that
 * keeps the edits), so pieces of one lost or doubled word that the path split come together.
 */
function gather(steps: AlignStep[]): AlignStep[] {
  const unit = (s: AlignStep) => (s.kind === 'dropped' ? s.expected : s.heard)!;
  let moved = true;
  while (moved) {
    moved = false;
    for (let k = 0; k < steps.length; ) {
      const kind = steps[k].kind;
      if (kind !== 'dropped' && kind !== 'extra') {
        k++;
        continue;
      }
      let end = k;
      while (end < steps.length && steps[end].kind === kind) end++;
      const next = steps[end];
      if (next?.kind === 'same' && next.expected === unit(steps[k])) {
        // same(u) after run [u, …]: the match takes the run's first unit, the run ends with u.
        const run = steps.slice(k, end);
        steps.splice(k, end - k + 1, next, ...run.slice(1), run[0]);
        moved = true;
        k++;
      } else k = end;
    }
  }
  return steps;
}

/**
 * Whether units heard in excess at a place of the text say again what the text says right there:
 * text P·X·S heard as P·X·X·S aligns the extra run anywhere inside the doubled X, as a rotation of X.
 */
function isRepeat(text: string[], at: number, run: string[]): boolean {
  const k = run.length;
  const eq = (x: string[], y: string[]) => x.length === y.length && x.every((u, i) => u === y[i]);
  for (let r = 0; r <= k; r++) {
    if (at - r < 0 || at + k - r > text.length) continue;
    if (eq(text.slice(at - r, at), run.slice(k - r)) && eq(text.slice(at, at + k - r), run.slice(0, k - r)))
      return true;
  }
  return false;
}

/** What went wrong with a sentence, worst first: words lost, said twice, added, or simply different. */
export type SpeechProblem = 'dropped' | 'repeated' | 'extra' | 'different';

export interface SpeechComparison {
  /** Character error rate: (changed + dropped + extra units) / units of the text. */
  cer: number;
  /** Units of the text. */
  units: number;
  /** Runs of the text not heard, e.g. ['一起']. */
  dropped: string[];
  /** Runs heard twice (an extra run equal to the text right before or after it). */
  repeated: string[];
  /** Other runs heard that the text does not have. */
  extra: string[];
  changed: number;
  /** The verdict: null when the sentence passes. */
  problem: SpeechProblem | null;
}

const join = (units: string[]) =>
  units.reduce((s, u) => (s && !HAN.test(u) && !HAN.test(s.at(-1)!) ? `${s} ${u}` : s + u), '');
const isWord = (units: string[]) => units.length > 0 && !HAN.test(units[0]);

/**
 * Compares a sentence's text with what was heard. It fails (problem set) on a repeated run of at
 * least minRun units (or one Latin word), a dropped or extra run of at least minRun units, or a
 * character error rate above maxCer. A single unit lost or changed — a recognizer's usual slip — passes.
 */
export function compareSpeech(
  expected: string,
  heard: string,
  options: { language?: string; rules?: Partial<typeof SELF_CHECK_RULES> } = {},
): SpeechComparison {
  const rules = { ...SELF_CHECK_RULES, ...options.rules };
  const a = speechUnits(expected, options.language);
  const b = speechUnits(heard, options.language);
  const steps = alignUnits(a, b);
  const dropped: string[] = [];
  const repeated: string[] = [];
  const extra: string[] = [];
  let changed = 0;
  let errors = 0;
  // Where in the text each step stands (units of the text before it), to look around an extra run.
  let at = 0;
  for (let k = 0; k < steps.length; ) {
    const kind = steps[k].kind;
    if (kind === 'same' || kind === 'changed') {
      if (kind === 'changed') {
        changed++;
        errors++;
      }
      at++;
      k++;
      continue;
    }
    const run: string[] = [];
    while (k < steps.length && steps[k].kind === kind) {
      run.push((kind === 'dropped' ? steps[k].expected : steps[k].heard)!);
      k++;
    }
    errors += run.length;
    if (kind === 'dropped') {
      at += run.length;
      if (run.length >= rules.minRun) dropped.push(join(run));
      continue;
    }
    if (isRepeat(a, at, run) && (run.length >= rules.minRun || isWord(run))) repeated.push(join(run));
    else if (run.length >= rules.minRun) extra.push(join(run));
  }
  const cer = a.length ? errors / a.length : b.length ? 1 : 0;
  const problem: SpeechProblem | null = dropped.length
    ? 'dropped'
    : repeated.length
      ? 'repeated'
      : extra.length
        ? 'extra'
        : cer > rules.maxCer
          ? 'different'
          : null;
  return { cer: Math.round(cer * 1000) / 1000, units: a.length, dropped, repeated, extra, changed, problem };
}

/** One sentence's check as it is kept with the audio (task items, history, takes). */
export interface SentenceCheck {
  status: 'passed' | 'flagged';
  /** Error rate of the take kept. */
  cer: number;
  /** What the recognizer heard in the take kept. */
  heard: string;
  problem: SpeechProblem | null;
  /** Takes made: 1 when the first passed, up to 1 + retries. */
  attempts: number;
  /** Time the recognition took over all takes (ms). */
  ms: number;
  /** 5 on a flagged item: its task failure code (spec §8, refunded), the job itself goes on. */
  failure_code?: 5;
}

/** A job's figures of the check. `ran` false: no recognizer, nothing was checked. */
export interface SelfCheckFigures {
  ran: boolean;
  checked: number;
  regenerated: number;
  flagged: number;
  /** Mean error rate of the takes kept. */
  mean_cer: number;
  /** Time spent recognising (ms). */
  ms: number;
}

/** The figures of a job from the checks of its sentences (undefined: that sentence was not checked). */
export function selfCheckFigures(checks: Array<SentenceCheck | undefined | null>): SelfCheckFigures {
  const done = checks.filter((c): c is SentenceCheck => Boolean(c));
  const sum = (f: (c: SentenceCheck) => number) => done.reduce((s, c) => s + f(c), 0);
  return {
    ran: done.length > 0,
    checked: done.length,
    regenerated: done.filter((c) => c.attempts > 1).length,
    flagged: done.filter((c) => c.status === 'flagged').length,
    mean_cer: done.length ? Math.round((sum((c) => c.cer) / done.length) * 1000) / 1000 : 0,
    ms: Math.round(sum((c) => c.ms)),
  };
}

/** Sums figures of parts of one job (stages, resumed runs). */
export function addSelfCheckFigures(a: SelfCheckFigures, b: SelfCheckFigures): SelfCheckFigures {
  const checked = a.checked + b.checked;
  return {
    ran: a.ran || b.ran,
    checked,
    regenerated: a.regenerated + b.regenerated,
    flagged: a.flagged + b.flagged,
    mean_cer: checked
      ? Math.round(((a.mean_cer * a.checked + b.mean_cer * b.checked) / checked) * 1000) / 1000
      : 0,
    ms: a.ms + b.ms,
  };
}
