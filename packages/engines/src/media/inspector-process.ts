/**
 * The media inspector's helper process (see inspector.ts): runs probe, peaks and thumbnail calls
 * sent over IPC, several at once, and exits when its parent goes away.
 */
import { EngineError } from '../errors.ts';
import { probeFile } from './probe.ts';
import { thumbnail, waveformPeaks } from './tools.ts';

const operations = { probeFile, waveformPeaks, thumbnail } as const;
export type InspectorOperation = keyof typeof operations;
export interface InspectorCall {
  id: number;
  op: InspectorOperation;
  args: unknown[];
}
export type InspectorReply =
  | { id: number; value: unknown }
  | { id: number; error: { code?: EngineError['code']; zh?: string; en?: string; message: string } };

const reply = (message: InspectorReply) => process.send?.(message);

process.on('message', async ({ id, op, args }: InspectorCall) => {
  try {
    const run = operations[op] as (...a: unknown[]) => Promise<unknown>;
    reply({ id, value: await run(...args) });
  } catch (e) {
    reply({
      id,
      error:
        e instanceof EngineError
          ? { code: e.code, zh: e.zh, en: e.en, message: e.message }
          : { message: e instanceof Error ? e.message : String(e) },
    });
  }
});
process.on('disconnect', () => process.exit(0));
