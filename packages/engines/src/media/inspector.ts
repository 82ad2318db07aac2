import { EngineError } from '../errors.ts';
import { createHelperPool } from '../process/helpers.ts';
import { TOOL_NICE } from '../process/tool.ts';
import type { inspectorOperations } from './inspector-process.ts';
import type { MediaProbe } from './probe.ts';
import type { WaveformPeaks } from './tools.ts';

/**
 * probeFile, waveformPeaks and thumbnail run in a small helper process, started on first use. A
 * server process is large (~550 MB): each ffmpeg it forks copies its page tables and holds its event
 * loop until the child has exec'ed, which under load took tens of milliseconds per upload from every
 * request in flight. The helper forks cheaply, runs at niceness 10 with its children, and does the
 * peaks arithmetic off the server's main thread. A helper that dies fails its calls with
 * `engine_unavailable` (not the file's fault: an S3 upload stays resumable) and is restarted
 * (process/helpers.ts).
 */
export interface MediaInspector {
  probeFile(path: string, options?: { format?: string; timeoutMs?: number }): Promise<MediaProbe>;
  waveformPeaks(
    path: string,
    bucketsPerSecond: number,
    options?: { timeoutMs?: number },
  ): Promise<WaveformPeaks>;
  thumbnail(
    path: string,
    out: string,
    atSeconds: number,
    options?: { timeoutMs?: number; width?: number },
  ): Promise<void>;
  close(): Promise<void>;
}

export function createMediaInspector(): MediaInspector {
  const helper = createHelperPool<typeof inspectorOperations>({
    script: new URL('./inspector-process.ts', import.meta.url),
    callsPerHelper: Number.POSITIVE_INFINITY,
    nice: TOOL_NICE,
    errors: {
      crashed: () =>
        new EngineError(
          'engine_unavailable',
          '媒体检查进程意外退出，请重试',
          'the media inspector process exited',
        ),
    },
  });
  return {
    probeFile: (path, options = {}) => helper.call('probeFile', { path, options }),
    waveformPeaks: (path, bucketsPerSecond, options = {}) =>
      helper.call('waveformPeaks', { path, bucketsPerSecond, options }),
    thumbnail: (path, out, atSeconds, options = {}) =>
      helper.call('thumbnail', { path, out, atSeconds, options }),
    close: () => helper.close(),
  };
}
