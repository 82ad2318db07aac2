import { spawnSync } from 'node:child_process';

/** PSNR (dB) of two videos after the same filter `crop` (a trim and/or crop chain) on each. */
export function psnrAfter(a: string, b: string, crop: string): number {
  const run = spawnSync('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-i',
    a,
    '-i',
    b,
    '-lavfi',
    `[0:v]${crop}[a];[1:v]${crop}[b];[a][b]psnr`,
    '-f',
    'null',
    '-',
  ]);
  const m = /average:([\d.]+|inf)/.exec(run.stderr.toString());
  if (!m) throw new Error(`no psnr: ${run.stderr.toString().slice(-400)}`);
  return m[1] === 'inf' ? 100 : Number(m[1]);
}
