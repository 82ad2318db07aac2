import { describe, expect, it } from 'vitest';
import { changeFrame, partOwners, type ShownRun, shownOwners } from './shown.ts';
import { nearPartOf, textPartOf } from './text.ts';
import { steadyMask, type TextMask } from './textmask.ts';

const W = 60;
const H = 12;

/** A glyph-like block of set pixels: every other pixel of rows 2..9 in columns x0..x0+13. */
function strokes(x0: number): number[] {
  const px: number[] = [];
  for (let y = 2; y < 10; y++) for (let x = x0; x < x0 + 14; x += 2) px.push(y * W + x + (y % 2));
  return px;
}
const A = strokes(4);
const B = strokes(34);

/** Deterministic sparse grain: about one pixel in 40, different in every frame. */
function frame(n: number, shown: number[]): TextMask {
  const bits = new Uint8Array(W * H);
  let s = n * 7919 + 1;
  for (let i = 0; i < bits.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    if ((s >>> 8) % 40 === 0) bits[i] = 1;
  }
  for (const p of shown) bits[p] = 1;
  return { bits, count: bits.reduce((a, b) => a + b, 0) };
}

const whole = [{ x: 0, y: 0, w: 1, h: 1 }];
/** A run of samples with the steady pixels of their own frames (as video.ts builds them). */
function run(text: string, members: number[], masks: TextMask[]): ShownRun {
  return {
    text,
    members,
    mask: text
      ? steadyMask(
          members.map((j) => masks[j]),
          whole,
          W,
          H,
          0.6,
        )
      : null,
    readable: !!text,
  };
}

describe('which cue a sample shows, by its text pixels', () => {
  it('keeps a cue on through samples OCR did not read, and ends it on the frame its strokes go', () => {
    // Cue A on frames 0..14 (ends at frame 15); samples every 6 frames, read at 0 and 6 only.
    const masks = Array.from({ length: 30 }, (_, n) => frame(n, n < 15 ? A : []));
    const samples = [0, 6, 12, 18, 24].map((j) => ({ j }));
    const runs = [run('甲', [0, 6], masks), run('', [12, 18, 24], masks)];
    const owners = shownOwners(samples, [0, 0, 1, 1, 1], runs, masks, W);
    expect(owners).toEqual([-1, -1, 0, -1, -1]);
    // Sample 12 now shows A: the change lies between it and sample 18, at frame 15.
    expect(changeFrame(runs[0].mask, null, masks, 12, 18, W)).toBe(15);
  });

  it('starts a cue where its strokes appear, before OCR first reads it', () => {
    // Cue A from frame 8; OCR reads it only from sample 18 on.
    const masks = Array.from({ length: 36 }, (_, n) => frame(n, n >= 8 ? A : []));
    const samples = [0, 6, 12, 18, 24, 30].map((j) => ({ j }));
    const runs = [run('', [0, 6, 12], masks), run('甲', [18, 24, 30], masks)];
    const owners = shownOwners(samples, [0, 0, 0, 1, 1, 1], runs, masks, W);
    expect(owners).toEqual([-1, -1, 1, -1, -1, -1]);
    expect(changeFrame(null, runs[1].mask, masks, 6, 12, W)).toBe(8);
  });

  it('takes a partial misread at a cue start into the cue, never another cue', () => {
    const masks = Array.from({ length: 30 }, (_, n) => frame(n, n < 15 ? A : B));
    const samples = [0, 6, 12, 18, 24].map((j) => ({ j }));
    // Sample 0 read a few wrong letters of A ("喜这体装" for "事这体将气制重放"): the same strokes.
    const runs = [
      run('喜这体装', [0], masks),
      run('事这体将气制重放', [6, 12], masks),
      run('乙', [18, 24], masks),
    ];
    const owners = shownOwners(samples, [0, 1, 1, 2, 2], runs, masks, W);
    expect(owners).toEqual([1, -1, -1, -1, -1]);
    expect(changeFrame(runs[1].mask, runs[2].mask, masks, 12, 18, W)).toBe(15);
  });

  it('stops at a blank band', () => {
    const masks = Array.from({ length: 24 }, (_, n) => frame(n, A));
    const samples = [{ j: 0 }, { j: 6 }, { j: 12, blank: true }, { j: 18 }];
    const runs = [run('甲', [0, 6], masks), run('', [12, 18], masks)];
    expect(shownOwners(samples, [0, 0, 1, 1], runs, masks, W)).toEqual([-1, -1, -1, -1]);
  });

  describe('a short partial read joins the line it is a part of', () => {
    /** A run read only inside `box` (its OCR box), as video.ts builds a partial read's mask. */
    const partRun = (text: string, members: number[], masks: TextMask[], box: { x: number; w: number }) => ({
      text,
      members,
      mask: steadyMask(
        members.map((j) => masks[j]),
        [{ x: box.x, y: 0, w: box.w, h: 1 }],
        W,
        H,
        0.6,
      ),
      readable: true,
    });
    const partOf = (part: string, whole: string) => textPartOf(part, whole, 0.6) || nearPartOf(part, whole);
    // Line A ("计分子月四") on frames 0..23, B after; OCR read only its last two letters ("月四",
    // columns 12..18) in samples 0 and 6, the whole line in 12 and 18.
    const masks = Array.from({ length: 36 }, (_, n) => frame(n, n < 24 ? A : B));
    const samples = [0, 6, 12, 18, 24, 30].map((j) => ({ j }));
    const right = { x: 12 / W, w: 7 / W };

    it('joins "月四" read at the place of those letters in "计分子月四"', () => {
      const runs = [
        partRun('月四', [0, 6], masks, right),
        run('计分子月四', [12, 18], masks),
        run('乙', [24, 30], masks),
      ];
      expect(partOwners(samples, [0, 0, 1, 1, 2, 2], runs, W, partOf)).toEqual([1, -1, -1]);
    });

    it('keeps the same piece apart when its strokes are elsewhere on the line', () => {
      // Frames 0..11 show B, whose letters OCR read as "月四": the same text, other strokes.
      const other = Array.from({ length: 36 }, (_, n) => frame(n, n < 12 ? B : n < 24 ? A : []));
      const runs = [
        partRun('月四', [0, 6], other, { x: 40 / W, w: 7 / W }),
        run('计分子月四', [12, 18], other),
        run('', [24, 30], other),
      ];
      expect(partOwners(samples, [0, 0, 1, 1, 2, 2], runs, W, partOf)).toEqual([-1, -1, -1]);
    });

    it('joins a piece read with one letter wrong ("字月四" for "子月四") at the place of those letters', () => {
      const three = { x: 8 / W, w: 11 / W };
      const runs = [
        partRun('字月四', [0, 6], masks, three),
        run('计分子月四', [12, 18], masks),
        run('乙', [24, 30], masks),
      ];
      expect(partOwners(samples, [0, 0, 1, 1, 2, 2], runs, W, partOf)).toEqual([1, -1, -1]);
      // Two letters wrong is another text; so is the same near piece with its strokes elsewhere.
      runs[0].text = '字月五';
      expect(partOwners(samples, [0, 0, 1, 1, 2, 2], runs, W, partOf)[0]).toBe(-1);
      const other = Array.from({ length: 36 }, (_, n) => frame(n, n < 12 ? B : n < 24 ? A : []));
      const elsewhere = [
        partRun('字月四', [0, 6], other, { x: 38 / W, w: 11 / W }),
        run('计分子月四', [12, 18], other),
        run('', [24, 30], other),
      ];
      expect(partOwners(samples, [0, 0, 1, 1, 2, 2], elsewhere, W, partOf)).toEqual([-1, -1, -1]);
    });

    it('never joins across a blank band nor a text that is not a part', () => {
      const runs = [
        partRun('月四', [0], masks, right),
        run('', [6], masks),
        run('计分子月四', [12, 18], masks),
        run('乙', [24, 30], masks),
      ];
      const blank = samples.map((s, i) => ({ ...s, blank: i === 1 }));
      expect(partOwners(blank, [0, 1, 2, 2, 3, 3], runs, W, partOf)).toEqual([-1, -1, -1, -1]);
      // Read as nothing in between (not blank): still the same line.
      expect(partOwners(samples, [0, 1, 2, 2, 3, 3], runs, W, partOf)).toEqual([2, -1, -1, -1]);
      runs[0].text = '月五';
      expect(partOwners(samples, [0, 1, 2, 2, 3, 3], runs, W, partOf)[0]).toBe(-1);
    });
  });
});
