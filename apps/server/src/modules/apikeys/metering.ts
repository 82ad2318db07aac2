import type { AppContext } from '../../context.ts';
import { perDatabase } from '../../db/local-state.ts';
import { businessDate } from '../credits/calendar.ts';
import { addUsage } from './apikeys.repo.ts';

interface Pending {
  key_id: string;
  user_id: string;
  day: string;
  requests: number;
  characters: number;
  lastUsedAt: number;
}

/**
 * Request counters per key and day, added up in memory and written once a second, so metering costs
 * a map update per request instead of a write. Credits are not counted here: the credit holds record
 * them exactly. A crash loses at most a second of request counts.
 */
export class UsageMeter {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private ctx: Pick<AppContext, 'db' | 'clock' | 'log'>,
    intervalMs = 1000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(keyId: string, userId: string, characters: number): void {
    const now = this.ctx.clock.now();
    const day = businessDate(now);
    const id = `${keyId}|${day}`;
    const p = this.pending.get(id);
    if (p) {
      p.requests += 1;
      p.characters += characters;
      p.lastUsedAt = now;
    } else {
      this.pending.set(id, { key_id: keyId, user_id: userId, day, requests: 1, characters, lastUsedAt: now });
    }
  }

  /** Writes what was counted; readers of usage call it first so their own process's counts show. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending.clear();
      for (const p of batch) {
        try {
          await addUsage(
            this.ctx.db,
            {
              key_id: p.key_id,
              day: p.day,
              user_id: p.user_id,
              requests: p.requests,
              characters: p.characters,
            },
            p.lastUsedAt,
          );
        } catch (err) {
          this.ctx.log.warn({ err, key: p.key_id }, 'could not write API usage');
        }
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

const meters = perDatabase<UsageMeter>();

/** One meter per database handle (one per app in tests, one per process in production; local-state.ts). */
export function usageMeter(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>): UsageMeter {
  return meters(ctx.db, () => new UsageMeter(ctx));
}
