import type { Db } from '../../db/database.ts';

export async function findFeatureOverrides(db: Db, userId: string): Promise<Map<string, boolean>> {
  const rows = await db
    .selectFrom('user_features')
    .select(['feature', 'enabled'])
    .where('user_id', '=', userId)
    .execute();
  return new Map(rows.map((r) => [r.feature, r.enabled === 1]));
}

export async function upsertFeatureOverride(
  db: Db,
  row: { userId: string; feature: string; enabled: boolean; now: number },
): Promise<void> {
  await db
    .insertInto('user_features')
    .values({ user_id: row.userId, feature: row.feature, enabled: row.enabled ? 1 : 0, updated_at: row.now })
    .onConflict((oc) =>
      oc.columns(['user_id', 'feature']).doUpdateSet({ enabled: row.enabled ? 1 : 0, updated_at: row.now }),
    )
    .execute();
}

export async function deleteFeatureOverride(db: Db, userId: string, feature: string): Promise<void> {
  await db.deleteFrom('user_features').where('user_id', '=', userId).where('feature', '=', feature).execute();
}
