/**
 * The media inspector's helper process (see inspector.ts): runs probe, peaks and thumbnail calls,
 * several at once, and exits when its parent goes away.
 */
import { serveHelper } from '../process/serve.ts';
import { probeFile } from './probe.ts';
import { thumbnail, waveformPeaks } from './tools.ts';

export const inspectorOperations = {
  probeFile: ({ path, options }: { path: string; options: Parameters<typeof probeFile>[1] }) =>
    probeFile(path, options),
  waveformPeaks: ({
    path,
    bucketsPerSecond,
    options,
  }: {
    path: string;
    bucketsPerSecond: number;
    options: Parameters<typeof waveformPeaks>[2];
  }) => waveformPeaks(path, bucketsPerSecond, options),
  thumbnail: ({
    path,
    out,
    atSeconds,
    options,
  }: {
    path: string;
    out: string;
    atSeconds: number;
    options: Parameters<typeof thumbnail>[3];
  }) => thumbnail(path, out, atSeconds, options),
};

serveHelper(inspectorOperations);
