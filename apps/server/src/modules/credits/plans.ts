import { FREE_LEVEL, type Plan } from '@vw/contract';
import type { Db } from '../../db/database.ts';
import { getSetting } from '../settings/settings.service.ts';

/** The plan ladder; 100 is the free plan, anything above is a membership. Seeded once, editable in the table. */
export const DEFAULT_PLANS: Plan[] = [
  {
    level: 100,
    title: '免费版',
    // Shown and issued from the runtime setting free_monthly_credits (see findPlans).
    monthly_credits: 0,
    features: ['每月赠送积分，可试用各项工具', '标准引擎文字转语音', '声音库试听', '历史记录保留 7 天'],
  },
  {
    level: 200,
    title: '基础版',
    monthly_credits: 2000,
    features: ['每月 2,000 积分', '标准引擎声音（专业版声音除外）', '可购买积分包', 'MP3 / WAV / SRT 下载'],
  },
  {
    level: 300,
    title: '专业版',
    monthly_credits: 8000,
    features: ['每月 8,000 积分', '全部声音（含专业版声音）与声音克隆', '视频翻译与字幕擦除', 'API 访问'],
  },
  {
    level: 400,
    title: '企业版',
    monthly_credits: 30000,
    features: ['每月 30,000 积分', '全部功能', '更高并发与长文本上限', '专属支持'],
  },
];

export async function seedPlans(db: Db): Promise<void> {
  for (const plan of DEFAULT_PLANS) {
    await db
      .insertInto('plans')
      .values({ ...plan, features: JSON.stringify(plan.features) })
      .onConflict((oc) => oc.column('level').doNothing())
      .execute();
  }
}

/** The plans; the free plan's monthly credits are the runtime setting free_monthly_credits. */
export async function findPlans(db: Db): Promise<Plan[]> {
  const rows = await db.selectFrom('plans').selectAll().orderBy('level').execute();
  const freeCredits = await getSetting({ db }, 'free_monthly_credits');
  return rows.map((r) => ({
    ...r,
    monthly_credits: r.level === FREE_LEVEL ? freeCredits : r.monthly_credits,
    features: JSON.parse(r.features) as string[],
  }));
}

/** The plan of a level; unknown levels read as the nearest plan below (or the free plan). */
export async function getPlan(db: Db, level: number): Promise<Plan> {
  const plans = await findPlans(db);
  return [...plans].reverse().find((p) => p.level <= level) ?? plans[0] ?? DEFAULT_PLANS[0];
}
