import { describe, expect, it } from 'vitest';
import { bandMotion } from './video.ts';

const SIZE = 64 * 16;
/** Gray frames: `noise` = a new random picture (grain), `same` = the frame before again. */
function frames(kinds: Array<'noise' | 'same' | 'flat'>): (i: number) => Uint8Array {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >> 16) & 255;
  };
  const out: Uint8Array[] = [];
  for (const k of kinds) {
    if (k === 'same') out.push(out[out.length - 1]);
    else out.push(k === 'flat' ? new Uint8Array(SIZE).fill(90) : Uint8Array.from({ length: SIZE }, random));
  }
  return (i) => out[i];
}

describe('band motion at a sample', () => {
  it('is busy where grain changed the band since the frame before', () => {
    const f = frames(['noise', 'noise', 'noise', 'noise', 'noise', 'noise', 'noise']);
    expect(bandMotion(f, 6, 7, 6)).toEqual({ busy: true, calm: false });
  });

  it('is neither busy nor calm where a busy picture held still for two frames (a compressed copy)', () => {
    const f = frames(['noise', 'noise', 'noise', 'noise', 'noise', 'same', 'same']);
    expect(bandMotion(f, 6, 7, 6)).toEqual({ busy: false, calm: false });
  });

  it('is calm where the band did not change over the whole step', () => {
    const f = frames(['flat', 'same', 'same', 'same', 'same', 'same', 'same']);
    expect(bandMotion(f, 6, 7, 6)).toEqual({ busy: false, calm: true });
  });
});
