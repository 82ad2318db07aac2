/** What bench:ocr and bench:erase share. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * A typical 720p upload's encode (2–8 Mbit/s) at `mbits`. At a fixed rate, not CRF 23: CRF 23 smooths
 * the benches' grain away and lands at 0.2–0.4 Mbit/s, cheaper to decode than anything a user uploads.
 */
export const uploadEncode = (mbits: number) => [
  '-c:v',
  'libx264',
  '-preset',
  'medium',
  '-b:v',
  `${mbits}M`,
  '-maxrate',
  `${mbits * 1.5}M`,
  '-bufsize',
  `${mbits * 2}M`,
  '-pix_fmt',
  'yuv420p',
];

/**
 * CPU seconds (user + system) so far from /proc (Linux), what the machine spent whoever else shares
 * it: this process (Node), its ended children (the ffmpeg runs, once awaited) and its live ones
 * (helper processes such as the OCR pool).
 */
export function cpuSplit(): { node: number; ffmpeg: number; helpers: number; total: number } {
  const fields = (pid: string | number) => {
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return s.slice(s.lastIndexOf(')') + 2).split(' ');
    } catch {
      return null;
    }
  };
  // After the name: [0] state, [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime (ticks).
  const own = (f: string[]) => Number(f[11]) + Number(f[12]);
  const ended = (f: string[]) => Number(f[13]) + Number(f[14]);
  const self = fields('self') ?? [];
  let helpers = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const f = fields(pid);
    if (f && Number(f[1]) === process.pid) helpers += own(f) + ended(f);
  }
  // USER_HZ = 100.
  const node = own(self) / 100;
  const ffmpeg = ended(self) / 100;
  helpers /= 100;
  return { node, ffmpeg, helpers, total: node + ffmpeg + helpers };
}
