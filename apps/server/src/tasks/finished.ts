import type { AppContext } from '../context.ts';
import type { TaskRow } from '../db/schema.ts';
import type { Pipeline } from './pipeline.ts';

/**
 * A task that has just ended: its status changed once (by compare-and-set) to succeeded, failed or
 * cancelled, in this process. The runner tells every listener on the app context (wired in
 * createContext: the ledger, webhooks, Web Push), one after another, before the task's own event.
 */
export interface TaskFinished {
  app: AppContext;
  /** The row as it ended; on success `credits_captured` is what the hold gives up. */
  task: TaskRow;
  pipeline: Pipeline<unknown> | undefined;
  /** When it ended (the app's clock). */
  at: number;
}

export type TaskFinishedListener = (finished: TaskFinished) => Promise<void>;
