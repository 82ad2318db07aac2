import type { Db } from '../../db/database.ts';
import type { NewUser, RefreshToken, User, UserUpdate } from '../../db/schema.ts';

/** The account an identifier names: phones and e-mails live in their own unique columns. */
export type AccountKey = { column: 'phone' | 'email'; value: string };

export async function findUserByAccount(db: Db, account: AccountKey): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where(account.column, '=', account.value).executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .where('cancelled_at', 'is', null)
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function updateUser(db: Db, id: string, update: UserUpdate): Promise<void> {
  await db.updateTable('users').set(update).where('id', '=', id).execute();
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
