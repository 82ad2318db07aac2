import type { Kysely } from 'kysely';

/**
 * Plan features that matched the voices (issue 30): 基础版 promised 「全部标准声音」 while six standard
 * voices need 专业版, and 专业版 promised 「高级声音」 for voices of the same standard engine. Plans
 * seeded with those texts get the true ones; features an operator has changed are left alone.
 */
const FIXES: Array<[number, string[], string[]]> = [
  [
    200,
    ['每月 2,000 积分', '全部标准声音', '可购买积分包', 'MP3 / WAV / SRT 下载'],
    ['每月 2,000 积分', '标准引擎声音（专业版声音除外）', '可购买积分包', 'MP3 / WAV / SRT 下载'],
  ],
  [
    300,
    ['每月 8,000 积分', '高级声音与声音克隆', '视频翻译与字幕擦除', 'API 访问'],
    ['每月 8,000 积分', '全部声音（含专业版声音）与声音克隆', '视频翻译与字幕擦除', 'API 访问'],
  ],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const k = db as Kysely<{ plans: { level: number; features: string } }>;
  for (const [level, old, now] of FIXES) {
    await k
      .updateTable('plans')
      .set({ features: JSON.stringify(now) })
      .where('level', '=', level)
      .where('features', '=', JSON.stringify(old))
      .execute();
  }
}

export async function down(): Promise<void> {
  // The old texts were not true; nothing to restore.
}
