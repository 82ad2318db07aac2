import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness.ts';
import { cachedByTableWrites, localState } from './local-state.ts';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const readSetting = async (db: TestServer['ctx']['db'], key: string) =>
  (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
const writeSetting = (key: string, value: string) =>
  server.ctx.db
    .insertInto('settings')
    .values({ key, value, updated_at: 0 })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();

describe('cachedByTableWrites', () => {
  it('peeks only what a read kept, and nothing once the table is written in this process', async () => {
    const cached = cachedByTableWrites('settings', readSetting, { ttlMs: 60_000, size: 10 });
    const db = server.ctx.db;
    await writeSetting('cache_a', 'one');
    expect(cached.peek(db, 'cache_a')).toBeUndefined();
    expect(await cached(db, 'cache_a')).toBe('one');
    expect(cached.peek(db, 'cache_a')?.value).toBe('one');

    // Any builder write to the table, whichever row: the next peek misses and the read sees the change.
    await writeSetting('cache_a', 'two');
    expect(cached.peek(db, 'cache_a')).toBeUndefined();
    expect(await cached(db, 'cache_a')).toBe('two');
    expect(cached.peek(db, 'cache_a')?.value).toBe('two');
  });

  it('forgets a value after its time (another process may have written it)', async () => {
    const cached = cachedByTableWrites('settings', readSetting, { ttlMs: 1000, size: 10 });
    const db = server.ctx.db;
    await writeSetting('cache_b', 'one');
    const start = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(start);
    await cached(db, 'cache_b');
    vi.spyOn(Date, 'now').mockReturnValue(start + 999);
    expect(cached.peek(db, 'cache_b')?.value).toBe('one');
    vi.spyOn(Date, 'now').mockReturnValue(start + 1000);
    expect(cached.peek(db, 'cache_b')).toBeUndefined();
  });

  it('does not keep a value read while the table was being written', async () => {
    let hasRead = () => {};
    const read = new Promise<void>((resolve) => {
      hasRead = resolve;
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const cached = cachedByTableWrites(
      'settings',
      async (db, key) => {
        const value = await readSetting(db, key);
        hasRead();
        await gate;
        return value;
      },
      { ttlMs: 60_000, size: 10 },
    );
    const db = server.ctx.db;
    await writeSetting('cache_c', 'old');
    const reading = cached(db, 'cache_c');
    await read;
    // The table is written after the read got its value and before it returns: that value may be stale.
    localState(db).writes.announce('settings');
    release();
    expect(await reading).toBe('old');
    expect(cached.peek(db, 'cache_c')).toBeUndefined();
  });
});
