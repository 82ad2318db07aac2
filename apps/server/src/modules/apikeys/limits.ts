import { Redis } from 'ioredis';

export interface WindowResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window starts over. */
  resetMs: number;
}

/**
 * Rate windows and concurrency slots: the public API's, and the per-account limits of
 * account-limits.ts. In memory for one process; on Redis when REDIS_URL is set, so every API
 * process counts against the same limits.
 */
export interface Limiter {
  /** Counts one request in a fixed window of `windowMs` for `key`. */
  hit(key: string, limit: number, windowMs: number): Promise<WindowResult>;
  /** Takes a slot of `key` if fewer than `limit` are taken; false when all are in use. */
  acquire(key: string, limit: number): Promise<boolean>;
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryLimiter(now: () => number = Date.now): Limiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const slots = new Map<string, number>();
  return {
    async hit(key, limit, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (!w || w.resetAt <= t) {
        // Drop ended windows now and then so the map does not grow with every key ever seen.
        if (windows.size > 10_000) for (const [k, v] of windows) if (v.resetAt <= t) windows.delete(k);
        w = { count: 0, resetAt: t + windowMs };
        windows.set(key, w);
      }
      w.count += 1;
      return {
        allowed: w.count <= limit,
        limit,
        remaining: Math.max(0, limit - w.count),
        resetMs: w.resetAt - t,
      };
    },
    async acquire(key, limit) {
      const n = slots.get(key) ?? 0;
      if (n >= limit) return false;
      slots.set(key, n + 1);
      return true;
    },
    async release(key) {
      const n = (slots.get(key) ?? 0) - 1;
      if (n <= 0) slots.delete(key);
      else slots.set(key, n);
    },
    async close() {},
  };
}

const HIT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;
// The slot counter expires if a process dies holding slots, so a crash cannot lock an account out.
const ACQUIRE = `local c = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if c > tonumber(ARGV[1]) then redis.call('DECR', KEYS[1]); return 0 end
return 1`;
const RELEASE = `local c = redis.call('DECR', KEYS[1])
if c <= 0 then redis.call('DEL', KEYS[1]) end
return c`;

export function createRedisLimiter(url: string, prefix = 'vw-public:', slotTtlMs = 10 * 60_000): Limiter {
  // Connects on first use: a process that never counts (a worker, the CLI) opens no connection.
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  return {
    async hit(key, limit, windowMs) {
      const [count, ttl] = (await redis.eval(HIT, 1, `${prefix}rate:${key}`, windowMs)) as [number, number];
      return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetMs: ttl };
    },
    async acquire(key, limit) {
      return (await redis.eval(ACQUIRE, 1, `${prefix}slots:${key}`, limit, slotTtlMs)) === 1;
    },
    async release(key) {
      await redis.eval(RELEASE, 1, `${prefix}slots:${key}`);
    },
    async close() {
      if (redis.status === 'wait') redis.disconnect();
      else await redis.quit();
    },
  };
}
