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
 * Attribution accuracy over labelled passages (each attributed on its own, as a book would be): a quote
 * is right when the speaker given is one of its label's names; `_` (unnamed) is right when no named
 * character of the passage is given; `-` (not speech) is not counted.
 */
export function measureSpeakers(passages: LabelledPassage[]) {
  let right = 0;
  let total = 0;
  const wrong: SpeakerMiss[] = [];
  for (const p of passages) {
    const labels = p.speakers.split(' ');
    const named = new Set(
      labels
        .flatMap((l) => l.split('|'))
        .filter((n) => n !== '_' && n !== '-')
        .map(norm),
    );
    const got = quoteSpeakers(p.paragraphs).flat();
    const texts = p.paragraphs.flatMap((x) =>
      [...x.matchAll(/“([^”]*)”|「([^」]*)」/gu)].map((m) => m[1] ?? m[2]),
    );
    if (got.length !== labels.length)
      throw new Error(`${p.source}: ${got.length} quotes, ${labels.length} labels`);
    for (const [i, label] of labels.entries()) {
      if (label === '-') continue;
      total++;
      const speaker = got[i].speaker === null ? null : norm(got[i].speaker as string);
      const options = label.split('|').map(norm);
      const ok =
        (speaker !== null && options.includes(speaker)) ||
        (options.includes('_') && (speaker === null || !named.has(speaker)));
      if (ok) right++;
      else wrong.push({ source: p.source, quote: texts[i].slice(0, 24), expected: label, got: speaker });
    }
  }
  return { right, total, accuracy: total ? right / total : 0, wrong };
}
