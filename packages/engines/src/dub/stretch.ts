import { EngineError } from '../errors.ts';
import { runTool, type ToolErrors } from '../process/tool.ts';

export const RUBBERBAND_LABEL = 'Rubber Band R3';

const stretchErrors: ToolErrors = {
  missing: () =>
    new EngineError(
      'engine_unavailable',
      '变速组件不可用，请联系管理员',
      'rubberband not found: install rubberband-cli',
    ),
  aborted: () => new EngineError('aborted', '变速已取消', 'time-stretch aborted'),
  failed: (exit, stderr) =>
    new EngineError(
      'media_failed',
      `变速失败：${stderr.trim()}`,
      `rubberband exited with ${exit}: ${stderr.trim()}`,
    ),
};

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
  const args = ['-q', '-3', '-D', (durationMs / 1000).toFixed(4), input, output];
  return runTool('rubberband', args, { signal, stdout: 'ignore', stderrBytes: 2000, errors: stretchErrors })
    .done;
}
