/** Peak per bar (0..1) of decoded samples, for drawing the waveform. */
export function computePeaks(samples: Float32Array, bars: number): number[] {
  const out = new Array<number>(bars).fill(0);
  if (samples.length === 0 || bars <= 0) return out;
  const per = samples.length / bars;
  let max = 0;
  for (let b = 0; b < bars; b++) {
    const from = Math.floor(b * per);
    const to = Math.max(from + 1, Math.floor((b + 1) * per));
    let peak = 0;
    // Large files: look at up to 256 samples per bar, evenly spread.
    const stride = Math.max(1, Math.floor((to - from) / 256));
    for (let i = from; i < to && i < samples.length; i += stride) {
      const v = Math.abs(samples[i]);
      if (v > peak) peak = v;
    }
    out[b] = peak;
    if (peak > max) max = peak;
  }
  return max > 0 ? out.map((p) => p / max) : out;
}

/** Decodes encoded audio (MP3/WAV) and returns its first channel, or null when decoding fails. */
export async function decodeSamples(
  data: ArrayBuffer,
): Promise<{ samples: Float32Array; duration: number } | null> {
  const Ctx =
    globalThis.AudioContext ??
    (globalThis as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctx) return null;
  const ctx = new Ctx();
  try {
    const buf = await ctx.decodeAudioData(data.slice(0));
    return { samples: buf.getChannelData(0), duration: buf.duration };
  } catch {
    return null;
  } finally {
    void ctx.close();
  }
}

export function drawWaveform(
  canvas: HTMLCanvasElement,
  peaks: readonly number[],
  progress: number,
  colors: { played: string; rest: string },
): void {
  const dpr = globalThis.devicePixelRatio || 1;
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const n = peaks.length;
  if (n === 0) return;
  const gap = 2;
  const barW = Math.max(1, w / n - gap);
  const mid = h / 2;
  for (let i = 0; i < n; i++) {
    const x = i * (w / n);
    const bh = Math.max(2, peaks[i] * (h - 4));
    ctx.fillStyle = (i + 0.5) / n <= progress ? colors.played : colors.rest;
    const r = Math.min(barW / 2, 1.5);
    ctx.beginPath();
    ctx.roundRect(x, mid - bh / 2, barW, bh, r);
    ctx.fill();
  }
}
