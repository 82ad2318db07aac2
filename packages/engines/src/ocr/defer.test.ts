import { describe, expect, it } from 'vitest';
import { placeDeferred, type SampleResult } from './video.ts';

const box = { x: 0.1, y: 0.3, w: 0.8, h: 0.3 };
const line = (text: string) => ({ text, score: 0.9, box });

/**
 * Five samples of a busy band: the first and last read, the three between deferred; `shows` is what
 * OCR reads at each. Returns the samples read later (by frame) and the samples.
 */
async function place(shows: string[]) {
  const read = shows.map((_, i) => ({
    sample: { n: i * 6, from: i * 6, lines: [] } as SampleResult,
    k: i + 1,
  }));
  const readNow = (s: SampleResult) => {
    s.lines = shows[s.n / 6] ? [line(shows[s.n / 6])] : [];
  };
  readNow(read[0].sample);
  readNow(read[4].sample);
  const later: number[] = [];
  const placed = new Set<SampleResult>();
  const reads = await placeDeferred(
    read,
    read.map((r) => r.sample),
    new Set([1, 2, 3]),
    async (s) => {
      later.push(s.n);
      readNow(s);
    },
    placed,
  );
  expect(reads).toBe(later.length);
  return { later, samples: read.map((r) => r.sample), placed };
}

describe('which samples of a busy band are read', () => {
  it('reads none between two reads of the same text: they carry it on without a vote', async () => {
    const { later, samples, placed } = await place(Array(5).fill('我们今天在公园'));
    expect(later).toEqual([]);
    for (const s of samples.slice(1, 4)) {
      expect(placed.has(s)).toBe(true);
      expect(s.lines).toEqual([]);
      expect(s.weak?.map((l) => l.text)).toEqual(['我们今天在公园']);
    }
  });

  it('reads the middle between different texts, then only where the reads around still differ', async () => {
    const { later, samples } = await place(['第一句', '第一句', '第一句', '第二句话', '第二句话']);
    // 12 read "第一句": 6 lies between two equal reads, 18 between different ones.
    expect(later).toEqual([12, 18]);
    expect(samples[1].weak?.map((l) => l.text)).toEqual(['第一句']);
    expect(samples[3].lines.map((l) => l.text)).toEqual(['第二句话']);
  });

  it('reads more of a cue whose reads disagree (a partial read is not the same text)', async () => {
    const { later } = await place([
      '全较党这力重',
      '会较党这力重法业',
      '会较党这力重法业',
      '会较党这力重法业',
      '会较党这力重法业',
    ]);
    expect(later).toEqual([12, 6]);
  });
});
