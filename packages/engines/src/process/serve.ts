/**
 * The helper side of process/helpers.ts: answers `{ id, op, input }` calls with the operation's value
 * or its error (an EngineError keeps its code and sentences), reports progress, and exits when the
 * parent goes away. Imported by helper scripts only.
 */
import { EngineError } from '../errors.ts';

/** One operation a helper offers: its input in, its value out, progress as a fraction 0…1. */
export type HelperOperation = (input: never, progress: (fraction: number) => void) => unknown;
export type HelperOperations = Record<string, HelperOperation>;

export interface HelperCall {
  id: number;
  op: string;
  input: unknown;
}

export type HelperError = { code?: EngineError['code']; zh?: string; en?: string; message: string };

export type HelperReply =
  /** The helper is set up and takes calls. */
  | { ready: true }
  /** The helper cannot work here (a library is missing); another would fail the same way. */
  | { unavailable: string }
  | { id: number; progress: number }
  | { id: number; value: unknown }
  | { id: number; error: HelperError };

const send = (message: HelperReply) => {
  if (process.connected) process.send?.(message);
};

/** Serves `operations` over IPC, several calls at once, and says it is ready. */
export function serveHelper(operations: HelperOperations): void {
  process.on('message', async ({ id, op, input }: HelperCall) => {
    try {
      const run = operations[op] as (input: unknown, progress: (f: number) => void) => unknown;
      send({ id, value: await run(input, (progress) => send({ id, progress })) });
    } catch (e) {
      send({
        id,
        error:
          e instanceof EngineError
            ? { code: e.code, zh: e.zh, en: e.en, message: e.message }
            : { message: e instanceof Error ? e.message : String(e) },
      });
    }
  });
  // The parent went away (or is done with a helper of one call): nothing left to do.
  process.on('disconnect', () => process.exit(0));
  send({ ready: true });
}

/** Tells the parent this helper cannot work here, and ends. */
export function refuseHelper(reason: string): never {
  send({ unavailable: reason });
  process.exit(1);
}
