import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../../../test/harness.ts';
import { createMemoryLimiter, createRedisLimiter, type Limiter } from './limits.ts';

let t = 1_000_000;
const limiters: Array<[string, () => Limiter]> = [
  ['memory', () => createMemoryLimiter(() => t)],
  ['redis', () => createRedisLimiter(TEST_REDIS_URL, `vw-test-limits-${process.pid}-${Math.random()}:`)],
];
const open: Limiter[] = [];
afterAll(async () => {
  for (const l of open) await l.close();
});

describe.each(limiters)('%s limiter', (kind, make) => {
  it('counts a fixed window and says how long until it starts over', async () => {
    const l = make();
    open.push(l);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await l.hit('k', 3, 60_000));
    expect(seen.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(seen[3].resetMs).toBeGreaterThan(0);
    expect(seen[3].resetMs).toBeLessThanOrEqual(60_000);
    expect((await l.hit('other', 3, 60_000)).allowed).toBe(true);
    if (kind === 'memory') {
      t += 60_000;
      expect((await l.hit('k', 3, 60_000)).remaining).toBe(2);
    }
  });

  it('hands out at most `limit` slots, and released slots come back', async () => {
    const l = make();
    open.push(l);
    const got = await Promise.all(Array.from({ length: 5 }, () => l.acquire('acct', 2)));
    expect(got.filter(Boolean)).toHaveLength(2);
    await l.release('acct');
    expect(await l.acquire('acct', 2)).toBe(true);
    expect(await l.acquire('acct', 2)).toBe(false);
  });
});
