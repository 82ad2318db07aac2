import type { LabelledPassage } from './speakers.fixture.ts';
import { quoteSpeakers } from './speakers.ts';

export interface SpeakerMiss {
  source: string;
  quote: string;
  expected: string;
  got: string | null;
}

const norm = (s: string) => s.normalize('NFKC');

/**
 * Right and counted quotes of a passage given a speaker per quote, and the indices of the misses: a
 * quote is right when the speaker given is one of its label's names; `_` (unnamed) is right when no
 * named character of the passage is given; `-` (not speech) is not counted.
 */
export function scoreQuotes(p: LabelledPassage, got: Array<string | null>) {
  const labels = p.speakers.split(' ');
  if (got.length !== labels.length)
    throw new Error(`${p.source}: ${got.length} quotes, ${labels.length} labels`);
  const named = new Set(
    labels
      .flatMap((l) => l.split('|'))
      .filter((n) => n !== '_' && n !== '-')
      .map(norm),
  );
  let right = 0;
  let total = 0;
  const missed: number[] = [];
  for (const [i, label] of labels.entries()) {
    if (label === '-') continue;
    total++;
    const speaker = got[i] === null ? null : norm(got[i] as string);
    const options = label.split('|').map(norm);
    if (
      (speaker !== null && options.includes(speaker)) ||
      (options.includes('_') && (speaker === null || !named.has(speaker)))
    )
      right++;
    else missed.push(i);
  }
  return { right, total, missed };
}

/** Attribution accuracy over labelled passages, each attributed on its own, scored by `scoreQuotes`. */
export function measureSpeakers(passages: LabelledPassage[]) {
  let right = 0;
  let total = 0;
  const wrong: SpeakerMiss[] = [];
  for (const p of passages) {
    const got = quoteSpeakers(p.paragraphs)
      .flat()
      .map((q) => q.speaker);
    const score = scoreQuotes(p, got);
    right += score.right;
    total += score.total;
    const texts = p.paragraphs.flatMap((x) =>
      [...x.matchAll(/“([^”]*)”|「([^」]*)」/gu)].map((m) => m[1] ?? m[2]),
    );
    const labels = p.speakers.split(' ');
    for (const i of score.missed)
      wrong.push({
        source: p.source,
        quote: texts[i].slice(0, 24),
        expected: labels[i],
        got: got[i] === null ? null : norm(got[i] as string),
      });
  }
  return { right, total, accuracy: total ? right / total : 0, wrong };
}
