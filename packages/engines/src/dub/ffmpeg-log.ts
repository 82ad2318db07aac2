import { spawn } from 'node:child_process';
import { EngineError } from '../errors.ts';
import { ALLOWED_DEMUXERS, SAFE_PROTOCOLS } from '../media/run.ts';

/**
 * Runs ffmpeg at log level info and returns its stderr: loudnorm and ebur128 print their measurements
 * there. Inputs get the same guards as media/run.ts (protocols; demuxers unless `ownInputs`).
 */
export function ffmpegInfo(
  args: string[],
  { signal, ownInputs = false }: { signal?: AbortSignal; ownInputs?: boolean } = {},
): Promise<string> {
  const guard = ['-protocol_whitelist', SAFE_PROTOCOLS];
  if (!ownInputs) guard.push('-format_whitelist', ALLOWED_DEMUXERS.join(','));
  const full = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'info'];
  for (const a of args) {
    if (a === '-i') full.push(...guard);
    full.push(a);
  }
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', full, { stdio: ['ignore', 'ignore', 'pipe'], signal });
    const parts: Buffer[] = [];
    let size = 0;
    child.stderr.on('data', (c: Buffer) => {
      parts.push(c);
      size += c.length;
      // Keep the tail only (the summaries come last).
      while (size > 256 * 1024 && parts.length > 1) size -= (parts.shift() as Buffer).length;
    });
    child.on('error', (e) => {
      if (e.name === 'AbortError') reject(new EngineError('aborted', '媒体处理已取消', 'ffmpeg aborted'));
      else reject(e);
    });
    child.on('close', (code) => {
      const log = Buffer.concat(parts).toString('utf8');
      if (code === 0) return resolve(log);
      const tail = log.trim().split('\n').slice(-4).join(' | ');
      reject(new EngineError('media_failed', `媒体处理失败：${tail}`, `ffmpeg exited with ${code}: ${tail}`));
    });
  });
}

export interface Loudness {
  /** Integrated loudness, LUFS (−Infinity for silence). */
  integrated: number;
  /** Peak in dBFS (true peak or sample peak, as the scan was asked). */
  peak: number;
  lra: number;
}

/** Reads the last ebur128 summary of an ffmpeg log. */
export function parseSummary(log: string): Loudness {
  const summary = log.slice(log.lastIndexOf('Summary:'));
  const num = (re: RegExp) => {
    const v = re.exec(summary)?.[1];
    return v === undefined || v === '-inf' ? Number.NEGATIVE_INFINITY : Number(v);
  };
  return {
    integrated: num(/I:\s+(-?[\d.]+|-inf) LUFS/),
    peak: num(/Peak:\s+(-?[\d.]+|-inf) dBFS/),
    lra: num(/LRA:\s+(-?[\d.]+) LU/),
  };
}

/** Integrated loudness (LUFS), true peak (dBTP) and loudness range of a file by ffmpeg's ebur128 scanner. */
export async function measureLoudness(file: string, signal?: AbortSignal): Promise<Loudness> {
  return parseSummary(
    await ffmpegInfo(['-i', file, '-vn', '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-'], {
      signal,
    }),
  );
}
