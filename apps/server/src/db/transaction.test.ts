import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness.ts';
import { inTransaction } from './transaction.ts';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

const put = (key: string, value: string) =>
  inTransaction(server.ctx.db, server.ctx.dbKind, async (tx) => {
    await tx.insertInto('settings').values({ key, value, updated_at: 0 }).execute();
    if (value === 'boom') throw new Error('boom');
    return key;
  });

describe('inTransaction', () => {
  it('commits concurrent transactions and undoes only the one that failed', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => put(`tx_${i}`, i % 7 === 3 ? 'boom' : 'ok')),
    );
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(6);
    const rows = await server.ctx.db
      .selectFrom('settings')
      .select('key')
      .where('key', 'like', 'tx_%')
      .execute();
    expect(rows).toHaveLength(34);
    expect(rows.some((r) => r.key === 'tx_3')).toBe(false);
  });

  it('fails a transaction that breaks a constraint without touching the others', async () => {
    await put('dup', 'ok');
    const [a, b] = await Promise.allSettled([put('dup', 'ok'), put('fresh', 'ok')]);
    expect(a.status).toBe('rejected');
    expect(b).toEqual({ status: 'fulfilled', value: 'fresh' });
  });
});
