import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '../media/run.ts';
import { eraseVideo } from './erase.ts';
import { loadInpainter } from './inpaint.ts';
import { LAMA_SIZE, lamaFill, startLama } from './lama.ts';
import { chromaMask } from './mask.ts';
import { TINY_LAMA_YUV, tinyLamaModel } from './tiny-lama.fixture.ts';
import { makeCleanClip } from './truth.ts';
import { chromaSize, frameBytes, newPlanes, type Planes } from './yuv.ts';

let dir: string;
let model: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vw-lama-test-'));
  model = join(dir, 'lama_fp32.onnx');
  await writeFile(model, tinyLamaModel());
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A textured region and the holes of a subtitle line across it. */
function region(w: number, h: number) {
  const crop = newPlanes({ x: 0, y: 0, w, h });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) crop.y[y * w + x] = 60 + ((x * 7 + y * 13) % 120);
  }
  const cw = chromaSize(w);
  for (let i = 0; i < crop.u.length; i++) {
    crop.u[i] = 150 + ((i % cw) % 40);
    crop.v[i] = 150 - (i % 30);
  }
  const holesY = new Uint8Array(w * h);
  // Strokes: short vertical bars along the band, as glyphs leave them.
  for (let y = Math.floor(h / 2) - 10; y < Math.floor(h / 2) + 10; y++) {
    for (let x = 20; x < w - 20; x++) if (x % 9 < 3) holesY[y * w + x] = 1;
  }
  return { crop, holesY, holesC: chromaMask(holesY, w, h) };
}

const copy = (p: Planes): Planes => ({ y: p.y.slice(), u: p.u.slice(), v: p.v.slice() });

/** The middle frame's planes as the fill sees them (yuv420p, no range conversion). */
async function middleFrame(video: string, w: number, h: number): Promise<Planes> {
  const raw = await runFfmpeg(['-i', video, '-an', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1']);
  const size = frameBytes(w, h);
  const at = Math.floor(raw.length / size / 2) * size;
  const c = chromaSize(w) * chromaSize(h);
  return {
    y: raw.subarray(at, at + w * h),
    u: raw.subarray(at + w * h, at + w * h + c),
    v: raw.subarray(at + w * h + c, at + w * h + 2 * c),
  };
}

describe('LaMa inpainting (the tiny model with the export’s signature, in its helper process)', () => {
  it('paints only the holes, with what the model answers, over a band wider than a tile', async () => {
    const w = 1100;
    const h = 96;
    const { crop, holesY, holesC } = region(w, h);
    const before = copy(crop);
    const lama = await startLama(model);
    const tiles: number[] = [];
    try {
      await lamaFill(
        {
          run: (image, mask) => {
            tiles.push(mask.reduce((n, v) => n + v, 0));
            return lama.run(image, mask);
          },
        },
        crop,
        holesY,
        holesC,
        w,
        h,
      );
    } finally {
      await lama.close();
    }
    // 1060 pixels of strokes need three tiles of 512 with their margins; each had holes to fill.
    expect(tiles.length).toBe(3);
    for (const t of tiles) expect(t).toBeGreaterThan(0);
    let painted = 0;
    for (let i = 0; i < w * h; i++) {
      if (holesY[i]) {
        expect(crop.y[i]).toBe(TINY_LAMA_YUV.y);
        painted++;
      } else expect(crop.y[i]).toBe(before.y[i]);
    }
    expect(painted).toBeGreaterThan(6000);
    for (let c = 0; c < crop.u.length; c++) {
      if (holesC[c]) {
        // A chroma block is the mean of its four pixels: holes painted, the rest as they were.
        expect(Math.abs(crop.u[c] - TINY_LAMA_YUV.u)).toBeLessThanOrEqual(40);
      } else {
        expect(crop.u[c]).toBe(before.u[c]);
        expect(crop.v[c]).toBe(before.v[c]);
      }
    }
    // Chroma blocks whose four pixels are all holes take the model's colour itself.
    const full = [...holesC.keys()].find((c) => {
      const cw = chromaSize(w);
      const x = (c % cw) * 2;
      const y = Math.floor(c / cw) * 2;
      return (
        holesY[y * w + x] && holesY[y * w + x + 1] && holesY[(y + 1) * w + x] && holesY[(y + 1) * w + x + 1]
      );
    });
    expect(full).toBeDefined();
    expect(Math.abs(crop.u[full!] - TINY_LAMA_YUV.u)).toBeLessThanOrEqual(1);
    expect(Math.abs(crop.v[full!] - TINY_LAMA_YUV.v)).toBeLessThanOrEqual(1);
  }, 60_000);

  it('scales a tile down when the holes are taller than it, and still touches only the holes', async () => {
    const w = 300;
    const h = 700;
    const crop = newPlanes({ x: 0, y: 0, w, h });
    crop.y.fill(100);
    crop.u.fill(128);
    crop.v.fill(128);
    const holesY = new Uint8Array(w * h);
    for (let y = 50; y < 650; y++) for (let x = 100; x < 140; x++) holesY[y * w + x] = 1;
    const sizes: number[] = [];
    await lamaFill(
      {
        run: async (_image, mask) => {
          sizes.push(mask.length);
          // A model that answers white everywhere: only the holes may show it.
          return new Float32Array(3 * LAMA_SIZE * LAMA_SIZE).fill(255);
        },
      },
      crop,
      holesY,
      null,
      w,
      h,
    );
    expect(sizes).toEqual([LAMA_SIZE * LAMA_SIZE]);
    for (let i = 0; i < w * h; i++) expect(crop.y[i]).toBe(holesY[i] ? 235 : 100);
    expect(crop.u.every((v) => v === 128)).toBe(true);
  });

  it('falls back to Telea, named so, when the model file is not a LaMa export', async () => {
    const broken = join(dir, 'not-lama.onnx');
    await writeFile(broken, Buffer.from('not a model'));
    const inpainter = await loadInpainter({ lamaModel: broken });
    try {
      expect(inpainter.method).toBe('telea');
    } finally {
      await inpainter.close();
    }
    const lama = await loadInpainter({ lamaModel: model });
    try {
      expect(lama.method).toBe('lama');
    } finally {
      await lama.close();
    }
  }, 60_000);

  it('erases a box no frame shows with the model, and says so; without the model, Telea', async () => {
    const W = 320;
    const H = 180;
    const clip = join(dir, 'still.mp4');
    await makeCleanClip(clip, 'static', { width: W, height: H, seconds: 1 });
    const box = { x: 100, y: 120, w: 120, h: 30 };
    const spans = [
      { box: { x: box.x / W, y: box.y / H, w: box.w / W, h: box.h / H }, start_ms: null, end_ms: null },
    ];
    const withLama = join(dir, 'lama.mp4');
    const result = await eraseVideo(clip, withLama, { method: 'fill', spans, mask: 'box', lamaModel: model });
    expect(result).toMatchObject({ method: 'fill', temporal_share: 0, inpaint: 'lama' });
    const source = await middleFrame(clip, W, H);
    const erased = await middleFrame(withLama, W, H);
    // Inside the box (away from its edge, where x264 blends): the model's colour; outside: the source.
    const inside = { y: [] as number[], u: [] as number[], v: [] as number[] };
    const outside: number[] = [];
    const cw = chromaSize(W);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const i = y * W + x;
        const c = (y >> 1) * cw + (x >> 1);
        if (x >= box.x + 4 && x < box.x + box.w - 4 && y >= box.y + 4 && y < box.y + box.h - 4) {
          inside.y.push(Math.abs(erased.y[i] - TINY_LAMA_YUV.y));
          inside.u.push(Math.abs(erased.u[c] - TINY_LAMA_YUV.u));
          inside.v.push(Math.abs(erased.v[c] - TINY_LAMA_YUV.v));
        } else if (x < box.x - 8 || x >= box.x + box.w + 8 || y < box.y - 8 || y >= box.y + box.h + 8)
          outside.push(Math.abs(erased.y[i] - source.y[i]));
      }
    }
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    expect(mean(inside.y)).toBeLessThan(2);
    expect(mean(inside.u)).toBeLessThan(2);
    expect(mean(inside.v)).toBeLessThan(2);
    expect(mean(outside)).toBeLessThan(2);

    const withTelea = join(dir, 'telea.mp4');
    const classic = await eraseVideo(clip, withTelea, { method: 'fill', spans, mask: 'box' });
    expect(classic).toMatchObject({ method: 'fill', temporal_share: 0, inpaint: 'telea' });
    const teleaFrame = await middleFrame(withTelea, W, H);
    // Telea carries the texture's own values (around 128) into the box, nothing like the model's colour.
    const far: number[] = [];
    for (let y = box.y + 4; y < box.y + box.h - 4; y++) {
      for (let x = box.x + 4; x < box.x + box.w - 4; x++)
        far.push(Math.abs(teleaFrame.y[y * W + x] - TINY_LAMA_YUV.y));
    }
    expect(mean(far)).toBeGreaterThan(20);
  }, 120_000);
});
