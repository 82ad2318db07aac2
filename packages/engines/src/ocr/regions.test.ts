import { describe, expect, it } from 'vitest';
import { bandOf, type Hit } from './regions.ts';

/** A line seen in `frame` at height `y` (fractions of the frame), 0.05 tall unless told. */
const line = (frame: number, y: number, h = 0.05): Hit => ({ frame, box: { x: 0.3, y, w: 0.4, h } });

describe('the band a group of subtitle lines calls for', () => {
  it('leaves room for a second line above one-line subtitles, padded by 0.6 of a line below', () => {
    const band = bandOf([line(0, 0.88), line(3, 0.882), line(5, 0.878)]);
    expect(band.kind).toBe('subtitle');
    expect(band.y).toBeCloseTo(0.878 - 1.6 * 0.05, 5);
    expect(band.y + band.h).toBeCloseTo(0.882 + 0.05 + 0.6 * 0.05, 5);
  });

  it('leaves no room for a third line once a frame showed two lines stacked', () => {
    const band = bandOf([line(0, 0.88), line(2, 0.82), line(2, 0.88), line(5, 0.88)]);
    expect(band.y).toBeCloseTo(0.82 - 0.6 * 0.05, 5);
  });

  it('takes neither its line height nor its extent from a box several lines tall (busy picture)', () => {
    const band = bandOf([line(0, 0.88), line(2, 0.82), line(2, 0.88), line(5, 0.88), line(9, 0.8, 0.19)]);
    expect(band.y).toBeCloseTo(0.82 - 0.6 * 0.05, 5);
    expect(band.y + band.h).toBeCloseTo(0.93 + 0.6 * 0.05, 5);
  });

  it('grows a title at the top downwards', () => {
    const band = bandOf([line(0, 0.05), line(4, 0.05)]);
    expect(band.kind).toBe('title');
    expect(band.y).toBeCloseTo(0.05 - 0.6 * 0.05, 5);
    expect(band.y + band.h).toBeCloseTo(0.1 + 1.6 * 0.05, 5);
  });
});
