import type { Clock } from '../clock.ts';
import type { JobDefinition } from './define.ts';
import type { JobQueue } from './queue.ts';

/**
 * Enqueues `def` once per `everyMs` window. The window is the idempotency key, so any number of
 * worker processes scheduling the same job add it once per window.
 */
export function scheduleEvery(
  queue: JobQueue,
  def: JobDefinition,
  everyMs: number,
  clock: Clock,
): () => void {
  const tick = () => {
    const window = Math.floor(clock.now() / everyMs);
    queue.enqueue(def, {}, { idempotencyKey: `schedule:${def.name}:${window}` }).catch(() => {
      // The queue is closing or the database is away: the next window tries again.
    });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
