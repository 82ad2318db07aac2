import { normalizeText } from './normalize.ts';

/** How many `written|said` cases the normaliser reads as said (spaces and letter case ignored), and the misses. */
export function measureNormalizer(lines: string[]) {
  const wrong: Array<{ written: string; got: string; expected: string }> = [];
  for (const line of lines) {
    const [written, expected] = line.split('|');
    const got = normalizeText(written).spoken.replace(/\s+/g, '');
    if (got.toLowerCase() !== expected.replace(/\s+/g, '').toLowerCase())
      wrong.push({ written, got, expected });
  }
  const right = lines.length - wrong.length;
  return { total: lines.length, right, accuracy: right / lines.length, wrong };
}
