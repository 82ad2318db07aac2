import type { Db } from '../../db/database.ts';
import { cachedByTableWrites } from '../../db/local-state.ts';
import { preparedQuery } from '../../db/prepared.ts';
import type { NewUser, RefreshToken, User, UserUpdate } from '../../db/schema.ts';

/** The account an identifier names: phones and e-mails live in their own unique columns. */
export type AccountKey = { column: 'phone' | 'email'; value: string };

export async function findUserByAccount(db: Db, account: AccountKey): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where(account.column, '=', account.value).executeTakeFirst();
}

const selectUserById = preparedQuery((db, v: { id: string }) =>
  db.selectFrom('users').selectAll().where('id', '=', v.id).where('cancelled_at', 'is', null),
);

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  return selectUserById.first(db, { id });
}

/**
 * Recently read user rows, for reads that may be a moment old: get_user_info, which the client
 * calls on every page. Any write to the users table in this process (through Kysely's builder,
 * see table-writes.ts) empties it, before and after the statement; a write by another process,
 * or one in a transaction not yet committed, shows here after at most USER_CACHE_TTL_MS. Never
 * use it where the row decides a change (passwords, binding, cancellation): use findUserById.
 */
const USER_CACHE_TTL_MS = 1000;
const USER_CACHE_SIZE = 10_000;

export const findUserByIdCached = cachedByTableWrites('users', findUserById, {
  ttlMs: USER_CACHE_TTL_MS,
  size: USER_CACHE_SIZE,
  keep: (user) => user !== undefined,
});

/**
 * Whether a session (refresh-token family) is still signed in: it has a refresh token nobody revoked.
 * Its access tokens ask on every request, so the answer is cached like the user row above: any
 * write to refresh_tokens in this process empties it, another process's revocation shows within
 * USER_CACHE_TTL_MS.
 */
const selectLiveRefreshToken = preparedQuery((db, v: { family: string }) =>
  db
    .selectFrom('refresh_tokens')
    .select('id')
    .where('family_id', '=', v.family)
    .where('revoked_at', 'is', null)
    .limit(1),
);
export const isSessionLiveCached = cachedByTableWrites(
  'refresh_tokens',
  async (db, family) => (await selectLiveRefreshToken.first(db, { family })) !== undefined,
  { ttlMs: USER_CACHE_TTL_MS, size: USER_CACHE_SIZE },
);

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function updateUser(db: Db, id: string, update: UserUpdate): Promise<void> {
  await db.updateTable('users').set(update).where('id', '=', id).execute();
}

/**
 * One password try's turn: succeeds only while the failure count is still `failures` and no
 * backoff (or other try in flight) runs, and blocks others until `busyUntil` or the outcome.
 */
export async function claimPasswordTry(
  db: Db,
  id: string,
  failures: number,
  now: number,
  busyUntil: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_retry_at: busyUntil })
    .where('id', '=', id)
    .where('password_failures', '=', failures)
    .where((eb) => eb.or([eb('password_retry_at', 'is', null), eb('password_retry_at', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

// Refresh tokens --------------------------------------------------------------------------------

export async function insertRefreshToken(db: Db, token: RefreshToken): Promise<void> {
  await db.insertInto('refresh_tokens').values(token).execute();
}

export async function findRefreshTokenByHash(db: Db, tokenHash: string): Promise<RefreshToken | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks a token used; false when another request used it first (compare-and-set). */
export async function markRefreshTokenUsed(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function revokeRefreshFamily(db: Db, familyId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeRefreshTokensOfUser(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

// Verification codes ----------------------------------------------------------------------------

export async function countCodesSentTo(db: Db, target: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('verification_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('target', '=', target)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countCodesSentFromIp(db: Db, ip: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('verification_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ip', '=', ip)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertVerificationCode(
  db: Db,
  row: {
    id: string;
    target: string;
    scene: string;
    code_hash: string;
    ip: string;
    created_at: number;
    expires_at: number;
  },
): Promise<void> {
  await db
    .insertInto('verification_codes')
    .values({ ...row, attempts: 0, consumed_at: null })
    .execute();
}

export async function deleteVerificationCode(db: Db, id: string): Promise<void> {
  await db.deleteFrom('verification_codes').where('id', '=', id).execute();
}

/** The newest open code of a target and scene; older ones are superseded by it. */
export async function findOpenCode(db: Db, targets: string[], scene: string) {
  return db
    .selectFrom('verification_codes')
    .selectAll()
    .where('target', 'in', targets)
    .where('scene', '=', scene)
    .where('consumed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Counts a wrong try; returns the new count. */
export async function addCodeAttempt(db: Db, id: string): Promise<number> {
  await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
  const row = await db
    .selectFrom('verification_codes')
    .select('attempts')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row.attempts;
}

/** Consumes a code once; false when a concurrent request consumed it first. */
export async function consumeCode(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('verification_codes')
    .set({ consumed_at: now })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
