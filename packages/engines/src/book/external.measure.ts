/**
 * Attribution measured on an independent, publicly labelled data set: the World of Plainness (平凡的世界)
 * speaker-identification set of Chen et al. (Interspeech 2019/2021,
 * github.com/YueChenkkk/Chinese-Dataset-Speaker-Identification, Apache-2.0). Its text is not ours to
 * ship: it is read from a directory outside the repository (`BENCH_SPEAKERS_EXTERNAL`), never committed.
 *
 * The set gives instances of 21 consecutive lines with the speaker of the 11th (a quote) and a name list
 * with each character's aliases. Overlapping windows are stitched back into continuous passages (each
 * attributed on its own, as a book would be); the gold speaker then belongs to that line of the passage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attributeSpeakers } from './speakers.ts';

export interface WpInstance {
  lines: string[];
  speaker: string;
  /** Line of `name_list.txt` (0-based) holding the speaker's aliases. */
  speakerIndex: number;
  category: string;
}

export interface ExternalPassage {
  /** Where it comes from: split file and the number of its first instance. */
  source: string;
  split: string;
  lines: string[];
  /** Line index in `lines` → gold speaker (index into the name list). */
  gold: Map<number, number>;
}

const CENTER = 10;
const WINDOW = 21;

export function parseWpInstances(text: string): WpInstance[] {
  const out: WpInstance[] = [];
  for (const block of text
    .replace(/\r/gu, '')
    .trim()
    .split(/\n\s*\n/u)) {
    const l = block.split('\n');
    if (!l[0].startsWith('Instance index') || l.length < WINDOW + 4) throw new Error(`bad instance: ${l[0]}`);
    out.push({
      lines: l.slice(1, 1 + WINDOW),
      speaker: l[1 + WINDOW].replace(/^Speaker:\s*/u, ''),
      speakerIndex: Number(l[2 + WINDOW].replace(/^Speaker index:\s*/u, '')),
      category: l[3 + WINDOW].replace(/^Category:\s*/u, ''),
    });
  }
  return out;
}

/** Name list: per character (line), its aliases. */
export function parseNameList(text: string): string[][] {
  return text
    .replace(/\r/gu, '')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/u).slice(1));
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Consecutive instances whose windows overlap are one passage; the rest start a new one. */
export function stitch(instances: WpInstance[], split: string): ExternalPassage[] {
  const out: ExternalPassage[] = [];
  let cur: ExternalPassage | null = null;
  let last: string[] = [];
  let offset = 0;
  for (const [n, x] of instances.entries()) {
    let shift = -1;
    if (cur)
      for (let k = 1; k < WINDOW; k++)
        if (same(last.slice(k), x.lines.slice(0, WINDOW - k))) {
          shift = k;
          break;
        }
    if (cur && shift > 0) {
      cur.lines.push(...x.lines.slice(WINDOW - shift));
      offset += shift;
    } else {
      cur = { source: `${split} #${n}`, split, lines: [...x.lines], gold: new Map() };
      out.push(cur);
      offset = 0;
    }
    cur.gold.set(offset + CENTER, x.speakerIndex);
    last = x.lines;
  }
  return out;
}

/** Passages of different files that continue each other (a tail equal to a head) are joined. */
export function joinPassages(passages: ExternalPassage[]): ExternalPassage[] {
  const list = [...passages];
  for (let joined = true; joined; ) {
    joined = false;
    for (const a of list) {
      for (const [j, b] of list.entries()) {
        if (a === b) continue;
        let k = Math.min(a.lines.length, b.lines.length);
        while (k >= 5 && !same(a.lines.slice(-k), b.lines.slice(0, k))) k--;
        if (k < 5) continue;
        const base = a.lines.length - k;
        for (const [line, g] of b.gold) a.gold.set(base + line, g);
        a.lines.push(...b.lines.slice(k));
        if (b.split !== a.split && !a.split.includes(b.split)) a.split = `${a.split}+${b.split}`;
        list.splice(j, 1);
        joined = true;
        break;
      }
      if (joined) break;
    }
  }
  return list;
}

export interface ExternalData {
  names: string[][];
  tuning: ExternalPassage[];
  heldout: ExternalPassage[];
}

/**
 * Reads the set from `dir` (train/dev/test `*_unsplit.txt` and `name_list.txt` as published) and splits
 * it, by passage, before anything is measured: the passages of the train file in file order until half of
 * all labelled quotes are reached are the tuning part; the rest of train, all of dev and test held out.
 */
export function loadWp(dir: string): ExternalData {
  const names = parseNameList(readFileSync(join(dir, 'name_list.txt'), 'utf8'));
  const passages = joinPassages(
    ['train', 'dev', 'test'].flatMap((s) =>
      stitch(parseWpInstances(readFileSync(join(dir, `${s}_unsplit.txt`), 'utf8')), s),
    ),
  );
  const total = passages.reduce((n, p) => n + p.gold.size, 0);
  const tuning: ExternalPassage[] = [];
  const heldout: ExternalPassage[] = [];
  let taken = 0;
  for (const p of passages) {
    if (p.split === 'train' && taken < total / 2) {
      tuning.push(p);
      taken += p.gold.size;
    } else heldout.push(p);
  }
  return { names, tuning, heldout };
}

const norm = (s: string) => s.normalize('NFKC');

/**
 * How a speaker matches a character of the name list: `exact` when it is one of the character's aliases;
 * `contains` when it contains one of two characters or more, or is contained in one (玉厚老汉, 少安), and
 * matches no other character so.
 */
export function matchName(speaker: string, gold: number, names: string[][]): 'exact' | 'contains' | null {
  const s = norm(speaker);
  const aliases = (i: number) => names[i].map(norm);
  if (aliases(gold).includes(s)) return 'exact';
  const loose = (i: number) =>
    aliases(i).some((a) => a.length >= 2 && (s.includes(a) || (s.length >= 2 && a.includes(s))));
  if (!loose(gold)) return null;
  for (const i of names.keys()) if (i !== gold && (aliases(i).includes(s) || loose(i))) return null;
  return 'contains';
}

export interface ExternalMiss {
  source: string;
  line: string;
  expected: string;
  got: string | null;
}

/**
 * A labelled line is right when every quote we find in it has the gold speaker (or an alias); a line
 * given no speaker or another one is wrong, and so is a labelled line where we find no quote (counted
 * apart as `notFound`). Quotes we find on lines the set does not label are counted as `unlabelled`.
 */
export function measureExternal(passages: ExternalPassage[], names: string[][]) {
  let right = 0;
  let exact = 0;
  let total = 0;
  let notFound = 0;
  let unlabelled = 0;
  let noSpeaker = 0;
  const wrong: ExternalMiss[] = [];
  for (const p of passages) {
    const attributed = attributeSpeakers(p.lines).paragraphs;
    for (const [i, para] of attributed.entries()) {
      const quotes = para.segments.filter((s) => s.kind === 'quote');
      const gold = p.gold.get(i);
      if (gold === undefined) {
        unlabelled += quotes.length;
        continue;
      }
      total++;
      if (!quotes.length) {
        notFound++;
        wrong.push({ source: p.source, line: p.lines[i], expected: names[gold][0], got: '(no quote found)' });
        continue;
      }
      const matches = quotes.map((q) => (q.speaker === null ? null : matchName(q.speaker, gold, names)));
      if (matches.every((m) => m !== null)) {
        right++;
        if (matches.every((m) => m === 'exact')) exact++;
        continue;
      }
      const bad = quotes.find((_, k) => matches[k] === null);
      if (bad?.speaker === null) noSpeaker++;
      wrong.push({ source: p.source, line: p.lines[i], expected: names[gold][0], got: bad?.speaker ?? null });
    }
  }
  return { right, exact, total, accuracy: total ? right / total : 0, notFound, noSpeaker, unlabelled, wrong };
}
