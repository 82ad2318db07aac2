import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { ApiKeyRow } from '../../db/schema.ts';
import { holdsSpent } from '../credits/credits.repo.ts';

/** Queries on API keys and their usage; every owner-facing one is scoped by user_id. */

export async function insertApiKey(db: Db, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function countApiKeys(db: Db, userId: string): Promise<number> {
  const r = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function findApiKeys(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .execute();
}

export async function findApiKeyForOwner(db: Db, userId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The authentication look-up: by hash only, never by the key. */
export async function findApiKeyByHash(db: Db, hash: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'credit_limit', 'expires_at', 'revoked_at'])
    .where('key_hash', '=', hash)
    .executeTakeFirst();
}

export async function updateApiKey(
  db: Db,
  userId: string,
  id: string,
  update: Partial<Pick<ApiKeyRow, 'name' | 'revoked_at'>>,
): Promise<void> {
  await db.updateTable('api_keys').set(update).where('id', '=', id).where('user_id', '=', userId).execute();
}

/** Per key: credits captured plus held now (the hold rows are the exact record). */
export async function sumCreditsByKey(db: Db, userId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('credit_holds')
    .select(['api_key_id', holdsSpent.as('total')])
    .where('user_id', '=', userId)
    .where('api_key_id', 'is not', null)
    .groupBy('api_key_id')
    .execute();
  return new Map(rows.map((r) => [r.api_key_id!, Number(r.total)]));
}

export async function sumRequestsByKey(db: Db, userId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('api_key_usage')
    .select(['key_id', (eb) => eb.fn.sum<number>('requests').as('total')])
    .where('user_id', '=', userId)
    .groupBy('key_id')
    .execute();
  return new Map(rows.map((r) => [r.key_id, Number(r.total)]));
}

export async function findUsageDays(db: Db, keyId: string, fromDay: string) {
  return db
    .selectFrom('api_key_usage')
    .select(['day', 'requests', 'characters'])
    .where('key_id', '=', keyId)
    .where('day', '>=', fromDay)
    .execute();
}

export async function findKeyHoldsSince(db: Db, keyId: string, since: number) {
  return db
    .selectFrom('credit_holds')
    .select(['amount', 'captured', 'status', 'created_at'])
    .where('api_key_id', '=', keyId)
    .where('created_at', '>=', since)
    .where('status', '!=', 'released')
    .execute();
}

/** Adds counted requests to a key's day (several API processes add their own counts). */
export async function addUsage(
  db: Db,
  row: { key_id: string; day: string; user_id: string; requests: number; characters: number },
  lastUsedAt: number,
): Promise<void> {
  await db
    .insertInto('api_key_usage')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['key_id', 'day']).doUpdateSet({
        requests: sql`api_key_usage.requests + ${row.requests}`,
        characters: sql`api_key_usage.characters + ${row.characters}`,
      }),
    )
    .execute();
  await db
    .updateTable('api_keys')
    .set({ last_used_at: lastUsedAt })
    .where('id', '=', row.key_id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', lastUsedAt)]))
    .execute();
}

/** Account cancellation: every key of the user stops (kept, revoked, for the usage records). */
export async function revokeApiKeysOfUser(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}
