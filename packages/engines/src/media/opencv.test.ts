import { expect, it } from 'vitest';
import { openCv } from './opencv.ts';

it('answers OpenCV only once its runtime has started, the same module every time', async () => {
  const first = openCv<{ Mat: new () => { rows: number; delete(): void } }>();
  const { cv } = await first;
  const mat = new cv.Mat();
  expect(mat.rows).toBe(0);
  mat.delete();
  expect((await openCv()).cv).toBe(cv);
});
