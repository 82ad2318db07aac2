import type { Db } from '../../db/database.ts';
import './onboarding.schema.ts';

/** Secrets already read, per database handle: they never change once made, so reads stay off the hot paths. */
const known = new WeakMap<object, Map<string, Promise<string>>>();

/**
 * A secret the server makes for itself on first use and keeps in the database, so every API process
 * of a scale-out deployment shares it. Two processes starting at once: the first insert wins and
 * both read the winner back.
 */
export function getOrCreateSecret(db: Db, name: string, make: () => string, now: number): Promise<string> {
  const secrets = known.get(db) ?? new Map<string, Promise<string>>();
  known.set(db, secrets);
  let secret = secrets.get(name);
  if (!secret) {
    secret = readOrCreate(db, name, make, now);
    secrets.set(name, secret);
    // A failed read is not remembered: the next call tries again.
    secret.catch(() => secrets.delete(name));
  }
  return secret;
}

async function readOrCreate(db: Db, name: string, make: () => string, now: number): Promise<string> {
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
