import { ALLOWED_DEMUXERS, mediaErrors, SAFE_PROTOCOLS } from '../media/run.ts';
import { runTool } from '../process/tool.ts';

/**
 * Runs ffmpeg at log level info and returns its stderr: loudnorm and ebur128 print their measurements
 * there. Inputs get the same guards as media/run.ts (protocols; demuxers unless `ownInputs`).
 */
export async function ffmpegInfo(
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
  // Keep the tail only (the summaries come last).
  const proc = runTool('ffmpeg', full, {
    signal,
    stdout: 'ignore',
    stderrBytes: 256 * 1024,
    errors: mediaErrors('ffmpeg', 4),
  });
  await proc.done;
  return proc.stderr();
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
