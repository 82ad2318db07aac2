import type { Db } from '../../db/database.ts';
import './onboarding.schema.ts';

/**
 * A secret the server makes for itself on first use and keeps in the database, so every API process
 * of a scale-out deployment shares it. Two processes starting at once: the first insert wins and
 * both read the winner back.
 */
export async function getOrCreateSecret(
  db: Db,
  name: string,
  make: () => string,
  now: number,
): Promise<string> {
  const existing = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('app_secrets')
    .values({ name, value: make(), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
