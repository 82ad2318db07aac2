import { EngineError, isEngineError } from '../errors.ts';
import { createHelperPool } from '../process/helpers.ts';
import { loadModelRegistry, modelPath } from '../sherpa/models.ts';
import type { lamaOperations } from './lama-worker.ts';
import { chromaSize, type Planes } from './yuv.ts';

/**
 * LaMa (big-lama, Samsung AI; the ONNX export of the model catalogue, `inpaint` kind) fills the
 * pixels the temporal fill could not take from another frame. The export sees a fixed 512 × 512
 * RGB tile (image 0..1 and mask, output 0..255): the holes of a region are cut into tiles of at
 * least that size around them (along the band of a subtitle), scaled down only when the holes are
 * taller than a tile, padded by repeating the edge, and only the hole pixels are written back.
 * The model runs in a helper process (lama-worker.ts) that lives as long as one erase.
 */

export const LAMA_SIZE = 512;
/** Picture kept around the holes of a tile, pixels of the region. */
const MARGIN = 24;

export interface Lama {
  /** One tile: RGB planes 0..1 and mask (1 = fill), LAMA_SIZE²; resolves RGB planes 0..255. */
  run(image: Float32Array, mask: Float32Array): Promise<Float32Array>;
  close(): Promise<void>;
}

/**
 * The model file of the installed `inpaint` entry of the models folder's models.json (every file on
 * disk), or null: none installed, no folder or registry. Read at each erase, so an install or a
 * removal counts from the next one.
 */
export async function findLamaModel(modelsDir: string | undefined): Promise<string | null> {
  if (!modelsDir) return null;
  const models = await loadModelRegistry(modelsDir, (m) => m.kind === 'inpaint').catch(() => []);
  const file = models[0]?.files.model;
  return typeof file === 'string' ? modelPath(modelsDir, file) : null;
}

/** Starts the helper and opens the model; rejects when it cannot run here. */
export async function startLama(model: string): Promise<Lama> {
  const pool = createHelperPool<typeof lamaOperations>({
    script: new URL('./lama-worker.ts', import.meta.url),
    keepStderr: true,
    errors: {
      crashed: ({ exit, stderr }) =>
        new EngineError(
          'engine_unavailable',
          '画面修补进程出错，请稍后重试',
          `LaMa helper exited with ${exit}: ${stderr.trim().slice(-500)}`,
        ),
      aborted: () => new EngineError('aborted', '已取消', 'LaMa cancelled'),
    },
  });
  try {
    await pool.call('load', model);
  } catch (e) {
    await pool.close();
    throw isEngineError(e)
      ? e
      : new EngineError('model_invalid', '画面修补模型不可用', `LaMa ${model}: ${(e as Error).message}`);
  }
  return {
    run: (image, mask) => pool.call('run', { model, size: LAMA_SIZE, image, mask }),
    close: () => pool.close(),
  };
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

// BT.601 studio range, both ways: the model sees RGB, the fill keeps the frame's own YUV.
function toRgb(crop: Planes, w: number, h: number): Float32Array {
  const n = w * h;
  const cw = chromaSize(w);
  const rgb = new Float32Array(3 * n);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const c = (y >> 1) * cw + (x >> 1);
      const Y = 1.164 * (crop.y[i] - 16);
      const U = crop.u[c] - 128;
      const V = crop.v[c] - 128;
      rgb[i] = clamp(Y + 1.596 * V, 0, 255);
      rgb[n + i] = clamp(Y - 0.392 * U - 0.813 * V, 0, 255);
      rgb[2 * n + i] = clamp(Y + 2.017 * U, 0, 255);
    }
  }
  return rgb;
}

const lumaOf = (r: number, g: number, b: number) => 16 + 0.257 * r + 0.504 * g + 0.098 * b;
const uOf = (r: number, g: number, b: number) => 128 - 0.148 * r - 0.291 * g + 0.439 * b;
const vOf = (r: number, g: number, b: number) => 128 + 0.439 * r - 0.368 * g - 0.071 * b;
const byte = (v: number) => clamp(Math.round(v), 0, 255);

/**
 * Fills a region's holes (luma `holesY`, chroma `holesC`) with LaMa, in place; every other pixel of
 * `crop` stays as it was.
 */
export async function lamaFill(
  lama: Pick<Lama, 'run'>,
  crop: Planes,
  holesY: Uint8Array | null,
  holesC: Uint8Array | null,
  w: number,
  h: number,
): Promise<void> {
  const cw = chromaSize(w);
  // The holes at full resolution: a chroma hole is unknown over its 2 × 2 block.
  const holes = new Uint8Array(w * h);
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!holesY?.[i] && !holesC?.[(y >> 1) * cw + (x >> 1)]) continue;
      holes[i] = 1;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  if (x1 < 0) return;
  const n = w * h;
  const rgb = toRgb(crop, w, h);
  // A tile covers `side` pixels of the region: LAMA_SIZE unless the holes are taller (then scaled).
  const side = Math.max(LAMA_SIZE, y1 - y0 + 1 + 2 * MARGIN);
  const scale = side / LAMA_SIZE;
  const step = side - 2 * MARGIN;
  const N = LAMA_SIZE;
  const image = new Float32Array(3 * N * N);
  const mask = new Float32Array(N * N);
  for (let tx0 = x0; tx0 <= x1; tx0 += step) {
    const tx1 = Math.min(x1, tx0 + step - 1);
    // The tile's window on the region, centred on its holes, kept inside the region.
    const ox = clamp(Math.round((tx0 + tx1 + 1) / 2 - side / 2), 0, Math.max(0, w - side));
    const oy = clamp(Math.round((y0 + y1 + 1) / 2 - side / 2), 0, Math.max(0, h - side));
    let any = false;
    for (let my = 0; my < N; my++) {
      // Beyond the region the edge repeats (holes included, so they stay unknown).
      const sy = clamp(Math.floor(oy + (my + 0.5) * scale), 0, h - 1);
      for (let mx = 0; mx < N; mx++) {
        const sx = clamp(Math.floor(ox + (mx + 0.5) * scale), 0, w - 1);
        const s = sy * w + sx;
        const m = my * N + mx;
        const hole = holes[s];
        mask[m] = hole;
        if (hole) any = true;
        for (let c = 0; c < 3; c++) image[c * N * N + m] = hole ? 0 : rgb[c * n + s] / 255;
      }
    }
    if (!any) continue;
    const out = await lama.run(image, mask);
    // Back into the region: the tile's own holes, sampled (bilinear) where the tile was scaled.
    const yEnd = Math.min(h - 1, oy + side - 1);
    for (let y = Math.max(y0, oy); y <= Math.min(y1, yEnd); y++) {
      for (let x = tx0; x <= tx1; x++) {
        const i = y * w + x;
        if (!holes[i]) continue;
        const fx = clamp((x - ox + 0.5) / scale - 0.5, 0, N - 1);
        const fy = clamp((y - oy + 0.5) / scale - 0.5, 0, N - 1);
        const ax = Math.floor(fx);
        const ay = Math.floor(fy);
        const bx = Math.min(N - 1, ax + 1);
        const by = Math.min(N - 1, ay + 1);
        const wx = fx - ax;
        const wy = fy - ay;
        for (let c = 0; c < 3; c++) {
          const p = c * N * N;
          const top = out[p + ay * N + ax] * (1 - wx) + out[p + ay * N + bx] * wx;
          const bottom = out[p + by * N + ax] * (1 - wx) + out[p + by * N + bx] * wx;
          rgb[c * n + i] = clamp(top * (1 - wy) + bottom * wy, 0, 255);
        }
      }
    }
  }
  // The frame's YUV again: luma per hole pixel, chroma per hole block (the mean over its pixels).
  for (let i = 0; i < n; i++) {
    if (holesY?.[i]) crop.y[i] = byte(lumaOf(rgb[i], rgb[n + i], rgb[2 * n + i]));
  }
  if (!holesC) return;
  const ch = chromaSize(h);
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const c = cy * cw + cx;
      if (!holesC[c]) continue;
      let r = 0;
      let g = 0;
      let b = 0;
      let k = 0;
      for (let y = 2 * cy; y < Math.min(h, 2 * cy + 2); y++) {
        for (let x = 2 * cx; x < Math.min(w, 2 * cx + 2); x++) {
          const i = y * w + x;
          r += rgb[i];
          g += rgb[n + i];
          b += rgb[2 * n + i];
          k++;
        }
      }
      crop.u[c] = byte(uOf(r / k, g / k, b / k));
      crop.v[c] = byte(vOf(r / k, g / k, b / k));
    }
  }
}
