import { spawn } from 'node:child_process';
import { EngineError } from '../errors.ts';

export const RUBBERBAND_LABEL = 'Rubber Band R3';

/**
 * Time-stretch without changing pitch: rubberband-cli's R3 ("fine") engine, asked for an exact output
 * duration. Input and output are WAV files.
 */
export function stretchToDuration(
  input: string,
  output: string,
  durationMs: number,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('rubberband', ['-q', '-3', '-D', (durationMs / 1000).toFixed(4), input, output], {
      stdio: ['ignore', 'ignore', 'pipe'],
      signal,
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString('utf8')).slice(-2000);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') {
        reject(
          new EngineError(
            'engine_unavailable',
            '变速组件不可用，请联系管理员',
            'rubberband not found: install rubberband-cli',
          ),
        );
      } else if (e.name === 'AbortError')
        reject(new EngineError('aborted', '变速已取消', 'time-stretch aborted'));
      else reject(e);
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else if (signal?.aborted) reject(new EngineError('aborted', '变速已取消', 'time-stretch aborted'));
      else
        reject(
          new EngineError(
            'media_failed',
            `变速失败：${err.trim()}`,
            `rubberband exited with ${code}: ${err.trim()}`,
          ),
        );
    });
  });
}
